#!/usr/bin/env bash
# Runs fstests (xfstests, the suite the kernel's filesystem developers run) on fuse-panama's
# filesystems, with a kernel tmpfs as the baseline, and checks each result against
# the filesystem's list of expected failures (scripts/fstests/expected-NAME.txt: each entry says
# why). Fails on a failure not on the list, and says which; a listed test that passes is reported
# so that its entry can go. Usage (root):
#   scripts/fstests/run.sh [--summary FILE] [--record-baseline] [FILESYSTEM...] [-- TEST...]
#   scripts/fstests/run.sh --build   (builds it only, and prints the build's directory: the stress
#                                     suite runs its ltp/fsstress and ltp/fsx)
# FILESYSTEMs: tmpfs, memfs, mirror (of a tmpfs), zip (default: tmpfs memfs mirror). TESTs: fstests names
# (default generic/001 to generic/200, those of them the pinned fstests has).
# The baseline is what a kernel tmpfs passes: from tmpfs's run beside the others when it is one of
# the FILESYSTEMs, else as recorded in scripts/fstests/baseline-tmpfs.txt, which --record-baseline
# (with tmpfs and the default tests) writes again from its run. ./test runs memfs and the mirror
# against the record: tmpfs's results depend on the kernel, not on this code, and its run took a
# third of the 2 cores the others need.
# fstests is not on a package registry: its pinned source is at ../shared/fstests/ beside the
# checkout (or FUSE_PANAMA_FSTESTS_SOURCE), built once into the cache. Without that folder, or
# without root, the run is skipped and says so. As root on Debian/Ubuntu it installs the packages
# fstests needs, creates its users (fsgqa, fsgqa2, 123456-fsgqa), and installs mount(8) helpers
# /sbin/mount.fuse.fusepanama-* (scripts/fstests/mount-helper) for the run only.
# FUSE_PANAMA_FSTESTS_TIMEOUT (seconds, default 1500) bounds each filesystem's run.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
summary=/dev/stdout
build_only=false
if [ "${1:-}" = --build ]; then build_only=true summary=/dev/stderr; shift; fi
if [ "${1:-}" = --summary ]; then summary=$2; shift 2; fi
record=false
if [ "${1:-}" = --record-baseline ]; then record=true; shift; fi
filesystems=() tests=()
while [ $# -gt 0 ]; do
  [ "$1" = -- ] && { shift; tests=("$@"); break; }
  filesystems+=("$1"); shift
done
[ ${#filesystems[@]} -gt 0 ] || filesystems=(tmpfs memfs mirror)

version=v2026.01.05
tarball_sha=2ad5efae6f35e9dca2f2b524c9c942cbb13f6777108a2a22bb1258879733b51a
source=${FUSE_PANAMA_FSTESTS_SOURCE:-$repo/../shared/fstests}
say() {
  if $build_only; then printf '%s\n' "$*" >&2; return; fi
  printf '%s\n' "$*"; [ "$summary" = /dev/stdout ] || printf '%s\n' "$*" >>"$summary"
}
if [ "$(id -u)" -ne 0 ]; then
  say "  fstests: skipped: it mounts and switches users, so it needs root"
  exit 0
fi
if [ ! -f "$source/fstests-$version.tar.gz" ]; then
  say "  fstests: skipped: its pinned source is not at $source (fstests-$version.tar.gz; set FUSE_PANAMA_FSTESTS_SOURCE)"
  exit 0
fi
if ! echo "$tarball_sha  $source/fstests-$version.tar.gz" | sha256sum -c --quiet - >/dev/null 2>&1; then
  say "  fstests: FAILED: $source/fstests-$version.tar.gz is not the pinned source (sha256 differs)"
  exit 1
fi

# What fstests' build and tests need (gawk: its scripts need asort, which mawk lacks).
packages=(xfsprogs xfslibs-dev uuid-dev libtool-bin e2fsprogs automake gcc make libacl1-dev libaio-dev
  libgdbm-dev libattr1-dev libcap-dev liburing-dev attr acl bc dbench dump psmisc fio quota gawk)
if command -v dpkg >/dev/null && command -v apt-get >/dev/null; then
  need=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
  if [ ${#need[@]} -gt 0 ]; then
    echo "fstests: installing ${need[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
      || { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; } \
      || { say "  fstests: FAILED: could not install ${need[*]}"; exit 1; }
  fi
fi
for user in fsgqa fsgqa2 123456-fsgqa; do
  id "$user" >/dev/null 2>&1 || useradd -m "$user" || { say "  fstests: FAILED: could not add user $user"; exit 1; }
done

# Built once per source and patch: the patch lets a cycle mount of an in-memory FUSE filesystem be
# a remount, as fstests does for tmpfs (see its README).
patch_sha=$(sha256sum "$source/volatile-fuse.patch" | cut -c1-12)
home=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
tree=${XDG_CACHE_HOME:-$home/.cache}/fuse-panama/fstests-$version-$patch_sha
if [ ! -e "$tree/.built" ]; then
  echo "=== building fstests $version (once, into $tree)" >&2
  rm -rf "$tree" && mkdir -p "$tree"
  if ! (tar -xzf "$source/fstests-$version.tar.gz" -C "$tree" --strip-components=1 \
        && cd "$tree" && patch -s -p0 <"$source/volatile-fuse.patch" && make -j"$(nproc)") >"$tree.log" 2>&1; then
    tail -20 "$tree.log" >&2
    say "  fstests: FAILED: its build failed (log: $tree.log)"
    exit 1
  fi
  touch "$tree/.built"
fi
if $build_only; then
  echo "$tree"
  exit 0
fi
all_tests=false
if [ ${#tests[@]} -eq 0 ]; then
  all_tests=true
  for i in $(seq -w 1 200); do [ -f "$tree/tests/generic/$i" ] && tests+=("generic/$i"); done
fi

# Outside /tmp: each run gets a /tmp of its own (below), and the runs' mounts live in here.
work=$(mktemp -d /var/tmp/fuse-panama-fstests-XXXXXX)
chmod 755 "$work" # fstests runs some of its checks as its users (fsgqa), who must reach the mounts
helpers=()
status=0
cleanup() {
  local m
  for m in $(awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
  pkill -f -- "$work/" 2>/dev/null
  rm -f "${helpers[@]}"
  if [ "$status" -eq 0 ]; then
    rm -rf "$work"
  else # what fstests wrote stays for a look: its output, and each test's .out.bad and .full
    rm -rf "$work"/*/test "$work"/*/scratch "$work"/*/sources
    echo "fstests: its results stay in $work" >&2
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for name in memfs mirror zip; do
  helper=/sbin/mount.fuse.fusepanama-$name
  printf '#!/bin/sh\n# fuse-panama: installed by %s for its run, removed after it\nexec %q %s "$@"\n' \
    "$repo/scripts/fstests/run.sh" "$repo/scripts/fstests/mount-helper" "$name" >"$helper"
  chmod +x "$helper"
  helpers+=("$helper")
done

# The filesystems' runs go side by side, about two thirds of the time of one after another on 2
# cores. Each runs in a mount namespace of its own: fstests' df and stat of every mount would
# otherwise hold another run's mount for a moment, and its unmount would fail as busy. Each has
# its own results and fstests' temporary names (they carry its process id). What a run leaves
# mounted is unmounted in its namespace at its end. FUSE_PANAMA_FSTESTS_SERIAL=1 runs them one
# after another.
timeout_s=${FUSE_PANAMA_FSTESTS_TIMEOUT:-1500}
# The tests a run leaves out, each with its reason: those none of these filesystems can run
# (scripts/fstests/skip-all.txt) and those its filesystem leaves out (skip-NAME.txt), of the tests
# asked for. FUSE_PANAMA_FSTESTS_ALL=1 runs them too. Each prints them comma-separated.
listed() { # LIST: the tests asked for that skip-LIST.txt names
  grep -oE '^generic/[0-9]+' "$repo/scripts/fstests/skip-$1.txt" 2>/dev/null \
    | grep -xF -f <(printf '%s\n' "${tests[@]}") | paste -sd, - || true
}
left_out() { # FS: every test FS's run leaves out, for check's -e
  [ "${FUSE_PANAMA_FSTESTS_ALL:-0}" = 1 ] && return
  { listed all; listed "$1"; } | paste -sd, - | sed 's/^,//; s/,$//'
}
run_check() { # FS: fstests on FS, its output in $work/FS/check.out, its exit and time in $work/FS/ended
  local fs=$1 dir=$work/$1 start=$SECONDS skip
  skip=$(left_out "$fs")
  # fstests runs from its own tree; stdin closed, as some of its tests read it. Each run has a /tmp
  # of its own (a tmpfs in its mount namespace): generic/100 builds its tree in /tmp/populate_root,
  # a fixed name, and the runs side by side removed each other's (the mirror's copy then lacked it).
  (cd "$tree" && HOST_OPTIONS=$dir/config timeout -k 30 "$timeout_s" unshare --mount --propagation private \
    bash -c 'mount -t tmpfs -o mode=1777 fstests-tmp /tmp || exit 99
      ./check "${@:2}"; rc=$?
      for m in $(awk -v d="$1/" "index(\$2, d) == 1 { print \$2 }" /proc/mounts | sort -r); do
        umount "$m" 2>/dev/null || umount -l "$m"
      done
      exit $rc' check "$dir" ${skip:+-e "$skip"} "${tests[@]}" </dev/null 2>&1) \
    | tee "$dir/check.out" | sed -u -n "s/^generic\//  [$fs] generic\//p"
  echo "${PIPESTATUS[0]} $((SECONDS - start))" >"$dir/ended"
}
pids=()
for fs in "${filesystems[@]}"; do
  dir=$work/$fs
  mkdir -p "$dir/test" "$dir/scratch" "$dir/results"
  {
    echo "export TEST_DIR=$dir/test SCRATCH_MNT=$dir/scratch RESULT_BASE=$dir/results"
    echo "export FUSE_PANAMA_FSTESTS_LOG=$dir/filesystem.log"
    case "$fs" in
      tmpfs) echo "export FSTYP=tmpfs TEST_DEV=fstests-tmpfs-test SCRATCH_DEV=fstests-tmpfs-scratch" ;;
      memfs) echo "export FSTYP=fuse FUSE_SUBTYP=.fusepanama-memfs FUSE_VOLATILE=yes TEST_DEV=fstests-memfs-test SCRATCH_DEV=fstests-memfs-scratch" ;;
      mirror) # of directories on a tmpfs of its own, as the mirror's pjdfstest run
        mkdir -p "$dir/sources" && mount -t tmpfs fstests-mirror-sources "$dir/sources" \
          && mkdir "$dir/sources/test" "$dir/sources/scratch" || { say "  fstests: could not mount the mirror's tmpfs"; status=1; continue; }
        echo "export FSTYP=fuse FUSE_SUBTYP=.fusepanama-mirror TEST_DEV=mirror:$dir/sources/test SCRATCH_DEV=mirror:$dir/sources/scratch" ;;
      zip) echo "export FSTYP=fuse FUSE_SUBTYP=.fusepanama-zip TEST_DEV=zip:$dir/test.zip SCRATCH_DEV=zip:$dir/scratch.zip" ;;
      *) say "  fstests: no filesystem $fs (tmpfs, memfs, mirror, zip)"; status=1; continue ;;
    esac
  } >"$dir/config"
  echo "=== fstests on $fs: ${#tests[@]} tests (${tests[0]} to ${tests[-1]})"
  if [ "${FUSE_PANAMA_FSTESTS_SERIAL:-0}" = 1 ]; then
    run_check "$fs"
  else
    run_check "$fs" &
    pids+=($!)
  fi
done
[ ${#pids[@]} -eq 0 ] || wait "${pids[@]}"

# Each filesystem's result against its list. The filesystems' own failures ("NAME TEST"), and
# the tests tmpfs ran, for the baseline comparison.
declare -A failed tmpfs_ran
for fs in "${filesystems[@]}"; do
  dir=$work/$fs
  [ -f "$dir/config" ] || continue
  expected=$repo/scripts/fstests/expected-$fs.txt
  read -r rc took <"$dir/ended" 2>/dev/null || { rc=1 took=0; }
  # fstests' "Ran:" names every test it tried, those that did not run among them.
  notrun_list=" $(sed -n 's/^Not run: //p' "$dir/check.out") "
  ran_list=$(for t in $(sed -n 's/^Ran: //p' "$dir/check.out"); do
    case "$notrun_list" in *" $t "*) ;; *) echo "$t" ;; esac; done)
  ran=$(wc -w <<<"$ran_list")
  notrun=$(wc -w <<<"$notrun_list")
  fails=$(sed -n 's/^Failures: //p' "$dir/check.out")
  for t in $fails; do failed[$fs $t]=1; done
  if [ "$fs" = tmpfs ]; then
    for t in $ran_list; do tmpfs_ran[$t]=1; done
  fi
  unexpected=() now_pass=()
  for t in $fails; do
    grep -qE "^$t([[:space:]]|$)" "$expected" 2>/dev/null || unexpected+=("$t")
  done
  if [ -f "$expected" ]; then
    for t in $(grep -oE '^generic/[0-9]+' "$expected"); do
      case " $fails " in *" $t "*) continue ;; esac
      grep -qx "$t" <<<"$ran_list" && now_pass+=("$t")
    done
  fi
  line=$(printf 'fstests on %-7s %3d ran, %3d not run, %2d failed (%d expected), in %d s' \
    "$fs" "$ran" "$notrun" "$(wc -w <<<"$fails")" "$(( $(wc -w <<<"$fails") - ${#unexpected[@]} ))" "$took")
  if [ "${FUSE_PANAMA_FSTESTS_ALL:-0}" != 1 ]; then
    skip=$(listed all)
    [ -z "$skip" ] || line+="; left out: $(tr , '\n' <<<"$skip" | wc -l) that none here can run (skip-all.txt)"
    skip=$(listed "$fs")
    [ -z "$skip" ] || line+=", ${skip//,/ } (skip-$fs.txt)"
  fi
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    line+="; TIMED OUT after $timeout_s s"; status=1
  elif [ "$ran" -eq 0 ]; then
    line+="; NOTHING RAN (exit $rc; see $dir/check.out)"; status=1
    tail -20 "$dir/check.out" >&2
  fi
  if [ ${#unexpected[@]} -gt 0 ]; then
    line+="; UNEXPECTED: ${unexpected[*]}"; status=1
    for t in "${unexpected[@]}"; do
      echo "--- $fs $t: $(head -c 3000 "$dir/results/$t.out.bad" 2>/dev/null | diff <(cat "$tree/tests/$t.out") - | head -30)" >&2
    done
  fi
  [ ${#now_pass[@]} -eq 0 ] || line+="; passes now, though listed: ${now_pass[*]}"
  say "  $line"
done

say "  fstests took $SECONDS s in all (build, ${filesystems[*]})"

# The recorded baseline: written from this run's tmpfs when asked, read when tmpfs did not run.
baseline_file=$repo/scripts/fstests/baseline-tmpfs.txt baseline=
case " ${filesystems[*]} " in
  *" tmpfs "*)
    if $record && $all_tests && [ "${FUSE_PANAMA_FSTESTS_ALL:-0}" != 1 ] && [ -f "$work/tmpfs/ended" ]; then
      {
        echo "# The fstests a kernel tmpfs passed, recorded by scripts/fstests/run.sh --record-baseline tmpfs"
        echo "# ($version, generic/001 to generic/200) on kernel $(uname -r) $(uname -m), $(date -u +%F). The run"
        echo "# compares memfs's and the mirror's failures with it when tmpfs is not run beside them."
        echo "kernel $(uname -r)"
        for t in "${!tmpfs_ran[@]}"; do [ -z "${failed[tmpfs $t]:-}" ] && echo "$t"; done | sort
      } >"$baseline_file"
      say "  fstests: tmpfs's baseline recorded in scripts/fstests/baseline-tmpfs.txt (${#tmpfs_ran[@]} ran)"
    elif $record; then
      say "  fstests: --record-baseline records only a run of the default tests without FUSE_PANAMA_FSTESTS_ALL"; status=1
    fi
    baseline="in this run" ;;
  *)
    if [ -f "$baseline_file" ]; then
      recorded=$(sed -n 's/^kernel //p' "$baseline_file")
      for t in $(grep -oE '^generic/[0-9]+' "$baseline_file"); do tmpfs_ran[$t]=1; done
      baseline="as recorded on kernel $recorded"
      [ "$recorded" = "$(uname -r)" ] || baseline+=", not this one ($(uname -r)): run.sh --record-baseline tmpfs records it here"
    fi ;;
esac
# Failures of a FUSE filesystem that the kernel's tmpfs passed (the baseline).
case "$baseline" in
  ?*)
    for fs in "${filesystems[@]}"; do
      [ "$fs" = tmpfs ] && continue
      worse=()
      for key in "${!failed[@]}"; do
        [ "${key%% *}" = "$fs" ] || continue
        t=${key#* }
        [ -n "${tmpfs_ran[$t]:-}" ] && [ -z "${failed[tmpfs $t]:-}" ] && worse+=("$t")
      done
      [ ${#worse[@]} -eq 0 ] || say "    $fs fails what tmpfs passed ($baseline): $(printf '%s\n' "${worse[@]}" | sort | tr '\n' ' ')"
    done ;;
esac
exit $status
