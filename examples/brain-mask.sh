#!/bin/sh
# The brain-mask workflow of CT slices on the GPU: every non-zero pixel of
# a slice is tissue.  Writes the slice and its mask side by side.
#
#   examples/brain-mask.sh [BUILD_DIR] [SLICE.png] [OUT.png]
#
# Defaults: build, the Shepp-Logan phantom in examples/data, and
# brain-mask.png.  Without a usable GPU, backend=cpu gives the same mask.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
slice=${2:-$top/examples/data/phantom.png}
out=${3:-brain-mask.png}
export GST_PLUGIN_PATH="$build/ext${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

backend=cuda
gst-launch-1.0 -q videotestsrc num-buffers=1 ! cudagray backend=cuda ! fakesink \
  >/dev/null 2>&1 || backend=cpu

# The mask goes right of the slice: compositor places it at the slice's
# width, read from the file.
width=$(gst-discoverer-1.0 "$slice" 2>/dev/null |
  sed -n 's/.*Width: \([0-9]*\).*/\1/p' | head -n 1)
gst-launch-1.0 -q compositor name=mix sink_1::xpos="${width:-400}" ! \
  videoconvert ! pngenc ! filesink location="$out" \
  filesrc location="$slice" ! pngdec ! videoconvert ! tee name=t \
  t. ! queue ! mix. \
  t. ! queue ! cudagray backend=$backend ! cudamask backend=$backend ! \
  videoconvert ! mix.
# gst-launch ends well when nothing decodes: no frame, no file to keep.
if ! [ -s "$out" ]; then
  rm -f "$out"
  echo "error: no frame came out of $slice" >&2
  exit 1
fi
echo "wrote $out (backend=$backend)"
