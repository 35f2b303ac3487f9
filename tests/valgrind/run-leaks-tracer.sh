#!/bin/sh
# Runs a test program with GStreamer's leaks tracer: fails when it reports
# any GstObject or GstMiniObject still alive when gst_deinit() runs at exit
# (gst-check calls it).  Usage: run-leaks-tracer.sh CORE_TRACERS_DIR PROGRAM
# [ARGS...], CORE_TRACERS_DIR being where libgstcoretracers.so is.
set -u

tracers=$1
shift
if ! [ -e "$tracers/libgstcoretracers.so" ]; then
  echo "no libgstcoretracers.so in $tracers: skipped"
  exit 77
fi

# Only this plugin and the tracers are loaded.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$tracers/libgstcoretracers.so" "$dir/"
log="$dir/log"

GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH_1_0:$dir" GST_TRACERS=leaks \
  GST_DEBUG="${GST_DEBUG:-*:2},GST_TRACER:7" CK_FORK=no "$@" >"$log" 2>&1
status=$?
alive=$(grep -c 'object-alive, type-name=(string)[^%]' "$log")
# The tracer declares its record when it starts: without that line it never
# ran, and no line of leaks would prove nothing.
started=$(grep -c 'gst_tracer_record_build_format.*object-alive\.class' "$log")
# The tracer's own record formats are not leaks.
grep -v 'GST_TRACER .*\(gst_tracer_record_build_format\|gst_tracer_register\)' \
  "$log"
if [ "$started" -eq 0 ]; then
  echo "FAILED: the leaks tracer did not start"
  exit 1
fi
if [ "$status" -ne 0 ] || [ "$alive" -ne 0 ]; then
  echo "FAILED: exit status $status, $alive objects alive at exit"
  exit 1
fi
echo "no objects alive at exit"
