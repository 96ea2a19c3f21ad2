# Sourced by ./jwarp, ./run-tests and .ci/run: sets JAVA_HOME to a JDK 25 or newer.
# Order: $JAVA_HOME if it is 25+, else the newest JDK 25+ under /usr/lib/jvm
# (JWARP_JVM_DIR overrides that folder, e.g. for a JDK unpacked elsewhere).
# On failure prints one line naming what to do and returns 1.

jwarp_jdk_major() {
  # Prints the feature version of the JDK at $1 (e.g. 25), or nothing if $1 is not a JDK.
  local home=$1 v=""
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  if [ -r "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "$v" ]; then
    v=$("$home/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
  fi
  printf '%s' "$v"
}

jwarp_find_jdk() {
  local need=25 major best="" best_major=0 d jvms=${JWARP_JVM_DIR:-/usr/lib/jvm}
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(jwarp_jdk_major "$JAVA_HOME")
    if [ -n "$major" ] && [ "$major" -ge "$need" ]; then
      export JAVA_HOME
      return 0
    fi
  fi
  for d in "$jvms"/*; do
    [ -d "$d" ] || continue
    major=$(jwarp_jdk_major "$d")
    if [ -n "$major" ] && [ "$major" -ge "$need" ] && [ "$major" -gt "$best_major" ]; then
      best=$d best_major=$major
    fi
  done
  if [ -z "$best" ]; then
    echo "jwarp: no JDK $need found (JAVA_HOME=${JAVA_HOME:-unset} is not $need+, and $jvms has none): install a JDK $need+ or set JAVA_HOME to one" >&2
    return 1
  fi
  export JAVA_HOME=$(readlink -f "$best")
  return 0
}
