#!/usr/bin/env bash
# A system that has only libfuse3.so.4 (libfuse 3.17+: Debian 13, Ubuntu 25.04, Fedora 42, Arch):
# with no override, the library must find it by its soname. In a private mount namespace an
# overlay hides the system's libfuse3.so.3 and puts the given libfuse3.so.4 in its directory;
# there ./fuse-panama memfs must mount, serve, say which libfuse it uses and stop on Ctrl-C.
# Nothing outside the namespace changes. Root only (./test runs it when root).
# Usage: scripts/soname-check.sh VERSION /path/to/libfuse3.so.4
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$self")/.."
version=$1
library=$(readlink -f "$2")
export PATH="$PATH:/sbin:/usr/sbin"
if [ -z "${FP_SONAME_WORK:-}" ]; then
  # Outside the namespace: a directory for its tmpfs, removed once the namespace is gone.
  work=$(mktemp -d /tmp/fuse-panama-soname-XXXXXX)
  rc=0
  env FP_SONAME_WORK="$work" unshare --mount --propagation private "$self" "$version" "$library" || rc=$?
  rmdir "$work"
  exit "$rc"
fi

pid=
fail() {
  echo "soname check: $*" >&2
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid"
    sleep 5
    kill -KILL "$pid" 2>/dev/null || true
  fi
  echo "soname: 0 passed, 1 failed"
  exit 1
}
system=$(ldconfig -p | awk '/libfuse3\.so\.3 / { found = $NF } END { print found }')
[ -n "$system" ] || fail "no system libfuse3.so.3 to hide"
libdir=$(dirname "$(readlink -f "$system")")
work=$FP_SONAME_WORK
mount -t tmpfs tmpfs "$work"
mkdir "$work/upper" "$work/work" "$work/mnt"
for f in "$libdir"/libfuse3.so.3*; do mknod "$work/upper/$(basename "$f")" c 0 0; done
cp -L "$library" "$work/upper/libfuse3.so.4"
mount -t overlay overlay -o "lowerdir=$libdir,upperdir=$work/upper,workdir=$work/work" "$libdir"
[ ! -e "$libdir/libfuse3.so.3" ] || fail "libfuse3.so.3 is still visible in $libdir"
# The linker cache as ldconfig would write it on such a system: libfuse3.so.4 and no .so.3.
ldconfig -C "$work/ld.so.cache"
mount --bind "$work/ld.so.cache" /etc/ld.so.cache
cache=$(ldconfig -p)
grep -q 'libfuse3\.so\.4 ' <<<"$cache" || fail "libfuse3.so.4 is not in the rebuilt linker cache"
! grep -q 'libfuse3\.so\.3 ' <<<"$cache" || fail "libfuse3.so.3 is still in the linker cache"

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
for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
kill -0 "$pid" 2>/dev/null && fail "still running 30 s after Ctrl-C"
rc=0
wait "$pid" || rc=$?
pid=
cat "$log"
[ "$rc" -eq 0 ] || fail "exit status $rc after Ctrl-C"
grep -q "(libfuse $version[,)]" "$log" || fail "the launcher did not report libfuse $version"
echo "soname: 1 passed, 0 failed (libfuse3.so.4 alone, $version, found without an override)"
