#!/bin/sh
# Runs real images through each element of the cudaimgproc plugin and
# writes the results as PNG files.
#
#   examples/demo.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR is a meson build directory of this project (default: build);
# OUT_DIR receives the PNG files (default: demo-out).  Without a usable
# CUDA device the demo says so and runs backend=cpu, whose output is
# identical.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
out=${2:-demo-out}
data=$top/examples/data

export GST_PLUGIN_PATH="$build/ext${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
mkdir -p "$out"

if ! gst-inspect-1.0 cudagray >/dev/null 2>&1; then
  echo "cudaimgproc plugin not found in $build/ext: build it first (meson compile -C $build)" >&2
  exit 1
fi

# One tiny frame tells whether the GPU path can start here.
if gst-launch-1.0 -q videotestsrc num-buffers=1 ! cudagray backend=cuda ! fakesink \
    >/dev/null 2>&1; then
  backend=cuda
  echo "Running on the GPU (backend=cuda)."
else
  backend=cpu
  echo "NOTICE: no usable CUDA device or driver here; running backend=cpu"
  echo "        (the reference implementation: identical output, slower)."
fi

# run NAME IMAGE ELEMENT...: examples/data/IMAGE decoded, through the
# elements (launch-line words), into NAME.png; an error, or no frame, stops
# the demo.
run () {
  name=$1; image=$2; shift 2
  partial="$out/.$name.png"
  rm -f "$partial"
  if ! gst-launch-1.0 -q filesrc location="$data/$image" ! pngdec ! \
      videoconvert ! "$@" ! videoconvert ! pngenc ! \
      filesink location="$partial" || ! [ -s "$partial" ]; then
    rm -f "$partial"
    echo "error: $name: no frame came out of $image" >&2
    exit 1
  fi
  mv "$partial" "$out/$name.png"
  echo "  wrote $out/$name.png"
}

run chelsea-gray chelsea.png video/x-raw,format=RGBA ! \
  cudagray backend=$backend
run chelsea-gray-luminosity chelsea.png video/x-raw,format=RGBA ! \
  cudagray backend=$backend method=luminosity
run moon-equalize moon.png video/x-raw,format=GRAY8 ! \
  cudaequalize backend=$backend
run phantom-mask phantom.png video/x-raw,format=GRAY8 ! \
  cudamask backend=$backend
run coins-otsu coins.png video/x-raw,format=GRAY8 ! \
  cudaotsu backend=$backend
# The four chained: gray, equalize, Otsu, then the background as a mask.
run chelsea-chain chelsea.png video/x-raw,format=RGBA ! \
  cudagray backend=$backend ! cudaequalize backend=$backend ! \
  cudaotsu backend=$backend ! cudamask backend=$backend invert=true

# The Otsu threshold of each frame, as the element posts it on the bus.
if ! log=$(gst-launch-1.0 -m filesrc location="$data/coins.png" ! pngdec ! \
    videoconvert ! video/x-raw,format=GRAY8 ! \
    cudaotsu backend=$backend post-messages=true ! fakesink 2>&1); then
  echo "$log" >&2
  exit 1
fi
threshold=$(echo "$log" |
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
    cudagray backend=$backend ! cudablur backend=$backend sigma=2 ! \
    cudaotsu backend=$backend ! \
    cudamorph backend=$backend operation=erode shape=disk radius=2 ! \
    cudalabel backend=$backend \
    properties=label,area,bbox,centroid,intensity_mean,perimeter,eccentricity \
    "$@"
}
run_segment coins-labels
if /usr/bin/python3 -c 'import gi, pandas' 2>/dev/null; then
  /usr/bin/python3 "$top/examples/regionprops.py" --backend=$backend \
    "$data/coins.png" "$out/coins-regionprops.csv"
  echo "  wrote $out/coins-regionprops.csv ($(($(wc -l < "$out/coins-regionprops.csv") - 1)) regions)"
fi
# GStreamer 1.24+: the regions' boxes, drawn by GStreamer's own
# objectdetectionoverlay from the analytics meta cudalabel attaches.
if gst-inspect-1.0 --exists objectdetectionoverlay; then
  run_segment coins-boxes ! videoconvert ! \
    objectdetectionoverlay draw-labels=false
fi
