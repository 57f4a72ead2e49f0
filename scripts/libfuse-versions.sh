#!/usr/bin/env bash
# The libfuse releases the test matrix runs against besides the system's, taken from Debian's
# own archive (Debian's sources with Debian's patches, built with libfuse's default options):
#   trixie   (Debian 13): the fuse3 source package, built here (3.17, libfuse3.so.4)
#   sid      (unstable):  the fuse3 source package, built here (3.18 today, libfuse3.so.4, io_uring)
#   bullseye (Debian 11): the libfuse3-3 and libfuse3-dev binary packages, unpacked (3.10,
#                         libfuse3.so.3); the archive no longer serves bullseye's fuse3 source
# Each suite gives the version it ships today; the run's output names it. A suite that cannot be
# had (no network, or the archive dropped it) is reported on stderr and the script exits 1 after
# printing the others, so the run goes on but does not pass.
# Each lands in a cache outside the source tree and is reused on later runs:
#   ${FUSE_PANAMA_LIBFUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/libfuse}/SUITE/
# Prints one line per release, "VERSION LIBRARY INCLUDE_DIR", for ./test to run against.
# Needs: apt-get, dpkg-dev, meson, ninja-build, gcc, pkg-config, liburing-dev, libnuma-dev,
# debian-archive-keyring (./test installs them). --refresh forgets the cache.
set -euo pipefail

cache=${FUSE_PANAMA_LIBFUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/libfuse}
case "${1:-}" in
  --refresh) rm -rf "$cache" ;;
  --one) ;;
  "") ;;
  *) echo "usage: $0 [--refresh]" >&2; exit 2 ;;
esac
mkdir -p "$cache"
# One private apt set-up per suite, so that a suite that has left the archive cannot break the others.
. "$(dirname "$0")/debian-archive.sh"

# Builds the fuse3 source package of SUITE into $cache/SUITE/prefix (Debian's patches applied).
build_source() {
  local suite=$1 dir="$cache/$1" version
  [ -f "$dir/version" ] && return
  debian_apt_update "$cache/apt-$suite" "$suite" deb-src
  rm -rf "$dir" && mkdir -p "$dir/src"
  (cd "$dir/src" && debian_apt "$cache/apt-$suite" source --download-only "fuse3/$suite" >&2 &&
    dpkg-source -x --no-check ./*.dsc tree >&2)
  version=$(grep -o -m1 "version: *'[^']*'" "$dir/src/tree/meson.build" | sed "s/.*'\(.*\)'/\1/")
  [ -n "$version" ] || { echo "cannot read the version of $suite's fuse3 from its meson.build" >&2; return 1; }
  (cd "$dir/src/tree" &&
    meson setup build --prefix="$dir/prefix" --libdir=lib -Dexamples=false -Dutils=false -Dtests=false >&2 &&
    ninja -C build >&2 && meson install -C build >&2)
  rm -rf "$dir/src"
  echo "$version" >"$dir/version"
}

# Unpacks bullseye's libfuse3-3 and libfuse3-dev into $cache/bullseye/prefix.
unpack_binary() {
  local dir="$cache/bullseye"
  [ -f "$dir/version" ] && return
  debian_apt_update "$cache/apt-bullseye" bullseye deb
  rm -rf "$dir" && mkdir -p "$dir/debs"
  (cd "$dir/debs" && debian_apt "$cache/apt-bullseye" download libfuse3-3/bullseye libfuse3-dev/bullseye >&2)
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
  mkdir -p "$dir/prefix/lib"
  mv "$dir/root/usr/include" "$dir/prefix/include"
  # The library is in /lib/ARCH (bullseye predates merged /usr), the -dev files in /usr/lib/ARCH;
  # the -dev package's libfuse3.so points at the system's /lib, so it is left out.
  cp -a "$dir"/root/lib/*-linux-gnu*/. "$dir"/root/usr/lib/*-linux-gnu*/. "$dir/prefix/lib/"
  rm -f "$dir/prefix/lib/libfuse3.so"
  dpkg-deb -f "$dir"/debs/libfuse3-3_*.deb Version | sed 's/-.*//' >"$dir/version"
  rm -rf "$dir/debs" "$dir/root"
}

report() {
  local dir="$cache/$1" lib
  lib=$(ls "$dir"/prefix/lib/libfuse3.so.[0-9])
  echo "$(cat "$dir/version") $lib $dir/prefix/include/fuse3"
}

# One suite per process, so that errexit stops at its first failure and the others still run.
if [ "${1:-}" = "--one" ]; then
  if [ "$2" = bullseye ]; then unpack_binary; else build_source "$2"; fi
  report "$2"
  exit 0
fi
status=0
for suite in bullseye trixie sid; do
  if ! "$0" --one "$suite"; then
    echo "libfuse from Debian $suite could not be had (see above); it is left out of this run" >&2
    status=1
  fi
done
exit "$status"
