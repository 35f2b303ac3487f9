#!/bin/sh
# Runs the whole benchmark on a GPU machine and writes the report.
#
#   tests/bench/run-benchmarks.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR: a meson build directory of this project (default build); for
# the NPP columns it must have been configured where NPP is installed
# (-Dnpp=enabled).  OUT_DIR: where the CSV files, device.txt and the report
# go (default docs/performance, which holds analysis.md).  CLIP: an H.264
# byte stream (1080p) for the decoded streams of the multi-stream table.
set -eu
build=${1:-build}
out=${2:-docs/performance}
here=$(cd "$(dirname "$0")" && pwd)

export GST_PLUGIN_PATH_1_0="$build/ext"
"$build/tests/bench/bench-kernels" --csv "$out/kernels.csv"
"$build/tests/bench/bench-kernels" --chains --csv "$out/chains.csv"
"$build/tests/bench/bench-elements" --csv "$out/elements.csv"
"$build/tests/bench/bench-elements" --streams 1,2,4,8,16 \
  ${CLIP:+--clip "$CLIP"} --csv "$out/streams.csv"
# On a machine of two GPUs or more, the same table spread over two: its
# rows (", 2 GPUs") join the table and the plot.  (The bench skips, 77,
# where CUDA sees fewer, as under CUDA_VISIBLE_DEVICES.)
if [ "$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)" -ge 2 ]
then
  status=0
  "$build/tests/bench/bench-elements" --streams 1,2,4,8,16 --devices 0,1 \
    --csv "$out/streams-2gpus.csv" || status=$?
  if [ "$status" -eq 0 ]; then
    tail -n +2 "$out/streams-2gpus.csv" >> "$out/streams.csv"
  elif [ "$status" -ne 77 ]; then
    exit "$status"
  fi
  rm -f "$out/streams-2gpus.csv"
fi

{
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
  echo "cuda: $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')"
  echo "gstreamer: $(gst-inspect-1.0 --version | sed -n 's/GStreamer //p' | head -n 1)"
  echo "date: $(date -u +%Y-%m-%d)"
} > "$out/device.txt"

python3 "$here/report.py" "$out"
python3 "$here/plot-streams.py" "$out/streams.csv" "$out/streams.png" \
  "$out/chains.csv" || true
echo "report: $out/README.md"
