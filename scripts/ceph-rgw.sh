#!/usr/bin/env bash
# ceph-rgw.sh - a throwaway single-node Ceph (Debian 12: 16.2.x Pacific) with a
# radosgw that has STS enabled, for integration tests of credential vending.
# Sluice's copy of /work/shared/storage/ceph-rgw.sh (recipe: CEPH-RGW.md there);
# scripts/test-all.sh starts it and hands DIR/env to the tests as
# SLUICE_TEST_RGW_* (see server/src/test/java/dev/sluice/testing/CephRgw.java).
# No systemd, no /etc/ceph: every file lives under DIR, every port is on
# 127.0.0.1, every daemon pid is recorded in DIR/pids and only those are ended.
#
#   ceph-rgw.sh install     apt packages (idempotent; sudo unless root)
#   ceph-rgw.sh start DIR   fresh cluster under DIR (wiped first; a cluster
#                           still running there is stopped first), waits until
#                           RGW answers, creates the STS user + role, and
#                           writes DIR/env (source it: export lines)
#   ceph-rgw.sh stop DIR    ends the daemons recorded in DIR/pids
#
# Layout: 1 mon (no mgr: not needed for RADOS I/O), 1 OSD, 1 radosgw (beast).
# Logs under DIR/log; RGW's ops log (JSON per request) is DIR/log/ops.log.
# Knobs (env):
#   CEPH_RGW_PORT, CEPH_MON_PORT  default: first free port from 7480 / 3300
#   CEPH_OSD_STORE        memstore (default: data in RAM, capped by
#                         CEPH_MEMSTORE_BYTES, default 1 GiB) or bluestore
#                         (sparse file of CEPH_BLUESTORE_BYTES, default 10 GiB)
#   CEPH_RGW_REGION       default us-east-1 (RGW accepts any SigV4 region)
#   CEPH_STS_MIN_DURATION default 900 (as RGW and AWS); e.g. 1 to test expiry
#   CEPH_ROLE_MAX_DURATION default 43200: MaxSessionDuration of the role (the
#                         upper bound of AssumeRole DurationSeconds; 3600-43200)
# SSE-KMS: RGW's 'testing' KMS backend serves two keys, random per start, whose
# ids are exported as CEPH_RGW_KMS_KEY_1 / _2 (plain HTTP needs
# rgw_crypt_require_ssl=false; the testing backend is for tests only).
# Needs: DIR path without spaces. Two clusters may run side by side (own DIR,
# ports picked automatically; set the ports when starting them concurrently).
set -euo pipefail

PYTHON=/usr/bin/python3            # Debian's python3 with python3-boto3 (not pyenv's)
PKGS=(ceph-mon ceph-osd radosgw ceph-common python3-boto3 curl)
ROLE_NAME=catalog-vend            # role the catalog assumes
ADMIN_UID=catalog                 # RGW user: owns buckets, may assume the role

log() { echo "[ceph-rgw $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# 16 random alphanumerics (rgw_sts_key must be exactly 16 chars; also keys).
rand() { head -c 96 /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | cut -c1-"$1"; }

# True if something accepts TCP connections on 127.0.0.1:$1.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while port_busy "$p"; do p=$((p + 1)); done; echo "$p"; }

cmd_install() {
  local missing=()
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && { log "packages already installed"; return; }
  log "installing: ${missing[*]}"
  local sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "installed $(dpkg-query -W -f='${Version}' radosgw)"
}

# ---- stop -------------------------------------------------------------------
# DIR/pids holds "name pid" lines. A pid is only signalled while its
# /proc/PID/cmdline still has this DIR's ceph.conf as an argument (guards
# against pid reuse; a zombie's cmdline is empty, so it counts as gone).
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' '\n' <"/proc/$1/cmdline" | grep -qxF -- "$2/ceph.conf"; }

cmd_stop() {
  local dir; dir=$(realpath -m "${1:?usage: stop DIR}")
  [ -f "$dir/pids" ] || { log "nothing recorded in $dir/pids"; return 0; }
  local name pid i
  # One at a time, in reverse start order (rgw, osd, mon): an OSD whose mon
  # is already gone waits osd_mon_shutdown_timeout (5 s) before exiting.
  while read -r name pid; do
    ours "$pid" "$dir" || continue
    log "TERM $name ($pid)"; kill -TERM "$pid" 2>/dev/null || continue
    for i in $(seq 50); do ours "$pid" "$dir" || break; sleep 0.2; done   # <= 10 s
    ours "$pid" "$dir" && { log "KILL $name ($pid)"; kill -KILL "$pid" 2>/dev/null || true; }
  done < <(tac "$dir/pids")
  rm -f "$dir/pids"
}

# ---- start ------------------------------------------------------------------
# Runs a daemon in the foreground (-f) of its own session, output to DIR/log,
# and records its pid. setsid execs (no fork) since we are not a group leader.
spawn() {
  local name=$1; shift
  setsid "$@" -f -c "$DIR/ceph.conf" </dev/null >>"$DIR/log/$name.out" 2>&1 &
  echo "$name $!" >>"$DIR/pids"
}

ceph_() { timeout 30 ceph -c "$DIR/ceph.conf" --connect-timeout 10 "$@"; }

# wait_for SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds.
wait_for() {
  local t=$1 what=$2; shift 2
  local end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || { tail -n 20 "$DIR"/log/*.out "$DIR"/log/*.log >&2 2>/dev/null || true; die "timeout waiting for $what"; }
    sleep 0.5
  done
}

# OSD backend: memstore (default; RAM only, fastest) or bluestore on a sparse
# file DIR/osd.0/block (CEPH_OSD_STORE=bluestore; for data bigger than RAM).
osd_store_conf() {
  case "${CEPH_OSD_STORE:-memstore}" in
    memstore) printf '%s\n' "osd objectstore = memstore" \
        "memstore device bytes = ${CEPH_MEMSTORE_BYTES:-1073741824}" ;;
    bluestore) printf '%s\n' "osd objectstore = bluestore" "bluestore block create = true" \
        "bluestore block size = ${CEPH_BLUESTORE_BYTES:-10737418240}" \
        "bluestore fsck on mkfs = false" "osd memory target = 939524096" ;;
    *) die "CEPH_OSD_STORE must be memstore or bluestore" ;;
  esac
}

osd_up() { ceph_ osd dump -f json | grep -q '"up":1'; }
rgw_http() { curl -sf -o /dev/null "http://127.0.0.1:$RGW_PORT/"; }

cmd_start() {
  DIR=$(realpath -m "${1:?usage: start DIR}")
  command -v radosgw >/dev/null || die "ceph not installed: run '$0 install'"
  [ -f "$DIR/pids" ] && { log "stopping previous cluster in $DIR"; cmd_stop "$DIR"; }
  local t0=$SECONDS
  MON_PORT=${CEPH_MON_PORT:-$(free_port 3300)}
  RGW_PORT=${CEPH_RGW_PORT:-$(free_port 7480)}
  port_busy "$MON_PORT" && die "port $MON_PORT busy"
  port_busy "$RGW_PORT" && die "port $RGW_PORT busy"
  osd_store_conf >/dev/null            # validates CEPH_OSD_STORE (dies here)
  # Only ever wipe an empty folder or one this script made (marker file).
  if [ -d "$DIR" ] && [ -n "$(ls -A "$DIR")" ] && [ ! -f "$DIR/.ceph-rgw" ]; then
    die "$DIR is not empty and was not made by this script"
  fi
  rm -rf "$DIR"; mkdir -p "$DIR"/{log,run,mon.a,osd.0,crash}; touch "$DIR/.ceph-rgw"
  local fsid sts_key region=${CEPH_RGW_REGION:-us-east-1}
  fsid=$(cat /proc/sys/kernel/random/uuid); sts_key=$(rand 16)
  # Two 256-bit SSE-KMS keys for the testing backend, as base64 of 32 random bytes.
  local kms1 kms2
  kms1=$(head -c 32 /dev/urandom | base64 -w0); kms2=$(head -c 32 /dev/urandom | base64 -w0)

  # Private config. msgr v2 only, everything on loopback; pool size 1 and few
  # PGs (no mgr means no PG autoscaler; RGW creates ~8 pools). A short paxos
  # interval makes each pool creation ~10x faster (start: 13 s -> 3 s).
  cat >"$DIR/ceph.conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$MON_PORT
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr1 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $DIR/keyring
run dir = $DIR/run
admin socket = $DIR/run/\$name.asok
pid file = $DIR/run/\$name.pid
log file = $DIR/log/\$name.log
crash dir = $DIR/crash
log to stderr = false
err to stderr = false
mon cluster log to file = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
mon data avail warn = 1
mon data avail crit = 0
[mon]
mon data = $DIR/mon.\$id
paxos propose interval = 0.1
paxos min wait = 0.01
[osd]
osd data = $DIR/osd.\$id
keyring = $DIR/osd.\$id/keyring
$(osd_store_conf)
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw data = $DIR/rgw
rgw thread pool size = 64
rgw sts key = $sts_key
rgw s3 auth use sts = true
rgw sts min session duration = ${CEPH_STS_MIN_DURATION:-900}
rgw crypt require ssl = false
# The ops log, one JSON object per request in DIR/log/ops.log: unlike the access
# lines of the daemon log (which name the RGW user, the same for every STS
# session), it names an STS session's role and session name (sts_info).
rgw enable ops log = true
rgw ops log rados = false
rgw ops log file path = $DIR/log/ops.log
rgw crypt s3 kms backend = testing
rgw crypt s3 kms encryption keys = testkey-1=$kms1 testkey-2=$kms2
EOF

  # Keys: mon., client.admin (CLI + radosgw-admin), client.rgw.a; the mon
  # imports them all at mkfs.
  local kr=$DIR/keyring
  {
    ceph-authtool "$kr" --create-keyring --gen-key -n mon. --cap mon 'allow *'
    ceph-authtool "$kr" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *'
    ceph-authtool "$kr" --gen-key -n client.rgw.a --cap mon 'allow rw' --cap osd 'allow rwx'
  } >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
  ceph-mon -c "$DIR/ceph.conf" -i a --mkfs --monmap "$DIR/monmap" --keyring "$kr"
  spawn mon.a ceph-mon -i a
  wait_for 60 "mon" ceph_ mon stat
  log "mon up ($((SECONDS - t0)) s)"

  # One memstore OSD.
  local osd_uuid osd_key
  osd_uuid=$(cat /proc/sys/kernel/random/uuid); osd_key=$(ceph-authtool --gen-print-key)
  echo "{\"cephx_secret\": \"$osd_key\"}" >"$DIR/osd.0/new.json"
  [ "$(ceph_ osd new "$osd_uuid" -i "$DIR/osd.0/new.json")" = 0 ] || die "osd new did not return id 0"
  printf '[osd.0]\n\tkey = %s\n' "$osd_key" >"$DIR/osd.0/keyring"
  ceph-osd -c "$DIR/ceph.conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >>"$DIR/log/osd.0.out" 2>&1
  spawn osd.0 ceph-osd -i 0
  wait_for 60 "osd.0 up" osd_up
  log "osd up ($((SECONDS - t0)) s)"

  # radosgw; it creates its pools on first start.
  spawn rgw.a radosgw -n client.rgw.a
  wait_for 120 "radosgw on :$RGW_PORT" rgw_http
  log "rgw up ($((SECONDS - t0)) s)"

  # STS: the admin user both owns buckets and assumes the role; the role's
  # trust policy names that user, its permission policy allows s3:* (a
  # session policy passed to AssumeRole narrows it per table).
  local ak sk
  ak=$(rand 20 | tr a-z A-Z); sk=$(rand 40)
  local rgwa=(timeout 60 radosgw-admin -c "$DIR/ceph.conf")
  "${rgwa[@]}" user create --uid="$ADMIN_UID" --display-name="catalog admin" \
      --access-key="$ak" --secret="$sk" >/dev/null
  # Caps are NOT needed for AssumeRole (the trust policy suffices); they let
  # this user call RGW's IAM API too (CreateRole with MaxSessionDuration up to
  # 43200, PutRolePolicy, PutUserPolicy, CreateOpenIDConnectProvider).
  "${rgwa[@]}" caps add --uid="$ADMIN_UID" --caps="roles=*;user-policy=*;oidc-provider=*" >/dev/null
  local trust='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam:::user/'$ADMIN_UID'"]},"Action":["sts:AssumeRole"]}]}'
  local perms='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*"],"Resource":["arn:aws:s3:::*"]}]}'
  # Pacific's 'radosgw-admin role create' cannot set MaxSessionDuration (it
  # stays 3600), so the role is made with IAM CreateRole against RGW itself,
  # signed with the admin keys (the 'roles=*' cap above allows it).
  local max_dur=${CEPH_ROLE_MAX_DURATION:-43200}
  RGW_URL="http://127.0.0.1:$RGW_PORT" RGW_REGION="$region" RGW_AK="$ak" RGW_SK="$sk" \
  ROLE_NAME="$ROLE_NAME" TRUST="$trust" MAX_DUR="$max_dur" "$PYTHON" - >"$DIR/role.json" <<'PY' \
      || die "IAM CreateRole failed"
import json, os, boto3
from botocore.config import Config
e = os.environ
iam = boto3.client("iam", endpoint_url=e["RGW_URL"], region_name=e["RGW_REGION"],
                   aws_access_key_id=e["RGW_AK"], aws_secret_access_key=e["RGW_SK"],
                   config=Config(retries={"max_attempts": 3}))
iam.create_role(RoleName=e["ROLE_NAME"], AssumeRolePolicyDocument=e["TRUST"],
                MaxSessionDuration=int(e["MAX_DUR"]))
role = iam.get_role(RoleName=e["ROLE_NAME"])["Role"]
print(json.dumps({"Arn": role["Arn"], "MaxSessionDuration": role.get("MaxSessionDuration")}))
PY
  "${rgwa[@]}" role-policy put --role-name="$ROLE_NAME" --policy-name=s3-all --policy-doc="$perms" >/dev/null
  local arn; arn=$(sed -n 's/.*"[Aa]rn": *"\([^"]*\)".*/\1/p' "$DIR/role.json")
  [ -n "$arn" ] || die "no role arn in $DIR/role.json"
  grep -q "\"MaxSessionDuration\": $max_dur[,}]" "$DIR/role.json" \
      || die "role MaxSessionDuration is not $max_dur: $(cat "$DIR/role.json")"

  cat >"$DIR/env" <<EOF
export CEPH_RGW_ENDPOINT=http://127.0.0.1:$RGW_PORT
export CEPH_RGW_REGION=$region
export CEPH_RGW_ACCESS_KEY=$ak
export CEPH_RGW_SECRET_KEY=$sk
export CEPH_RGW_ROLE_ARN=$arn
export CEPH_RGW_STS_KEY=$sts_key
export CEPH_RGW_STS_MIN_DURATION=${CEPH_STS_MIN_DURATION:-900}
export CEPH_RGW_ROLE_MAX_DURATION=$max_dur
export CEPH_RGW_KMS_KEY_1=testkey-1
export CEPH_RGW_KMS_KEY_2=testkey-2
export CEPH_CONF=$DIR/ceph.conf
EOF
  log "ready in $((SECONDS - t0)) s: $DIR/env"
}

case "${1:-}" in
  install) cmd_install ;;
  start)   cmd_start "${2:-}" ;;
  stop)    cmd_stop "${2:-}" ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
