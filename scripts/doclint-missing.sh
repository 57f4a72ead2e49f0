#!/usr/bin/env bash
# Counts the javadoc warnings of a module's exported API under doclint "all", missing included
# (the build itself runs "all,-missing"): one line per source file, the most warnings first, then
# the total. Only what the module exports is read, as in the javadoc jar: *.internal.* is not.
#   scripts/doclint-missing.sh [module-dir] [maven args...]
# module-dir defaults to fuse-panama-core; the Maven arguments (e.g. -o,
# -Dmaven.repo.local=...) go to the dependency:build-classpath call that finds the module's
# compile dependencies, so these must be installed first (mvn install -DskipTests -pl <module> -am).
# -v prints every warning too. Exits 0 when there are none, 1 when there are some, 2 on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
fp_use_jdk || exit 2
verbose=0
if [ "${1:-}" = -v ]; then verbose=1; shift; fi
module_dir=fuse-panama-core
if [ $# -gt 0 ] && [ -d "$1" ]; then module_dir=${1%/}; shift; fi
src="$module_dir/src/main/java"
[ -f "$src/module-info.java" ] || { echo "doclint-missing: no $src/module-info.java" >&2; exit 2; }
module=$(sed -n 's/^[[:space:]]*\(open[[:space:]]\+\)\?module[[:space:]]\+\([A-Za-z0-9_.]*\).*/\2/p' "$src/module-info.java" | head -n1)
work=$(mktemp -d /tmp/fuse-panama-doclint-XXXXXX)
trap 'rm -rf "$work"' EXIT
if ! mvn -q -pl "$module_dir" dependency:build-classpath -DincludeScope=compile \
    -Dmdep.outputFile="$work/cp.txt" "$@" >"$work/mvn.log" 2>&1; then
  echo "doclint-missing: could not resolve the compile dependencies of $module_dir:" >&2
  tail -n 30 "$work/mvn.log" >&2
  exit 2
fi
javadoc -quiet -Xdoclint:all -Xmaxwarns 100000 -Xmaxerrs 100000 -d "$work/out" \
  --module-path "$(cat "$work/cp.txt")" --module-source-path "$module=$src" --module "$module" \
  >"$work/javadoc.log" 2>&1
status=$?
[ "$verbose" = 1 ] && cat "$work/javadoc.log"
if grep -q ': error:' "$work/javadoc.log" || { [ "$status" -ne 0 ] && ! grep -q ': warning:' "$work/javadoc.log"; }; then
  grep -A3 ': error:' "$work/javadoc.log" >&2 || tail -n 30 "$work/javadoc.log" >&2
  echo "doclint-missing: javadoc failed" >&2
  exit 2
fi
grep -E '\.java:[0-9]+: warning:' "$work/javadoc.log" | sed -E "s#^(.*/)?$src/##; s#:[0-9]+: warning:.*##" \
  | sort | uniq -c | sort -k1,1nr -k2 >"$work/counts"
cat "$work/counts"
total=$(awk '{ n += $1 } END { print n + 0 }' "$work/counts")
echo "$total doclint warnings in $module_dir ($module)"
[ "$total" -eq 0 ]
