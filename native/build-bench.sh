#!/usr/bin/env bash
# Builds the C bench tree filesystem against libfuse 3 (benchfs3) and libfuse 2 (benchfs2)
# into native/build/, the C pass-through the mirror is compared with (mirrorfs3) and the C client
# (fsclient). Needs gcc, libfuse3-dev and libfuse-dev.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/build"
gcc -O2 -Wall -DFUSE_USE_VERSION=31 $(pkg-config --cflags fuse3) -o "$here/build/benchfs3" "$here/benchfs.c" $(pkg-config --libs fuse3) -lpthread
gcc -O2 -Wall -DFUSE_USE_VERSION=26 $(pkg-config --cflags fuse) -o "$here/build/benchfs2" "$here/benchfs.c" $(pkg-config --libs fuse) -lpthread
gcc -O2 -Wall $(pkg-config --cflags fuse3) -o "$here/build/mirrorfs3" "$here/mirrorfs.c" $(pkg-config --libs fuse3) -lpthread
gcc -O2 -Wall -o "$here/build/fsclient" "$here/fsclient.c"
echo "built benchfs3, benchfs2, mirrorfs3 and fsclient in $here/build"
