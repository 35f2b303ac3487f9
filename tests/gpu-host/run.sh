#!/bin/bash
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The GPU parts of the robustness suite, on the GPU host, one step per call
# (each stays under ten minutes, except the soak):
#
#   tests/gpu-host/run.sh cycles      1000 NULL<->PLAYING cycles per element
#   tests/gpu-host/run.sh parallel    16 pipelines at once, against the cpu
#   tests/gpu-host/run.sh faults      injected allocation and launch faults
#                                     (CIP_FAULT: needs a build configured
#                                     with -Dtest-switches=true, skipped
#                                     in any other)
#   tests/gpu-host/run.sh sanitizer [TOOL...] [-- GROUP...]
#                                     compute-sanitizer over each case of
#                                     the kernel tests and a small parallel
#                                     run (memcheck, racecheck, initcheck,
#                                     synccheck) and of the element tests
#                                     on cuda (memcheck, initcheck); GROUP:
#                                     kernels, elements, pipelines or one
#                                     test-* binary
#   tests/gpu-host/run.sh soak [MINUTES]   (10 by default: longer than
#                                     one device call may last; then:)
#   tests/gpu-host/run.sh soak-start [MINUTES]   the soak, detached, into
#                                     $SOAK_DIR (/tmp/gst-cuda-imgproc-soak)
#   tests/gpu-host/run.sh soak-wait   waits (up to 9 minutes) for it to
#                                     end, then prints its tables
#   tests/gpu-host/run.sh all         cycles, parallel, faults, sanitizer
#
# Build: meson setup build-gpu -Dcuda-arch=90 -Dtest-switches=true (the
# test-only switches: without them, faults is skipped).
# Environment: BUILD (the build directory, build-gpu by default), RESULTS
# (where logs and summary.md go: $OUT when set, else $BUILD/gpu-host-results),
# SANITIZER_BUDGET (seconds one sanitizer call may spend, 540 by default:
# what does not fit is reported as not run), SANITIZER_TIMEOUT (seconds per
# run, 300), SANITIZER_JOBS (runs at once, 1), SANITIZER_SKIP (an earlier
# summary.md: the runs it shows clean are not run again).  Exit status: non-zero when
# a step failed.

set -u
cd "$(dirname "$0")/../.."
SRC=$PWD
BUILD=${BUILD:-build-gpu}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
RESULTS=${RESULTS:-${OUT:-$BUILD/gpu-host-results}}
SUMMARY=$RESULTS/summary.md
mkdir -p "$RESULTS"
# Outside the build directory: uploading a new build between soak-start
# and soak-wait must not take the running soak's results with it.
SOAK_DIR=${SOAK_DIR:-/tmp/gst-cuda-imgproc-soak}

# The packed GStreamer runtime, where the host has none.
if ! pkg-config --exists gstreamer-1.0 2>/dev/null &&
    [ -f "$SRC/.gpuhost/gst/env.sh" ] && [ -z "${CIP_GST_ENV:-}" ]; then
  . "$SRC/.gpuhost/gst/env.sh"
  export CIP_GST_ENV=1
fi
export PATH=/usr/local/cuda/bin:$PATH
export CIP_TEST_DATA=$SRC/tests/data
export GST_PLUGIN_PATH_1_0=$BUILD/ext
export GST_REGISTRY_1_0=$RESULTS/registry.bin
unset CIP_FAULT CIP_GPU_HOST_BACKEND

BIN=$BUILD/tests/gpu-host
STATUS=0

note () {
  echo "$*" | tee -a "$SUMMARY"
}

# run_step NAME COMMAND...: runs, logs, copies the program's tables into the
# summary.
run_step () {
  local name=$1 log=$RESULTS/$1.log rc start
  shift
  start=$(date +%s)
  note ""
  note "## $name ($(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1))"
  note ""
  note "\`$*\`"
  note ""
  "$@" >"$log" 2>"$RESULTS/$name.stderr"
  rc=$?
  grep -E '^\||^[0-9]+ pipelines|^[0-9.]+ minutes|^device memory|: (PASS|FAIL)$' \
    "$log" | tee -a "$SUMMARY"
  note ""
  case $rc in
    0) note "$name: passed in $(( $(date +%s) - start )) s" ;;
    # The program's reason: "no usable CUDA device", or a build
    # configured without -Dtest-switches=true.
    77) note "$name: SKIPPED ($(grep -h -m 1 ': skipped$' "$log" |
          sed 's/: skipped$//'))"; STATUS=1 ;;
    *) note "$name: FAILED (exit $rc), see $log and $RESULTS/$name.stderr"
       STATUS=1 ;;
  esac
}

# One compute-sanitizer run, as a row of the table:
#   sanitize_one TOOL NAME "VAR=VALUE ..." COMMAND...
# The time limit is what is left of the budget, at most SANITIZER_TIMEOUT.
sanitize_one () {
  local tool=$1 name=$2 vars=$3 log rc errors now limit extra=()
  shift 3
  log=$RESULTS/sanitizer-$tool-$(echo "$name" | tr '/:' '__').log
  now=$(date +%s)
  limit=$(( SANITIZER_DEADLINE - now ))
  [ "$limit" -gt "${SANITIZER_TIMEOUT:-300}" ] && limit=${SANITIZER_TIMEOUT:-300}
  if [ "$limit" -lt 10 ]; then
    echo "| $tool | $name | - | not run (budget spent) |"
    return
  fi
  case $tool in
    memcheck) extra=(--leak-check full) ;;
    racecheck) extra=(--racecheck-report hazard) ;;
  esac
  # gst-check runs each test in a fork: not under the sanitizer.
  # shellcheck disable=SC2086
  # The registry was built before, without the sanitizer: no run scans
  # the plugins under it.
  env CIP_TEST_BACKEND=cuda CK_FORK=no GST_REGISTRY_FORK=no \
    GST_REGISTRY_UPDATE=no CK_DEFAULT_TIMEOUT=600 \
    CIP_TEST_MAX_PIXELS=1000000 $vars \
    timeout -k 30 "$limit" compute-sanitizer --tool "$tool" \
    --error-exitcode 99 --target-processes all "${extra[@]}" "$@" \
    >"$log" 2>&1
  rc=$?
  # The summary's count, or the reports so far when it was cut short.
  # racecheck ends with "RACECHECK SUMMARY: N hazards displayed".
  errors=$(grep -hoE '(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard)' "$log" |
    grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }')
  if ! grep -qE '(ERROR|RACECHECK) SUMMARY' "$log"; then
    errors=$(grep -ciE '^=========[[:space:]]+(error|warning|invalid|uninitialized|barrier|leaked|program hit|race |potential)' "$log")
  fi
  case $rc in
    0) echo "| $tool | $name | $errors | ok |" ;;
    77) echo "| $tool | $name | - | skipped (no device) |" ;;
    124) echo "| $tool | $name | $errors so far | TIMED OUT |" ;;
    99) echo "| $tool | $name | $errors | ERRORS, see $(basename "$log") |" ;;
    *) echo "| $tool | $name | $errors | FAILED (exit $rc), see $(basename "$log") |" ;;
  esac
}

# sanitizer [TOOL...] [-- GROUP...]: a run per tool and test case (GLib
# test paths of the kernel tests, test functions of the element tests),
# SANITIZER_JOBS of them at once; images over a megapixel are left out of
# the kernel tests (CIP_TEST_MAX_PIXELS).
sanitizer () {
  local tools=() element_tools=() groups=() tool group b path fn jobs rows
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do tools+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  groups=("$@")
  # racecheck and synccheck look at shared memory and barriers, which the
  # kernel tests cover; the element tests add host paths: memcheck and
  # initcheck, unless tools are named.
  if [ ${#tools[@]} -eq 0 ]; then
    tools=(memcheck racecheck initcheck synccheck)
    element_tools=(memcheck initcheck)
  else
    element_tools=("${tools[@]}")
  fi
  [ ${#groups[@]} -eq 0 ] && groups=(kernels pipelines elements)
  export SANITIZER_DEADLINE=$(( $(date +%s) + ${SANITIZER_BUDGET:-540} ))
  export RESULTS SANITIZER_TIMEOUT
  export -f sanitize_one

  # Jobs, one per line: TOOL<tab>NAME<tab>VARS<tab>COMMAND.
  jobs=$RESULTS/sanitizer-jobs.txt
  listing=$RESULTS/sanitizer-listing.txt
  : >"$jobs"
  : >"$listing"
  add_cases () {
    # add_cases BINARY: its cases, each under every tool.
    local b=$1 name cases source
    name=$(basename "$b")
    case $name in
      test-kernels*)
        # Listing runs the test's set-up, which needs the device.
        cases=$("$b" -l 2>/dev/null | grep '^/') ||
          echo "| - | $name | - | could not list its cases (no device?) |" >>"$listing"
        for path in $cases; do
          for tool in "${tools[@]}"; do
            printf '%s\t%s\t\t%s -p %s\n' "$tool" "$name$path" "$b" "$path"
          done
        done ;;
      test-*)
        source=$SRC/tests/elements/${name#test-}.c
        [ -f "$source" ] ||
          echo "| - | $name | - | no element test source for it |" >>"$listing"
        cases=$(grep -oE 'GST_START_TEST \([a-z_0-9]+' "$source" 2>/dev/null |
          sed 's/.*(//')
        for fn in $cases; do
          for tool in "${element_tools[@]}"; do
            printf '%s\t%s\t%s\t%s\n' "$tool" "$name:$fn" "GST_CHECKS=$fn" "$b"
          done
        done ;;
    esac >>"$jobs"
  }
  for group in "${groups[@]}"; do
    case $group in
      kernels)
        for b in "$BUILD"/tests/test-kernels "$BUILD"/tests/test-kernels-*; do
          [ -x "$b" ] && [ -f "$b" ] && add_cases "$b"
        done ;;
      elements)
        for b in "$BUILD"/tests/test-cuda*; do
          [ -x "$b" ] && [ -f "$b" ] && add_cases "$b"
        done ;;
      pipelines)
        for tool in "${tools[@]}"; do
          printf '%s\t%s\t\t%s\n' "$tool" test-gpu-parallel \
            "$BIN/test-gpu-parallel --pipelines 4 --frames 8" >>"$jobs"
        done ;;
      test-*)
        add_cases "$BUILD/tests/$group" ;;
      *)
        echo "sanitizer: no group $group (kernels, elements, pipelines," \
          "test-NAME)" >&2
        STATUS=1 ;;
    esac
  done

  # Runs that an earlier summary (SANITIZER_SKIP) shows clean are left out.
  if [ -n "${SANITIZER_SKIP:-}" ]; then
    sed -n 's/^| \([a-z]*\) | \([^ ]*\) | [0-9]* | ok |$/\1\t\2/p' \
      "$SANITIZER_SKIP" >"$RESULTS/sanitizer-skip.txt"
    awk -F'\t' 'NR == FNR { done[$1 FS $2] = 1; next }
      !(($1 FS $2) in done)' "$RESULTS/sanitizer-skip.txt" "$jobs" \
      >"$jobs.left"
    note "left out, clean in $SANITIZER_SKIP: $(( $(wc -l <"$jobs") -
      $(wc -l <"$jobs.left") )) runs"
    mv "$jobs.left" "$jobs"
  fi

  # One registry for every run, made here without the sanitizer.
  export GST_REGISTRY_1_0=$RESULTS/registry-sanitizer.bin
  rm -f "$GST_REGISTRY_1_0"
  CIP_TEST_BACKEND=cpu GST_CHECKS=none "$BUILD/tests/test-cudagray" \
    >/dev/null 2>&1

  note ""
  note "## compute-sanitizer ($(compute-sanitizer --version | tail -1))"
  note ""
  note "$(wc -l <"$jobs") runs, ${SANITIZER_JOBS:-1} at once, within ${SANITIZER_BUDGET:-540} s"
  note ""
  note "| tool | test | errors | result |"
  note "|---|---|---|---|"
  rows=$RESULTS/sanitizer-rows.txt
  cp "$listing" "$rows"
  # Fields split at 0x1f, not at tabs: an empty VARS field stays a field.
  # shellcheck disable=SC2016
  tr '\t' '\037' <"$jobs" | xargs -d '\n' -P "${SANITIZER_JOBS:-1}" -I{} \
    bash -c 'IFS=$'"'"'\037'"'"' read -r t n v c <<<"$1"; sanitize_one "$t" "$n" "$v" $c' _ {} \
    >>"$rows"
  sort "$rows" | tee -a "$SUMMARY"
  if [ ! -s "$jobs" ] || grep -qvE '\| ok \|$' "$rows"; then
    STATUS=1
  fi
  note ""
  note "sanitizer: $(grep -c '| ok |$' "$rows") of $(wc -l <"$jobs") runs clean"
}

step=${1:-all}
[ $# -gt 0 ] && shift
if [ ! -x "$BIN/test-gpu-cycles" ]; then
  echo "no $BIN/test-gpu-cycles: build first (meson setup $BUILD -Dcuda-arch=90 -Dtest-switches=true)" >&2
  exit 2
fi

case $step in
  cycles) run_step cycles "$BIN/test-gpu-cycles" "$@" ;;
  parallel) run_step parallel "$BIN/test-gpu-parallel" "$@" ;;
  faults) run_step faults "$BIN/test-gpu-faults" "$@" ;;
  sanitizer) sanitizer "$@" ;;
  soak)
    # soak-wait watches this process.
    mkdir -p "$SOAK_DIR" && echo $$ >"$SOAK_DIR/soak.pid"
    run_step soak "$BIN/test-gpu-soak" --minutes "${1:-10}" ;;
  soak-start)
    # An earlier soak's results must not answer soak-wait.
    mkdir -p "$SOAK_DIR"
    rm -f "$SOAK_DIR"/soak* "$SOAK_DIR/summary.md"
    RESULTS=$SOAK_DIR nohup setsid "$0" soak "${1:-10}" \
      >"$SOAK_DIR/soak.nohup" 2>&1 </dev/null &
    echo "soak started; tests/gpu-host/run.sh soak-wait for its result"
    exit 0 ;;
  soak-wait)
    log=$SOAK_DIR/soak.log
    # Until the soak's process is gone (its pid appears within seconds of
    # soak-start).
    for second in $(seq 540); do
      pid=$(cat "$SOAK_DIR/soak.pid" 2>/dev/null)
      if [ -z "$pid" ]; then
        [ "$second" -gt 10 ] && break
      elif ! kill -0 "$pid" 2>/dev/null; then
        break
      fi
      sleep 1
    done
    cat "$SOAK_DIR/soak.nohup" 2>/dev/null || echo "no soak in $SOAK_DIR"
    cp "$SOAK_DIR"/soak* "$RESULTS"/ 2>/dev/null
    cp "$SOAK_DIR/summary.md" "$RESULTS/soak-summary.md" 2>/dev/null
    grep -qE '^soak: PASS$' "$log" 2>/dev/null
    exit $? ;;
  all)
    run_step cycles "$BIN/test-gpu-cycles"
    run_step parallel "$BIN/test-gpu-parallel"
    run_step faults "$BIN/test-gpu-faults"
    sanitizer ;;
  *) sed -n '5,39p' "$0" >&2; exit 2 ;;
esac
note ""
note "summary: $SUMMARY"
exit $STATUS
