#!/bin/sh
# The brain-mask workflow of CT slices on the GPU: every non-zero pixel of
# a slice is tissue.  Writes the slice and its mask side by side.
#
#   examples/brain-mask.sh [BUILD_DIR] [SLICE.png] [OUT.png]
#
# Defaults: build, the Shepp-Logan phantom in examples/data, and
# brain-mask.png.  The elements' default, backend=auto, runs on the GPU
# where a usable CUDA device is there and on the CPU otherwise (the same
# mask): the script says which.  OUT.png is written only when the run
# succeeds: a failed run prints gst-launch's error and leaves an earlier
# OUT.png as it was.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
slice=${2:-$top/examples/data/phantom.png}
out=${3:-brain-mask.png}
. "$top/examples/launch.sh"
use_plugin "$build" cudamask

if [ -d "$out" ]; then
  printf '%s\n' "error: $out is a directory: give the file to write" >&2
  exit 2
fi
slice_q=$(quote "$slice") || exit 2
# Written next to OUT under a temporary name, moved onto it on success.
temp_beside "$out"

# The mask goes right of the slice: compositor places it at the slice's
# width, read from the file.  gst-launch's errors go to stderr, as they
# come.
width=$(gst-discoverer-1.0 "$slice" 2>/dev/null |
  sed -n 's/.*Width: \([0-9]*\).*/\1/p' | head -n 1)
if ! log=$(gst-launch-1.0 compositor name=mix sink_1::xpos="${width:-400}" ! \
    videoconvert ! pngenc ! filesink location="$tmp_q" \
    filesrc location="$slice_q" ! pngdec ! videoconvert ! tee name=t \
    t. ! queue ! mix. \
    t. ! queue ! cudagray ! cudamask ! videoconvert ! mix.); then
  printf '%s\n' "error: brain-mask.sh failed: $out left as it was" >&2
  exit 1
fi
# gst-launch ends well when nothing decodes: no frame, nothing to keep.
if ! [ -s "$tmp" ]; then
  printf '%s\n' "error: no frame came out of $slice: $out left as it was" >&2
  exit 1
fi
mv -f "$tmp" "$out"
say_where "$log"
printf '%s\n' "wrote $out"
