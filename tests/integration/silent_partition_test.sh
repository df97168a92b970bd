#!/usr/bin/env bash
# Integration: a silent network partition, side by side with the upstream kube-scheduler of
# tests/controlplane/versions.env (issue #44 item 5). Both reach the API server through
# tests/integration/freezing_proxy.py; once each has bound a first pod, every connection the proxy
# carries is frozen (nothing forwarded, no FIN, no RST; new connections work), as a middlebox that
# lost its state or a firewall dropping packets would leave them. Then a pod is created for each.
#   - kube-scheduler-cpp notices its silent watches (the API server sends each watch a bookmark
#     every minute, at most ~61 s apart, so 65 s without a byte is a dead connection), logs it,
#     rewatches over new connections and binds its pod within 120 s of the freeze (it waited 599 s
#     before the fix: the stream idle timeout was 600 s), without the pooled connections that the
#     freeze caught too;
#   - upstream binds its pod (client-go's HTTP/2 health check: 30 s + 15 s); both times are noted;
#   - both are still running; each pod is bound once, to a node that has room.
# Every process started here is stopped by PID on exit.
. "$(dirname "$0")/lib.sh"
find_ours
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
upstream="$KSCHED_CP_BIN/kube-scheduler"
work="$cp_dir/partition"
mkdir -p "$work"
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix node --count 2 --cpu 4 \
  --memory 16Gi >/dev/null

proxy_port=$(free_port)
api_hostport=${APISERVER_URL#https://}
python3 "$repo/tests/integration/freezing_proxy.py" --listen "$proxy_port" --target "$api_hostport" \
  >"$cp_dir/logs/proxy.log" 2>&1 &
proxy_pid=$!
ours_pid="" upstream_pid=""
cleanup() {
  for p in $ours_pid $upstream_pid $proxy_pid; do kill "$p" 2>/dev/null || true; done
  for p in $ours_pid $upstream_pid $proxy_pid; do wait "$p" 2>/dev/null || true; done
  stop_controlplane
}
trap cleanup EXIT
check "the proxy listens" wait_for 10 grep -q listening "$cp_dir/logs/proxy.log"
proxied="$work/scheduler-via-proxy.kubeconfig"
sed "s#server: $APISERVER_URL#server: https://127.0.0.1:$proxy_port#" "$KUBECONFIG_SCHEDULER" >"$proxied"
chmod 600 "$proxied"
check "the scheduler's kubeconfig points at the proxy" grep -q "server: https://127.0.0.1:$proxy_port" "$proxied"

"$ours" --kubeconfig "$proxied" --leader-elect=false --bind-address=127.0.0.1 --secure-port="$(free_port)" \
  --v=2 >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
cat >"$work/upstream.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $proxied
leaderElection:
  leaderElect: false
profiles:
- schedulerName: upstream-scheduler
YAML
"$upstream" --config "$work/upstream.yaml" --bind-address=127.0.0.1 --secure-port="$(free_port)" --v=2 \
  >"$cp_dir/logs/upstream.log" 2>&1 &
upstream_pid=$!

pod() {  # pod NAME SCHEDULER: a 100m pod for that scheduler
  kubectl_admin apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  schedulerName: $2
  containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 100m}}}]
YAML
}
node_of() { kubectl_admin get pod -n default "$1" -o jsonpath='{.spec.nodeName}' 2>/dev/null; }
bound() { [ -n "$(node_of "$1")" ]; }

pod warm-ours default-scheduler
pod warm-upstream upstream-scheduler
check "kube-scheduler-cpp binds a first pod through the proxy" wait_for 60 bound warm-ours
check "upstream binds a first pod through the proxy" wait_for 60 bound warm-upstream

kill -USR1 "$proxy_pid"
frozen_at=$SECONDS
check "the proxy froze the schedulers' connections" wait_for 5 grep -q 'froze [1-9]' "$cp_dir/logs/proxy.log"
note "$(grep froze "$cp_dir/logs/proxy.log")"
pod after-ours default-scheduler
pod after-upstream upstream-scheduler

ours_s="" upstream_s=""
deadline=$((frozen_at + 180))
while [ "$SECONDS" -lt "$deadline" ] && { [ -z "$ours_s" ] || [ -z "$upstream_s" ]; }; do
  [ -z "$ours_s" ] && bound after-ours && ours_s=$((SECONDS - frozen_at))
  [ -z "$upstream_s" ] && bound after-upstream && upstream_s=$((SECONDS - frozen_at))
  sleep 1
done
note "pod bound after the freeze: kube-scheduler-cpp ${ours_s:-never} s, upstream ${upstream_s:-never} s (within 180 s)"
check "kube-scheduler-cpp binds the pod created after the freeze within 120 s" \
  test -n "$ours_s" -a "${ours_s:-999}" -le 120
check "upstream binds its pod too (the reference)" test -n "$upstream_s"
check "kube-scheduler-cpp logged the silent watch" \
  grep -q 'watch of /api/v1/pods ended with: .*nothing received for 65000 ms' "$cp_dir/logs/ours.log"
check "both schedulers are still running" test "$(still_running "$ours_pid" "$upstream_pid")" = "$ours_pid $upstream_pid"
placements=$(kubectl_admin get pods -n default -o jsonpath='{range .items[*]}{.metadata.name}={.spec.nodeName} {end}')
note "placements: $placements"
check_eq "every pod bound once" 4 "$(kubectl_admin get pods -n default --field-selector 'spec.nodeName!=' --no-headers | wc -l)"
finish
