#!/bin/bash
# Builds GStreamer VERSION (core with gstcheck, plugins-base, and from
# plugins-bad the cuda and analytics libraries, nvcodec, analyticsoverlay,
# debugutilsbad; and for the project's suite the core tracers and the video
# parsers) from the source subsets in ../shared/gstreamer (or GST_SOURCES),
# into PREFIX.
# About 2-3 minutes on 2 cores.  Then:
#   export PKG_CONFIG_PATH=PREFIX/lib/x86_64-linux-gnu/pkgconfig
#   export LD_LIBRARY_PATH=PREFIX/lib/x86_64-linux-gnu
#   export PATH=PREFIX/bin:$PATH GST_PLUGIN_SYSTEM_PATH=PREFIX/lib/x86_64-linux-gnu/gstreamer-1.0
#
#   build-gstreamer.sh 1.28.6 /tmp/gst-1.28.6
#
# Needs: gcc g++ flex bison pkg-config libglib2.0-dev libpango1.0-dev
# (analyticsoverlay), nvcc at /usr/local/cuda/bin, and a meson recent enough
# for the version (>= 1.4 for 1.26+: `pip install 'meson>=1.4' ninja` in a
# venv; Debian 12's 1.0 builds neither 1.24 nor 1.28).
set -eu
version=${1:?usage: build-gstreamer.sh VERSION PREFIX}
prefix=${2:?usage: build-gstreamer.sh VERSION PREFIX}
here=${GST_SOURCES:-$(cd "$(dirname "$0")/../../shared/gstreamer" && pwd)}
src=$here/gstreamer-$version-subset.tar.xz
[ -f "$src" ] || { echo "no source for $version in $here" >&2; exit 1; }
work=${WORK:-$(mktemp -d)}
tar xJf "$src" -C "$work"
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH=$prefix/lib/x86_64-linux-gnu/pkgconfig:$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
common="--prefix=$prefix --libdir=lib/x86_64-linux-gnu -Dauto_features=disabled -Dtests=disabled -Dexamples=disabled -Dintrospection=disabled -Ddoc=disabled -Dnls=disabled"
build() {  # DIR, options...
  local d=$work/gstreamer-$version/subprojects/$1; shift
  meson setup "$d/_build" "$d" $common "$@" > "$work/$(basename "$d").log" 2>&1 &&
    ninja -C "$d/_build" install >> "$work/$(basename "$d").log" 2>&1 ||
    { tail -n 20 "$work/$(basename "$d").log" >&2; exit 1; }
  echo "built $(basename "$d") $version"
}
build gstreamer -Dcheck=enabled -Dtools=enabled -Dbenchmarks=disabled -Dcoretracers=enabled
build gst-plugins-base -Dtools=enabled -Dvideotestsrc=enabled -Dvideoconvertscale=enabled \
  -Dapp=enabled -Dplayback=enabled -Drawparse=enabled -Dtypefind=enabled
build gst-plugins-bad -Dgpl=disabled -Dnvcodec=enabled -Danalyticsoverlay=enabled -Ddebugutils=enabled \
  -Dvideoparsers=enabled
echo "GStreamer $version in $prefix"
