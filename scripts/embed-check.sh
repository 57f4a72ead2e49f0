#!/usr/bin/env bash
# The README's "Embed it" as a new user follows it: the install command it gives, run into an
# empty local Maven repository, then scripts/embed-app (a project outside this build that imports
# only fuse-panama-bom and depends on the core and the test kit) built and tested against that
# repository; its tests mount, list, read and unmount. Root only (it mounts); needs Maven Central.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
fp_use_jdk
work=$(mktemp -d /tmp/fuse-panama-embed-XXXXXX)
trap 'rm -rf "$work"' EXIT
repo="$work/repository"
# The command the README gives, word for word but for the empty repository.
install=$(awk '/^## Embed it/ { on = 1 } on && /^JAVA_HOME=/ { sub(/^JAVA_HOME=[^ ]* /, ""); cmd = $0; getline; cmd = cmd "\n" $0; print cmd; exit }' README.md | sed 's/\\$//' | tr -d '\n')
[ -n "$install" ] || { echo "embed check: no install command under the README's \"Embed it\"" >&2; exit 1; }
echo "=== the README's install, into an empty local repository: $install"
start=$(date +%s)
if ! eval "$install -q -ntp -Dmaven.repo.local=$repo" >"$work/install.log" 2>&1; then
  echo "embed check: the README's install command failed:" >&2
  tail -n 40 "$work/install.log" >&2
  exit 1
fi
echo "installed in $(( $(date +%s) - start )) s: $(cd "$repo" && ls -d dev/fusepanama/*/ | xargs -n1 basename | paste -sd' ')"
cp -r scripts/embed-app "$work/app"
if ! (cd "$work/app" && mvn -B -ntp -Dmaven.repo.local="$repo" test) >"$work/app.log" 2>&1; then
  echo "embed check: the outside project failed against the installed artifacts:" >&2
  tail -n 60 "$work/app.log" >&2
  exit 1
fi
grep -E "Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: 0$" "$work/app.log" | tail -n 1 | sed 's/^\[INFO\] /embed check: /'
grep -qE "Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0$" "$work/app.log" \
  || { echo "embed check: the outside project ran no tests, or skipped some" >&2; tail -n 40 "$work/app.log" >&2; exit 1; }
