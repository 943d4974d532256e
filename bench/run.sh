#!/usr/bin/env bash
# Builds what the benchmark needs (the Sluice server and this module), starts the test beds the
# Sluice variants need (the private PostgreSQL and Ceph RGW of scripts/test-all.sh), and runs the
# default suite: Iceberg's reference REST server and Sluice, each in its own process, alternating
# per scenario, then the history and scale phases. Reports: bench/results/<name>.md and .csv. Extra arguments
# go to BenchMain (--help lists them).
#   SKIP_BUILD=1     reuse what server/target and bench/target hold
#   NO_TESTBEDS=1    start neither PostgreSQL nor RGW (no sluice-pg, no sluice-vended)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  echo "building server and bench (mvn package, tests skipped)…"
  mvn -q -B -DskipTests -pl server,bench -am package
fi
# Sluice starts with the class-data archive ./sluice uses, made here when the build changed.
scripts/class-archive.sh >/dev/null

args=()
if [[ "${NO_TESTBEDS:-}" != "1" ]]; then
  # shellcheck source=scripts/testbeds.sh
  source scripts/testbeds.sh
  trap testbeds_stop EXIT
  echo "starting PostgreSQL and Ceph RGW test beds…"
  testbeds_start >/dev/null   # exports CEPH_RGW_* (read by the bench) and SLUICE_TEST_PG_URL
  args+=(--postgres-url "$SLUICE_TEST_PG_URL")
fi

version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)"
java -Xmx1g -cp "bench/target/sluice-bench-$version.jar:bench/target/lib/*" \
  dev.sluice.bench.BenchMain --repo-root . "${args[@]}" "$@"
