#!/bin/sh
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Makes a build directory small enough to carry to the GPU host: strips
# the debug information of its programs and libraries and deletes its
# object files (ninja rebuilds what it needs here, next time).
# Usage: slim-build.sh BUILD
set -eu
build=${1:?usage: slim-build.sh BUILD}
find "$build" -name '*.o' -delete
find "$build" -type f \( -name '*.so' -o -perm -u+x \) | while read -r f; do
  case $(head -c 4 "$f" | od -An -c | tr -d ' ') in
    177ELF) strip --strip-debug "$f" ;;
  esac
done
du -sh --apparent-size "$build"
