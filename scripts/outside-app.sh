#!/usr/bin/env bash
# The Cryptomator provider as an application outside this repository gets it: installs
# fuse-panama-libc, -core, -nio and -cryptomator into the local Maven repository, builds
# fuse-panama-cryptomator/outside-app (a project of its own that depends on the installed
# artifacts and on cryptofs) in a temporary copy, and runs it on the class path, on the module
# path, and as Cryptomator loads plugins: without fuse-panama's jars, with the module's plugin jar
# alone in a folder named by -Dcryptomator.pluginDir. Each time MountService.get() must find our
# provider, which mounts a new cryptofs vault, and a file written through the mount must read
# back through cryptofs. Root only (it mounts).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
fp_use_jdk
work=$(mktemp -d /tmp/fuse-panama-outside-XXXXXX)
cleanup() {
  for m in "$work"/m-*; do grep -q " $m " /proc/mounts && umount -l "$m"; done
  rm -rf "$work"
}
trap cleanup EXIT
mvn -B -q -ntp install -DskipTests -Dmaven.javadoc.skip=true -pl fuse-panama-core,fuse-panama-nio,fuse-panama-cryptomator -am \
  || { echo "outside app: installing the artifacts failed" >&2; exit 1; }
cp -r fuse-panama-cryptomator/outside-app "$work/app"
(cd "$work/app" && mvn -B -q -ntp package dependency:build-classpath -Dmdep.outputFile=cp.txt) \
  || { echo "outside app: it does not build against the installed artifacts" >&2; exit 1; }
cp="$work/app/target/outside-app-1.jar:$(cat "$work/app/cp.txt")"
# What Cryptomator ships itself (integrations-api, cryptofs, SLF4J) and the app: no fuse-panama jar.
app_only=$(tr ':' '\n' <<<"$cp" | grep -v '/dev/fusepanama/' | paste -sd:)
grep -q fusepanama <<<"$app_only" && { echo "outside app: fuse-panama jars left on the plugin run's class path" >&2; exit 1; }
mkdir "$work/plugins"
cp fuse-panama-cryptomator/target/fuse-panama-cryptomator-*-plugin.jar "$work/plugins/"
failed=0
for how in class module plugin; do
  path=$how
  case "$how" in
    class) run=(-cp "$cp" app.Main) ;;
    module) run=(--enable-native-access=dev.fusepanama,dev.fusepanama.libc --module-path "$cp" -m app/app.Main) ;;
    plugin) run=(-Dcryptomator.pluginDir="$work/plugins" -cp "$app_only" app.Main) path=class ;;
  esac
  if out=$(timeout 120 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${run[@]}" "$work/v-$how" "$work/m-$how" 2>&1) \
      && grep -q "^outside app: .* ($path path), mounted, read back" <<<"$out"; then
    grep "^outside app:" <<<"$out"
  else
    echo "outside app ($how) failed:" >&2
    echo "$out" >&2
    failed=1
  fi
done
exit $failed
