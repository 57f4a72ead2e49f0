#!/usr/bin/env bash
# What the bench's libfuse 3.18 suites run in C, linked (rpath) against the 3.18 library that
# scripts/libfuse-versions.sh builds from Debian sid's fuse3 source package:
#   native/build/passthrough_hp  libfuse's own example (C++, low-level API, kernel passthrough), from
#                                that same source package (`--suite passthrough`)
#   native/build/benchfs318      native/benchfs.c, the C bench tree, which takes --io-uring there
#                                (`--suite uring`)
# Needs root on Debian (installs g++ and what scripts/libfuse-versions.sh needs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
out="$here/build/passthrough_hp"
if ! command -v g++ >/dev/null; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ >/dev/null
  else
    echo "passthrough_hp needs g++: sudo apt-get install g++" >&2
    exit 1
  fi
fi
read -r version library include < <("$repo/scripts/libfuse-versions.sh" --one sid)
prefix=$(dirname "$(dirname "$library")")
mkdir -p "$here/build"
gcc -O2 -Wall -DFUSE_USE_VERSION=31 -I"$include" -o "$here/build/benchfs318" "$here/benchfs.c" \
  -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lfuse3 -lpthread
if [ -x "$out" ] && [ "$(cat "$out.version" 2>/dev/null)" = "$version xattr" ]; then
  echo "built benchfs318; $out ($version) was built before"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$repo/scripts/debian-archive.sh"
debian_apt_update "$work/apt" sid deb-src
(cd "$work" && debian_apt "$work/apt" source --download-only "fuse3/sid" >&2 && dpkg-source -x --no-check ./*.dsc tree >&2)
got=$(grep -o -m1 "version: *'[^']*'" "$work/tree/meson.build" | sed "s/.*'\(.*\)'/\1/")
[ "$got" = "$version" ] || echo "note: sid's fuse3 is now $got, the library built earlier is $version" >&2
# Built against the cached library, not the source tree's own: the comparison then runs the same libfuse.
# The HAVE_ macros are what libfuse's meson configuration finds on glibc: without HAVE_SETXATTR the
# example has no extended attributes, and the kernel then stops asking for security.capability
# before every write, which the mirror (which has them) still pays for.
mkdir -p "$here/build"
g++ -O2 -std=c++17 -Wall -DHAVE_SETXATTR -DHAVE_SYS_XATTR_H -DHAVE_UTIMENSAT -DFUSE_USE_VERSION=318 -I"$include" -I"$work/tree/example" -o "$out" \
  "$work/tree/example/passthrough_hp.cc" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lfuse3 -lpthread
echo "$version xattr" >"$out.version"
echo "built benchfs318 and $out against libfuse $version ($library)"
