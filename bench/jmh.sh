#!/usr/bin/env bash
# Builds the server and this module (SKIP_BUILD=1 reuses server/target and bench/target) and runs
# the JMH micro-benchmarks of dev.sluice.bench.micro: each hot path next to its baseline, in one run.
# Results: bench/results/<name>-micro.json (JMH's own) and <name>-micro.md (each pair's ratio).
#
#   bench/jmh.sh                                   # everything, about 7 min on 2 cores
#   bench/jmh.sh --name before-cache               # bench/results/before-cache-micro.{json,md}
#   SKIP_BUILD=1 bench/jmh.sh -wi 1 -i 1 TokenBench  # JMH options replace the defaults below;
#                                                  # a regexp selects benchmarks
#
# Defaults: 1 fork, 3 warm-up iterations of 1 s, 5 measured iterations of 2 s, 1 thread, per
# benchmark; 29 runs (SerializeLoadTableBench × 3 sizes, SignBench × GET/PUT) → ≈ 29 × 13 s + JVM
# starts and setup.
# One thread on purpose: on 2 cores a second thread would compete with the JIT compiler and GC.
set -euo pipefail
cd "$(dirname "$0")/.."

name="$(date +%Y-%m-%d-%H%M%S)"
if [[ "${1:-}" == "--name" ]]; then
  name="${2:?--name needs a value}"
  shift 2
fi
user=("$@")
for arg in "${user[@]}"; do
  if [[ "$arg" == "-rf" || "$arg" == "-rff" ]]; then
    echo "jmh.sh writes the result itself (bench/results/<name>-micro.json); use --name instead of $arg" >&2
    exit 2
  fi
done

if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  echo "building server and bench (mvn package, tests skipped)…"
  mvn -q -B -DskipTests -pl server,bench -am package
fi

# Each default applies unless the same option is given on the command line (JMH refuses repeats).
defaults=(-f 1 -wi 3 -w 1s -i 5 -r 2s -t 1 -jvmArgsAppend "-Xms1g -Xmx1g")
args=()
for ((k = 0; k < ${#defaults[@]}; k += 2)); do
  given=0
  for arg in "${user[@]}"; do
    [[ "$arg" == "${defaults[k]}" ]] && given=1
  done
  if [[ $given == 0 ]]; then
    args+=("${defaults[k]}" "${defaults[k + 1]}")
  fi
done

mkdir -p bench/results
json="bench/results/${name}-micro.json"
md="bench/results/${name}-micro.md"
# Sluice's own classpath (as bench/run.sh starts it), JMH, and this module's jar with the
# benchmarks and META-INF/BenchmarkList. Not bench/target/lib: that is the reference server's.
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)"
cp="bench/target/sluice-bench-$version.jar:bench/target/micro-lib/*"
cp+=":server/target/sluice-server-$version.jar:server/target/lib/*"

java -cp "$cp" org.openjdk.jmh.Main "${args[@]}" -rf json -rff "$json" "${user[@]}"

if [[ -s "$json" ]]; then
  java -cp "$cp" dev.sluice.bench.micro.MicroReport "$json" "$md" "$name" >/dev/null
  echo "report: $md (JMH result: $json)"
fi
