#!/usr/bin/env bash
# Builds what the benchmark needs (the Sluice server and this module), starts the test beds the
# Sluice variants need (the private PostgreSQL and Ceph RGW of scripts/test-all.sh), and runs the
# default suite: Iceberg's reference REST server and Sluice, each in its own process, alternating
# per scenario, then the scale phase. Reports: bench/results/<name>.md and .csv. Extra arguments
# go to BenchMain (--help lists them).
#   SKIP_BUILD=1     reuse what server/target and bench/target hold
#   NO_TESTBEDS=1    start neither PostgreSQL nor RGW (no sluice-pg, no sluice-vended)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  echo "building server and bench (mvn package, tests skipped)…"
  mvn -q -B -DskipTests -pl server,bench -am package
fi

args=()
if [[ "${NO_TESTBEDS:-}" != "1" ]]; then
  # shellcheck source=scripts/postgres-testbed.sh
  source scripts/postgres-testbed.sh
  rgw_dir=""
  stop_testbeds() {
    if [ -n "$rgw_dir" ]; then
      scripts/ceph-rgw.sh stop "$rgw_dir" 2>/dev/null || true
      rm -rf "$rgw_dir"
    fi
    pg_testbed_stop
  }
  trap stop_testbeds EXIT
  echo "starting PostgreSQL and Ceph RGW test beds…"
  pg_testbed_start
  scripts/ceph-rgw.sh install
  rgw_dir=$(mktemp -d /tmp/sluice-bench-rgw.XXXXXX)
  scripts/ceph-rgw.sh start "$rgw_dir" >/dev/null
  # shellcheck source=/dev/null
  source "$rgw_dir/env"   # exports CEPH_RGW_ENDPOINT, …_ACCESS_KEY, …_ROLE_ARN: read by the bench
  args+=(--postgres-url "$SLUICE_TEST_PG_URL")
fi

java -Xmx1g -cp "bench/target/sluice-bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" \
  dev.sluice.bench.BenchMain --repo-root . "${args[@]}" "$@"
