set -u
rm -rf build-gpu build-128
for f in .gpuhost/carry/*.tgz; do case $f in */gst*) tar xzf $f -C .gpuhost ;; *) tar xzf $f ;; esac; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in gpu:gst 128:gst-1.28; do
  b=build-${v%%:*}; g=${v##*:}
  ( . .gpuhost/$g/env.sh; gst-inspect-1.0 --version | head -1
    timeout 290 meson test -C $b --no-rebuild --num-processes 8 --print-errorlogs --suite cuda > $OUT/test-$b.log 2>&1 )
  echo "== $b"; grep -E "^ *[0-9]+/|^(Ok|Fail|Skipped|Timeout)" $OUT/test-$b.log | grep -v " OK "
  grep -c " OK " $OUT/test-$b.log
done
