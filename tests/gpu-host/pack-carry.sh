#!/bin/sh
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Packs what the GPU host needs to run the suite against two GStreamer
# versions into .gpuhost/carry (under the 64 MiB a device call carries):
# each build directory slimmed and compressed, each packed runtime
# compressed.  Usage: pack-carry.sh BUILD:RUNTIME...  e.g.
#   tests/gpu-host/pack-carry.sh build-gpu:gst build-128:gst-1.28
# (RUNTIME: a folder of .gpuhost made by ../shared/gpu-host/pack-gstreamer.sh
# or pack-gstreamer-prefix.sh).  There, run-versions.sh unpacks and runs.
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .gpuhost/carry
for pair in "$@"; do
  build=${pair%%:*}; runtime=${pair#*:}
  tests/gpu-host/slim-build.sh "$build" >/dev/null
  tar czf ".gpuhost/carry/$build.tgz" "$build"
  tar czf ".gpuhost/carry/$runtime.tgz" -C .gpuhost "$runtime"
done
du -sh --apparent-size .gpuhost/carry
