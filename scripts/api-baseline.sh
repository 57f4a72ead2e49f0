#!/usr/bin/env bash
# Writes the API baseline the build compares the published modules with (japicmp, at verify): the
# main jars of fuse-panama-libc, -core, -testkit, -nio, -vault and -cryptomator, built from this
# checkout, into api-baseline/VERSION/, and VERSION into the parent POM's fusepanama.api.baseline.
# An older baseline is removed: the build compares with one release, the last (git keeps the
# others). Run it on the release's commit, its version set (scripts/set-version.sh), before
# tagging, and commit what it changes (RELEASING.md). Takes about a minute; mounts nothing.
# Usage: scripts/api-baseline.sh   (extra arguments go to Maven, e.g. -o)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
fp_use_jdk
modules=(fuse-panama-libc fuse-panama-core fuse-panama-testkit fuse-panama-nio fuse-panama-vault fuse-panama-cryptomator)
version=$(sed -n '/<artifactId>fuse-panama-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p;q}' pom.xml)
case "$version" in
  '' | *-SNAPSHOT)
    echo "api-baseline: the version is '${version}': a baseline is a release's API; set the release's version first (scripts/set-version.sh)" >&2
    exit 1 ;;
esac
# The jars as a release builds them; the comparison itself is left out, as the baseline it would
# read is the one being written.
mvn -B -q -ntp package -DskipTests -Djapicmp.skip -Dmaven.javadoc.skip -Dmaven.source.skip \
  -pl "$(IFS=,; echo "${modules[*]}")" -am "$@"
rm -rf api-baseline
mkdir -p "api-baseline/$version"
for m in "${modules[@]}"; do
  cp "$m/target/$m-$version.jar" "api-baseline/$version/"
done
sed -i "s|<fusepanama.api.baseline>[^<]*</fusepanama.api.baseline>|<fusepanama.api.baseline>$version</fusepanama.api.baseline>|" pom.xml
grep -q "<fusepanama.api.baseline>$version</fusepanama.api.baseline>" pom.xml \
  || { echo "api-baseline: pom.xml has no fusepanama.api.baseline property to set" >&2; exit 1; }
echo "api-baseline: api-baseline/$version/ ($(du -sh "api-baseline/$version" | cut -f1)):"
ls -l "api-baseline/$version" | tail -n +2 | awk '{ printf "  %8d  %s\n", $5, $9 }'
