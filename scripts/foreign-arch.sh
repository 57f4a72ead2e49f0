#!/usr/bin/env bash
# What ./test needs to run the suites in a JVM of another architecture, under qemu-user on this
# machine's kernel, taken from Debian's archive (nothing is installed on this machine):
#   qemu:       trixie's qemu-user for this machine (10.0), its one emulator for ARCH; with
#               bookworm's 7.2 an emulated test JVM hung at its exit in one of three runs here
#   a sysroot:  trixie's OpenJDK 25 (headless) for ARCH and the C libraries it loads
#   libfuse:    ARCH's libfuse of bookworm (3.14, libfuse3.so.3; where bookworm has ARCH) and of
#               trixie (3.17, libfuse3.so.4), each with its headers, kept apart from the sysroot
#               so that each run names the one it uses
#   commands:   bin/qemu-GUEST the emulator
#               jre/bin/java  that JVM under qemu (and jre/release, so Maven's surefire knows it)
#               bin/run       runs any ARCH program with the sysroot's libraries
#               bin/cc        the cross compiler, for the layout probe
# ARCH is a Debian architecture name other than this machine's: arm64, riscv64, or amd64 (for an
# arm64 machine). Prints one line per libfuse release, "VERSION LIBRARY INCLUDE_DIR ARCH_DIR",
# for ./test to run against.
# Cache, reused on later runs (--refresh forgets it):
#   ${FUSE_PANAMA_ARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/arch}/ARCH/
# Needs apt-get, dpkg-deb, debian-archive-keyring and gcc-TRIPLET (./test installs them).
set -euo pipefail

usage() { echo "usage: $0 arm64|riscv64|amd64 [--refresh]" >&2; exit 2; }
arch=${1:-}
case "$arch" in
  arm64) triplet=aarch64-linux-gnu guest=aarch64 suites=(bookworm trixie) ;;
  riscv64) triplet=riscv64-linux-gnu guest=riscv64 suites=(trixie) ;; # bookworm has no riscv64
  amd64) triplet=x86_64-linux-gnu guest=x86_64 suites=(bookworm trixie) ;;
  *) usage ;;
esac
[ "$arch" != "$(dpkg --print-architecture)" ] || { echo "$0: $arch is this machine's own architecture" >&2; exit 2; }
dir=${FUSE_PANAMA_ARCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fuse-panama/arch}/$arch
case "${2:-}" in
  --refresh) rm -rf "$dir" ;;
  "") ;;
  *) usage ;;
esac
. "$(dirname "$0")/debian-archive.sh"
for tool in "$triplet-gcc" dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "$0 needs $tool (apt-get install gcc-${triplet//_/-})" >&2; exit 1; }
done
mkdir -p "$dir"

# Downloads PACKAGES of SUITE for ARCH and unpacks each into ROOT. The suite's index is read
# afresh each time (only when something is missing), so a point release never leaves it stale.
unpack() {
  local suite=$1 root=$2 work="$dir/fetch-$1"
  shift 2
  rm -rf "$work"
  debian_apt_update "$work/apt" "$suite" deb "$arch"
  mkdir -p "$work/debs"
  (cd "$work/debs" && debian_apt "$work/apt" download "$@" >&2)
  for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
  rm -rf "$work"
}

# The emulator, statically linked, out of trixie's qemu-user for this machine's architecture.
qemu=$dir/bin/qemu-$guest
if [ ! -x "$qemu" ]; then
  host_apt="$dir/apt-trixie-$(dpkg --print-architecture)"
  debian_apt_update "$host_apt" trixie deb
  rm -rf "$dir/debs-qemu" && mkdir -p "$dir/debs-qemu" "$dir/bin"
  (cd "$dir/debs-qemu" && debian_apt "$host_apt" download qemu-user/trixie >&2)
  dpkg-deb --fsys-tarfile "$dir"/debs-qemu/qemu-user_*.deb | tar -x -O "./usr/bin/qemu-$guest" >"$qemu.new"
  chmod +x "$qemu.new" && mv "$qemu.new" "$qemu"
  rm -rf "$dir/debs-qemu" "$host_apt"
fi

# The JVM, the C libraries it needs (libgcc_s too: libfuse's pthread_cancel at unmount loads it),
# and the commands that run them. The sysroot's links and the commands name the cache's path,
# which sysroot.done records: a moved cache is made again.
if [ "$(cat "$dir/sysroot.done" 2>/dev/null)" != "$dir" ]; then
  rm -rf "$dir/sysroot" "$dir/jre" "$dir/bin/run" "$dir/bin/cc"
  mkdir -p "$dir/sysroot"
  unpack trixie "$dir/sysroot" openjdk-25-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g
  # trixie is merged-/usr; the dynamic loader is asked for as /lib/... (and as /lib64/... on x86-64)
  ln -s usr/lib "$dir/sysroot/lib"
  [ ! -d "$dir/sysroot/usr/lib64" ] || ln -s usr/lib64 "$dir/sysroot/lib64"
  # The JVM opens its configuration through links to /etc/java-25-openjdk; the kernel resolves a
  # link's target on this machine, not in the sysroot, so absolute targets are moved into it.
  find "$dir/sysroot" -type l -lname '/*' | while read -r link; do
    ln -sfn "$dir/sysroot$(readlink "$link")" "$link"
  done
  jdk=$(ls -d "$dir"/sysroot/usr/lib/jvm/java-25-openjdk-"$arch")
  mkdir -p "$dir/jre/bin" "$dir/bin"
  cp "$jdk/release" "$dir/jre/release"
  # The JVM's default way of starting processes goes through its own jspawnhelper, an ARCH
  # program this kernel cannot exec; FORK execs the target directly.
  printf '#!/bin/sh\nexec %q -L %q %q -Djdk.lang.Process.launchMechanism=FORK "$@"\n' \
    "$qemu" "$dir/sysroot" "$jdk/bin/java" >"$dir/jre/bin/java"
  printf '#!/bin/sh\nexec %q -L %q "$@"\n' "$qemu" "$dir/sysroot" >"$dir/bin/run"
  printf '#!/bin/sh\nexec %q "$@"\n' "$triplet-gcc" >"$dir/bin/cc"
  chmod +x "$dir/jre/bin/java" "$dir/bin/run" "$dir/bin/cc"
  "$dir/jre/bin/java" -version >&2
  echo "$dir" >"$dir/sysroot.done"
fi

# SUITE's libfuse and its headers, into $dir/libfuse/SUITE/{lib,include}.
libfuse() {
  local suite=$1 out="$dir/libfuse/$1" version runtime
  if [ ! -f "$out/version" ]; then
    rm -rf "$out" "$out.root" && mkdir -p "$out/lib"
    case "$suite" in bookworm) runtime=libfuse3-3 ;; *) runtime=libfuse3-4 ;; esac
    unpack "$suite" "$out.root" "$runtime/$suite" "libfuse3-dev/$suite"
    # bookworm keeps the library in /lib/TRIPLET (not merged-/usr), trixie in /usr/lib/TRIPLET;
    # the -dev package's libfuse3.so link points at the system's path, so it is left out.
    cp -a "$out".root/lib/"$triplet"/. "$out/lib/" 2>/dev/null || true
    cp -a "$out".root/usr/lib/"$triplet"/libfuse3.so.* "$out/lib/" 2>/dev/null || true
    mv "$out.root/usr/include" "$out/include"
    rm -f "$out/lib/libfuse3.so"
    rm -rf "$out.root"
    # The release is in the library's file name: libfuse3.so.3.14.0, libfuse3.so.3.17.2.
    version=$(cd "$out/lib" && ls libfuse3.so.[0-9]*.*.* 2>/dev/null | sed 's/^libfuse3\.so\.//') || true
    [ -n "$version" ] || { echo "no libfuse3 library in $suite's $runtime for $arch" >&2; return 1; }
    echo "$version" >"$out/version"
  fi
  echo "$(cat "$out/version") $(ls "$out"/lib/libfuse3.so.[0-9]) $out/include/fuse3 $dir"
}

for suite in "${suites[@]}"; do libfuse "$suite"; done
