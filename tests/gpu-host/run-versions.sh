#!/bin/bash
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# On the GPU host: unpacks what pack-carry.sh packed, then runs, against
# each GStreamer, the CUDA suite (tests), the launch-line tests and the
# benchmark rows of the versions report (pipelines), the benchmark rows
# alone (bench), or all; or, on 1.28 alone, the many-streams table with
# the floors and GPU-time limits it is set against (streams; STREAMS: the
# pipeline counts, default 1,2,4,8,16).  Usage, from the top of the tree:
#   tests/gpu-host/run-versions.sh tests|pipelines|bench|all|streams
# CONFIGS: BUILD-SUFFIX:RUNTIME:[sync] triples (default: Debian's 1.22 in
# build-gpu, 1.28 in build-128, and 1.28 with CIP_SYNC_HANDOVER=1, which
# only a build configured with -Dtest-switches=true reads: a sync config
# of any other build is skipped, saying so);
# the NVDEC rows need .gpuhost/carry/clip-1080p.h264 (a 1080p H.264 byte
# stream).  Logs go to $OUT.
set -u
step=$1
rm -rf build-gpu build-128
for f in .gpuhost/carry/*.tgz; do
  case $f in */gst*) tar xzf $f -C .gpuhost ;; *) tar xzf $f ;; esac
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
configs=${CONFIGS:-"gpu:gst: 128:gst-1.28: 128:gst-1.28:sync"}
if [ "$step" = tests ] || [ "$step" = pipelines ] || [ "$step" = all ]; then
  names=
  [ "$step" = pipelines ] && names="pipelines"
  for v in gpu:gst 128:gst-1.28; do
    b=build-${v%%:*}; g=${v##*:}
    ( . .gpuhost/$g/env.sh; gst-inspect-1.0 --version | head -1;
      if [ -n "$names" ]; then
        set -- "pipelines (cuda)" "pipelines device (cuda)" "pipelines nvcodec (cuda)" \
          "pipelines convertscale (cuda)" "pipelines nvjpeg (cuda)" "pipelines nvdec (cuda)"
      else set -- --suite cuda; fi
      timeout ${TEST_TIMEOUT:-250} meson test -C $b --no-rebuild --num-processes 8 \
        --print-errorlogs "$@" > $OUT/test-$b.log 2>&1 )
    echo "== $b"; grep -E "^ *[0-9]+/|^(Ok|Fail|Skipped|Timeout)" $OUT/test-$b.log | grep -v " OK "
  done
fi
if [ "$step" = bench ] || [ "$step" = pipelines ] || [ "$step" = all ]; then
  for c in $configs; do
    b=build-${c%%:*}; rest=${c#*:}; g=${rest%%:*}; sync=${rest#*:}
    ( . .gpuhost/$g/env.sh; export GST_PLUGIN_PATH_1_0=$PWD/$b/ext
      [ -n "$sync" ] && export CIP_SYNC_HANDOVER=1
      v=$(gst-inspect-1.0 --version | sed -n 's/GStreamer //p' | head -1)
      echo "## GStreamer $v ${sync:+(CIP_SYNC_HANDOVER=1)}"
      # The build's CIP_TEST_SWITCHES (made by meson): without the test
      # switches its plugin ignores CIP_SYNC_HANDOVER, and these rows
      # would measure the stream hand-over under the synchronized label.
      CIP_TEST_SWITCHES=0
      [ -f $b/tests/gpu-host/build-config.sh ] && . $b/tests/gpu-host/build-config.sh
      if [ -n "$sync" ] && [ "$CIP_TEST_SWITCHES" != 1 ]; then
        echo "skipped: $b was configured without -Dtest-switches=true, so its plugin does not read CIP_SYNC_HANDOVER"
        exit 0
      fi
      i=0
      for o in nvcodec nvh264dec "cudagray ! cudaequalize ! cudaotsu, CUDA memory" "cudagray, system memory"; do
        i=$((i+1))
        $b/tests/bench/bench-elements --clip .gpuhost/carry/clip-1080p.h264 --only "$o" 2>&1 | grep -v "^|---\|^| pipeline"
      done ) | tee -a $OUT/bench.md
  done
fi
if [ "$step" = sanitize ]; then
  ( . .gpuhost/gst-1.28/env.sh; export CIP_GST_ENV=1 BUILD=build-128 SANITIZER_BUDGET=${SANITIZER_BUDGET:-420} RESULTS=$OUT/san
    tests/gpu-host/run.sh sanitizer memcheck synccheck -- test-pipelines > $OUT/sanitizer.log 2>&1; echo "exit $?" )
  tail -30 $OUT/san/summary.md
fi
if [ "$step" = streams ]; then
  # where the GPU sits against the CPUs and their memory: page-locked
  # frames on a far NUMA node cross the socket link on every copy
  { nvidia-smi topo -m; lscpu | grep -i -E "numa|socket|model name"
    command -v numactl > /dev/null && numactl --hardware; } \
    > $OUT/topology.txt 2>&1
  ( . .gpuhost/gst-1.28/env.sh; export GST_PLUGIN_PATH_1_0=$PWD/build-128/ext
    build-128/tests/bench/bench-kernels --chains --csv $OUT/chains.csv > $OUT/chains.md 2>&1
    grep -E "^\| (1080p|cudagray)" $OUT/chains.md
    build-128/tests/bench/bench-elements --streams ${STREAMS:-1,2,4,8,16} \
      ${CLIP:+--clip "$CLIP"} --csv $OUT/streams.csv 2>&1 | tee $OUT/streams.md )
fi
