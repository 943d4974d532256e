#!/usr/bin/env bash
# The one command that runs every test on a fresh machine: it installs and starts what the
# tests need (a private PostgreSQL, a private Ceph radosgw with STS, the npm packages of the
# end-to-end tests), then runs the Maven build with all tests. Exit status is the build's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$(date +%s)

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
pg_testbed_start

# A private Ceph radosgw with STS (single-node cluster on loopback, data in RAM) for the S3
# credential-vending tests. STS minimum session duration 1 s, so tests can watch a
# credential expire; the role allows sessions up to 12 h (MaxSessionDuration 43200).
ms() { echo $(( $(date +%s%N) / 1000000 )); }
t=$(ms)
scripts/ceph-rgw.sh install
echo "test-all: ceph install step took $(( $(ms) - t )) ms" >&2
t=$(ms)
rgw_dir=$(mktemp -d /tmp/sluice-rgw.XXXXXX)
CEPH_STS_MIN_DURATION=1 scripts/ceph-rgw.sh start "$rgw_dir"
# shellcheck source=/dev/null
source "$rgw_dir/env"
export SLUICE_TEST_RGW_ENDPOINT="$CEPH_RGW_ENDPOINT"
export SLUICE_TEST_RGW_REGION="$CEPH_RGW_REGION"
export SLUICE_TEST_RGW_ACCESS_KEY="$CEPH_RGW_ACCESS_KEY"
export SLUICE_TEST_RGW_SECRET_KEY="$CEPH_RGW_SECRET_KEY"
export SLUICE_TEST_RGW_ROLE_ARN="$CEPH_RGW_ROLE_ARN"
export SLUICE_TEST_RGW_STS_MIN_DURATION="$CEPH_RGW_STS_MIN_DURATION"
export SLUICE_TEST_RGW_ROLE_MAX_DURATION="$CEPH_RGW_ROLE_MAX_DURATION"
export SLUICE_TEST_RGW_CEPH_CONF="$CEPH_CONF"   # for radosgw-admin -c, if a test needs it
echo "test-all: ceph radosgw on $SLUICE_TEST_RGW_ENDPOINT ($rgw_dir), started in $(( $(ms) - t )) ms" >&2

if [ -f e2e/js/package.json ]; then
  npm ci --prefix e2e/js --no-audit --no-fund --loglevel=error
fi

mvn -B verify "$@"
echo "test-all: passed in $(( $(date +%s) - start )) s"
