#!/bin/sh
# The classic segmentation recipe of scikit-image (and cuCIM) as one launch
# line: gray, Gaussian blur, Otsu threshold, erosion with disk(2), labels
# painted in colour.  Writes the coloured labels of the coins image.
#
#   examples/segment.sh [BUILD_DIR] [IMAGE.png] [OUT.png]
#
# Defaults: build, examples/data/coins.png and coins-labels.png.  Without
# a usable CUDA device it says so and runs backend=cpu, whose output is
# identical.  examples/segment.c prints the region table as CSV.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
image=${2:-$top/examples/data/coins.png}
out=${3:-coins-labels.png}
export GST_PLUGIN_PATH="$build/ext${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

if ! gst-inspect-1.0 cudalabel >/dev/null 2>&1; then
  echo "cudaimgproc plugin not found in $build/ext: build it first (meson compile -C $build)" >&2
  exit 1
fi

# One tiny frame tells whether the GPU path can start here.
if gst-launch-1.0 -q videotestsrc num-buffers=1 ! cudagray backend=cuda ! fakesink \
    >/dev/null 2>&1; then
  b=cuda
else
  b=cpu
  echo "NOTICE: no usable CUDA device or driver here; running backend=cpu"
  echo "        (the reference implementation: identical output, slower)."
fi

# cudalabel posts each frame's region table (-m prints it): keep the count.
log=$(gst-launch-1.0 -m filesrc location="$image" ! pngdec ! videoconvert ! \
  cudagray backend=$b ! cudablur backend=$b sigma=2 ! cudaotsu backend=$b ! \
  cudamorph backend=$b operation=erode shape=disk radius=2 ! \
  cudalabel backend=$b post-messages=true ! \
  videoconvert ! pngenc ! filesink location="$out" 2>&1) || {
  echo "$log" >&2
  exit 1
}
n=$(echo "$log" |
  sed -n 's/.*(element): cudalabel, .*n-regions=(uint)\([0-9]*\).*/\1/p')
if [ -z "$n" ] || ! [ -s "$out" ]; then
  rm -f "$out"
  echo "error: no frame came out of $image" >&2
  exit 1
fi
echo "wrote $out: $n regions (backend=$b)"
