#!/usr/bin/env bash
# Sets fuse-panama's version everywhere it is written, for a release (0.1.0) and for the
# development version after it (0.2.0-SNAPSHOT): each POM's own and parent <version> (the build's,
# the BOM's), the two projects outside the build that depend on the installed artifacts
# (fuse-panama-cryptomator/outside-app, scripts/embed-app), and the READMEs that show a dependency
# or a jar by its version. It changes only `<version>OLD</version>` and `-OLD.jar`, so a
# third-party version or the API baseline's (fusepanama.api.baseline, RELEASING.md) is left alone;
# any other mention of OLD left in those files is listed to be looked at. CHANGELOG.md is edited by
# hand.
# Usage: scripts/set-version.sh NEW_VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] && [[ "$1" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-SNAPSHOT)?$ ]] \
  || { echo "usage: scripts/set-version.sh MAJOR.MINOR.PATCH[-SNAPSHOT]" >&2; exit 2; }
new=$1
# The build's version: the root POM's own, the first <version> after its artifactId.
old=$(sed -n '/<artifactId>fuse-panama-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p;q}' pom.xml)
[ -n "$old" ] || { echo "set-version: no <version> after fuse-panama-parent's artifactId in pom.xml" >&2; exit 1; }
[ "$old" != "$new" ] || { echo "set-version: the version is $new already" >&2; exit 1; }
files=$(git ls-files '*pom.xml' '*README.md')
quoted=${old//./\\.}
# shellcheck disable=SC2086
sed -i -e "s|<version>$quoted</version>|<version>$new</version>|g" -e "s|-$quoted\.jar|-$new.jar|g" $files
changed=$(git diff --name-only -- $files)
[ -n "$changed" ] || { echo "set-version: $old is written nowhere it looks" >&2; exit 1; }
echo "set-version: $old -> $new in:"
echo "$changed" | sed 's/^/  /'
# shellcheck disable=SC2086
if left=$(grep -n -F -- "$old" $files); then
  echo "set-version: $old is still mentioned here; check that each is meant:"
  echo "$left" | sed 's/^/  /'
fi
# target/ still holds the old version's jars, and target/lib (the launcher's class path) copies of
# them beside the new ones: the launcher and the bench would mix both until they are removed.
echo "set-version: run 'mvn clean' before the next build: target/ holds $old's jars"
