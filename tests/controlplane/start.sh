#!/usr/bin/env bash
# start.sh [--with-kcm] [--kcm-controllers LIST] [--owner PID] [--api-port PORT] [--dir DIR]
#
# Starts a real control plane on 127.0.0.1: etcd + kube-apiserver (+ kube-controller-manager with
# only the deployment, replicaset, garbage-collector and namespace controllers, with --with-kcm;
# --kcm-controllers names others, e.g. persistentvolume-binder-controller, and implies --with-kcm),
# with a fresh PKI, on free loopback ports, and waits for /readyz.
#
# Prints the run directory on stdout (progress goes to stderr). It holds:
#   env          sourceable: APISERVER_URL, KUBECONFIG_ADMIN, KUBECONFIG_ADMIN_TOKEN,
#                KUBECONFIG_SCHEDULER, KUBECTL, PKI_DIR, ETCD_URL, KSCHED_CP_BIN, CP_READY_SECONDS, ...
#   pids         "name pid executable" per process: stop.sh kills exactly these
#   kube-apiserver.args, etcd.args  their command lines, NUL-separated (restart-apiserver.sh reuses them)
#   owner        PID whose death marks this run as left behind (stop.sh --stale); "none" = manual
#   logs/        one log per process
# --owner PID: the process this control plane belongs to (a test run); default none.
# --api-port PORT: try this port first; a clash is retried on new free ports, as any clash is.
#
# Runs left behind by crashed owners are stopped first. Nothing listens on, or is sent to, a
# non-loopback address. Exit status 1 with a line naming the failed step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log() { printf '[controlplane/start] %s\n' "$*" >&2; }
fail() { log "FAILED at step: $*"; [ -n "${dir:-}" ] && "$here/stop.sh" "$dir" >/dev/null 2>&1 || true; exit 1; }

with_kcm=0 owner=none api_port_wish="" dir=""
kcm_controllers=deployment-controller,replicaset-controller,garbage-collector-controller,namespace-controller
while [ $# -gt 0 ]; do
  case "$1" in
    --with-kcm) with_kcm=1 ;;
    --kcm-controllers) with_kcm=1; kcm_controllers=${2:?--kcm-controllers needs a list}; shift ;;
    --owner) owner=${2:?--owner needs a PID}; shift ;;
    --api-port) api_port_wish=${2:?--api-port needs a port}; shift ;;
    --dir) dir=${2:?--dir needs a path}; shift ;;
    *) echo "start.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for tool in curl openssl python3; do
  command -v "$tool" >/dev/null || fail "find $tool on PATH (scripts/install-deps.sh installs it)"
done
export NO_PROXY=127.0.0.1,localhost,::1 no_proxy=127.0.0.1,localhost,::1

bin=${KSCHED_CP_BIN:-}
[ -n "$bin" ] || bin=$("$here/build.sh") || fail "build the control plane (tests/controlplane/build.sh)"
for b in etcd kube-apiserver kubectl; do [ -x "$bin/$b" ] || fail "find $bin/$b"; done

runs=$("$here/stop.sh" --runs-root)
"$here/stop.sh" --stale >&2 || true
mkdir -p "$runs"
if [ -z "$dir" ]; then dir=$(mktemp -d "$runs/run-XXXXXX"); else mkdir -p "$dir"; fi
mkdir -p "$dir/logs"; : > "$dir/pids"; echo "$owner" > "$dir/owner"
t0=$(date +%s.%N)

"$here/pki.sh" "$dir/pki" || fail "make the PKI (pki.sh)"
pki="$dir/pki"

free_ports() {  # free_ports N: N distinct free TCP ports on 127.0.0.1
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}
record() { echo "$1 $2 $(readlink -f "$3")" >> "$dir/pids"; }
alive() { kill -0 "$1" 2>/dev/null; }
bind_clash() { grep -qiE "address already in use|bind: address" "$1"; }

# wait_for PID SECONDS LOG CHECK...: 0 when CHECK passes, 1 if the process died, 2 on timeout,
# 3 when LOG shows a port clash (kube-apiserver keeps retrying a taken port for minutes instead of
# exiting, so the log is watched rather than the process).
wait_for() {
  local pid=$1 secs=$2 logfile=$3; shift 3
  local deadline=$(( $(date +%s) + secs ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    "$@" >/dev/null 2>&1 && return 0
    bind_clash "$logfile" && return 3
    alive "$pid" || return 1
    sleep 0.2
  done
  return 2
}

# --- etcd ------------------------------------------------------------------------------------------
etcd_pid=""
for attempt in 1 2 3 4 5; do
  read -r etcd_port peer_port < <(free_ports 2)
  rm -rf "$dir/etcd"; mkdir -m 700 "$dir/etcd"
  etcd_args=("$bin/etcd" --name=node0 --data-dir="$dir/etcd" \
    --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
    --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
    --initial-cluster="node0=http://127.0.0.1:$peer_port" --initial-cluster-state=new \
    --auto-compaction-mode=periodic --auto-compaction-retention=1h --quota-backend-bytes=8589934592 \
    --unsafe-no-fsync=true --log-level=warn)
  "${etcd_args[@]}" > "$dir/logs/etcd.log" 2>&1 &
  etcd_pid=$!
  rc=0; wait_for "$etcd_pid" 30 "$dir/logs/etcd.log" curl -fsS --max-time 5 --noproxy '*' "http://127.0.0.1:$etcd_port/health" || rc=$?
  [ $rc = 0 ] && break
  kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true
  if [ $rc = 3 ]; then log "etcd: port clash on $etcd_port/$peer_port, retrying on new ports"; continue; fi
  fail "start etcd (see $dir/logs/etcd.log: $(tail -n 3 "$dir/logs/etcd.log" | tr '\n' ' '))"
done
[ $rc = 0 ] || fail "start etcd: ports kept clashing"
record etcd "$etcd_pid" "$bin/etcd"
printf '%s\0' "${etcd_args[@]}" > "$dir/etcd.args"
log "etcd ready on 127.0.0.1:$etcd_port (pid $etcd_pid)"

# --- kube-apiserver --------------------------------------------------------------------------------
api_pid=""
for attempt in 1 2 3 4 5; do
  if [ -n "$api_port_wish" ] && [ "$attempt" = 1 ]; then api_port=$api_port_wish; else read -r api_port < <(free_ports 1); fi
  api_args=("$bin/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$etcd_port" \
    --bind-address=127.0.0.1 --secure-port="$api_port" \
    --advertise-address=127.0.0.1 --endpoint-reconciler-type=none \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --client-ca-file="$pki/ca.crt" --token-auth-file="$pki/tokens.csv" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 \
    --authorization-mode=RBAC \
    --disable-admission-plugins=ServiceAccount,TaintNodesByCondition \
    --allow-privileged=true \
    --max-requests-inflight=5000 --max-mutating-requests-inflight=5000 \
    --v=1)
  "${api_args[@]}" > "$dir/logs/kube-apiserver.log" 2>&1 &
  api_pid=$!
  rc=0
  wait_for "$api_pid" 120 "$dir/logs/kube-apiserver.log" curl -fsS --max-time 5 --noproxy '*' --cacert "$pki/ca.crt" \
    --cert "$pki/admin.crt" --key "$pki/admin.key" "https://127.0.0.1:$api_port/readyz" || rc=$?
  [ $rc = 0 ] && break
  kill "$api_pid" 2>/dev/null || true; wait "$api_pid" 2>/dev/null || true
  if [ $rc = 3 ]; then
    log "kube-apiserver: port $api_port in use, retrying on a new port"; continue
  fi
  [ $rc = 2 ] && fail "wait for kube-apiserver /readyz (120 s; see $dir/logs/kube-apiserver.log)"
  fail "start kube-apiserver (see $dir/logs/kube-apiserver.log: $(tail -n 3 "$dir/logs/kube-apiserver.log" | tr '\n' ' '))"
done
[ $rc = 0 ] || fail "start kube-apiserver: ports kept clashing"
record kube-apiserver "$api_pid" "$bin/kube-apiserver"
# The exact command line (NUL-separated), so restart-apiserver.sh can start it again unchanged.
printf '%s\0' "${api_args[@]}" > "$dir/kube-apiserver.args"
ready_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")
log "kube-apiserver ready on https://127.0.0.1:$api_port (pid $api_pid), ${ready_s}s from start to /readyz"

# --- kubeconfigs -----------------------------------------------------------------------------------
b64() { base64 -w0 < "$1"; }
kubeconfig() {  # kubeconfig FILE USER-BLOCK
  cat > "$1" <<KC
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority-data: $(b64 "$pki/ca.crt")
users:
- name: user
  user:
$2
contexts:
- name: local
  context: {cluster: local, user: user}
current-context: local
KC
  chmod 600 "$1"
}
kubeconfig "$dir/admin.kubeconfig" "    client-certificate-data: $(b64 "$pki/admin.crt")
    client-key-data: $(b64 "$pki/admin.key")"
kubeconfig "$dir/admin-token.kubeconfig" "    token: $(cat "$pki/admin.token")"
kubeconfig "$dir/scheduler.kubeconfig" "    client-certificate-data: $(b64 "$pki/kube-scheduler.crt")
    client-key-data: $(b64 "$pki/kube-scheduler.key")"

# --- kube-controller-manager (optional) ------------------------------------------------------------
kcm_port=""
if [ "$with_kcm" = 1 ]; then
  [ -x "$bin/kube-controller-manager" ] || fail "find $bin/kube-controller-manager"
  for attempt in 1 2 3 4 5; do
    read -r kcm_port < <(free_ports 1)
    "$bin/kube-controller-manager" --kubeconfig="$dir/admin.kubeconfig" \
      --authentication-kubeconfig="$dir/admin.kubeconfig" --authorization-kubeconfig="$dir/admin.kubeconfig" \
      --controllers="$kcm_controllers" \
      --leader-elect=false --bind-address=127.0.0.1 --secure-port="$kcm_port" \
      --kube-api-qps=5000 --kube-api-burst=10000 --v=1 > "$dir/logs/kube-controller-manager.log" 2>&1 &
    kcm_pid=$!
    rc=0; wait_for "$kcm_pid" 60 "$dir/logs/kube-controller-manager.log" curl -fsSk --max-time 5 --noproxy '*' "https://127.0.0.1:$kcm_port/healthz" || rc=$?
    [ $rc = 0 ] && break
    kill "$kcm_pid" 2>/dev/null || true; wait "$kcm_pid" 2>/dev/null || true
    if [ $rc = 3 ]; then log "kube-controller-manager: port clash, retrying"; continue; fi
    fail "start kube-controller-manager (see $dir/logs/kube-controller-manager.log)"
  done
  [ $rc = 0 ] || fail "start kube-controller-manager: ports kept clashing"
  record kube-controller-manager "$kcm_pid" "$bin/kube-controller-manager"
  log "kube-controller-manager ready on 127.0.0.1:$kcm_port (pid $kcm_pid)"
fi

cat > "$dir/env" <<ENV
KSCHED_CP_DIR=$dir
KSCHED_CP_BIN=$bin
APISERVER_URL=https://127.0.0.1:$api_port
APISERVER_PORT=$api_port
ETCD_URL=http://127.0.0.1:$etcd_port
KCM_PORT=$kcm_port
PKI_DIR=$pki
KUBECONFIG_ADMIN=$dir/admin.kubeconfig
KUBECONFIG_ADMIN_TOKEN=$dir/admin-token.kubeconfig
KUBECONFIG_SCHEDULER=$dir/scheduler.kubeconfig
KUBECTL=$bin/kubectl
CP_READY_SECONDS=$ready_s
ENV
log "control plane up: source $dir/env; stop with tests/controlplane/stop.sh $dir"
echo "$dir"
