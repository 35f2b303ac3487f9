#!/bin/sh
# Runs real images through each element of the cudaimgproc plugin and
# writes the results as PNG files.
#
#   examples/demo.sh [BUILD_DIR] [OUT_DIR] [DATA_DIR]
#
# BUILD_DIR is a meson build directory of this project (default: build);
# OUT_DIR receives the PNG files (default: demo-out); DATA_DIR holds the
# images, chelsea.png, moon.png, phantom.png and coins.png (default:
# examples/data).  The elements' default, backend=auto, runs on the GPU
# where a usable CUDA device is there and on the CPU otherwise (identical
# output): the demo says which.  Each file is written only when its run
# succeeds: a failed run prints gst-launch's error, stops the demo and
# leaves the earlier file as it was.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
out=${2:-demo-out}
data=${3:-$top/examples/data}

. "$top/examples/launch.sh"
use_plugin "$build" cudagray
mkdir -p "$out"

# run NAME IMAGE ELEMENT...: DATA_DIR/IMAGE decoded, through the elements
# (launch-line words), into OUT_DIR/NAME.png, written next to it under a
# temporary name and moved onto it on success; an error (gst-launch's, on
# stderr), or no frame, stops the demo.
run () {
  name=$1; image=$2; shift 2
  image_q=$(quote "$data/$image") || exit 2
  temp_beside "$out/$name.png"
  if ! log=$(gst-launch-1.0 filesrc location="$image_q" ! pngdec ! \
      videoconvert ! "$@" ! videoconvert ! pngenc ! \
      filesink location="$tmp_q") || ! [ -s "$tmp" ]; then
    printf '%s\n' "error: $name: no frame came out of $data/$image: $out/$name.png left as it was" >&2
    exit 1
  fi
  mv -f "$tmp" "$out/$name.png"
  say_where "$log"
  printf '%s\n' "  wrote $out/$name.png"
}

run chelsea-gray chelsea.png video/x-raw,format=RGBA ! cudagray
run chelsea-gray-luminosity chelsea.png video/x-raw,format=RGBA ! \
  cudagray method=luminosity
run moon-equalize moon.png video/x-raw,format=GRAY8 ! cudaequalize
run phantom-mask phantom.png video/x-raw,format=GRAY8 ! cudamask
run coins-otsu coins.png video/x-raw,format=GRAY8 ! cudaotsu
# The four chained: gray, equalize, Otsu, then the background as a mask.
run chelsea-chain chelsea.png video/x-raw,format=RGBA ! \
  cudagray ! cudaequalize ! cudaotsu ! cudamask invert=true

# The Otsu threshold of each frame, as the element posts it on the bus.
coins_q=$(quote "$data/coins.png") || exit 2
if ! log=$(gst-launch-1.0 -m filesrc location="$coins_q" ! pngdec ! \
    videoconvert ! video/x-raw,format=GRAY8 ! \
    cudaotsu post-messages=true ! fakesink); then
  echo "error: the Otsu threshold of coins.png: gst-launch-1.0 failed" >&2
  exit 1
fi
threshold=$(printf '%s\n' "$log" |
  sed -n 's/.*(element): cudaotsu, .*threshold=(uint)\([0-9]*\).*/\1/p')
if [ -z "$threshold" ]; then
  echo "error: cudaotsu posted no threshold" >&2
  exit 1
fi
echo "  coins: Otsu threshold $threshold (OpenCV: 107)"

# The segmentation workflow: blur, Otsu, erosion by disk(2), labels in
# scikit-image's label2rgb colours; its region table as CSV, the columns
# regionprops_table names.
run_segment () {
  name=$1; shift
  run "$name" coins.png video/x-raw,format=RGBA ! \
    cudagray ! cudablur sigma=2 ! cudaotsu ! \
    cudamorph operation=erode shape=disk radius=2 ! \
    cudalabel \
    properties=label,area,bbox,centroid,intensity_mean,perimeter,eccentricity \
    "$@"
}
run_segment coins-labels
if /usr/bin/python3 -c 'import gi, pandas' 2>/dev/null; then
  # regionprops.py, too, writes the CSV only when it succeeds.
  /usr/bin/python3 "$top/examples/regionprops.py" \
    "$data/coins.png" "$out/coins-regionprops.csv"
  printf '%s\n' "  wrote $out/coins-regionprops.csv ($(($(wc -l < "$out/coins-regionprops.csv") - 1)) regions)"
fi
# GStreamer 1.24+: the regions' boxes, drawn by GStreamer's own
# objectdetectionoverlay from the analytics meta cudalabel attaches.
if gst-inspect-1.0 --exists objectdetectionoverlay; then
  run_segment coins-boxes ! videoconvert ! \
    objectdetectionoverlay draw-labels=false
fi
