set -u
rm -rf build-gpu build-128
for f in .gpuhost/carry/build-128.tgz .gpuhost/carry/gst-1.28.tgz; do case $f in */gst*) tar xzf $f -C .gpuhost ;; *) tar xzf $f ;; esac; done
P=.gpuhost/prof
( . .gpuhost/gst-1.28/env.sh; export GST_PLUGIN_PATH_1_0=$PWD/build-128/ext
  b=build-128
  PROF_OUT=/tmp/prof.txt LD_PRELOAD=$PWD/$P/libprof.so $b/tests/bench/bench-elements --only "seed workflow, messages on, cell" | grep "^| [^p-]"
  python3 $P/resolve.py /tmp/prof.txt.* > $OUT/prof.txt; head -120 $OUT/prof.txt
)
