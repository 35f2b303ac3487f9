#!/bin/sh
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Packs what the GPU host needs to run the suite against two GStreamer
# versions into .gpuhost/carry (under the 64 MiB a device call carries):
# each build directory slimmed and compressed, each packed runtime
# compressed.  Usage: pack-carry.sh BUILD:RUNTIME...  e.g.
#   tests/gpu-host/pack-carry.sh build-gpu:gst build-128:gst-1.28
# (RUNTIME: a folder of .gpuhost made by ../shared/gpu-host/pack-gstreamer.sh
# or pack-gstreamer-prefix.sh).  There, run-versions.sh unpacks and runs.
# Configure each build with the test-only switches, which the synchronized
# hand-over rows need (CIP_SYNC_HANDOVER), e.g.
#   meson setup build-128 -Dcuda-arch=90 -Dtest-switches=true
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .gpuhost/carry
for pair in "$@"; do
  build=${pair%%:*}; runtime=${pair#*:}
  grep -qx 'CIP_TEST_SWITCHES=1' "$build/tests/gpu-host/build-config.sh" \
      2>/dev/null ||
    echo "warning: $build was not configured with -Dtest-switches=true:" \
      "run-versions.sh skips its CIP_SYNC_HANDOVER rows" >&2
  tests/gpu-host/slim-build.sh "$build" >/dev/null
  tar czf ".gpuhost/carry/$build.tgz" "$build"
  tar czf ".gpuhost/carry/$runtime.tgz" -C .gpuhost "$runtime"
done
du -sh --apparent-size .gpuhost/carry
