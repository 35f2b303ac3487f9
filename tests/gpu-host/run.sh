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
#   tests/gpu-host/run.sh sanitizer [TOOL...] [-- GROUP...]
#                                     compute-sanitizer memcheck, racecheck,
#                                     initcheck, synccheck over the kernel
#                                     tests, the element tests (cuda) and a
#                                     small parallel run (GROUP: kernels,
#                                     elements, pipelines or one test-*)
#   tests/gpu-host/run.sh soak [MINUTES]   (10 by default: longer than
#                                     one device call may last; then:)
#   tests/gpu-host/run.sh soak-start [MINUTES]   the soak, detached, into
#                                     $SOAK_DIR (/tmp/gst-cuda-imgproc-soak)
#   tests/gpu-host/run.sh soak-wait   waits (up to 9 minutes) for it, then
#                                     prints its tables
#   tests/gpu-host/run.sh all         cycles, parallel, faults, sanitizer
#
# Environment: BUILD (the build directory, build-gpu by default), RESULTS
# (where logs and summary.md go: $OUT when set, else $BUILD/gpu-host-results),
# SANITIZER_BUDGET (seconds one sanitizer call may spend, 540 by default:
# what does not fit is reported as not run), SANITIZER_TIMEOUT (seconds per
# binary, 300).  Exit status: non-zero when a step failed.

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
    77) note "$name: SKIPPED (no usable CUDA device)"; STATUS=1 ;;
    *) note "$name: FAILED (exit $rc), see $log and $RESULTS/$name.stderr"
       STATUS=1 ;;
  esac
}

sanitizer () {
  local tools=() groups=() budget=${SANITIZER_BUDGET:-540}
  local per_binary=${SANITIZER_TIMEOUT:-300} deadline tool group
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do tools+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  groups=("$@")
  [ ${#tools[@]} -eq 0 ] && tools=(memcheck racecheck initcheck synccheck)
  [ ${#groups[@]} -eq 0 ] && groups=(elements pipelines kernels)
  deadline=$(( $(date +%s) + budget ))

  note ""
  note "## compute-sanitizer ($(compute-sanitizer --version | tail -1))"
  note ""
  note "| tool | binary | errors | result |"
  note "|---|---|---|---|"
  for tool in "${tools[@]}"; do
    local extra=()
    case $tool in
      memcheck) extra=(--leak-check full) ;;
      racecheck) extra=(--racecheck-report hazard) ;;
    esac
    for group in "${groups[@]}"; do
      local targets=()
      case $group in
        kernels)
          for b in "$BUILD"/tests/test-kernels "$BUILD"/tests/test-kernels-*; do
            [ -x "$b" ] && [ -f "$b" ] && targets+=("$b")
          done ;;
        elements)
          for b in "$BUILD"/tests/test-cuda*; do
            [ -x "$b" ] && [ -f "$b" ] && targets+=("$b")
          done ;;
        pipelines)
          targets=("$BIN/test-gpu-parallel --pipelines 4 --frames 8") ;;
        test-*)
          targets=("$BUILD/tests/$group") ;;
      esac
      for target in "${targets[@]}"; do
        local name log rc errors now
        name=$(basename "${target%% *}")
        log=$RESULTS/sanitizer-$tool-$name.log
        now=$(date +%s)
        if [ "$now" -ge "$deadline" ]; then
          note "| $tool | $name | - | not run (budget spent) |"
          continue
        fi
        # gst-check runs each test in a fork: not under the sanitizer.
        # shellcheck disable=SC2086
        CIP_TEST_BACKEND=cuda CK_FORK=no GST_REGISTRY_FORK=no \
          CK_DEFAULT_TIMEOUT=600 \
          GST_REGISTRY_1_0=$RESULTS/registry-sanitizer.bin \
          timeout $(( per_binary < deadline - now ? per_binary : deadline - now )) \
          compute-sanitizer --tool "$tool" --error-exitcode 99 \
          --target-processes all "${extra[@]}" $target >"$log" 2>&1
        rc=$?
        errors=$(grep -hoE '(ERROR SUMMARY: [0-9]+ error|\([0-9]+ errors)' "$log" |
          grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }')
        case $rc in
          0) note "| $tool | $name | $errors | ok |" ;;
          77) note "| $tool | $name | - | skipped (no device) |"; STATUS=1 ;;
          124) note "| $tool | $name | $errors so far | TIMED OUT |"; STATUS=1 ;;
          99) note "| $tool | $name | $errors | ERRORS, see $(basename "$log") |"
              STATUS=1 ;;
          *) note "| $tool | $name | $errors | FAILED (exit $rc), see $(basename "$log") |"
             STATUS=1 ;;
        esac
      done
    done
  done
}

step=${1:-all}
[ $# -gt 0 ] && shift
if [ ! -x "$BIN/test-gpu-cycles" ]; then
  echo "no $BIN/test-gpu-cycles: build first (meson setup $BUILD -Dcuda-arch=90)" >&2
  exit 2
fi

case $step in
  cycles) run_step cycles "$BIN/test-gpu-cycles" "$@" ;;
  parallel) run_step parallel "$BIN/test-gpu-parallel" "$@" ;;
  faults) run_step faults "$BIN/test-gpu-faults" "$@" ;;
  sanitizer) sanitizer "$@" ;;
  soak) run_step soak "$BIN/test-gpu-soak" --minutes "${1:-10}" ;;
  soak-start)
    mkdir -p "$SOAK_DIR"
    RESULTS=$SOAK_DIR nohup setsid "$0" soak "${1:-10}" \
      >"$SOAK_DIR/soak.nohup" 2>&1 </dev/null &
    echo "soak started (pid $!); tests/gpu-host/run.sh soak-wait for its result"
    exit 0 ;;
  soak-wait)
    log=$SOAK_DIR/soak.log
    for _ in $(seq 540); do
      grep -qE '^soak: (PASS|FAIL)$' "$log" 2>/dev/null && break
      [ -f "$SOAK_DIR/soak.nohup" ] || break
      sleep 1
    done
    cat "$SOAK_DIR/soak.nohup" 2>/dev/null || echo "no soak in $SOAK_DIR"
    cp "$SOAK_DIR"/soak* "$SOAK_DIR/summary.md" "$RESULTS"/ 2>/dev/null
    grep -qE '^soak: PASS$' "$log" 2>/dev/null
    exit $? ;;
  all)
    run_step cycles "$BIN/test-gpu-cycles"
    run_step parallel "$BIN/test-gpu-parallel"
    run_step faults "$BIN/test-gpu-faults"
    sanitizer ;;
  *) sed -n '5,30p' "$0" >&2; exit 2 ;;
esac
note ""
note "summary: $SUMMARY"
exit $STATUS
