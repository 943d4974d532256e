#!/usr/bin/env bash
# trino.sh - a throwaway single-node Trino (coordinator = worker) on a free
# loopback port, for end-to-end tests of Sluice with Trino's Iceberg connector.
# Trino is assembled from Maven coordinates, fetched through Maven (so the
# local repository and any configured mirror apply), into a cache directory.
#
#   trino.sh install      fetch server, Iceberg plugin and CLI through Maven and
#                         assemble $TRINO_CACHE/$TRINO_VERSION (reused when complete)
#   trino.sh start DIR    fresh etc/ and data under DIR (a Trino still running
#                         there is stopped first), waits until /v1/info says
#                         starting=false, writes DIR/env (source it: export lines)
#   trino.sh stop DIR     ends the Trino recorded in DIR/pid
#
# Trino listens twice: HTTPS with password authentication (a password file of
# TRINO_USERS, a fresh self-signed key pair) for tests of per-user catalog
# sessions, where the Trino user must be authenticated; and plain HTTP where a
# bare user name is accepted (allow-insecure-over-http), for tests in which the
# Trino user is only a label and for trino-cli by hand. Internal communication
# uses a fresh shared secret.
# DIR/env exports SLUICE_TEST_TRINO_URL (http://127.0.0.1:PORT),
# SLUICE_TEST_TRINO_HTTPS_URL (https://127.0.0.1:PORT2, self-signed: clients skip
# verification), SLUICE_TEST_TRINO_USERS (name:password,...), SLUICE_TEST_TRINO_CLI
# (the executable CLI jar) and SLUICE_TEST_TRINO_JAVA (a java able to run it).
# Catalogs are dynamic (catalog.management=dynamic): tests add them with
# CREATE CATALOG ... USING iceberg WITH (...), no restart needed.
# Knobs (env):
#   TRINO_VERSION   default 476 (the last version with plugin zips on Maven Central)
#   TRINO_CACHE     default ~/.cache/sluice-trino
#   TRINO_JAVA_HOME default: newest /usr/lib/jvm/temurin-2[2-9]* (Trino needs Java 22+)
#   TRINO_PORT      default: first free port from 18080 (HTTP)
#   TRINO_HTTPS_PORT default: first free port after TRINO_PORT
#   TRINO_USERS     default alice,bob,carol: the password users, each name or name:password
#                   (a name alone gets a random password)
#   TRINO_HEAP      default 1G
#   TRINO_JVM_EXTRA one more jvm.config line; default -XX:TieredStopAtLevel=1 (C1 only: a
#                   test Trino runs small queries; measured: CPU to ready 19.6 -> 10.2 s, after
#                   the e2e Trino tests 63 -> 39 s, their wall 71 -> 68 s); set it empty for C2
#   TRINO_START_TIMEOUT default 180 (seconds)
set -euo pipefail

TRINO_VERSION=${TRINO_VERSION:-476}
TRINO_CACHE=${TRINO_CACHE:-$HOME/.cache/sluice-trino}
HOME_DIR="$TRINO_CACHE/$TRINO_VERSION"

log() { echo "[trino $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while port_busy "$p"; do p=$((p + 1)); done; echo "$p"; }

java_home() {
  if [ -n "${TRINO_JAVA_HOME:-}" ]; then echo "$TRINO_JAVA_HOME"; return; fi
  local j
  j=$(ls -d /usr/lib/jvm/temurin-2[2-9]* /usr/lib/jvm/temurin-[3-9][0-9]* 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$j" ] && [ -x "$j/bin/java" ] || die "no Java 22+ found under /usr/lib/jvm; set TRINO_JAVA_HOME"
  echo "$j"
}

# ---- install ----------------------------------------------------------------
# A complete assembly has the marker file .complete; it is built in a sibling
# temp dir and renamed into place, so a killed install never looks complete.
cmd_install() {
  if [ -f "$HOME_DIR/.complete" ]; then
    log "Trino $TRINO_VERSION already assembled in $HOME_DIR"
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found"
  local t0=$SECONDS
  mkdir -p "$TRINO_CACHE"
  local tmp; tmp=$(mktemp -d "$TRINO_CACHE/.assemble-$TRINO_VERSION.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  local dl="$tmp/dl"
  mkdir -p "$dl"
  local a
  for a in "io.trino:trino-server-core:$TRINO_VERSION:tar.gz" \
           "io.trino:trino-iceberg:$TRINO_VERSION:zip" \
           "io.trino:trino-cli:$TRINO_VERSION:jar:executable"; do
    log "mvn dependency:copy $a"
    # Run outside any project so a pom in the working directory plays no part.
    (cd "$tmp" && mvn -B -q dependency:copy -Dartifact="$a" -DoutputDirectory="$dl") \
      || die "maven could not fetch $a"
  done
  log "unpacking"
  tar -xzf "$dl/trino-server-core-$TRINO_VERSION.tar.gz" -C "$tmp"
  local server="$tmp/trino-server-core-$TRINO_VERSION"
  [ -x "$server/bin/launcher" ] || die "unexpected server layout: no bin/launcher in $server"
  local pz="$tmp/plugin-unzip"
  mkdir -p "$pz"
  unzip -q "$dl/trino-iceberg-$TRINO_VERSION.zip" -d "$pz"
  # The zip holds one top-level folder (trino-iceberg-VERSION/) with the jars.
  local pdir; pdir=$(find "$pz" -name '*.jar' -printf '%h\n' | sort -u | head -n 1)
  [ -n "$pdir" ] || die "no jars in trino-iceberg zip"
  mkdir -p "$server/plugin"
  mv "$pdir" "$server/plugin/iceberg"
  cp "$dl/trino-cli-$TRINO_VERSION-executable.jar" "$server/trino-cli.jar"
  local jh; jh=$(java_home)
  "$jh/bin/java" -jar "$server/trino-cli.jar" --version >/dev/null \
    || die "trino-cli jar does not run with $jh"
  touch "$server/.complete"
  rm -rf "$HOME_DIR"
  mv "$server" "$HOME_DIR"
  rm -rf "$tmp"; trap - EXIT
  log "assembled Trino $TRINO_VERSION in $HOME_DIR in $((SECONDS - t0)) s ($("$jh/bin/java" -jar "$HOME_DIR/trino-cli.jar" --version))"
}

# ---- stop -------------------------------------------------------------------
# Only a pid whose command line still names this DIR's etc is signalled
# (guards against pid reuse).
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' '\n' <"/proc/$1/cmdline" | grep -qF -- "$2/etc"; }

cmd_stop() {
  local dir; dir=$(realpath -m "${1:?usage: stop DIR}")
  [ -f "$dir/pid" ] || { log "nothing recorded in $dir/pid"; return 0; }
  local pid i; pid=$(cat "$dir/pid")
  if ours "$pid" "$dir"; then
    log "TERM trino ($pid)"; kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do ours "$pid" "$dir" || break; sleep 0.2; done   # <= 20 s
    ours "$pid" "$dir" && { log "KILL trino ($pid)"; kill -KILL "$pid" 2>/dev/null || true; }
  fi
  rm -f "$dir/pid"
}

# ---- start ------------------------------------------------------------------
hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# The password file of TRINO_USERS for Trino's file authenticator: name:1000:salt:hash, PBKDF2
# with HMAC-SHA1 in lowercase hex (its PBKDF2 format; bcrypt would need a tool we lack). Prints
# the users as name:password,... for DIR/env.
write_passwords() {
  local file=$1 entry name pw salt hash entries out=()
  : >"$file"
  IFS=',' read -r -a entries <<<"${TRINO_USERS:-alice,bob,carol}"
  for entry in "${entries[@]}"; do
    name=${entry%%:*}
    [[ $name =~ ^[a-z][a-z0-9_-]*$ ]] || die "TRINO_USERS: bad user name '$name'"
    if [[ $entry == *:* ]]; then pw=${entry#*:}; else pw=$(hex 12); fi
    # A plain charset: DIR/env carries the passwords unquoted.
    [[ $pw =~ ^[A-Za-z0-9._-]+$ ]] || die "TRINO_USERS: the password of '$name' must be [A-Za-z0-9._-]+"
    salt=$(hex 16)
    hash=$(openssl kdf -keylen 20 -kdfopt digest:SHA1 -kdfopt "pass:$pw" -kdfopt "hexsalt:$salt" \
      -kdfopt iter:1000 PBKDF2 | tr -d ':\n' | tr 'A-F' 'a-f')
    [ ${#hash} -eq 40 ] || die "openssl kdf gave no PBKDF2 hash"
    echo "$name:1000:$salt:$hash" >>"$file"
    out+=("$name:$pw")
  done
  (IFS=','; echo "${out[*]}")
}

write_etc() {
  local dir=$1 port=$2 https_port=$3 jh=$4
  mkdir -p "$dir/etc/catalog" "$dir/data" "$dir/log"
  # A throwaway key pair for HTTPS (EC: generated in well under a second).
  local kspw; kspw=$(hex 16)
  "$jh/bin/keytool" -genkeypair -keystore "$dir/etc/keystore.p12" -storetype PKCS12 \
    -storepass "$kspw" -alias trino -keyalg EC -groupname secp256r1 -validity 2 \
    -dname "CN=127.0.0.1" -ext "SAN=IP:127.0.0.1,DNS:localhost" 2>/dev/null \
    || die "keytool could not make the HTTPS key pair"
  cat >"$dir/etc/node.properties" <<EOF
node.environment=sluice_test
node.id=sluice-test-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')
node.data-dir=$dir/data
# Loopback only: without these Trino binds every interface and announces the host's address.
node.bind-ip=127.0.0.1
node.internal-address=127.0.0.1
EOF
  # Flags as in Trino 476's documented jvm.config, minus the ones only for big heaps.
  cat >"$dir/etc/jvm.config" <<EOF
-server
-Xmx${TRINO_HEAP:-1G}
-XX:InitialRAMPercentage=10
-XX:+ExplicitGCInvokesConcurrent
-XX:+ExitOnOutOfMemoryError
-XX:+HeapDumpOnOutOfMemoryError
-XX:HeapDumpPath=$dir/data
-XX:-OmitStackTraceInFastThrow
-XX:ReservedCodeCacheSize=256M
-XX:PerMethodRecompilationCutoff=10000
-XX:PerBytecodeRecompilationCutoff=10000
-Djdk.attach.allowAttachSelf=true
-Djdk.nio.maxCachedBufferSize=2000000
-Dfile.encoding=UTF-8
-XX:+EnableDynamicAgentLoading
-XX:+UseG1GC
-XX:G1HeapRegionSize=32M
${TRINO_JVM_EXTRA--XX:TieredStopAtLevel=1}
EOF
  cat >"$dir/etc/config.properties" <<EOF
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$port
discovery.uri=http://127.0.0.1:$port
catalog.management=dynamic
catalog.store=memory
query.max-memory=256MB
query.max-memory-per-node=256MB
# Password users on HTTPS; on HTTP a bare user name, as before (see the header).
http-server.https.enabled=true
http-server.https.port=$https_port
http-server.https.keystore.path=$dir/etc/keystore.p12
http-server.https.keystore.key=$kspw
http-server.authentication.type=PASSWORD
http-server.authentication.allow-insecure-over-http=true
internal-communication.shared-secret=$(hex 32)
EOF
  cat >"$dir/etc/password-authenticator.properties" <<EOF
password-authenticator.name=file
file.password-file=$dir/etc/password.db
EOF
  write_passwords "$dir/etc/password.db" >"$dir/etc/users"
  cat >"$dir/etc/log.properties" <<EOF
io.trino=INFO
EOF
}

info_ready() { curl -sf "http://127.0.0.1:$1/v1/info" | grep -q '"starting":false'; }

cmd_start() {
  local dir; dir=$(realpath -m "${1:?usage: start DIR}")
  [ -f "$HOME_DIR/.complete" ] || die "Trino $TRINO_VERSION not assembled: run '$0 install'"
  [ -f "$dir/pid" ] && { log "stopping previous Trino in $dir"; cmd_stop "$dir"; }
  rm -rf "$dir/etc" "$dir/data" "$dir/log" "$dir/env"
  local port=${TRINO_PORT:-$(free_port 18080)}
  port_busy "$port" && die "port $port is busy"
  local https_port=${TRINO_HTTPS_PORT:-$(free_port $((port + 1)))}
  port_busy "$https_port" && die "port $https_port is busy"
  local jh; jh=$(java_home)
  write_etc "$dir" "$port" "$https_port" "$jh"
  local t0=$SECONDS
  # launcher run stays in the foreground: setsid gives it its own session, and
  # exec keeps one pid (launcher execs java).
  # No ambient AWS identity: whatever Trino reads from storage must come from vended credentials.
  local v unset_aws=()
  for v in $(compgen -e | grep -E '^AWS_' || true); do unset_aws+=(-u "$v"); done
  env "${unset_aws[@]}" JAVA_HOME="$jh" PATH="$jh/bin:$PATH" setsid "$HOME_DIR/bin/launcher" run \
    --etc-dir="$dir/etc" --data-dir="$dir/data" \
    </dev/null >"$dir/log/server.out" 2>&1 &
  echo $! >"$dir/pid"
  local end=$((SECONDS + ${TRINO_START_TIMEOUT:-180}))
  until info_ready "$port"; do
    if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      tail -n 40 "$dir/log/server.out" >&2; rm -f "$dir/pid"; die "Trino exited during start"
    fi
    [ $SECONDS -lt $end ] || { tail -n 40 "$dir/log/server.out" >&2; cmd_stop "$dir"; die "timeout waiting for Trino"; }
    sleep 1
  done
  cat >"$dir/env" <<EOF
export SLUICE_TEST_TRINO_URL=http://127.0.0.1:$port
export SLUICE_TEST_TRINO_HTTPS_URL=https://127.0.0.1:$https_port
export SLUICE_TEST_TRINO_USERS=$(cat "$dir/etc/users")
export SLUICE_TEST_TRINO_CLI=$HOME_DIR/trino-cli.jar
export SLUICE_TEST_TRINO_JAVA=$jh/bin/java
EOF
  log "Trino $TRINO_VERSION up on 127.0.0.1:$port (HTTPS $https_port) in $((SECONDS - t0)) s (pid $(cat "$dir/pid"), log $dir/log/server.out)"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start "${2:-}" ;;
  stop) cmd_stop "${2:-}" ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
