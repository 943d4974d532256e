#!/usr/bin/env bash
# The test beds that the tests (scripts/test-all.sh) and the benchmark (bench/run.sh) need: a
# private PostgreSQL (scripts/postgres-testbed.sh) and a throw-away Ceph radosgw with STS
# (scripts/ceph-rgw.sh), both on free loopback ports. Source it, then:
#   testbeds_start; trap testbeds_stop EXIT
# Exports SLUICE_TEST_PG_URL, CEPH_RGW_* (scripts/ceph-rgw.sh's env file) and SLUICE_TEST_RGW_*.

# shellcheck source=scripts/postgres-testbed.sh
source "$(dirname "${BASH_SOURCE[0]}")/postgres-testbed.sh"
TESTBEDS_RGW_DIR=""

testbeds_start() {
  local scripts; scripts="$(dirname "${BASH_SOURCE[0]}")"
  pg_testbed_start
  # STS minimum session duration 1 s, so tests can watch a credential expire; the role allows
  # sessions up to 12 h (MaxSessionDuration 43200).
  local t; t=$(testbeds_ms)
  "$scripts/ceph-rgw.sh" install
  echo "testbeds: ceph install step took $(( $(testbeds_ms) - t )) ms" >&2
  t=$(testbeds_ms)
  TESTBEDS_RGW_DIR=$(mktemp -d /tmp/sluice-rgw.XXXXXX)
  CEPH_STS_MIN_DURATION=1 "$scripts/ceph-rgw.sh" start "$TESTBEDS_RGW_DIR"
  # shellcheck source=/dev/null
  source "$TESTBEDS_RGW_DIR/env"
  export SLUICE_TEST_RGW_ENDPOINT="$CEPH_RGW_ENDPOINT"
  export SLUICE_TEST_RGW_REGION="$CEPH_RGW_REGION"
  export SLUICE_TEST_RGW_ACCESS_KEY="$CEPH_RGW_ACCESS_KEY"
  export SLUICE_TEST_RGW_SECRET_KEY="$CEPH_RGW_SECRET_KEY"
  export SLUICE_TEST_RGW_ROLE_ARN="$CEPH_RGW_ROLE_ARN"
  export SLUICE_TEST_RGW_STS_MIN_DURATION="$CEPH_RGW_STS_MIN_DURATION"
  export SLUICE_TEST_RGW_ROLE_MAX_DURATION="$CEPH_RGW_ROLE_MAX_DURATION"
  export SLUICE_TEST_RGW_CEPH_CONF="$CEPH_CONF"   # for radosgw-admin -c, if a test needs it
  echo "testbeds: ceph radosgw on $CEPH_RGW_ENDPOINT ($TESTBEDS_RGW_DIR), started in $(( $(testbeds_ms) - t )) ms" >&2
}

testbeds_stop() {
  if [ -n "$TESTBEDS_RGW_DIR" ]; then
    "$(dirname "${BASH_SOURCE[0]}")/ceph-rgw.sh" stop "$TESTBEDS_RGW_DIR" 2>/dev/null || true
    rm -rf "$TESTBEDS_RGW_DIR"
    TESTBEDS_RGW_DIR=""
  fi
  pg_testbed_stop
}

testbeds_ms() { echo $(( $(date +%s%N) / 1000000 )); }
