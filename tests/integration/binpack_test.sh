#!/usr/bin/env bash
# Integration: the Binpack plugin (issue #6) on the real control plane.
#   - The Binpack article's configuration (manifests/configs/binpack-seed-v1beta3.yaml: v1beta3,
#     the default-scheduler profile with Binpack added to the default score plugins, no args, so
#     remaining CPU decides as in the article) loads unchanged apart from clientConnection.kubeconfig,
#     and the daemon runs with it (--bind-address=127.0.0.1 --secure-port=0 --leader-elect=false).
#   - Pods (1 cpu, 1 nvidia.com/gpu each) created one by one on four 16-cpu 8-GPU nodes land
#     bin-packed: the first 8 fill one node (NodeResourcesFit then refuses it: no GPU left), the
#     next 4 go to one second node, two nodes stay empty.
#   - The same pods under the default profile (no --config) spread: 3 on each node.
#   - Binpack args reach the plugin through a v1 configuration (RawPluginArgs JSON): with
#     resources [{nvidia.com/gpu, 1}] and the other score plugins disabled, a 2-GPU pod goes to the
#     node with the fewest GPUs left although another has less CPU left; with a negative weight
#     the daemon exits 1 naming the field.
. "$(dirname "$0")/lib.sh"
find_ours

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
work="$cp_dir/binpack-test"
mkdir -p "$work"
set_label=kube-scheduler-cpp.test/node-set

for set in packed spread gpuargs; do
  python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$set" --count 4 \
    --cpu 16 --memory 128Gi --resource nvidia.com/gpu=8 >/dev/null
done

sched_pid=""
cleanup() {
  [ -z "$sched_pid" ] || kill "$sched_pid" 2>/dev/null || true
  stop_controlplane
}
trap cleanup EXIT

start_scheduler() {  # start_scheduler LOG ARGS...: sets sched_pid
  local log=$1; shift
  "$ours" --bind-address=127.0.0.1 --secure-port=0 --leader-elect=false --v=2 "$@" >"$log" 2>&1 &
  sched_pid=$!
}
stop_scheduler() {  # stop_scheduler: SIGTERM, then the exit status
  local rc=0
  kill -TERM "$sched_pid" 2>/dev/null || true
  wait "$sched_pid" || rc=$?
  sched_pid=""
  return "$rc"
}
node_of() { kubectl_admin get pod "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
pod() {  # pod NAME NODE_SET CPU GPUS [EXTRA_SPEC_JSON]: a default-scheduler pod kept to one node set
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$1","namespace":"default","labels":{"binpack-e2e":"$2"}},
 "spec":{"schedulerName":"default-scheduler","terminationGracePeriodSeconds":0${5:-},
  "nodeSelector":{"$set_label":"$2"},
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10",
   "resources":{"requests":{"cpu":"$3","memory":"500Mi","nvidia.com/gpu":"$4"},"limits":{"nvidia.com/gpu":"$4"}}}]}}
EOF
}
# Creates pods NAME-1..N one at a time, each bound before the next is created; prints the nodes.
place_in_order() {  # place_in_order NAME NODE_SET COUNT CPU GPUS
  local i nodes=""
  for i in $(seq 1 "$3"); do
    pod "$1-$i" "$2" "$4" "$5"
    wait_for 30 bound "$1-$i" || { echo "pod $1-$i not bound" >&2; return 1; }
    nodes+="$(node_of "$1-$i") "
  done
  echo "${nodes% }"
}
# Pods per node of a set, busiest first: "8 4 0 0".
per_node() {  # per_node NODE_SET
  local n counts=""
  for n in $(kubectl_admin get nodes -l "$set_label=$1" -o jsonpath='{.items[*].metadata.name}'); do
    counts+="$(kubectl_admin get pods -l "binpack-e2e=$1" --field-selector "spec.nodeName=$n" \
                 -o name | wc -l) "
  done
  tr ' ' '\n' <<<"${counts% }" | sort -rn | paste -sd' '
}
# "same run" checks: how many distinct nodes the first K and the rest went to, in order.
distinct() { tr ' ' '\n' <<<"$1" | sort -u | wc -l; }

# --- the Binpack article's configuration, unchanged but for the kubeconfig -------------------------
article="$repo/manifests/configs/binpack-seed-v1beta3.yaml"
sed "s#kubeconfig: /etc/kubernetes/scheduler.conf#kubeconfig: $KUBECONFIG_SCHEDULER#" "$article" >"$work/sched-cc.yaml"
check_eq "only clientConnection.kubeconfig differs from the article's file" "1" \
  "$(diff "$article" "$work/sched-cc.yaml" | grep -c '^>')"
start_scheduler "$cp_dir/logs/binpack-article.log" --config "$work/sched-cc.yaml"
order=$(place_in_order packed packed 12 1 1) || true
check "the article's configuration loads and its scheduler binds 12 pods" test -n "$order"
note "packed order: $order"
read -r -a placed <<<"$order"
check_eq "the first 8 pods share one node" "1" "$(distinct "${placed[*]:0:8}")"
check_eq "the next 4 share a second node" "1 2" \
  "$(distinct "${placed[*]:8:4}") $(distinct "${placed[*]}")"
check_eq "pods per node (Binpack): one full, one started, two empty" "8 4 0 0" "$(per_node packed)"
check "the v1beta3 deprecation is logged" grep -q 'v1beta3' "$cp_dir/logs/binpack-article.log"
check "no plugin errors in the log" bash -c "! grep -Eiq 'does not exist|error.*Binpack' '$cp_dir/logs/binpack-article.log'"
check "SIGTERM stops it with status 0" stop_scheduler

# --- the default profile, same pods, fresh nodes -------------------------------------------------------
start_scheduler "$cp_dir/logs/binpack-default.log" --kubeconfig "$KUBECONFIG_SCHEDULER"
order=$(place_in_order spread spread 12 1 1) || true
note "default order: $order"
check_eq "pods per node (default profile, LeastAllocated): spread evenly" "3 3 3 3" "$(per_node spread)"
check "SIGTERM stops it with status 0" stop_scheduler

# --- Binpack args through a v1 configuration --------------------------------------------------------
cat >"$work/gpu-args.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_SCHEDULER
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: "*"
      enabled:
      - name: Binpack
  pluginConfig:
  - name: Binpack
    args:
      resources:
      - name: nvidia.com/gpu
        weight: 1
EOF
# Already on the nodes (spec.nodeName set, no scheduler involved): gpuargs-0 has 12 of 16 cpu
# requested and no GPU, gpuargs-1 has 6 of 8 GPUs and 1 cpu. A pod of 1 cpu and 2 GPUs: by remaining
# CPU (the article's default) gpuargs-0 would win; by remaining GPUs (these args) gpuargs-1, which it
# fills exactly.
pod gpuargs-cpu-hog gpuargs 12 0 ',"nodeName":"gpuargs-0"'
pod gpuargs-gpu-user gpuargs 1 6 ',"nodeName":"gpuargs-1"'
start_scheduler "$cp_dir/logs/binpack-gpu-args.log" --config "$work/gpu-args.yaml"
pod gpuargs-x gpuargs 1 2
check "GPU args: the pod is bound" wait_for 30 bound gpuargs-x
check_eq "GPU args: it fills the node with the fewest GPUs left, not the one with the least CPU" \
  "gpuargs-1" "$(node_of gpuargs-x)"
check "SIGTERM stops it with status 0" stop_scheduler

sed 's/weight: 1$/weight: -1/' "$work/gpu-args.yaml" >"$work/gpu-bad-args.yaml"
rc=0
"$ours" --config "$work/gpu-bad-args.yaml" --bind-address=127.0.0.1 --secure-port=0 --leader-elect=false \
  >"$work/bad-args.log" 2>&1 || rc=$?
check_eq "a negative weight: exit status 1" "1" "$rc"
check "the message names the field" \
  grep -q 'Binpack args: resources\[0\].weight: Invalid value: -1: must be positive' "$work/bad-args.log"
note "$(grep -m1 'Binpack args' "$work/bad-args.log" || true)"

finish
