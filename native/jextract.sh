#!/usr/bin/env bash
# Regenerates the FFM bindings with jextract, for a maintainer who has it (no package
# registry ships it, so the build never runs this). The committed classes under
# fuse-panama-core/.../internal/bind are written in the same style by hand and are held
# honest by LayoutTest, which compares every size and offset with the C compiler's for the
# libfuse release loaded. jextract sees one release's headers: point FUSE3_INCLUDE at another
# release's to see its layouts (the committed classes keep one layout per release that changed).
# The generated library lookup is not used: LibFuse loads libfuse3.so.4 or .so.3 itself.
#
# Usage: [FUSE3_INCLUDE=/usr/include/fuse3] native/jextract.sh [OUTPUT_DIR]
#        (default output: native/build/jextract, to diff against the committed package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build/jextract}
command -v jextract >/dev/null || { echo "jextract is not on PATH (get it from https://jdk.java.net/jextract/)" >&2; exit 1; }
mkdir -p "$out"
# shellcheck disable=SC2046
jextract \
  --output "$out" \
  --target-package dev.fusepanama.internal.bind \
  -I "${FUSE3_INCLUDE:-/usr/include/fuse3}" \
  -D FUSE_USE_VERSION=312 -D _FILE_OFFSET_BITS=64 \
  $(grep -v '^#' "$here/symbols.txt") \
  "$here/fuse_panama.h"
echo "generated into $out; diff $out/dev/fusepanama/internal/bind against fuse-panama-core/src/main/java/dev/fusepanama/internal/bind"
