#!/bin/sh
# Runs a test program under valgrind memcheck: any invalid access or
# definitely lost block fails it.  Skipped (77) where valgrind is missing.
# Usage: run-valgrind.sh SUPPRESSIONS PROGRAM [ARGS...]
set -u

if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind is not installed: skipped"
  exit 77
fi
supp=$1
shift

# GLib's slice allocator hides frees from valgrind; one process for every
# test case, so that valgrind sees them all.
G_SLICE=always-malloc G_DEBUG=gc-friendly CK_FORK=no \
  exec valgrind --tool=memcheck --leak-check=full \
  --errors-for-leak-kinds=definite --error-exitcode=1 --num-callers=30 \
  --suppressions="$supp" "$@"
