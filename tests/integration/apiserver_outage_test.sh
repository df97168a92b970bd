#!/usr/bin/env bash
# Integration: the API server is killed (SIGKILL) while kube-scheduler-cpp is binding pods, and
# comes back seconds later. With the default profile every binding is asynchronous: its answer
# arrives on the REST client's transport thread, so a connection that dies with Bindings in flight
# must answer each of them with an error, and the scheduler must forget each such pod and retry it.
# A response lost after the API server committed the Binding must not leave a second binding, and
# nothing may stay assumed in the scheduler's cache.
#   - 3000 pods (100m CPU each) pending on 100 nodes of 4 CPUs, then the scheduler starts; when
#     about a fifth are bound, the API server is killed and restarted 3 s later;
#   - the scheduler keeps running, sees its watches end, retries the bindings that failed, and
#     binds every pod;
#   - then 1000 more pods fill the cluster exactly (40 per node): they bind only if the scheduler's
#     cache holds no phantom pod from the outage; no node is over its CPU;
#   - /readyz of the scheduler answers ok afterwards; SIGTERM stops it with exit status 0.
. "$(dirname "$0")/lib.sh"
find_ours

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix node --count 100 --cpu 4 \
  --memory 32Gi --pods 110 --zones 3 >/dev/null

create_pods() {  # create_pods PREFIX COUNT: pods of scheduler_perf's default template (100m, 500Mi)
  python3 "$repo/bench/scheduler_perf.py" _create --env "$cp_dir/env" --namespace default \
    --template pod_default --prefix "$1" --start 0 --count "$2" --threads 16
}
# pending_count: pods without a node (one list; the field selector is served by the API server)
pending_count() {
  kubectl_admin get pods -n default --field-selector spec.nodeName= --no-headers 2>/dev/null | wc -l
}
bound_count() {
  kubectl_admin get pods -n default --field-selector 'spec.nodeName!=' --no-headers 2>/dev/null | wc -l
}
at_least_bound() { [ "$(bound_count)" -ge "$1" ]; }
all_bound() { [ "$(pending_count)" -eq 0 ] && [ "$(bound_count)" -eq "$1" ]; }

created=$(create_pods a 3000 | python3 -c 'import json,sys; print(json.load(sys.stdin)["created"])')
check_eq "3000 pods created while no scheduler runs" 3000 "$created"

port=$(free_port)
"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" --leader-elect=false --bind-address=127.0.0.1 \
  --secure-port="$port" --v=2 >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
cleanup() {
  kill "$ours_pid" 2>/dev/null || true
  stop_controlplane
}
trap cleanup EXIT

# Kill the API server once some pods are bound and most are still to go.
check "600 pods bound before the outage" wait_for 120 at_least_bound 600
bound_before=$(bound_count)
note "bound before the outage: $bound_before"
check "the outage starts with pods still pending" test "$bound_before" -lt 3000
read -r _ api_pid _ < <(grep '^kube-apiserver ' "$cp_dir/pids")
kill -KILL "$api_pid"
"$repo/tests/controlplane/restart-apiserver.sh" --down-seconds 3 "$cp_dir"

check "every one of the 3000 pods is bound after the outage" wait_for 180 all_bound 3000
check "the scheduler is still running" running "$ours_pid"
failed_bindings=$(grep -c 'Error scheduling pod; retrying' "$cp_dir/logs/ours.log" || true)
note "scheduling errors retried during the outage: $failed_bindings; first ones:"
grep 'Error scheduling pod; retrying' "$cp_dir/logs/ours.log" | head -n 3 | cut -c1-300 | sed 's/^/    /' || true
note "pods found bound when their retry came: $(grep -c 'Pod has been assigned to node. Abort adding it back' "$cp_dir/logs/ours.log" || true)"
# The Bindings the outage catches written but unanswered fail (one or two at ~300 pods/s); those
# refused before they were written wait in the client's backoff and succeed once it is back.
check "the scheduler saw the outage: its watches ended and were resumed" \
  grep -q 'watch of /api/v1/pods.* ended with' "$cp_dir/logs/ours.log"

# Fill the cluster exactly: a pod the cache still counts twice, or one it still holds assumed,
# would leave one of these without room.
created=$(create_pods b 1000 | python3 -c 'import json,sys; print(json.load(sys.stdin)["created"])')
check_eq "1000 more pods created" 1000 "$created"
check "the cluster fills exactly: all 4000 pods bound" wait_for 120 all_bound 4000
per_node=$(kubectl_admin get pods -n default -o json | python3 -c '
import collections, json, sys
pods = json.load(sys.stdin)["items"]
count = collections.Counter(p["spec"].get("nodeName", "") for p in pods)
print(" ".join(sorted({str(n) for node, n in count.items() if node})) or "none")')
check_eq "every node holds exactly 40 pods (4 CPUs of 100m pods: none over its CPU)" "40" "$per_node"

check "the scheduler's /readyz answers ok" \
  curl -fsS --noproxy '*' -k --max-time 5 -o /dev/null "https://127.0.0.1:$port/readyz"
kill -TERM "$ours_pid"
status=0; wait "$ours_pid" || status=$?
check_eq "SIGTERM stops the scheduler with exit status 0" 0 "$status"
finish
