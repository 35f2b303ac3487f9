#!/bin/sh
# Makes examples/data/clip.mkv, the short clip the README's launch lines
# decode: 3 seconds (90 frames at 30/1) of videotestsrc's moving ball,
# 640x360, H.264 Constrained Baseline (which both NVDEC's nvh264dec and
# the CPU's openh264dec decode) in Matroska, about 45 KB.
#
#   examples/data/make-clip.sh [OUTPUT]      (default: examples/data/clip.mkv)
#
# x264enc is in gstreamer1.0-plugins-ugly (Debian 12:
# apt-get install gstreamer1.0-plugins-ugly); only making the clip needs it.
# The committed clip was made with Debian 12's GStreamer 1.22.0 and x264
# 0.164.3095; each run gives other bytes (Matroska writes a random segment
# UID), the same frames.
set -eu

out=${1:-$(dirname "$0")/clip.mkv}
gst-inspect-1.0 --exists x264enc || {
  echo "x264enc not found: apt-get install gstreamer1.0-plugins-ugly" >&2
  exit 1
}
gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=90 \
  ! video/x-raw,width=640,height=360,framerate=30/1,format=I420 \
  ! x264enc threads=1 key-int-max=30 \
  ! video/x-h264,profile=constrained-baseline \
  ! h264parse ! matroskamux ! filesink location="$out"
echo "$out: $(wc -c <"$out") bytes"
