#!/usr/bin/env bash
# Runs pjdfstest (github.com/pjd/pjdfstest, the public POSIX filesystem suite) inside a fresh
# memfs, as root, and prints prove's summary. Not part of ./test: pjdfstest is not packaged by
# Debian, and CI reaches only Debian's archive and Maven Central. Usage:
#   scripts/pjdfstest.sh PJDFSTEST_SOURCE_DIR [TEST...]
# PJDFSTEST_SOURCE_DIR is a checkout of pjdfstest; it is built there when its binary is missing
# (needs autoconf automake gcc make). TESTs are paths under its tests/ (default: all of them).
# memfs is mounted with --allow-other: pjdfstest switches to other users, whom a FUSE mount
# otherwise refuses (EACCES) before any permission check of the filesystem's.
set -euo pipefail
src=$(cd "${1:?usage: scripts/pjdfstest.sh PJDFSTEST_SOURCE_DIR [TEST...]}" && pwd)
shift
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "pjdfstest needs root" >&2; exit 2; }
if [ ! -x "$src/pjdfstest" ]; then
  (cd "$src" && autoreconf -ifs && ./configure && make pjdfstest) >&2
fi
work=$(mktemp -d /tmp/fuse-panama-pjdfstest-XXXXXX)
mnt="$work/mnt"
mkdir "$mnt"
cleanup() {
  grep -q " $mnt " /proc/mounts && fusermount3 -u -z "$mnt"
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
./fuse-panama memfs --allow-other "$mnt" >"$work/memfs.log" 2>&1 &
for _ in $(seq 300); do grep -q " $mnt " /proc/mounts && break; sleep 0.1; done
grep -q " $mnt " /proc/mounts || { echo "memfs did not mount:" >&2; cat "$work/memfs.log" >&2; exit 1; }
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(.)
status=0
(cd "$mnt" && for t in "${tests[@]}"; do timeout 1800 prove -r "$src/tests/$t"; done) || status=$?
fusermount3 -u "$mnt"
exit $status
