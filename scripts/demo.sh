#!/usr/bin/env bash
# The main job on an embedded default: a local real control plane (etcd + kube-apiserver +
# kube-controller-manager), 8 CPU nodes in 2 zones and 2 tainted GPU nodes, the sample pods of
# manifests/demo/, and kube-scheduler-cpp run against it with the stock system:kube-scheduler
# identity. Stops the control plane at the end unless DEMO_KEEP=1.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build}
scheduler="$repo/$build_dir/scheduler/kube-scheduler-cpp"
say() { printf '\n== %s\n' "$*"; }
[ -x "$scheduler" ] || { echo "[demo] FAILED at step: find $scheduler (run make build)" >&2; exit 1; }

say "starting the local control plane (etcd, kube-apiserver, kube-controller-manager on 127.0.0.1)"
owner=$$; [ "${DEMO_KEEP:-0}" = 1 ] && owner=none
dir=$("$repo/tests/controlplane/start.sh" --with-kcm --owner "$owner")
. "$dir/env"
[ "${DEMO_KEEP:-0}" = 1 ] || trap '"$repo/tests/controlplane/stop.sh" "$dir"' EXIT
kubectl() { "$KUBECTL" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }
echo "API server $APISERVER_URL ready ${CP_READY_SECONDS}s after start"

say "creating sample nodes"
python3 "$repo/tests/controlplane/nodes.py" create --env "$dir/env" --prefix cpu --count 8 --zones 2
python3 "$repo/tests/controlplane/nodes.py" create --env "$dir/env" --prefix gpu --count 2 --cpu 16 \
  --memory 128Gi --resource nvidia.com/gpu=8 --label accelerator=gpu --taint dedicated=gpu:NoSchedule --zones 2
kubectl get nodes -L topology.kubernetes.io/zone,accelerator

say "creating sample pods"
kubectl apply -f "$repo/manifests/demo/sample-pods.yaml"

say "running kube-scheduler-cpp as system:kube-scheduler"
"$scheduler" --version
"$scheduler" --kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port=0 --v=2 &
scheduler_pid=$!
# Wait until every sample pod is bound or carries the scheduler's PodScheduled=False condition
# (too-big fits nowhere), then stop the scheduler with SIGTERM.
settled() {
  [ "$(kubectl get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{.status.conditions[?(@.type=="PodScheduled")].reason}{"\n"}{end}' | grep -c .)" \
    = "$(kubectl get pods --no-headers | wc -l)" ]
}
for _ in $(seq 1 120); do settled && break; sleep 0.5; done
kill -TERM "$scheduler_pid"; wait "$scheduler_pid" || true

say "pods after the scheduler ran"
kubectl get pods -o wide
say "scheduling events"
kubectl get events.events.k8s.io --sort-by=.metadata.creationTimestamp \
  -o custom-columns=TYPE:.type,REASON:.reason,POD:.regarding.name,NOTE:.note
if [ "${DEMO_KEEP:-0}" = 1 ]; then
  echo; echo "control plane kept: . $dir/env; \$KUBECTL --kubeconfig \$KUBECONFIG_ADMIN get pods"
  echo "stop it with: make cluster-down"
fi
