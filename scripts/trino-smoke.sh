#!/usr/bin/env bash
# trino-smoke.sh - by-hand smoke check of Trino against a fresh Sluice (FILE
# warehouse, H2), through trino-cli. Not wired into test-all.sh or Maven: the
# prototype for the Trino end-to-end test class.
#
#   trino-smoke.sh [TRINO_DIR]
#
# TRINO_DIR (default /tmp/sluice-trino-smoke/trino): a Trino started there with
# scripts/trino.sh is reused (DIR/env); otherwise one is started there and
# stopped at the end. Sluice always runs fresh on a free port with its data in
# a temp dir, and is stopped at the end. Exits non-zero on the first failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
trino_dir=$(realpath -m "${1:-/tmp/sluice-trino-smoke/trino}")
work=$(mktemp -d /tmp/sluice-trino-smoke.XXXXXX)
cred="smokeroot:smoke-root-secret-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"

log() { echo "[trino-smoke $(date +%T)] $*" >&2; }
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while port_busy "$p"; do p=$((p + 1)); done; echo "$p"; }

started_trino=""
sluice_pid=""
cleanup() {
  [ -n "$sluice_pid" ] && kill -TERM "$sluice_pid" 2>/dev/null && wait "$sluice_pid" 2>/dev/null || true
  [ -n "$started_trino" ] && "$here/trino.sh" stop "$trino_dir" || true
  log "logs and data kept in $work"
}
trap cleanup EXIT

if ! { [ -f "$trino_dir/env" ] && (source "$trino_dir/env" && curl -sf "$SLUICE_TEST_TRINO_URL/v1/info" | grep -q '"starting":false'); }; then
  "$here/trino.sh" install
  "$here/trino.sh" start "$trino_dir"
  started_trino=1
fi
source "$trino_dir/env"

port=$(free_port 18181)
log "starting Sluice on 127.0.0.1:$port (data $work/data)"
SLUICE_BOOTSTRAP_CREDENTIALS="$cred" setsid "$root/sluice" serve --port "$port" --data-dir "$work/data" \
  </dev/null >"$work/sluice.out" 2>&1 &
sluice_pid=$!
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { tail -n 20 "$work/sluice.out" >&2; exit 1; }

# q SQL [EXPECTED]: runs one statement; fails unless it succeeds and, when
# EXPECTED is given, prints exactly EXPECTED (CSV, one row a line).
q() {
  local out rc t0=$SECONDS
  set +e
  out=$("$SLUICE_TEST_TRINO_JAVA" -XX:TieredStopAtLevel=1 --enable-native-access=ALL-UNNAMED \
    -jar "$SLUICE_TEST_TRINO_CLI" --server "$SLUICE_TEST_TRINO_URL" --user smoke \
    --execute "$1" 2>&1 | grep -v -e 'org.jline' -e 'dumb terminal' -e '^$')
  rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" -ne 0 ] || { [ $# -ge 2 ] && [ "$out" != "$2" ]; }; then
    log "FAIL ($((SECONDS - t0)) s): ${1//$cred/<credential>}"; echo "$out" >&2
    [ $# -ge 2 ] && { echo "expected:" >&2; echo "$2" >&2; }
    exit 1
  fi
  log "ok   ($((SECONDS - t0)) s): ${1//$cred/<credential>}"
}

uri="http://127.0.0.1:$port/api/catalog"
q "CREATE CATALOG sluice USING iceberg WITH (\"iceberg.catalog.type\"='rest', \"iceberg.rest-catalog.uri\"='$uri',
   \"iceberg.rest-catalog.warehouse\"='quickstart', \"iceberg.rest-catalog.security\"='OAUTH2',
   \"iceberg.rest-catalog.oauth2.credential\"='$cred', \"iceberg.rest-catalog.vended-credentials-enabled\"='true',
   \"fs.native-local.enabled\"='true', \"local.location\"='/')"
q "CREATE SCHEMA sluice.smoke"
q "CREATE TABLE sluice.smoke.t1 (id bigint, name varchar)"
q "INSERT INTO sluice.smoke.t1 VALUES (1, 'a'), (2, 'b'), (3, 'c')"
q "SELECT * FROM sluice.smoke.t1 ORDER BY id" $'"1","a"\n"2","b"\n"3","c"'
q "DELETE FROM sluice.smoke.t1 WHERE id = 2"
q "UPDATE sluice.smoke.t1 SET name = 'z' WHERE id = 3"
q "MERGE INTO sluice.smoke.t1 t USING (VALUES (1, 'm'), (4, 'n')) AS s(id, name) ON t.id = s.id
   WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name)"
q "SELECT * FROM sluice.smoke.t1 ORDER BY id" $'"1","m"\n"3","z"\n"4","n"'
q "CREATE TABLE sluice.smoke.t2 AS SELECT * FROM sluice.smoke.t1"
q "SELECT count(*) FROM sluice.smoke.t2" '"3"'
q "ALTER TABLE sluice.smoke.t1 EXECUTE optimize"
q "DROP TABLE sluice.smoke.t2"
q "DROP TABLE sluice.smoke.t1"
q "DROP SCHEMA sluice.smoke"
q "SHOW SCHEMAS FROM sluice" $'"information_schema"\n"system"'
q "DROP CATALOG sluice"
left=$(find "$work/data/warehouse" -type f | wc -l)
[ "$left" -eq 0 ] || { log "FAIL: $left files left in the warehouse after the drops"; exit 1; }
log "all passed"
