#!/usr/bin/env bash
# The test beds that the tests (scripts/test-all.sh) and the benchmark (bench/run.sh) need: a
# private PostgreSQL (scripts/postgres-testbed.sh) and a throw-away Ceph radosgw with STS
# (scripts/ceph-rgw.sh) and an Azurite blob emulator over HTTPS with OAuth (scripts/azurite.sh),
# all on free loopback ports. Source it, then:
#   testbeds_start; trap testbeds_stop EXIT
# Exports SLUICE_TEST_PG_URL, CEPH_RGW_* (scripts/ceph-rgw.sh's env file), SLUICE_TEST_RGW_*,
# AZURITE_* (scripts/azurite.sh's env file) and SLUICE_TEST_AZURITE_*.
# Trino (scripts/trino.sh) is separate, because only the end-to-end tests need it and it takes
# half a minute to start: testbeds_trino_begin starts it in the background, testbeds_trino_wait
# waits for it and exports SLUICE_TEST_TRINO_*, testbeds_stop also stops it.

# shellcheck source=scripts/postgres-testbed.sh
source "$(dirname "${BASH_SOURCE[0]}")/postgres-testbed.sh"
TESTBEDS_RGW_DIR=""
TESTBEDS_AZURITE_DIR=""
TESTBEDS_TRINO_DIR=""
TESTBEDS_TRINO_PID=""

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
  # SSE-KMS key ids of RGW's 'testing' KMS backend (scripts/ceph-rgw.sh).
  export SLUICE_TEST_RGW_KMS_KEY_1="$CEPH_RGW_KMS_KEY_1"
  export SLUICE_TEST_RGW_KMS_KEY_2="$CEPH_RGW_KMS_KEY_2"
  export SLUICE_TEST_RGW_CEPH_CONF="$CEPH_CONF"   # for radosgw-admin -c, if a test needs it
  echo "testbeds: ceph radosgw on $CEPH_RGW_ENDPOINT ($TESTBEDS_RGW_DIR), started in $(( $(testbeds_ms) - t )) ms" >&2
  testbeds_azurite_start
}

# Azurite alone (also for a developer who needs only it): installs the pinned npm package on
# first use, then starts it in a fresh temp dir.
testbeds_azurite_start() {
  local scripts; scripts="$(dirname "${BASH_SOURCE[0]}")"
  local t; t=$(testbeds_ms)
  "$scripts/azurite.sh" install
  echo "testbeds: azurite install step took $(( $(testbeds_ms) - t )) ms" >&2
  t=$(testbeds_ms)
  TESTBEDS_AZURITE_DIR=$(mktemp -d /tmp/sluice-azurite.XXXXXX)
  "$scripts/azurite.sh" start "$TESTBEDS_AZURITE_DIR"
  # shellcheck source=/dev/null
  source "$TESTBEDS_AZURITE_DIR/env"
  export SLUICE_TEST_AZURITE_BLOB_ENDPOINT="$AZURITE_BLOB_ENDPOINT"
  export SLUICE_TEST_AZURITE_CERT="$AZURITE_CERT"
  export SLUICE_TEST_AZURITE_TRUSTSTORE="$AZURITE_TRUSTSTORE"
  export SLUICE_TEST_AZURITE_TRUSTSTORE_PASSWORD="$AZURITE_TRUSTSTORE_PASSWORD"
  echo "testbeds: azurite on $AZURITE_BLOB_ENDPOINT ($TESTBEDS_AZURITE_DIR), started in $(( $(testbeds_ms) - t )) ms" >&2
}

testbeds_azurite_stop() {
  if [ -n "$TESTBEDS_AZURITE_DIR" ]; then
    "$(dirname "${BASH_SOURCE[0]}")/azurite.sh" stop "$TESTBEDS_AZURITE_DIR" 2>/dev/null || true
    rm -rf "$TESTBEDS_AZURITE_DIR"
    TESTBEDS_AZURITE_DIR=""
  fi
}

# Installs (from Maven, first time only) and starts Trino in the background; its log goes to
# DIR/start.log.
testbeds_trino_begin() {
  local scripts; scripts="$(dirname "${BASH_SOURCE[0]}")"
  TESTBEDS_TRINO_DIR=$(mktemp -d /tmp/sluice-trino.XXXXXX)
  ( "$scripts/trino.sh" install && "$scripts/trino.sh" start "$TESTBEDS_TRINO_DIR" ) \
    >"$TESTBEDS_TRINO_DIR/start.log" 2>&1 &
  TESTBEDS_TRINO_PID=$!
  TESTBEDS_TRINO_T0=$(testbeds_ms)
}

testbeds_trino_wait() {
  if ! wait "$TESTBEDS_TRINO_PID"; then
    cat "$TESTBEDS_TRINO_DIR/start.log" >&2
    echo "testbeds: Trino did not start" >&2
    return 1
  fi
  # shellcheck source=/dev/null
  source "$TESTBEDS_TRINO_DIR/env"
  export SLUICE_TEST_TRINO_URL SLUICE_TEST_TRINO_HTTPS_URL SLUICE_TEST_TRINO_USERS SLUICE_TEST_TRINO_CLI \
    SLUICE_TEST_TRINO_JAVA
  echo "testbeds: trino on $SLUICE_TEST_TRINO_URL ($TESTBEDS_TRINO_DIR), ready $(( $(testbeds_ms) - TESTBEDS_TRINO_T0 )) ms after its start began" >&2
}

testbeds_trino_stop() {
  if [ -n "$TESTBEDS_TRINO_DIR" ]; then
    if [ -n "$TESTBEDS_TRINO_PID" ]; then wait "$TESTBEDS_TRINO_PID" 2>/dev/null || true; fi
    "$(dirname "${BASH_SOURCE[0]}")/trino.sh" stop "$TESTBEDS_TRINO_DIR" 2>/dev/null || true
    rm -rf "$TESTBEDS_TRINO_DIR"
    TESTBEDS_TRINO_DIR=""
  fi
}

testbeds_stop() {
  testbeds_trino_stop
  testbeds_azurite_stop
  if [ -n "$TESTBEDS_RGW_DIR" ]; then
    "$(dirname "${BASH_SOURCE[0]}")/ceph-rgw.sh" stop "$TESTBEDS_RGW_DIR" 2>/dev/null || true
    rm -rf "$TESTBEDS_RGW_DIR"
    TESTBEDS_RGW_DIR=""
  fi
  pg_testbed_stop
}

testbeds_ms() { echo $(( $(date +%s%N) / 1000000 )); }
