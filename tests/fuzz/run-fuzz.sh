#!/bin/sh
# run-fuzz.sh FUZZER SEEDS WORKDIR: runs the libFuzzer target over the
# seed corpus, then on new inputs for CIP_FUZZ_SECONDS seconds (60 by
# default).  New inputs go to WORKDIR/corpus, the input of a crash or a
# broken contract to WORKDIR/artifacts; the exit status is not 0 then.
# Replay one with: FUZZER WORKDIR/artifacts/crash-...
set -eu
fuzzer=$1
seeds=$2
work=$3
mkdir -p "$work/corpus" "$work/artifacts"
# libFuzzer's own failure status, 77, would read as "skipped" to meson.
exec "$fuzzer" -max_total_time="${CIP_FUZZ_SECONDS:-60}" -timeout=10 \
  -error_exitcode=1 -timeout_exitcode=1 \
  -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds"
