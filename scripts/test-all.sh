#!/usr/bin/env bash
# The one command that runs every test on a fresh machine: it installs and starts what the
# tests need (a private PostgreSQL, a private Ceph radosgw with STS, an Azurite blob emulator,
# a single-node Trino, Debian's Chromium and the npm packages of the end-to-end tests), then runs
# the Maven build with all tests. Exit status is the build's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
start=$(date +%s)

# shellcheck source=scripts/testbeds.sh
source scripts/testbeds.sh
trap testbeds_stop EXIT
testbeds_trino_begin   # in the background, while the other beds start
testbeds_start
testbeds_trino_wait

scripts/chromium.sh install   # the console's browser test
scripts/debian-package.sh systemd-analyze systemd   # checks the artifact's systemd unit
# The container image: built from Debian's packages (mmdebstrap) and run by podman, with runc
# (crun cannot run under this machine's hybrid cgroups).
scripts/debian-package.sh podman podman
scripts/debian-package.sh mmdebstrap mmdebstrap
scripts/debian-package.sh runc runc
scripts/debian-package.sh docker-compose docker-compose   # checks docs/deploy/compose.yaml (runs nothing)
if [ -f e2e/js/package.json ]; then
  npm ci --prefix e2e/js --no-audit --no-fund --loglevel=error
fi

mvn -B verify "$@"
# The README's way to run one bed test, checked: a PostgreSQL and an RGW test of one class.
scripts/one-test.sh 'MigrationPostgresTest,CephRgwTestBedTest'
echo "test-all: passed in $(( $(date +%s) - start )) s"
