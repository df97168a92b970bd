#!/usr/bin/env bash
# Integration: the real control plane starts (with kube-controller-manager), takes nodes and a pod
# through the API, and kubectl of the same version reads them back; a Deployment gets its pods from
# the controller manager; the stock RBAC of system:kube-scheduler is what the scheduler
# will run with; 5000 fake nodes are created and removed; stop.sh leaves no process behind.
. "$(dirname "$0")/lib.sh"
. "$repo/tests/controlplane/versions.env"

start_controlplane --with-kcm
note "control plane ready in ${CP_READY_SECONDS}s (start to /readyz), $APISERVER_URL"
check "API server listens on loopback" grep -q '^APISERVER_URL=https://127.0.0.1:' "$cp_dir/env"

versions=$(kubectl_admin version -o json)
check_eq "kubectl is v$K8S_VERSION" "v$K8S_VERSION" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitVersion"])' <<<"$versions")"
check_eq "kube-apiserver is v$K8S_VERSION" "v$K8S_VERSION" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])' <<<"$versions")"

# Nodes through the API (client certificate), read back with kubectl.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix gpu --count 3 \
  --cpu 8 --memory 64Gi --resource nvidia.com/gpu=8 --label pool=gpu --taint dedicated=gpu:NoSchedule --zones 2
check_eq "three nodes listed by kubectl" "gpu-0 gpu-1 gpu-2" \
  "$(kubectl_admin get nodes -l pool=gpu -o jsonpath='{.items[*].metadata.name}')"
check_eq "nodes are Ready" "True True True" \
  "$(kubectl_admin get nodes -l pool=gpu -o jsonpath='{.items[*].status.conditions[?(@.type=="Ready")].status}')"
check_eq "allocatable carries the extended resource" "8" \
  "$(kubectl_admin get node gpu-1 -o jsonpath='{.status.allocatable.nvidia\.com/gpu}')"
check_eq "the only taint is the one asked for (no not-ready taint from admission)" "dedicated=gpu:NoSchedule" \
  "$(kubectl_admin get node gpu-0 -o jsonpath='{range .spec.taints[*]}{.key}={.value}:{.effect}{end}')"
check_eq "zones spread over two values" "zone-0 zone-1 zone-0" \
  "$(kubectl_admin get nodes -l pool=gpu -o jsonpath='{.items[*].metadata.labels.topology\.kubernetes\.io/zone}')"

# A pod through the API with the bearer token, read back with kubectl.
pod='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"sample","namespace":"default","labels":{"app":"sample"}},
 "spec":{"schedulerName":"kube-scheduler-cpp","terminationGracePeriodSeconds":0,
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"100m","memory":"500Mi"}}}]}}'
code=$(curl -sS --noproxy '*' -o "$cp_dir/pod-create.json" -w '%{http_code}' --cacert "$PKI_DIR/ca.crt" \
  -H "Authorization: Bearer $(cat "$PKI_DIR/admin.token")" -H 'Content-Type: application/json' \
  -X POST --data "$pod" "$APISERVER_URL/api/v1/namespaces/default/pods")
check_eq "pod created through the API with a bearer token" "201" "$code"
check_eq "kubectl reads the pod back" "sample kube-scheduler-cpp 100m 500Mi Pending" \
  "$(kubectl_admin get pod sample -o jsonpath='{.metadata.name} {.spec.schedulerName} {.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.requests.memory} {.status.phase}')"
check_eq "nobody bound the pod" "" "$(kubectl_admin get pod sample -o jsonpath='{.spec.nodeName}')"

# kube-controller-manager turns a Deployment into a ReplicaSet and pods (left Pending: no scheduler).
kubectl_admin create deployment web --image=registry.k8s.io/pause:3.10 --replicas=3 >/dev/null
pods_of_web() { kubectl_admin get pods -l app=web -o name | wc -l | tr -d ' '; }
for _ in $(seq 1 100); do [ "$(pods_of_web)" = 3 ] && break; sleep 0.2; done
check_eq "kube-controller-manager created the Deployment's 3 pods" "3" "$(pods_of_web)"

# The scheduler's identity and the stock RBAC it gets.
sched() { "$KUBECTL" --kubeconfig "$KUBECONFIG_SCHEDULER" "$@"; }
check_eq "scheduler kubeconfig authenticates as system:kube-scheduler" "system:kube-scheduler" \
  "$(sched auth whoami -o jsonpath='{.status.userInfo.username}')"
check_eq "system:kube-scheduler may create pods/binding" "yes" "$(sched auth can-i create pods --subresource=binding || true)"
check_eq "system:kube-scheduler may update leases" "yes" "$(sched auth can-i update leases.coordination.k8s.io -n kube-system || true)"
check_eq "system:kube-scheduler may not delete nodes" "no" "$(sched auth can-i delete nodes || true)"

# 5000 nodes, counted by kubectl, then removed.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix scale --count 5000 --workers 32 | tee "$cp_dir/scale.txt"
check_eq "kubectl lists 5000 scale nodes" "5000" \
  "$(kubectl_admin get nodes -l kube-scheduler-cpp.test/node-set=scale -o name | wc -l | tr -d ' ')"
python3 "$repo/tests/controlplane/nodes.py" delete --env "$cp_dir/env" --prefix scale
check_eq "scale nodes removed" "0" \
  "$(kubectl_admin get nodes -l kube-scheduler-cpp.test/node-set=scale -o name | wc -l | tr -d ' ')"

# Stop: every recorded process is gone.
pids=$(awk '{print $2}' "$cp_dir/pids")
"$repo/tests/controlplane/stop.sh" "$cp_dir"
left=$(still_running $pids)
check_eq "stop.sh leaves no control-plane process" "" "$left"
check "stop.sh removes the run directory" test ! -d "$cp_dir"
cp_dir=""
finish
