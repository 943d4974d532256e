#!/usr/bin/env bash
# azurite.sh - a throw-away Azurite blob emulator (npm azurite, pinned in scripts/azurite/) over
# HTTPS with OAuth, for the Azure credential-vending tests (AzuriteBed in the server's tests).
# scripts/testbeds.sh starts it and hands DIR/env to the tests as SLUICE_TEST_AZURITE_*.
#
#   azurite.sh install     npm ci into ~/.cache/sluice-azurite/<lock hash>, linked as
#                          scripts/azurite/node_modules (skipped while its lock is unchanged)
#   azurite.sh start DIR   fresh CA + 127.0.0.1 certificate and PKCS#12 truststore under DIR
#                          (DIR wiped first; an Azurite still running there is stopped first),
#                          starts azurite-blob on a free loopback port, waits until it answers,
#                          writes DIR/env (source it: export lines)
#   azurite.sh stop DIR    ends the process recorded in DIR/pid (only if it is still ours)
#
# Flags and why: --oauth basic (getUserDelegationKey needs a bearer token; Azurite checks the
# JWT's iss/aud/nbf/exp, not its signature) needs HTTPS, hence --cert/--key; --skipApiVersionCheck
# because azure-storage-blob 12.37 sends an x-ms-version newer than Azurite accepts. No --loose:
# Azurite refuses what it does not support, which the tests want to see.
# Knobs (env): AZURITE_BLOB_PORT (default: first free port from 10000).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PKG="$HERE/azurite"
ACCOUNT=devstoreaccount1

log() { echo "[azurite $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while port_busy "$p"; do p=$((p + 1)); done; echo "$p"; }
rand() { head -c 96 /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | cut -c1-"$1"; }

cmd_install() {
  command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are needed (Node.js 20 or newer)"
  local major; major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 20 ] || die "Node.js $(node --version) is too old: Azurite 3.37 needs 20 or newer"
  # A stamp (copy of the lock npm ci installed from) makes a repeat install a no-op.
  if [ -x "$PKG/node_modules/.bin/azurite-blob" ] && cmp -s "$PKG/package-lock.json" "$PKG/node_modules/.sluice-lock"; then
    return 0
  fi
  # Installed once per lock into the user's cache (as Trino is), then linked: a fresh clone (CI)
  # does not spend half a minute unpacking the same 450 packages again.
  local lock_sum; lock_sum=$(sha256sum "$PKG/package-lock.json" | cut -c1-16)
  local cached="${XDG_CACHE_HOME:-$HOME/.cache}/sluice-azurite/$lock_sum"
  if ! { [ -x "$cached/node_modules/.bin/azurite-blob" ] && cmp -s "$PKG/package-lock.json" "$cached/node_modules/.sluice-lock"; }; then
    log "npm ci in $cached"
    rm -rf "$cached"
    mkdir -p "$cached"
    cp "$PKG/package.json" "$PKG/package-lock.json" "$cached/"
    # Azurite declares node >=22 but runs on 20 (only a warning); --loglevel=error hides it.
    npm ci --prefix "$cached" --no-audit --no-fund --loglevel=error >&2
    cp "$PKG/package-lock.json" "$cached/node_modules/.sluice-lock"
  fi
  rm -rf "$PKG/node_modules"
  ln -s "$cached/node_modules" "$PKG/node_modules"
  log "installed azurite $(node -p "require('$PKG/node_modules/azurite/package.json').version") ($cached)"
}

# ---- stop -------------------------------------------------------------------
# A pid is only signalled while its command line still names this DIR's data folder (guards
# against pid reuse).
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' '\n' <"/proc/$1/cmdline" | grep -qxF -- "$2/data"; }

cmd_stop() {
  local dir; dir=$(realpath -m "${1:?usage: stop DIR}")
  [ -f "$dir/pid" ] || return 0
  local pid i; pid=$(cat "$dir/pid")
  if ours "$pid" "$dir"; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 50); do ours "$pid" "$dir" || break; sleep 0.1; done   # <= 5 s
    ours "$pid" "$dir" && { log "KILL $pid"; kill -KILL "$pid" 2>/dev/null || true; }
  fi
  rm -f "$dir/pid"
}

# ---- start ------------------------------------------------------------------
# A private CA (EC P-256, valid 2 days) and a server certificate it signs for 127.0.0.1 and
# localhost; the truststore holds the CA only.
make_tls() {
  local t="$DIR/tls"; mkdir -p "$t"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
    -subj "/CN=Sluice test Azurite CA" -keyout "$t/ca-key.pem" -out "$t/ca.pem" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$t/key.pem" -out "$t/server.csr" 2>/dev/null
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$t/server.ext"
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca-key.pem" -CAcreateserial \
    -days 2 -extfile "$t/server.ext" -out "$t/cert.pem" 2>/dev/null
  TRUST_PASSWORD=$(rand 20)
  keytool -importcert -noprompt -alias sluice-azurite-ca -file "$t/ca.pem" -storetype PKCS12 \
    -keystore "$t/truststore.p12" -storepass "$TRUST_PASSWORD" >/dev/null 2>&1 \
    || die "keytool could not write $t/truststore.p12"
}

cmd_start() {
  DIR=$(realpath -m "${1:?usage: start DIR}")
  local bin="$PKG/node_modules/.bin/azurite-blob"
  [ -x "$bin" ] || die "azurite not installed: run '$0 install'"
  [ -f "$DIR/pid" ] && { log "stopping previous Azurite in $DIR"; cmd_stop "$DIR"; }
  # Only ever wipe an empty folder or one this script made (marker file).
  if [ -d "$DIR" ] && [ -n "$(ls -A "$DIR")" ] && [ ! -f "$DIR/.azurite" ]; then
    die "$DIR is not empty and was not made by this script"
  fi
  rm -rf "$DIR"; mkdir -p "$DIR/data"; touch "$DIR/.azurite"
  make_tls
  local port=${AZURITE_BLOB_PORT:-$(free_port 10000)}
  port_busy "$port" && die "port $port busy"
  # setsid: its own session, so the test runner's signals do not reach it; stop ends it by pid.
  setsid node "$bin" --blobHost 127.0.0.1 --blobPort "$port" --location "$DIR/data" \
    --cert "$DIR/tls/cert.pem" --key "$DIR/tls/key.pem" --oauth basic --skipApiVersionCheck \
    --disableTelemetry --silent </dev/null >"$DIR/azurite.log" 2>&1 &
  echo $! >"$DIR/pid"
  local end=$((SECONDS + 30)) url="https://127.0.0.1:$port/$ACCOUNT"
  # Any HTTP status means TLS and the server are up (an unauthenticated request gets 4xx).
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --cacert "$DIR/tls/ca.pem" "$url?comp=list" || true)" != 000 ]; do
    ours "$(cat "$DIR/pid")" "$DIR" || { cat "$DIR/azurite.log" >&2; die "azurite exited"; }
    [ $SECONDS -lt $end ] || { cat "$DIR/azurite.log" >&2; cmd_stop "$DIR"; die "timeout waiting for $url"; }
    sleep 0.1
  done
  cat >"$DIR/env" <<EOF
export AZURITE_DIR=$DIR
export AZURITE_BLOB_ENDPOINT=$url
export AZURITE_CERT=$DIR/tls/ca.pem
export AZURITE_TRUSTSTORE=$DIR/tls/truststore.p12
export AZURITE_TRUSTSTORE_PASSWORD=$TRUST_PASSWORD
EOF
  log "azurite-blob $(node -p "require('$PKG/node_modules/azurite/package.json').version") on $url (pid $(cat "$DIR/pid"))"
}

case "${1:-}" in
  install) cmd_install ;;
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
