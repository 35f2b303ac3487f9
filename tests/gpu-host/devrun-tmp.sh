set -u
export TEST_TIMEOUT=300
tests/gpu-host/run-versions.sh tests 2>&1 | tail -30
for f in $OUT/test-build-*.log; do grep -E ":F:|:E:|FAIL" $f | head -5; done
for v in gpu:gst 128:gst-1.28; do
  b=build-${v%%:*}; g=${v##*:}
  ( . .gpuhost/$g/env.sh; export GST_PLUGIN_PATH_1_0=$PWD/$b/ext
    echo "== bench $b"
    timeout 100 $b/tests/bench/bench-elements --only "cudagray ! cudaequalize ! cudaotsu, CUDA" 2>&1 | grep "^| cuda"
    timeout 100 $b/tests/bench/bench-elements --only "cudaotsu" 2>&1 | grep "^| cudaotsu" | head -8
    timeout 60 $b/tests/bench/bench-elements --only "seed workflow" 2>&1 | grep "^| seed" )
done
