#!/usr/bin/env bash
# The Cryptomator provider as an application outside this repository gets it: installs
# fuse-panama-libc, -core, -nio and -cryptomator into the local Maven repository, builds
# fuse-panama-cryptomator/outside-app (a project of its own that depends on the installed
# artifacts and on cryptofs) in a temporary copy, and runs it on the class path and on the
# module path: MountService.get() must find our provider, which mounts a new cryptofs vault, a
# file written through the mount must read back through cryptofs. Root only (it mounts).
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
failed=0
for how in class module; do
  if [ "$how" = class ]; then
    run=(-cp "$cp" app.Main)
  else
    run=(--enable-native-access=dev.fusepanama,dev.fusepanama.libc --module-path "$cp" -m app/app.Main)
  fi
  if out=$(timeout 120 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${run[@]}" "$work/v-$how" "$work/m-$how" 2>&1) \
      && grep -q "^outside app: .* ($how path), mounted, read back" <<<"$out"; then
    grep "^outside app:" <<<"$out"
  else
    echo "outside app on the $how path failed:" >&2
    echo "$out" >&2
    failed=1
  fi
done
exit $failed
