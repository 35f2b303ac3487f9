#!/bin/bash
# Builds GStreamer VERSION (1.20.3, 1.24.13, 1.26.11 or 1.28.6: core with
# gstcheck, plugins-base, and from plugins-bad nvcodec and debugutilsbad,
# the public cuda library from 1.22 on, the analytics library and
# analyticsoverlay from 1.24 on; and for the project's suite the core
# tracers and the video parsers) from the source subsets in
# ../shared/gstreamer (or GST_SOURCES), into PREFIX.
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
# 1.20 has videoconvert and videoscale apart and no analytics library;
# 1.22 has no analytics library either.
case $version in
  1.20.*) convert="-Dvideoconvert=enabled -Dvideoscale=enabled"; analytics= ;;
  1.22.*) convert=-Dvideoconvertscale=enabled; analytics= ;;
  *) convert=-Dvideoconvertscale=enabled; analytics=-Danalyticsoverlay=enabled ;;
esac
build gstreamer -Dcheck=enabled -Dtools=enabled -Dbenchmarks=disabled -Dcoretracers=enabled
build gst-plugins-base -Dtools=enabled -Dvideotestsrc=enabled $convert \
  -Dapp=enabled -Dplayback=enabled -Drawparse=enabled -Dtypefind=enabled
build gst-plugins-bad -Dgpl=disabled -Dnvcodec=enabled $analytics -Ddebugutils=enabled \
  -Dvideoparsers=enabled
echo "GStreamer $version in $prefix"
