#!/usr/bin/env bash
# The README's first command as a user runs it: ./fuse-panama memfs MOUNTPOINT, use the volume,
# Ctrl-C. Passes if it mounts, serves, and on SIGINT unmounts and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
mnt=$(mktemp -d /tmp/fuse-panama-smoke-XXXXXX)
log=$(mktemp)
# Job control: a background job then keeps the default SIGINT, as a program started from a
# terminal does (without it, bash starts background jobs with SIGINT ignored).
set -m
./fuse-panama memfs "$mnt" >"$log" 2>&1 &
pid=$!
mounted() { grep -q " $mnt " /proc/mounts; }
finish() {
  kill -INT "$pid" 2>/dev/null
  mounted && fusermount3 -u -z "$mnt"
  rmdir "$mnt" 2>/dev/null
  rm -f "$log"
}
fail() { echo "launcher smoke: $1" >&2; cat "$log" >&2; echo "launcher: 0 passed, 1 failed"; finish; exit 1; }

for _ in $(seq 1 300); do mounted && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
mounted || fail "not mounted"
echo hello > "$mnt/greeting" && [ "$(cat "$mnt/greeting")" = hello ] || fail "cannot write and read back"
mkdir -p "$mnt/d/e" && mv "$mnt/greeting" "$mnt/d/e/" && [ -f "$mnt/d/e/greeting" ] || fail "mkdir/mv failed"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc after Ctrl-C"
mounted && fail "still mounted after Ctrl-C"
grep -q "memfs mounted at $mnt" "$log" || fail "no 'mounted at' line"
finish
echo "launcher: 1 passed, 0 failed"
