# Shell functions the example scripts share (sourced, POSIX sh):
# finding the plugin, passing paths to gst-launch-1.0, writing an output
# only on success, and saying where backend=auto ran.

# use_plugin BUILD_DIR ELEMENT: puts BUILD_DIR/ext on GST_PLUGIN_PATH;
# exits when ELEMENT is not found there.
use_plugin () {
  GST_PLUGIN_PATH="$1/ext${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
  export GST_PLUGIN_PATH
  if ! gst-inspect-1.0 "$2" >/dev/null 2>&1; then
    printf '%s\n' "cudaimgproc plugin not found in $1/ext: build it first (meson compile -C $1)" >&2
    exit 1
  fi
}

# quote PATH: PATH as a launch-line value, within double quotes, its
# backslashes and double quotes escaped (gst-launch-1.0 reads them as
# escapes).  A relative path gets ./ (a bare NULL would be no file).  A
# path ending in a backslash cannot be passed: refused.
quote () {
  case $1 in
    *\\)
      printf '%s\n' "error: $1: gst-launch-1.0 cannot be given a path that ends in a backslash" >&2
      return 1 ;;
    /*) p=$1 ;;
    *) p=./$1 ;;
  esac
  p=$(printf '%s' "$p" | sed 's/[\\"]/\\&/g'; echo x)
  printf '"%s"' "${p%x}"
}

# temp_beside PATH: sets tmp to a new empty file next to PATH (moved onto
# it on success, removed on exit otherwise) and tmp_q to it quoted.
tmp=
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
temp_beside () {
  tmp=$(mktemp "$(dirname -- "$1")/.$(basename -- "$1").XXXXXX") || exit 1
  chmod "$(printf %o $((0666 & ~0$(umask))))" "$tmp"
  # shellcheck disable=SC2034 # read by the scripts that source this
  tmp_q=$(quote "$tmp") || exit 2
}

# say_where LOG: where backend=auto ran, from the warning each element
# posts when it falls back to the CPU, told once; other warnings as they
# came.
told=
say_where () {
  why=$(printf '%s\n' "$1" | sed -n \
    's/^WARNING: from element [^ ]*: \(.*\) [^ ]* runs on the CPU .*/\1/p' |
    head -n 1)
  printf '%s\n' "$1" | grep '^WARNING: from element' |
    grep -v ' runs on the CPU ' >&2 || true
  [ -z "$told" ] || return 0
  told=yes
  if [ -n "$why" ]; then
    printf '%s\n' "NOTICE: $why Ran on the CPU (the reference implementation: identical output, slower)."
  else
    echo "Ran on the GPU."
  fi
}
