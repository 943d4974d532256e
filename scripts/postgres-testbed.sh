#!/usr/bin/env bash
# A private, throw-away PostgreSQL server for the tests: installs Debian's postgresql if it
# is missing, then runs its own cluster in a temp dir on a free loopback port.
#   source scripts/postgres-testbed.sh; pg_testbed_start; ...; pg_testbed_stop
# Exports SLUICE_TEST_PG_URL (a JDBC URL to the cluster's "postgres" database, trust auth).
# PG_MAX_CONNECTIONS sets the server's max_connections (300; a fault test sets fewer).

pg_testbed_install() {
  if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    return 0
  fi
  echo "postgres-testbed: installing Debian's postgresql" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
}

# Below Linux's ephemeral range (32768-60999 by default): a port there can be a client socket's
# local port, which a connect probe does not see but which makes the server's bind fail.
pg_testbed_free_port() {
  local port
  for port in $(seq "${1:-25432}" 25532); do
    if ! (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "postgres-testbed: no free port in 25432-25532" >&2
  return 1
}

pg_testbed_start() {
  pg_testbed_install
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  PG_DIR=$(mktemp -d /tmp/sluice-pg.XXXXXX)
  # initdb refuses to run as root: run the cluster as the postgres system user then.
  PG_RUN=()
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
    chown postgres "$PG_DIR"
    PG_RUN=(runuser -u postgres --)
  fi
  "${PG_RUN[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres -E UTF8 --no-instructions >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  # Another process may take the port between the probe and the bind: then try the next ones.
  local attempt next=25432
  for attempt in 1 2 3 4 5; do
    PG_PORT=$(pg_testbed_free_port "$next") || return 1
    if pg_testbed_resume; then
      break
    fi
    if [ "$attempt" -eq 5 ] || ! grep -q "Address already in use" "$PG_DIR/server.log"; then
      cat "$PG_DIR/server.log" >&2
      return 1
    fi
    next=$((PG_PORT + 1))
  done
  export PG_BIN PG_DIR PG_PORT
  export SLUICE_TEST_PG_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/postgres?user=postgres"
  echo "postgres-testbed: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT ($PG_DIR)" >&2
}

# Starts the cluster of PG_BIN/PG_DIR/PG_PORT (again, after pg_testbed_halt: a fault test's
# outage). The run prefix is recomputed, so a test's shell that only has those three can call it.
pg_testbed_resume() {
  local run=()
  [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=${PG_MAX_CONNECTIONS:-300} -c fsync=off" start >/dev/null
}

# Stops the cluster as an outage would (fast: every connection is cut); pg_testbed_resume starts it.
pg_testbed_halt() {
  local run=()
  [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null
}

# Freezes the cluster as a stalled host would (SIGSTOP: connections stay open, nothing answers):
# the postmaster first, so that it forks no backend the second step would miss, then its children.
pg_testbed_freeze() {
  local pid
  pid=$(head -1 "$PG_DIR/data/postmaster.pid")
  kill -STOP "$pid"
  pkill -STOP -P "$pid" || true
}

# Undoes pg_testbed_freeze: the children first, then the postmaster.
pg_testbed_thaw() {
  local pid
  pid=$(head -1 "$PG_DIR/data/postmaster.pid")
  pkill -CONT -P "$pid" || true
  kill -CONT "$pid"
}

pg_testbed_stop() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
    "${PG_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
