# Sourced by the project's scripts: exports JAVA_HOME (and PATH) for a JDK >= 22, the first
# release where the Foreign Function & Memory API is final. Looks at $JAVA_HOME first, then at
# every JDK under /usr/lib/jvm, and picks the newest that qualifies. Never trusts `java` on PATH.

fp_java_major() { # prints the major version of the JDK at $1, or nothing
  local release="$1/release" v
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -f "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)
  fi
  echo "$v"
}

fp_find_jdk() {
  local best="" best_v=0 dir v
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(fp_java_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 22 ]; then echo "$JAVA_HOME"; return 0; fi
    echo "note: JAVA_HOME=$JAVA_HOME is ${v:-not a JDK}; looking for JDK 22+ under /usr/lib/jvm" >&2
  fi
  for dir in /usr/lib/jvm/*; do
    [ -L "$dir" ] && continue
    v=$(fp_java_major "$dir")
    if [ -n "$v" ] && [ "$v" -ge 22 ] && [ "$v" -gt "$best_v" ]; then best=$dir; best_v=$v; fi
  done
  if [ -z "$best" ]; then
    echo "error: fuse-panama needs a JDK 22 or newer (FFM is final there); none found in JAVA_HOME or /usr/lib/jvm." >&2
    echo "       Install one (e.g. Temurin 25 from adoptium.net) and set JAVA_HOME to it." >&2
    return 1
  fi
  echo "$best"
}

fp_use_jdk() {
  local jdk
  jdk=$(fp_find_jdk) || return 1
  export JAVA_HOME="$jdk"
  export PATH="$JAVA_HOME/bin:$PATH"
  # Maven 3.8 touches sun.misc.Unsafe; JDK 24+ warns about it unless allowed.
  if [ "$(fp_java_major "$JAVA_HOME")" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in *sun-misc-unsafe*) ;; *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac
  fi
}
