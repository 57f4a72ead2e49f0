#!/usr/bin/env bash
# The libfuse releases the test matrix runs against besides the system's, taken from Debian's
# own archive so that they are the builds distributions ship:
#   trixie  (Debian 13): the fuse3 source package, built here (3.17, libfuse3.so.4)
#   sid     (unstable):  the fuse3 source package, built here (3.18, libfuse3.so.4, io_uring)
#   bullseye (Debian 11): the libfuse3-3 and libfuse3-dev binary packages, unpacked (3.10,
#                         libfuse3.so.3); the archive no longer serves bullseye's fuse3 source
# Each lands in a cache outside the source tree and is reused on later runs:
#   ${FUSE_PANAMA_LIBFUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/libfuse}/SUITE/
# Prints one line per release, "VERSION LIBRARY INCLUDE_DIR", for ./test to run against.
# Needs: apt-get, dpkg-dev, meson, ninja-build, gcc, pkg-config, liburing-dev, libnuma-dev (./test
# installs them). --refresh forgets the cache and takes what the suites ship today.
set -euo pipefail

cache=${FUSE_PANAMA_LIBFUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/libfuse}
if [ "${1:-}" = "--refresh" ]; then
  rm -rf "$cache"
fi
mkdir -p "$cache"
arch=$(dpkg --print-architecture)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt_dir="$cache/apt"

# apt-get with a private sources list, state and cache: the system's apt setup is not touched.
private_apt() {
  apt-get -q -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::State::Status=/var/lib/dpkg/status \
    -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User="$(id -un)" "$@"
}

private_apt_update() {
  [ -f "$apt_dir/updated" ] && return
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian trixie main
deb-src [signed-by=$keyring] http://deb.debian.org/debian sid main
deb [signed-by=$keyring arch=$arch] http://deb.debian.org/debian bullseye main
EOF
  private_apt update >&2
  touch "$apt_dir/updated"
}

# Builds the fuse3 source package of SUITE into $cache/SUITE/prefix (Debian's patches applied).
build_source() {
  local suite=$1 dir="$cache/$1"
  [ -f "$dir/version" ] && return
  private_apt_update
  rm -rf "$dir" && mkdir -p "$dir/src"
  (cd "$dir/src" && private_apt source --download-only "fuse3/$suite" >&2 && dpkg-source -x --no-check ./*.dsc tree >&2)
  local version
  version=$(grep -o -m1 "version: *'[0-9.]*'" "$dir/src/tree/meson.build" | tr -dc '0-9.')
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
  private_apt_update
  rm -rf "$dir" && mkdir -p "$dir/debs"
  (cd "$dir/debs" && private_apt download libfuse3-3/bullseye libfuse3-dev/bullseye >&2)
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
  mkdir -p "$dir/prefix/lib"
  mv "$dir/root/usr/include" "$dir/prefix/include"
  # The library is in /lib/ARCH (bullseye predates merged /usr), the -dev files in /usr/lib/ARCH.
  cp -a "$dir"/root/lib/*-linux-gnu*/. "$dir"/root/usr/lib/*-linux-gnu*/. "$dir/prefix/lib/"
  dpkg-deb -f "$dir"/debs/libfuse3-3_*.deb Version | sed 's/-.*//' >"$dir/version"
  rm -rf "$dir/debs" "$dir/root"
}

report() {
  local dir="$cache/$1" lib
  lib=$(ls "$dir"/prefix/lib/libfuse3.so.[0-9] | head -n1)
  echo "$(cat "$dir/version") $lib $dir/prefix/include/fuse3"
}

unpack_binary
build_source trixie
build_source sid
report bullseye
report trixie
report sid
