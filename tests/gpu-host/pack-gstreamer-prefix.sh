#!/bin/sh
# gst-cuda-imgproc
# Copyright (C) 2026 The gst-cuda-imgproc authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Packs a relocatable runtime of a GStreamer built from source (by
# .ci/build-gstreamer.sh into PREFIX) into DIR, for the GPU host, which has
# the NVIDIA driver and CUDA but no GStreamer: its libraries and every
# plugin it built (stripped), the tools, the plugin scanner, the GLib this
# machine built it against, and the meson that configured the project's
# build directory.  Usage: pack-gstreamer-prefix.sh PREFIX DIR
# There, `. DIR/env.sh` and the build directory's tests run against it
# (Debian 12's own 1.22: ../shared/gpu-host/pack-gstreamer.sh).
set -eu
prefix=${1:?usage: pack-gstreamer-prefix.sh PREFIX DIR}
out=${2:?usage: pack-gstreamer-prefix.sh PREFIX DIR}
libdir=$prefix/lib/x86_64-linux-gnu
rm -rf "$out"; mkdir -p "$out/lib" "$out/plugins" "$out/bin"
cp -L "$libdir"/gstreamer-1.0/*.so "$out/plugins/"
# No test uses it, and its cairo and pango would double the size.
rm -f "$out/plugins/libgstanalyticsoverlay.so"
cp -L "$prefix"/bin/gst-launch-1.0 "$prefix"/bin/gst-inspect-1.0 "$out/bin/"
cp -L "$prefix"/libexec/gstreamer-1.0/gst-plugin-scanner "$out/bin/"
for l in "$libdir"/lib*.so.*; do
  case $l in *.so.[0-9]) cp -L "$l" "$out/lib/" ;; esac
done
# The system libraries these need that the host may lack (GLib & co.).
skip='linux-vdso|ld-linux|/libc\.so|/libm\.so|libpthread|/libdl\.so|/librt\.so|libstdc\+\+|libgcc_s|/libcuda\.so'
for f in "$out"/plugins/*.so "$out"/bin/* "$out"/lib/*; do
  LD_LIBRARY_PATH=$libdir ldd "$f" 2>/dev/null | awk '/=>/ {print $3}'
done | sort -u | grep -v -E "$skip" | grep -v "^$libdir" |
  while read -r l; do [ -f "$l" ] && cp -L "$l" "$out/lib/"; done
strip --strip-unneeded "$out"/lib/* "$out"/plugins/*.so "$out"/bin/* 2>/dev/null || true
# The meson that configured the build directory (a build directory refuses
# a meson of another version).
if command -v meson >/dev/null 2>&1; then
  py=$(head -n 1 "$(command -v meson)" | sed 's/^#! *//; s/ .*//')
  mod=$("$py" -c 'import mesonbuild, os; print(os.path.dirname(mesonbuild.__file__))')
  mkdir -p "$out/python"
  cp -r "$mod" "$out/python/"
  find "$out/python" -name __pycache__ -prune -exec rm -rf {} +
  printf '#!/bin/sh\nd=$(cd "$(dirname "$0")/.." && pwd)\nPYTHONPATH="$d/python" exec python3 -c "import sys; from mesonbuild import mesonmain; sys.exit(mesonmain.main())" "$@"\n' > "$out/bin/meson"
  chmod +x "$out/bin/meson"
fi
cat > "$out/env.sh" <<'EOS'
# Source me: . path/to/bundle/env.sh
_b=$(cd "$(dirname "${BASH_SOURCE:-$0}")" && pwd)
export PATH="$_b/bin:$PATH"
export LD_LIBRARY_PATH="$_b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GST_PLUGIN_SYSTEM_PATH="$_b/plugins"
export GST_PLUGIN_SCANNER="$_b/bin/gst-plugin-scanner"
export GST_REGISTRY="${TMPDIR:-/tmp}/gst-registry-$$.bin"
unset _b
EOS
du -sh "$out" | awk '{print "packed GStreamer runtime: " $1 " in " $2}'
