#!/usr/bin/env bash
# Builds what the benchmark needs (the Sluice server and this module) and runs the default suite:
# Iceberg's reference REST server and Sluice, each in its own process, alternating per scenario.
# Reports: bench/results/<name>.md and .csv. Extra arguments go to BenchMain (--help lists them);
# SKIP_BUILD=1 reuses what server/target and bench/target hold.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  echo "building server and bench (mvn package, tests skipped)…"
  mvn -q -B -DskipTests -pl server,bench -am package
fi

exec java -Xmx1g -cp "bench/target/sluice-bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" \
  dev.sluice.bench.BenchMain --repo-root . "$@"
