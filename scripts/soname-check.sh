#!/usr/bin/env bash
# A system that has only libfuse3.so.4 (libfuse 3.17+: Debian 13, Ubuntu 25.04, Fedora 42, Arch):
# with no override, the library must find it by its soname. In a private mount namespace an
# overlay hides the system's libfuse3.so.3 and puts the given libfuse3.so.4 in its directory;
# there ./fuse-panama memfs must mount, serve, say which libfuse it uses and stop on Ctrl-C.
# Nothing outside the namespace changes. Root only (./test runs it when root).
# Usage: scripts/soname-check.sh VERSION /path/to/libfuse3.so.4
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1
library=$2
if [ -z "${FP_SONAME_WORK:-}" ]; then
  # Outside the namespace: a directory for its tmpfs, removed once the namespace is gone.
  work=$(mktemp -d /tmp/fuse-panama-soname-XXXXXX)
  rc=0
  env FP_SONAME_WORK="$work" unshare --mount --propagation private "$0" "$@" || rc=$?
  rmdir "$work"
  exit "$rc"
fi

fail() { echo "soname check: $*" >&2; echo "soname: 0 passed, 1 failed"; exit 1; }
system=$(ldconfig -p | awk '/libfuse3\.so\.3 / { print $NF; exit }')
[ -n "$system" ] || fail "no system libfuse3.so.3 to hide"
libdir=$(dirname "$(readlink -f "$system")")
work=$FP_SONAME_WORK
mount -t tmpfs tmpfs "$work"
mkdir "$work/upper" "$work/work" "$work/mnt"
for f in "$libdir"/libfuse3.so.3*; do mknod "$work/upper/$(basename "$f")" c 0 0; done
cp -L "$library" "$work/upper/libfuse3.so.4"
mount -t overlay overlay -o "lowerdir=$libdir,upperdir=$work/upper,workdir=$work/work" "$libdir"
[ ! -e "$libdir/libfuse3.so.3" ] || fail "libfuse3.so.3 is still visible in $libdir"

mnt=$work/mnt
log=$work/log
set -m
env -u FUSE_PANAMA_LIBFUSE ./fuse-panama memfs "$mnt" >"$log" 2>&1 &
pid=$!
set +m
for _ in $(seq 1 300); do grep -q " $mnt fuse" /proc/self/mounts && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
if ! grep -q " $mnt fuse" /proc/self/mounts; then cat "$log" >&2; fail "memfs did not mount with only libfuse3.so.4"; fi
echo hello >"$mnt/f" && [ "$(cat "$mnt/f")" = hello ] || fail "cannot write and read back"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
cat "$log"
[ "$rc" -eq 0 ] || fail "exit status $rc after Ctrl-C"
grep -q "(libfuse $version)" "$log" || fail "the launcher did not report libfuse $version"
echo "soname: 1 passed, 0 failed (libfuse3.so.4 alone, $version, found without an override)"
