#!/usr/bin/env bash
# The class-data archive of the server that server/target holds (docs/DEPLOYMENT.md, "Start-up"):
# made by `sluice archive-classes` when it is missing, older than the jars or server/jvm.options,
# or made by another Java; then prints its path (SLUICE_CLASS_ARCHIVE=off: nothing; =FILE: FILE). ./sluice
# runs it before each start, bench/run.sh after its build. A training that fails leaves an empty
# archive, which the JVM ignores, until the next build; delete it to try again.
#   scripts/class-archive.sh        (once the server is built)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${SLUICE_CLASS_ARCHIVE:-}" in
  off) exit 0 ;;
  ?*) echo "$SLUICE_CLASS_ARCHIVE" && exit 0 ;; # a file of one's own: used as it is
esac
# The project's version, from the root POM (its first <version> is the project's own).
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
target="$root/server/target"
jar="$target/sluice-server-$version.jar"
archive="$target/sluice-server-$version.jsa"
# Which Java made it: the java on the PATH, as the launcher runs it, and its class library.
java_bin="$(readlink -f "$(command -v java)")"
made_by="$java_bin $(stat -Lc '%s %Y' "${java_bin%/bin/java}/lib/modules" 2>/dev/null || true)"
if [ ! -f "$archive" ] || [ "$(cat "$archive.jdk" 2>/dev/null || true)" != "$made_by" ] ||
  [ -n "$(find "$jar" "$target/lib" "$root/server/jvm.options" -newer "$archive" -print -quit)" ]; then
  echo "sluice: recording the classes a server start loads, once per build (about 10 s)…" >&2
  jvm_options="$(sed -e 's/#.*//' "$root/server/jvm.options" | tr '\n' ' ')"
  # shellcheck disable=SC2086 # word splitting of the flag list is intended
  if ! java $jvm_options -cp "$jar:$target/lib/*" dev.sluice.Main archive-classes --output "$archive" >&2; then
    echo "sluice: no class archive this time: starting as usual, without one" >&2
    rm -f "$archive" && : >"$archive"
  fi
  echo "$made_by" >"$archive.jdk"
fi
echo "$archive"
