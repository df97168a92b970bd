#!/usr/bin/env bash
# Integration: /metrics/resources (kube_pod_resource_request / kube_pod_resource_limit) of
# kube-scheduler-cpp side by side with the upstream kube-scheduler v1.37.2 on the same control plane.
# Both list every non-terminal pod their pod informer holds, whichever scheduler owns it, so once
# the pods settle both bodies must be equal byte for byte. The pods cover:
#   - pods bound by ours (default-scheduler) and by upstream (its own profile upstream-scheduler);
#   - requests only, requests and limits (ephemeral-storage included), an extended resource;
#   - init containers with a restartable sidecar, a PriorityClass (priority="1000");
#   - pod overhead from a RuntimeClass, pod-level resources (spec.resources);
#   - a pod nobody schedules (schedulerName "nobody", hugepages limits), in another namespace too;
#   - a pod ours cannot place (pending, node=""), and a bound pod turned Succeeded (left out).
# Also: a follower (a second instance of each on the same Lease) answers 200 with an empty body, as
# upstream's; anonymous requests are refused (403) as /metrics are.
# Every process started here is stopped by PID on exit.
. "$(dirname "$0")/lib.sh"
find_ours
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
upstream="$KSCHED_CP_BIN/kube-scheduler"
work="$cp_dir/pod-resource-metrics"
mkdir -p "$work"

pids=""
cleanup() {
  local p
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  stop_controlplane
}
trap cleanup EXIT

admin_token=$(cat "$PKI_DIR/admin.token")  # static token of user admin, group system:masters

python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix prm --count 2 \
  --cpu 8 --memory 32Gi --ephemeral-storage 100Gi --resource example.com/gpu=4 >/dev/null

# --- the schedulers: ours and upstream leading their own Leases, and a follower of each ------------
auth_flags=(--authentication-kubeconfig "$KUBECONFIG_SCHEDULER" --authorization-kubeconfig "$KUBECONFIG_SCHEDULER"
            --bind-address=127.0.0.1)
cat >"$work/upstream.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_SCHEDULER
leaderElection:
  leaderElect: true
  resourceName: upstream-scheduler
profiles:
- schedulerName: upstream-scheduler
EOF
port=$(free_port)
"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" "${auth_flags[@]}" --secure-port="$port" --leader-elect=true \
  >"$cp_dir/logs/ours.log" 2>&1 &
pids+=" $!"
up_port=$(free_port)
"$upstream" --config "$work/upstream.yaml" "${auth_flags[@]}" --secure-port="$up_port" --v=2 \
  >"$cp_dir/logs/upstream.log" 2>&1 &
pids+=" $!"
leading() { grep -q "$2" "$cp_dir/logs/$1.log"; }
check "kube-scheduler-cpp leads its Lease within 60 s" wait_for 60 leading ours "became leader"
check "upstream leads its Lease within 60 s" wait_for 60 leading upstream "Successfully acquired lease"
# Followers only once the leaders hold their Leases.
follower_port=$(free_port)
"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" "${auth_flags[@]}" --secure-port="$follower_port" --leader-elect=true \
  >"$cp_dir/logs/ours-follower.log" 2>&1 &
pids+=" $!"
up_follower_port=$(free_port)
"$upstream" --config "$work/upstream.yaml" "${auth_flags[@]}" --secure-port="$up_follower_port" --v=2 \
  >"$cp_dir/logs/upstream-follower.log" 2>&1 &
pids+=" $!"
note "ours :$port (follower :$follower_port), upstream :$up_port (follower :$up_follower_port)"
ready() { [ "$(fetch "$1" /healthz)" = 200 ]; }
for p in "$port" "$up_port" "$follower_port" "$up_follower_port"; do
  check "127.0.0.1:$p serves /healthz within 60 s" wait_for 60 ready "$p"
done

# --- the pods ----------------------------------------------------------------------------------------
kubectl_admin create namespace other >/dev/null
kubectl_admin apply -f - >/dev/null <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: with-overhead}
handler: runc
overhead:
  podFixed: {cpu: 250m, memory: 64Mi}
EOF
pod() {  # pod NAMESPACE NAME SCHEDULER SPEC-FIELDS (JSON members after schedulerName)
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"%s"},"spec":{"schedulerName":"%s","terminationGracePeriodSeconds":0,%s}}\n' \
    "$2" "$1" "$3" "$4"
}
image='"image":"registry.k8s.io/pause:3.10"'
{
  pod default plain default-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]'
  pod default limits default-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"200m","memory":"256Mi","ephemeral-storage":"1Gi"},"limits":{"cpu":"500m","memory":"512Mi","ephemeral-storage":"2Gi"}}}]'
  pod default gpu default-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"example.com/gpu":"1"},"limits":{"example.com/gpu":"1"}}}]'
  pod default sidecar default-scheduler \
    '"priorityClassName":"high","initContainers":[{"name":"sidecar",'"$image"',"restartPolicy":"Always","resources":{"requests":{"cpu":"50m","memory":"32Mi"},"limits":{"cpu":"100m"}}},{"name":"init",'"$image"',"resources":{"requests":{"cpu":"1","memory":"64Mi"},"limits":{"cpu":"2"}}}],"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"300m","memory":"1Gi"}}}]'
  pod default overhead default-scheduler \
    '"runtimeClassName":"with-overhead","containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"200m","memory":"100Mi"}}}]'
  pod default podlevel default-scheduler \
    '"resources":{"requests":{"cpu":"500m","memory":"256Mi"},"limits":{"cpu":"1","memory":"512Mi"}},"containers":[{"name":"c",'"$image"'}]'
  pod default huge default-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"100"}}}]'
  pod default done default-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"10m"}}}]'
  pod default up-1 upstream-scheduler \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"150m"},"limits":{"memory":"64Mi"}}}]'
  pod default up-2 upstream-scheduler \
    '"priorityClassName":"high","containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"1500m","memory":"1G"}}}]'
  pod default foreign nobody \
    '"containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"250m","memory":"1Gi"},"limits":{"hugepages-2Mi":"4Mi","memory":"2Gi"}}}]'
  pod other foreign nobody \
    '"priorityClassName":"high","containers":[{"name":"c",'"$image"',"resources":{"requests":{"cpu":"3"}}}]'
} | kubectl_admin create -f - >/dev/null
check_eq "the overhead pod got the RuntimeClass's overhead" '{"cpu":"250m","memory":"64Mi"}' \
  "$(kubectl_admin get pod overhead -o jsonpath='{.spec.overhead}')"
note "podlevel pod's spec.resources as stored: '$(kubectl_admin get pod podlevel -o jsonpath='{.spec.resources}')'"

bound() { [ -n "$(kubectl_admin get pod "$1" -o jsonpath='{.spec.nodeName}')" ]; }
for p in plain limits gpu sidecar overhead podlevel done up-1 up-2; do
  check "pod $p is bound within 60 s" wait_for 60 bound "$p"
done
unschedulable() { [ "$(kubectl_admin get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].reason}')" = Unschedulable ]; }
check "huge is reported unschedulable" wait_for 60 unschedulable huge
# A terminal pod leaves the informers (their field selector): no series for it.
kubectl_admin patch pod done --subresource=status --type=merge -p '{"status":{"phase":"Succeeded"}}' >/dev/null

# --- scrape both until they agree (the informers see the last changes within moments) -----------------
scrape() {  # scrape PORT FILE: /metrics/resources with the admin token into FILE; status on stdout
  local code; code=$(fetch "$1" /metrics/resources "$admin_token"); cp "$work/body" "$2"; echo "$code"
}
agree() {
  [ "$(scrape "$port" "$work/ours.txt")" = 200 ] && [ "$(scrape "$up_port" "$work/upstream.txt")" = 200 ] &&
    ! grep -q 'pod="done"' "$work/ours.txt" "$work/upstream.txt" && cmp -s "$work/ours.txt" "$work/upstream.txt"
}
wait_for 60 agree || true
check_eq "/metrics/resources: the status (ours, upstream)" "200 200" \
  "$(scrape "$port" "$work/ours.txt") $(scrape "$up_port" "$work/upstream.txt")"
ours_type=$(fetch "$port" /metrics/resources "$admin_token" >/dev/null; content_type)
check_eq "/metrics/resources: Content-Type as upstream's" \
  "$(fetch "$up_port" /metrics/resources "$admin_token" >/dev/null; content_type)" "$ours_type"
check_eq "/metrics/resources: HELP and TYPE lines as upstream's" \
  "$(grep '^#' "$work/upstream.txt")" "$(grep '^#' "$work/ours.txt")"
check_eq "/metrics/resources: the same series as upstream's (sorted)" \
  "$(grep -v '^#' "$work/upstream.txt" | sort)" "$(grep -v '^#' "$work/ours.txt" | sort)"
check "/metrics/resources: byte for byte as upstream's" cmp -s "$work/upstream.txt" "$work/ours.txt"
note "$(grep -vc '^#' "$work/ours.txt") series"

# What the series say, checked on ours (and so on upstream's, equal above).
value() {  # value FAMILY NAMESPACE POD RESOURCE: the sample's value, "" when absent
  awk -v f="$1" -v ns="namespace=\"$2\"" -v pod="pod=\"$3\"" -v r="resource=\"$4\"" \
    'index($0, f "{") == 1 && index($0, ns) && index($0, pod ",") && index($0, r ",") {print $NF}' "$work/ours.txt"
}
series() { grep -c "pod=\"$1\"" "$work/ours.txt" || true; }
check_eq "plain: cpu request 0.1 cores" 0.1 "$(value kube_pod_resource_request default plain cpu)"
check_eq "plain: memory request 128Mi" 1.34217728e+08 "$(value kube_pod_resource_request default plain memory)"
check_eq "plain: no limits" "" "$(value kube_pod_resource_limit default plain cpu)"
check_eq "limits: cpu limit 0.5" 0.5 "$(value kube_pod_resource_limit default limits cpu)"
check_eq "limits: ephemeral-storage limit 2Gi" 2.147483648e+09 "$(value kube_pod_resource_limit default limits ephemeral-storage)"
check "limits: ephemeral-storage in bytes" grep -q 'pod="limits",priority="0",resource="ephemeral-storage",scheduler="default-scheduler",unit="bytes"' "$work/ours.txt"
check "gpu: the extended resource, unit \"\"" grep -q 'pod="gpu",priority="0",resource="example.com/gpu",scheduler="default-scheduler",unit=""} 1$' "$work/ours.txt"
# Requests: max(100m + sidecar 50m, init 1 + sidecar 50m) = 1.05; limits: max(300m + 100m, 2 + 100m) = 2.1.
check_eq "sidecar: cpu request 1.05 (init container + the sidecar started before it)" 1.05 \
  "$(value kube_pod_resource_request default sidecar cpu)"
check_eq "sidecar: cpu limit 2.1" 2.1 "$(value kube_pod_resource_limit default sidecar cpu)"
check "sidecar: priority 1000 from its PriorityClass" grep -q 'pod="sidecar",priority="1000",' "$work/ours.txt"
# 350 * Go's Pow10(-3): upstream prints the rounding too.
check_eq "overhead: cpu request 100m + 250m" 0.35000000000000003 "$(value kube_pod_resource_request default overhead cpu)"
check_eq "overhead: cpu limit 200m + 250m" 0.45 "$(value kube_pod_resource_limit default overhead cpu)"
check_eq "overhead: memory limit 100Mi + 64Mi" 1.71966464e+08 "$(value kube_pod_resource_limit default overhead memory)"
# The API server defaults a missing request to the limit: 100Mi + 64Mi.
check_eq "overhead: memory request, the defaulted 100Mi + 64Mi" 1.71966464e+08 "$(value kube_pod_resource_request default overhead memory)"
check_eq "podlevel: the pod-level cpu request" 0.5 "$(value kube_pod_resource_request default podlevel cpu)"
check_eq "podlevel: the pod-level memory limit" 5.36870912e+08 "$(value kube_pod_resource_limit default podlevel memory)"
check "huge: pending, node \"\"" grep -q 'namespace="default",node="",pod="huge",' "$work/ours.txt"
check "up-1: bound by upstream, with its node" grep -q 'pod="up-1",priority="0",resource="cpu",scheduler="upstream-scheduler"' "$work/ours.txt"
check "up-1: its node is set" bash -c "grep 'pod=\"up-1\"' '$work/ours.txt' | grep -qv 'node=\"\"'"
check "foreign (schedulerName nobody): listed with node \"\"" \
  grep -q 'namespace="default",node="",pod="foreign",priority="0",resource="hugepages-2Mi",scheduler="nobody",unit="bytes"} 4.194304e+06' "$work/ours.txt"
check "foreign in namespace other: priority 1000" \
  grep -q 'namespace="other",node="",pod="foreign",priority="1000",resource="cpu",scheduler="nobody",unit="cores"} 3' "$work/ours.txt"
check_eq "done (Succeeded): no series" 0 "$(series done)"

# --- leadership and authorization --------------------------------------------------------------------
follower() {  # follower PORT: "code|content-type|body" of /metrics/resources
  local code; code=$(fetch "$1" /metrics/resources "$admin_token")
  printf '%s|%s|%s' "$code" "$(content_type)" "$(cat "$work/body")"
}
check_eq "a follower of ours: 200, empty body" "200||" "$(follower "$follower_port")"
check_eq "a follower: as upstream's follower" "$(follower "$up_follower_port")" "$(follower "$follower_port")"
check_eq "/metrics/resources anonymous: 403 (ours, upstream)" "403 403" \
  "$(fetch "$port" /metrics/resources) $(fetch "$up_port" /metrics/resources)"

[ "$failed" = 0 ] || { echo "--- ours.log (tail)"; tail -n 30 "$cp_dir/logs/ours.log";
                       echo "--- diff upstream ours"; diff "$work/upstream.txt" "$work/ours.txt" || true; }
finish
