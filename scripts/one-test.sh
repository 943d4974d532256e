#!/usr/bin/env bash
# Runs one server test (a class, or Class#method), bed tests included, the way the README says:
# starts the test beds unless this shell already has them (SLUICE_TEST_RGW_ENDPOINT set, as in
# scripts/test-all.sh), installs the parent and client modules the server builds on, compiles the
# server's tests and runs the one test under surefire with the unit lane's bed exclusion lifted.
# scripts/test-all.sh runs it once after the build, so these steps stay true.
set -euo pipefail
test="${1:?usage: scripts/one-test.sh TestClass[#method]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ -z "${SLUICE_TEST_RGW_ENDPOINT:-}" ]; then
  # shellcheck source=scripts/testbeds.sh
  source scripts/testbeds.sh
  trap testbeds_stop EXIT
  testbeds_start
fi
mvn -B -q -pl client -am install -DskipTests
mvn -B -q -pl server test-compile
mvn -B -pl server surefire:test -Dlane.unit.excludedGroups= -Dtest="$test"
