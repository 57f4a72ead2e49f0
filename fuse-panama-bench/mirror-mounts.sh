# Sourced by compare-mirror and request-phases: builds what they run, mounts a tmpfs source, starts
# the filesystems over it and takes everything down again on exit, also on failure.
#   mm_setup NAME SIZE   builds the bench module and native/, sets $client, $cp and $mirror (the
#                        Java mirror's command, before its options), makes $work (a /tmp
#                        directory) with the tmpfs source $src (NAME, SIZE as for tmpfs), and
#                        traps EXIT with mm_cleanup
#   mm_start             starts ${commands[i]} on mount point $work/mnt<i> for every ${names[i]},
#                        each with a scratch directory $src/w<i>, and waits until all are mounted
#                        (30 s); fills $pids and $mnts
# A caller with more to undo sets mm_before_cleanup to a function that is run first.
# Needs $repo (the checkout) and a JDK chosen by scripts/jdk.sh.

pids=()
mnts=()
mm_before_cleanup=:

mm_cleanup() {
  "$mm_before_cleanup" || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # The filesystems hold the source open: it can be unmounted once they have exited.
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for m in "${mnts[@]}"; do grep -q " $m " /proc/mounts && fusermount3 -u -z "$m" 2>/dev/null; done
  if [ -n "${src:-}" ] && grep -q " $src " /proc/mounts; then
    umount "$src" 2>/dev/null || umount -l "$src"
  fi
  [ -n "${work:-}" ] && rm -rf "$work"
}

mm_setup() {
  (cd "$repo" && mvn -B -q -ntp -DskipTests package -pl fuse-panama-bench -am) >&2
  "$repo/native/build-bench.sh" >&2
  client="$repo/native/build/fsclient"
  cp="$repo/fuse-panama-bench/target/classes:$repo/fuse-panama-bench/target/lib/*"
  # A fixed number of JIT compiler threads: with more CPUs than here the JVM ends idle ones, and
  # the CPU of a thread that has exited is missing from its process's per-thread schedstat.
  mirror="$JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx32m -XX:-UseDynamicNumberOfCompilerThreads -cp $cp dev.fusepanama.examples.Main mirror"
  work=$(mktemp -d "/tmp/$1-XXXXXX")
  trap mm_cleanup EXIT
  src="$work/src"
  mkdir "$src"
  mount -t tmpfs -o "size=$2" "$1" "$src"
}

mm_start() {
  local i m
  for i in "${!names[@]}"; do
    m="$work/mnt$i"
    mkdir "$m"
    mnts+=("$m")
    mkdir -p "$src/w$i" && echo x > "$src/w$i/file"
    # shellcheck disable=SC2086
    ${commands[$i]} "$m" >"$work/log$i" 2>&1 &
    pids+=($!)
  done
  for i in "${!names[@]}"; do
    for _ in $(seq 1 300); do grep -q " ${mnts[$i]} " /proc/mounts && break; sleep 0.1; done
    grep -q " ${mnts[$i]} " /proc/mounts || { echo "${names[$i]} did not mount:"; cat "$work/log$i"; exit 1; }
  done
}
