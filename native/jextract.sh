#!/usr/bin/env bash
# Regenerates the FFM bindings with jextract, for a maintainer who has it (no package
# registry ships it, so the build never runs this). The committed classes under
# fuse-panama-core/.../internal/bind are written in the same style by hand and are held
# honest by LayoutTest, which compares every size and offset with the C compiler's.
#
# Usage: native/jextract.sh [OUTPUT_DIR]   (default: native/build/jextract)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build/jextract}
command -v jextract >/dev/null || { echo "jextract is not on PATH (get it from https://jdk.java.net/jextract/)" >&2; exit 1; }
mkdir -p "$out"
# shellcheck disable=SC2046
jextract \
  --output "$out" \
  --target-package dev.fusepanama.internal.bind.generated \
  --library :libfuse3.so.3 \
  -I /usr/include/fuse3 \
  -D FUSE_USE_VERSION=312 -D _FILE_OFFSET_BITS=64 \
  $(grep -v '^#' "$here/symbols.txt") \
  "$here/fuse_panama.h"
echo "generated into $out; diff against fuse-panama-core/src/main/java/dev/fusepanama/internal/bind"
