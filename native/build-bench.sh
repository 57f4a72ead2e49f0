#!/usr/bin/env bash
# Builds the C bench tree filesystem against libfuse 3 (benchfs3) and libfuse 2 (benchfs2), and on
# libfuse 3's low-level API (benchfs3ll), into native/build/, the C pass-through the mirror is
# compared with (mirrorfs3) and the C client (fsclient). Needs gcc, libfuse3-dev and libfuse-dev;
# as root, installs them, and git and strace, which the memfs suite runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The comparison's own needs, kept out of the product's test set-up (./test does not install them).
if ! pkg-config --exists fuse3 fuse 2>/dev/null || ! command -v gcc >/dev/null; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing what the bench builds need: gcc pkg-config libfuse3-dev libfuse-dev libfuse2" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc pkg-config libfuse3-dev libfuse-dev libfuse2 >/dev/null
  else
    echo "the bench needs: sudo apt-get install gcc pkg-config libfuse3-dev libfuse-dev libfuse2" >&2
    exit 1
  fi
fi
# The tools the memfs suite runs (git status, and strace for tar's system calls).
if ! command -v git >/dev/null || ! command -v strace >/dev/null; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing what the memfs suite runs: git strace" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git strace >/dev/null
  else
    echo "note: the memfs suite needs git and strace: sudo apt-get install git strace" >&2
  fi
fi
mkdir -p "$here/build"
gcc -O2 -Wall -DFUSE_USE_VERSION=31 $(pkg-config --cflags fuse3) -o "$here/build/benchfs3" "$here/benchfs.c" $(pkg-config --libs fuse3) -lpthread
gcc -O2 -Wall -Wextra $(pkg-config --cflags fuse3) -o "$here/build/benchfs3ll" "$here/benchfs_ll.c" $(pkg-config --libs fuse3) -lpthread
gcc -O2 -Wall -DFUSE_USE_VERSION=26 $(pkg-config --cflags fuse) -o "$here/build/benchfs2" "$here/benchfs.c" $(pkg-config --libs fuse) -lpthread
gcc -O2 -Wall $(pkg-config --cflags fuse3) -o "$here/build/mirrorfs3" "$here/mirrorfs.c" $(pkg-config --libs fuse3) -lpthread
gcc -O2 -Wall -o "$here/build/fsclient" "$here/fsclient.c"
echo "built benchfs3, benchfs3ll, benchfs2, mirrorfs3 and fsclient in $here/build"
