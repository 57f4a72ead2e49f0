#!/usr/bin/env bash
# The README's commands as a user runs them: ./fuse-panama memfs MOUNTPOINT,
# ./fuse-panama mirror SOURCE MOUNTPOINT, ./fuse-panama vault [init] CIPHER_DIR MOUNTPOINT and
# ./fuse-panama zip [--writable] ARCHIVE MOUNTPOINT, ./fuse-panama cryptomator [init] VAULT_DIR MOUNTPOINT,
# ./fuse-panama example HelloInode MOUNTPOINT, use
# the volume, Ctrl-C. Each passes if it mounts,
# serves, and on SIGINT unmounts and exits 0; `fusermount3 -u` from outside and SIGTERM end it
# with exit 0 too. A mountpoint the launcher had to create must be gone afterwards. A mirror mounted inside
# its own source must be refused with a message. No check may leave a JVM crash report.
# FUSE_PANAMA_LIBFUSE (if set) is passed on: ./test runs this once per libfuse release.
# --lifecycle runs only memfs's start and its three ways to stop (Ctrl-C, fusermount3 -u,
# SIGTERM): what ./test asks of the emulated architecture, whose JVM starts slowly.
set -uo pipefail
cd "$(dirname "$0")/.."
lifecycle_only=false
case "${1:-}" in
  --lifecycle) lifecycle_only=true ;;
  "") ;;
  *) echo "usage: $0 [--lifecycle]" >&2; exit 2 ;;
esac
passed=0
failed=0
work=$(mktemp -d /tmp/fuse-panama-smoke-XXXXXX)
touch "$work/.start" # JVM crash reports newer than this are ours
mnt="$work/mnt"
log="$work/log"
mkdir "$mnt"
mounted() { grep -q " $mnt " /proc/mounts; }
fuse_mode=
cleanup() {
  mounted && fusermount3 -u -z "$mnt"
  grep -q " $work/user " /proc/mounts && umount -l "$work/user"
  [ -z "$fuse_mode" ] || chmod "$fuse_mode" /dev/fuse
  rm -rf "$work"
}
trap cleanup EXIT

# Starts ./fuse-panama "$@" in the background and waits for the mount and its start-up line, the
# one that says how to stop it: every command writes it only once Ctrl-C and SIGTERM end the mount
# cleanly (the kernel lists a mount in /proc/mounts before that, while libfuse still starts it).
ready() { mounted && grep -q 'Ctrl-C' "$log"; }
start() {
  # Job control: a background job then keeps the default SIGINT, as a program started from a
  # terminal does (without it, bash starts background jobs with SIGINT ignored).
  set -m
  ./fuse-panama "$@" >"$log" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 1 300); do ready && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  ready
}

# Waits up to 30 s for the launcher to exit; sets rc to its exit status.
await_exit() {
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "still running 30 s later"
    kill -KILL "$pid"
  fi
  rc=0
  wait "$pid" || rc=$?
}

# Ctrl-C, then: exit status 0, nothing mounted.
stop() {
  kill -INT "$pid"
  await_exit
  [ "$rc" -eq 0 ] || { echo "exit status $rc after Ctrl-C"; return 1; }
  ! mounted || { echo "still mounted after Ctrl-C"; return 1; }
}

check() {
  local name=$1
  shift
  pid=
  if "$@" >"$work/why" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "launcher smoke, $name: $(cat "$work/why")" >&2
    cat "$log" >&2
    if [ -n "$pid" ]; then
      kill -INT "$pid" 2>/dev/null
      mounted && fusermount3 -u -z "$mnt"
      wait "$pid" 2>/dev/null
    fi
  fi
}

memfs_unmounted_from_outside() {
  start memfs "$mnt" || { echo "not mounted"; return 1; }
  echo data > "$mnt/file" || { echo "cannot write"; return 1; }
  fusermount3 -u "$mnt" || { echo "fusermount3 -u failed"; return 1; }
  await_exit
  [ "$rc" -eq 0 ] || { echo "exit status $rc after fusermount3 -u"; return 1; }
  grep -q "unmounted from outside" "$log" || { echo "no 'unmounted from outside' line"; return 1; }
}

# SIGTERM, as a service manager stops it: exit status 0, nothing mounted.
memfs_terminated() {
  start memfs "$mnt" || { echo "not mounted"; return 1; }
  echo data > "$mnt/file" || { echo "cannot write"; return 1; }
  kill -TERM "$pid"
  await_exit
  [ "$rc" -eq 0 ] || { echo "exit status $rc after SIGTERM"; return 1; }
  ! mounted || { echo "still mounted after SIGTERM"; return 1; }
}

memfs() {
  start memfs "$mnt" || { echo "not mounted"; return 1; }
  echo hello > "$mnt/greeting" && [ "$(cat "$mnt/greeting")" = hello ] || { echo "cannot write and read back"; return 1; }
  mkdir -p "$mnt/d/e" && mv "$mnt/greeting" "$mnt/d/e/" && [ -f "$mnt/d/e/greeting" ] || { echo "mkdir/mv failed"; return 1; }
  stop || return 1
  grep -q "memfs mounted at $mnt" "$log" || { echo "no 'mounted at' line"; return 1; }
}

mirror() {
  local src="$work/src"
  mkdir -p "$src/sub" && echo original > "$src/sub/old"
  start mirror "$src" "$mnt" || { echo "not mounted"; return 1; }
  [ "$(cat "$mnt/sub/old")" = original ] || { echo "cannot read the source through the mount"; return 1; }
  echo written > "$mnt/sub/new" && [ "$(cat "$src/sub/new")" = written ] || { echo "a write did not reach the source"; return 1; }
  mv "$mnt/sub/old" "$mnt/renamed" && [ -f "$src/renamed" ] && [ ! -e "$src/sub/old" ] || { echo "rename did not reach the source"; return 1; }
  stop
}

# A one-feature example through the launcher: its own main, served until Ctrl-C; without a NAME,
# a usage error.
example_hello() {
  start example HelloInode "$mnt" || { echo "not mounted"; return 1; }
  [ "$(cat "$mnt/hello")" = "Hello from the inode API!" ] || { echo "cannot read hello"; return 1; }
  stop || return 1
  rc=0
  ./fuse-panama example >"$log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "usage: ./fuse-panama example NAME" "$log" || { echo "exit status $rc and no usage without a NAME"; return 1; }
}

# vault init, then mount it with the password from a file, use it, Ctrl-C; gocryptfs (if
# installed) reads what was written; a wrong password exits 2 before anything is mounted.
vault() {
  local cipher="$work/cipher"
  echo "smoke password" > "$work/pass"
  ./fuse-panama vault init --passfile "$work/pass" --scryptn 10 "$cipher" >"$log" 2>&1 || { echo "vault init failed"; return 1; }
  [ -f "$cipher/gocryptfs.conf" ] || { echo "no gocryptfs.conf after init"; return 1; }
  start vault --passfile "$work/pass" "$cipher" "$mnt" || { echo "not mounted"; return 1; }
  echo secret > "$mnt/note" && mkdir "$mnt/d" && [ "$(cat "$mnt/note")" = secret ] || { echo "cannot write and read back"; return 1; }
  ! grep -rq secret "$cipher" || { echo "plaintext in the cipher directory"; return 1; }
  stop || return 1
  if command -v gocryptfs >/dev/null; then
    gocryptfs -q -passfile "$work/pass" "$cipher" "$mnt" || { echo "gocryptfs cannot mount it"; return 1; }
    local seen
    seen=$(cat "$mnt/note")
    fusermount3 -u "$mnt"
    [ "$seen" = secret ] || { echo "gocryptfs reads '$seen'"; return 1; }
  fi
  echo wrong > "$work/wrong"
  local rc=0
  ./fuse-panama vault --passfile "$work/wrong" "$cipher" "$mnt" >"$log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { echo "exit status $rc for a wrong password, expected 2"; return 1; }
  grep -q "wrong password" "$log" || { echo "no 'wrong password' message"; return 1; }
  ! mounted || { echo "mounted with a wrong password"; return 1; }
}

# A mountpoint that does not exist (the caller sets $mnt to it): the launcher makes it, serves,
# and removes it after Ctrl-C.
memfs_at_a_new_mountpoint() {
  start memfs "$mnt" || { echo "not mounted at a new mountpoint"; return 1; }
  echo x > "$mnt/f" || { echo "cannot write"; return 1; }
  stop || return 1
  [ ! -e "$work/new" ] || { echo "$work/new was left behind"; return 1; }
}

mirror_inside_its_source() {
  local src="$work/src2"
  mkdir -p "$src/inner"
  local rc=0
  ./fuse-panama mirror "$src" "$src/inner" >"$log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { echo "exit status $rc, expected 2"; return 1; }
  grep -q "inside the source" "$log" || { echo "no explanation"; return 1; }
}

# memfs mounted by an ordinary user (through the setuid fusermount3): the root of the volume is
# that user's, as every FUSE filesystem's root is. Run as root, which can become one. libfuse
# opens /dev/fuse as the user before it asks fusermount3 to mount, so a /dev/fuse that only root
# may open (some containers) is opened up for the check (0666, distributions' default) and put
# back as it was afterwards.
memfs_as_an_ordinary_user() {
  local umnt="$work/user" owner
  local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  mkdir "$umnt" && chown 65534:65534 "$umnt" && chmod 711 "$work"
  if [ "$(stat -c %a /dev/fuse)" != 666 ]; then
    fuse_mode=$(stat -c %a /dev/fuse)
    chmod 666 /dev/fuse
  fi
  set -m
  "${as_nobody[@]}" ./fuse-panama memfs "$umnt" >"$log" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 1 300); do grep -q " $umnt " /proc/mounts && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  grep -q " $umnt " /proc/mounts || { echo "not mounted by user 65534"; return 1; }
  owner=$("${as_nobody[@]}" stat -c %u:%g "$umnt")
  "${as_nobody[@]}" fusermount3 -u "$umnt" || { echo "fusermount3 -u as the user failed"; return 1; }
  await_exit
  [ "$owner" = 65534:65534 ] || { echo "the volume's root belongs to $owner, not to the user who mounted it (65534:65534)"; return 1; }
  [ "$rc" -eq 0 ] || { echo "exit status $rc after fusermount3 -u"; return 1; }
}

restore_fuse_mode() {
  [ -z "$fuse_mode" ] || chmod "$fuse_mode" /dev/fuse
  fuse_mode=
}

# A zip made by python3: read through the mount, writes refused; --writable: a file written
# through the mount is in the archive after Ctrl-C.
zip_archive() {
  local archive="$work/a.zip" made="$work/made.zip"
  python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z: z.writestr("dir/inside.txt", "archived\n")' "$archive"
  start zip "$archive" "$mnt" || { echo "not mounted"; return 1; }
  [ "$(cat "$mnt/dir/inside.txt")" = archived ] || { echo "cannot read the archive through the mount"; return 1; }
  ! (echo x > "$mnt/new") 2>/dev/null || { echo "a read-only archive took a write"; return 1; }
  stop || return 1
  start zip --writable "$made" "$mnt" || { echo "not mounted with --writable"; return 1; }
  mkdir "$mnt/d" && echo written > "$mnt/d/new.txt" || { echo "cannot write with --writable"; return 1; }
  stop || return 1
  [ "$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("d/new.txt").decode(), end="")' "$made")" = written ] \
    || { echo "the file written through the mount is not in the archive"; return 1; }
}

# cryptomator init, mount it with the password from a file, write, Ctrl-C; mounted again, what
# was written reads back; a wrong password exits 2 before anything is mounted.
cryptomator_vault() {
  local vault="$work/cryptomator"
  echo "correct horse" > "$work/cpass"
  echo "wrong horse" > "$work/cwrong"
  ./fuse-panama cryptomator init --passfile "$work/cpass" "$vault" >"$log" 2>&1 || { echo "init failed"; return 1; }
  start cryptomator --passfile "$work/cpass" "$vault" "$mnt" || { echo "not mounted"; return 1; }
  mkdir "$mnt/docs" && echo secret > "$mnt/docs/note.txt" || { echo "cannot write"; return 1; }
  stop || return 1
  ! grep -rq secret "$vault" || { echo "cleartext in the vault"; return 1; }
  rc=0
  ./fuse-panama cryptomator --passfile "$work/cwrong" "$vault" "$mnt" >"$log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { echo "exit status $rc for a wrong password"; return 1; }
  ! mounted || { echo "mounted with a wrong password"; return 1; }
  grep -q "wrong password" "$log" || { echo "no 'wrong password' message"; return 1; }
  start cryptomator --passfile "$work/cpass" --read-only "$vault" "$mnt" || { echo "not mounted again"; return 1; }
  [ "$(cat "$mnt/docs/note.txt")" = secret ] || { echo "what was written does not read back"; return 1; }
  stop
}

check memfs memfs
# Only where the user can load the libfuse under test (the matrix's builds live in root's cache).
if ! $lifecycle_only && [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null \
    && setpriv --reuid=65534 --regid=65534 --clear-groups -- test -r "${FUSE_PANAMA_LIBFUSE:-/dev/null}"; then
  check "memfs mounted by an ordinary user" memfs_as_an_ordinary_user
  restore_fuse_mode
fi
check "memfs unmounted from outside" memfs_unmounted_from_outside
check "memfs stopped by SIGTERM" memfs_terminated
if ! $lifecycle_only; then
  check mirror mirror
  check "example HelloInode" example_hello
  check vault vault
  check zip zip_archive
  check cryptomator cryptomator_vault
  outer=$mnt
  mnt="$work/new/deeper/mnt"
  check "memfs at a new mountpoint" memfs_at_a_new_mountpoint
  mnt=$outer
  check "mirror inside its source" mirror_inside_its_source
fi
crashes=$(find . /tmp -maxdepth 1 -name 'hs_err_pid*.log' -newer "$work/.start" 2>/dev/null)
if [ -n "$crashes" ]; then
  failed=$((failed + 1))
  echo "launcher smoke: the JVM crashed: $crashes" >&2
fi
echo "launcher${FUSE_PANAMA_LIBFUSE:+ on $FUSE_PANAMA_LIBFUSE}${FUSE_PANAMA_JAVA:+ with $FUSE_PANAMA_JAVA}: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
