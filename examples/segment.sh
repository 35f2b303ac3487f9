#!/bin/sh
# The classic segmentation recipe of scikit-image (and cuCIM) as one launch
# line: gray, Gaussian blur, Otsu threshold, erosion with disk(2), labels
# painted in colour.  Writes the coloured labels of the coins image.
#
#   examples/segment.sh [BUILD_DIR] [IMAGE.png] [OUT.png]
#
# Defaults: build, examples/data/coins.png and coins-labels.png.  The
# elements' default, backend=auto, runs on the GPU where a usable CUDA
# device is there and on the CPU otherwise (identical output): the script
# says which.  OUT.png is written only when the run succeeds: a failed run
# prints gst-launch's error and leaves an earlier OUT.png as it was.
# examples/segment.c prints the region table as CSV.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
image=${2:-$top/examples/data/coins.png}
out=${3:-coins-labels.png}
. "$top/examples/launch.sh"
use_plugin "$build" cudalabel

if [ -d "$out" ]; then
  printf '%s\n' "error: $out is a directory: give the file to write" >&2
  exit 2
fi
image_q=$(quote "$image") || exit 2
# Written next to OUT under a temporary name, moved onto it on success.
temp_beside "$out"

# cudalabel posts each frame's region table (-m prints it): keep the count.
# gst-launch's errors go to stderr, as they come.
if ! log=$(gst-launch-1.0 -m filesrc location="$image_q" ! pngdec ! \
    videoconvert ! cudagray ! cudablur sigma=2 ! cudaotsu ! \
    cudamorph operation=erode shape=disk radius=2 ! \
    cudalabel post-messages=true ! \
    videoconvert ! pngenc ! filesink location="$tmp_q"); then
  printf '%s\n' "error: segment.sh failed: $out left as it was" >&2
  exit 1
fi
n=$(printf '%s\n' "$log" |
  sed -n 's/.*(element): cudalabel, .*n-regions=(uint)\([0-9]*\).*/\1/p')
if [ -z "$n" ] || ! [ -s "$tmp" ]; then
  printf '%s\n' "error: no frame came out of $image: $out left as it was" >&2
  exit 1
fi
mv -f "$tmp" "$out"
say_where "$log"
printf '%s\n' "wrote $out: $n regions"
