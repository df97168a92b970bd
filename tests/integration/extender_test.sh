#!/usr/bin/env bash
# Integration: KubeSchedulerConfiguration `extenders` (HTTP scheduler extenders), kube-scheduler-cpp
# side by side with the upstream kube-scheduler v1.37.2 on the real control plane. One fake extender
# (tests/integration/fake_extender.py) listens on 127.0.0.1 and serves each scheduler its own
# extender instances by URL prefix (ours-a, upstream-a, ...), deciding by node labels and logging
# every call (tests count the calls there). Six fake nodes (phase 3 adds four per scheduler):
#   ext-fav-0    ext.test/favourite=true       (example.com/ext=4, example.com/strict=4)
#   ext-plain-0, ext-plain-1                    (example.com/ext=4)
#   ext-rej-0    ext.test/reject=true           filter: failedNodes "rejected by fake extender"
#   ext-unres-0  ext.test/unresolvable=true     filter: failedAndUnresolvableNodes
#                                               "unresolvable for fake extender"
#   ext-nnrej-0  ext.test/reject-nodenames=true filter, when called with node NAMES only:
#                                               failedNodes "rejected by fake extender (nodenames)"
# Phase 1, each scheduler with four extenders, in this order:
#   a  filter + prioritize, nodeCacheCapable false, weight 5 (favourite 10, others 0; answers with
#      lower-camel keys)
#   b  filter, nodeCacheCapable true (answers with Go's field names, as a Go extender does)
#   c  bind, managedResources [example.com/ext]: binds (annotating ext.test/bound-by=PREFIX) only
#      the pods requesting example.com/ext
#   d  filter + prioritize, ignorable, answering HTTP 500 to everything
# and checks, for each scheduler (WHO = ours, upstream):
#   - plain pods land on ext-fav-0 (the extender's prioritize wins); the broken ignorable d was
#     called (HTTP 500) and did not prevent it;
#   - a's filter calls carry `Nodes` (6 nodes), b's `NodeNames` (the 4 a passed); a's prioritize
#     the 3 nodes both passed; ours' calls (verbs, argument kind, node counts, JSON keys) equal
#     upstream's for every pod;
#   - a pod pinned (node affinity) to ext-rej-0, ext-unres-0, ext-nnrej-0 is unschedulable, its
#     PodScheduled message names the extenders' reasons and equals upstream's byte for byte;
#   - the pod requesting example.com/ext is bound by extender c (its bind call logged, the Binding's
#     annotation on the pod, the Normal Scheduled event); no bind call for any other pod.
# Phase 2, both schedulers restarted with two NON-ignorable extenders answering HTTP 500:
#   e  filter, managedResources [example.com/strict]; f  bind, managedResources [example.com/ext]
#   - a pod requesting example.com/strict is never bound, PodScheduled False, and both messages
#     contain "failed filter with extender" if upstream's does (printed with `note`); likewise the
#     pod requesting example.com/ext with "failed bind with extender"; both are retried;
#   - a pod requesting neither is bound (extenders not interested are skipped);
#   - same reasons as upstream's (SchedulerError), and ours' extender calls equal upstream's.
# Phase 3, both schedulers restarted with three extenders having only a preemptVerb, in this order:
#   g  preempt, nodeCacheCapable true (sent NodeNameToMetaVictims: pod UIDs)
#   h  preempt, nodeCacheCapable false (sent NodeNameToVictims: whole pods; answers with Go's
#      field names)
#   i  preempt, nodeCacheCapable true, managedResources [example.com/nopreempt], keeping no node
# The fake extender keeps the candidates labelled ext.test/preempt-here=true, victims unchanged.
# Per scheduler two node sets of two 4-cpu nodes (pods pinned to their scheduler's set by the
# node-set label): ext-pre-WHO-{0,1} and ext-prenone-WHO-{0,1} (these with example.com/nopreempt=1);
# node 1 of each is labelled ext.test/preempt-here=true. Each node holds one 3-cpu pod created
# bound: priority 0 on node 0, priority 500 on node 1, so that the default criteria (lowest victim
# priority) would pick node 0. A priority-1000 pod of 2 cpu fits nowhere:
#   - pre (set ext-pre-WHO): g gets the 2 candidates as meta victims (their UIDs), keeps node 1;
#     h gets node 1 alone as whole pods (metadata.uid), keeps it; i is not called (not
#     interested). The preemptor is bound to node 1, node 1's victim is evicted (Normal Preempted
#     event naming the preemptor's UID and node 1), node 0's victim stays; its FailedScheduling
#     note equals upstream's;
#   - nopre (set ext-prenone-WHO, requesting example.com/nopreempt): g and h as above, then i (meta
#     victims, 1 node) keeps none: the pod stays unbound, not nominated, both victims stay, and its
#     PodScheduled message contains "preemption: no candidate node for preemption" and equals
#     upstream's byte for byte (printed with `note`);
#   - ours' preempt calls (prefix, argument kind, node count, victim count, status, JSON keys)
#     equal upstream's for both pods, and so do the keys of the victims objects and of their pods
#     (MetaPod / whole v1.Pod) as sent to g and h, and the keys of the Pod argument and of its
#     metadata. The Pod argument's keys of every call of the three phases are printed (`note`).
# Phase 4, both schedulers restarted with four HTTPS extenders on a second fake extender (a server
# certificate for the name ext-extender.test only, made here with its CA; client certificates
# required): j (filter + prioritize; caFile, serverName, certFile/keyFile) and k (filter,
# nodeCacheCapable; insecure, certData/keyData) are called with the client certificate and decide as
# in phase 1; l (filter, example.com/strict; caData of another CA) and m (bind, example.com/ext; no
# serverName, so the certificate does not match 127.0.0.1) fail their handshakes: those pods stay
# unbound with SchedulerError and a message naming the URL as Go's client does (`Post "URL": ...`;
# the TLS wording is OpenSSL's, not Go's), and l and m never receive a request.
# A scheduler that exits at startup (e.g. rejecting `extenders`) fails the test at once, with its log.
# KSCHED_EXTENDER_TEST_ONLY=upstream (or =ours) runs one scheduler alone, skipping the other's
# checks and the comparisons (used to validate the test against upstream alone; the cluster then
# has 10 nodes instead of 14, which messages count). Every address is
# 127.0.0.1; every process started here is stopped by PID on exit.
. "$(dirname "$0")/lib.sh"
only=${KSCHED_EXTENDER_TEST_ONLY:-}
case "$only" in
  "") whos="ours upstream" ;;
  ours|upstream) whos=$only ;;
  *) echo "KSCHED_EXTENDER_TEST_ONLY must be empty, ours or upstream (got $only)" >&2; exit 2 ;;
esac
runs() { [[ " $whos " == *" $1 "* ]]; }
both_run() { [ -z "$only" ]; }
runs ours && find_ours
fake_extender="$repo/tests/integration/fake_extender.py"
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL${only:+ (only $only runs)}"
upstream="$KSCHED_CP_BIN/kube-scheduler"
work="$cp_dir/extender"
mkdir -p "$work"
calls_log="$work/calls.jsonl"
: >"$calls_log"

extender_pid="" tls_extender_pid="" ours_pid="" upstream_pid=""
cleanup() {
  local p
  for p in $ours_pid $upstream_pid $extender_pid $tls_extender_pid; do kill "$p" 2>/dev/null || true; done
  for p in $ours_pid $upstream_pid $extender_pid $tls_extender_pid; do wait "$p" 2>/dev/null || true; done
  stop_controlplane
}
trap cleanup EXIT

# --- the fake extender --------------------------------------------------------------------------------
python3 "$fake_extender" serve --env "$cp_dir/env" --log "$calls_log" --port 0 --port-file "$work/port" \
  --broken ours-d --broken upstream-d --broken ours-e --broken upstream-e --broken ours-f --broken upstream-f \
  --go-keys ours-b --go-keys upstream-b --go-keys ours-h --go-keys upstream-h \
  --preempt-none ours-i --preempt-none upstream-i >"$cp_dir/logs/fake-extender.log" 2>&1 &
extender_pid=$!
check "the fake extender listens on 127.0.0.1" wait_for 20 test -s "$work/port"
url="http://127.0.0.1:$(cat "$work/port")"
note "fake extender at $url"

# --- nodes ----------------------------------------------------------------------------------------------
mknodes() { python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --cpu 8 --memory 32Gi "$@" >/dev/null; }
mknodes --prefix ext-fav --resource example.com/ext=4 --resource example.com/strict=4 --label ext.test/favourite=true
mknodes --prefix ext-plain --count 2 --resource example.com/ext=4
mknodes --prefix ext-rej --label ext.test/reject=true
mknodes --prefix ext-unres --label ext.test/unresolvable=true
mknodes --prefix ext-nnrej --label ext.test/reject-nodenames=true
check_eq "6 fake nodes" 6 "$(kubectl_admin get nodes --no-headers | wc -l)"

# --- helpers ------------------------------------------------------------------------------------------
sched_of() { [ "$1" = ours ] && echo default-scheduler || echo upstream-scheduler; }
write_config() {  # write_config WHO PHASE FILE
  local who=$1 phase=$2
  {
    cat <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_SCHEDULER
leaderElection:
  leaderElect: false
profiles:
- schedulerName: $(sched_of "$who")
extenders:
EOF
    case "$phase" in
    1)
      cat <<EOF
- urlPrefix: $url/$who-a
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 5
  nodeCacheCapable: false
- urlPrefix: $url/$who-b
  filterVerb: filter
  nodeCacheCapable: true
  httpTimeout: 10s
- urlPrefix: $url/$who-c
  bindVerb: bind
  managedResources:
  - name: example.com/ext
- urlPrefix: $url/$who-d
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 1
  ignorable: true
EOF
      ;;
    2)
      cat <<EOF
- urlPrefix: $url/$who-e
  filterVerb: filter
  managedResources:
  - name: example.com/strict
- urlPrefix: $url/$who-f
  bindVerb: bind
  managedResources:
  - name: example.com/ext
EOF
      ;;
    3)
      cat <<EOF
- urlPrefix: $url/$who-g
  preemptVerb: preempt
  nodeCacheCapable: true
- urlPrefix: $url/$who-h
  preemptVerb: preempt
  nodeCacheCapable: false
- urlPrefix: $url/$who-i
  preemptVerb: preempt
  nodeCacheCapable: true
  managedResources:
  - name: example.com/nopreempt
EOF
      ;;
    4)
      cat <<EOF
- urlPrefix: $tls_url/$who-j
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 5
  enableHTTPS: true
  tlsConfig:
    serverName: $tls_name
    caFile: $tls/ca.crt
    certFile: $tls/client.crt
    keyFile: $tls/client.key
- urlPrefix: $tls_url/$who-k
  filterVerb: filter
  nodeCacheCapable: true
  enableHTTPS: true
  tlsConfig:
    insecure: true
    certData: $(base64 -w0 "$tls/client.crt")
    keyData: $(base64 -w0 "$tls/client.key")
- urlPrefix: $tls_url/$who-l
  filterVerb: filter
  managedResources:
  - name: example.com/strict
  enableHTTPS: true
  tlsConfig:
    serverName: $tls_name
    caData: $(base64 -w0 "$tls/other-ca.crt")
    certFile: $tls/client.crt
    keyFile: $tls/client.key
- urlPrefix: $tls_url/$who-m
  bindVerb: bind
  managedResources:
  - name: example.com/ext
  enableHTTPS: true
  tlsConfig:
    caFile: $tls/ca.crt
    certFile: $tls/client.crt
    keyFile: $tls/client.key
EOF
      ;;
    esac
  } >"$3"
}
start_scheduler() {  # start_scheduler WHO PHASE: writes its configuration, starts it, sets WHO_pid
  local who=$1 phase=$2 config="$work/$1-phase$2.yaml" log="$cp_dir/logs/$1-phase$2.log"
  write_config "$who" "$phase" "$config"
  if [ "$who" = ours ]; then
    "$ours" --config "$config" --bind-address=127.0.0.1 --secure-port=0 --v=2 >"$log" 2>&1 &
    ours_pid=$!
  else
    "$upstream" --config "$config" --bind-address=127.0.0.1 --secure-port=0 --v=2 >"$log" 2>&1 &
    upstream_pid=$!
  fi
}
stop_scheduler() {  # stop_scheduler WHO: SIGTERM, returns its exit status
  local pid rc=0
  if [ "$1" = ours ]; then pid=$ours_pid; ours_pid=""; else pid=$upstream_pid; upstream_pid=""; fi
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  return "$rc"
}
stop_phase() {  # stop_phase N: stops both schedulers; ours must exit 0 on SIGTERM
  local who rc
  for who in $whos; do
    if [ "$who" = ours ]; then
      rc=0; stop_scheduler ours || rc=$?
      check_eq "SIGTERM stops kube-scheduler-cpp (phase $1) with exit status 0" 0 "$rc"
    else
      stop_scheduler upstream || true
    fi
  done
}
pid_of() { if [ "$1" = ours ]; then echo "$ours_pid"; else echo "$upstream_pid"; fi; }
pod() {  # pod WHO NAME [extra spec json] [extended resources json, e.g. "example.com/ext":"1"] [CPU]
  local extra=${3:-} ext=${4:-} cpu=${5:-100m}
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$1-$2","namespace":"default","labels":{"ext-test":"yes"}},
 "spec":{"schedulerName":"$(sched_of "$1")","terminationGracePeriodSeconds":0$extra,
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10",
   "resources":{"requests":{"cpu":"$cpu","memory":"100Mi"${ext:+,$ext}},"limits":{$ext}}}]}}
EOF
}
node_of() { kubectl_admin get pod "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
condition() {  # condition POD FIELD: the PodScheduled condition's status, reason or message
  kubectl_admin get pod "$1" -o jsonpath="{.status.conditions[?(@.type==\"PodScheduled\")].$2}"
}
has_condition() { [ -n "$(condition "$1" reason)" ]; }
message_has() { condition "$1" message | grep -qF -- "$2"; }
calls() {  # calls WHO [--prefix/--verb/--pod ...]: the extender calls of WHO's instances, WHO- stripped
  local who=$1; shift
  python3 "$fake_extender" calls "$calls_log" --strip "$who-" "$@"
}
call_set() {  # call_set WHO POD: WHO's calls for default/WHO-POD, one line per distinct call, sorted
  calls "$1" --pod "default/$1-$2" | sort -u
}
call_count() {  # call_count WHO PREFIX-LETTER VERB [POD]
  local pod_args=()
  [ -n "${4:-}" ] && pod_args=(--pod "default/$1-$4")
  calls "$1" --prefix "$1-$2" --verb "$3" "${pod_args[@]}" | grep -c . || true
}
called_twice() { [ "$(call_count "$@")" -ge 2 ]; }
first_call() {  # first_call WHO PREFIX-LETTER VERB POD: "letter verb args count status" of the first one
  calls "$1" --prefix "$1-$2" --verb "$3" --pod "default/$1-$4" | awk -F'\t' 'NR == 1 {print $1, $2, $4, $5, $6}'
}
scheduled_event() {  # scheduled_event POD: type reason action note reportingController
  kubectl_admin get events.events.k8s.io --field-selector "regarding.name=$1,reason=Scheduled" \
    -o jsonpath='{.items[0].type} {.items[0].reason} {.items[0].action} {.items[0].note} {.items[0].reportingController}'
}
has_scheduled_event() { [ -n "$(scheduled_event "$1" | tr -d ' ')" ]; }
scheduler_log_tail() {  # scheduler_log_tail WHO PHASE
  [ -f "$cp_dir/logs/$1-phase$2.log" ] || return 0
  echo "--- $1-phase$2.log (tail)"; tail -n 15 "$cp_dir/logs/$1-phase$2.log" || true
}
bound_or_exited() { bound "$2" || ! running "$(pid_of "$1")"; }
require_running() {  # require_running WHO PHASE POD: until POD is bound or WHO exited; stop the test if it exited
  wait_for 60 bound_or_exited "$1" "$1-$3" || true
  running "$(pid_of "$1")" && return 0
  check "$1 runs with the phase-$2 extender configuration" false
  scheduler_log_tail "$1" "$2"
  finish || exit 1
}

# --- phase 1: filter + prioritize, node-cache filter, binder, broken ignorable ----------------------------
for who in $whos; do start_scheduler "$who" 1; done
pinned=',"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["ext-rej-0","ext-unres-0","ext-nnrej-0"]}]}]}}}'
for who in $whos; do
  pod "$who" plain-0
  pod "$who" plain-1
  pod "$who" pinned "$pinned"
  pod "$who" ext '' '"example.com/ext":"1"'
done
for who in $whos; do require_running "$who" 1 plain-0; done
for who in $whos; do
  for p in plain-0 plain-1; do
    check "$who binds $p" wait_for 60 bound "$who-$p"
    check_eq "$who puts $p on ext-fav-0 (the extender's prioritize wins)" ext-fav-0 "$(node_of "$who-$p")"
  done
  # Extender a (filter, Nodes): all 6 nodes; b (filter, NodeNames): the 4 that a passed; d (broken,
  # ignorable): the 3 that b passed, answered 500; a's prioritize: those 3 nodes.
  check_eq "$who: a's filter call for plain-0 carries Nodes (6 nodes)" "a filter nodes 6 200" "$(first_call "$who" a filter plain-0)"
  check_eq "$who: b's filter call for plain-0 carries NodeNames (the 4 nodes a passed)" "b filter nodenames 4 200" "$(first_call "$who" b filter plain-0)"
  check_eq "$who: the broken ignorable d was called for plain-0 (HTTP 500) and skipped" "d filter nodes 3 500" "$(first_call "$who" d filter plain-0)"
  check_eq "$who: a's prioritize call for plain-0 carries the 3 remaining nodes" "a prioritize nodes 3 200" "$(first_call "$who" a prioritize plain-0)"
  check_eq "$who: the binder c is not called for the plain pods" 0 \
    "$(calls "$who" --prefix "$who-c" | awk -F'\t' -v p="default/ext" '$3 != p' | grep -c . || true)"
  # The example.com/ext pod: bound by extender c.
  check "$who binds the example.com/ext pod" wait_for 60 bound "$who-ext"
  check_eq "$who puts the example.com/ext pod on ext-fav-0" ext-fav-0 "$(node_of "$who-ext")"
  check_eq "$who: the binder c was called once for it, answered 200" "c bind 200" \
    "$(calls "$who" --prefix "$who-c" --verb bind --pod "default/$who-ext" | awk -F'\t' '{print $1, $2, $6}')"
  check_eq "$who: the pod carries the extender's Binding annotation" "$who-c" \
    "$(kubectl_admin get pod "$who-ext" -o jsonpath='{.metadata.annotations.ext\.test/bound-by}')"
  check_eq "$who: the Scheduled event of the extender-bound pod" \
    "Normal Scheduled Binding Successfully assigned default/$who-ext to ext-fav-0 $(sched_of "$who")" \
    "$(wait_for 10 has_scheduled_event "$who-ext" || true; scheduled_event "$who-ext")"
  # The pinned pod: every candidate is rejected by a or b.
  check "$who reports the pinned pod as unschedulable" wait_for 60 has_condition "$who-pinned"
  check_eq "$who: pinned: PodScheduled False, Unschedulable" "False Unschedulable" \
    "$(condition "$who-pinned" status) $(condition "$who-pinned" reason)"
  check_eq "$who: pinned: not bound" "" "$(node_of "$who-pinned")"
  for reason in "1 rejected by fake extender," "1 unresolvable for fake extender" "1 rejected by fake extender (nodenames)"; do
    check "$who: pinned: the message counts '$reason'" message_has "$who-pinned" "$reason"
  done
  note "$who pinned: $(condition "$who-pinned" message)"
  check_eq "$who: pinned: b was called with the one node a passed (ext-nnrej-0)" "b filter nodenames 1 200" "$(first_call "$who" b filter pinned)"
done
if both_run; then
  check_eq "pinned: same reason as upstream" "$(condition upstream-pinned reason)" "$(condition ours-pinned reason)"
  check_eq "pinned: same message as upstream, byte for byte" "$(condition upstream-pinned message)" "$(condition ours-pinned message)"
  for p in plain-0 plain-1 pinned ext; do
    check_eq "$p: ours' extender calls (verb, args, node count, status, JSON keys) equal upstream's" \
      "$(call_set upstream "$p")" "$(call_set ours "$p")"
  done
fi
for who in $whos; do
  for p in plain-0 ext; do note "$who calls for $p: $(call_set "$who" "$p" | tr '\t' ' ' | paste -sd';' | sed 's/;/; /g')"; done
done
stop_phase 1
kubectl_admin delete pod -l ext-test=yes --field-selector spec.nodeName= --wait=false >/dev/null 2>&1 || true

# --- phase 2: non-ignorable extenders answering 500 ------------------------------------------------------
for who in $whos; do start_scheduler "$who" 2; done
for who in $whos; do
  pod "$who" strict '' '"example.com/strict":"1"'
  pod "$who" bindfail '' '"example.com/ext":"1"'
  pod "$who" free
done
for who in $whos; do require_running "$who" 2 free; done
for who in $whos; do
  check "$who binds the pod no extender is interested in" wait_for 60 bound "$who-free"
  check "$who reports the example.com/strict pod as not scheduled" wait_for 60 has_condition "$who-strict"
  check "$who reports the example.com/ext pod as not scheduled" wait_for 60 has_condition "$who-bindfail"
  # Both are retried (backoff 1 s, 2 s): wait for a second call, then neither may have been bound.
  check "$who calls the failing filter e again (retry)" wait_for 30 called_twice "$who" e filter strict
  check "$who calls the failing binder f again (retry)" wait_for 30 called_twice "$who" f bind bindfail
  for p in strict bindfail; do
    check_eq "$who: $p is not bound" "" "$(node_of "$who-$p")"
    check_eq "$who: $p: PodScheduled False" False "$(condition "$who-$p" status)"
    note "$who $p: $(condition "$who-$p" reason): $(condition "$who-$p" message)"
  done
  check_eq "$who: e's filter call for strict carries Nodes (ext-fav-0 alone has example.com/strict)" "e filter nodes 1 500" "$(first_call "$who" e filter strict)"
  check_eq "$who: f's bind call for bindfail" "f bind none 0 500" "$(first_call "$who" f bind bindfail)"
  check_eq "$who: the binder f was not called for the strict pod (the filter failed first)" 0 "$(call_count "$who" f bind strict)"
  check_eq "$who: the binder f was not called for the free pod" 0 "$(call_count "$who" f bind free)"
  check_eq "$who: the filter e was not called for the example.com/ext pod (not interested)" 0 "$(call_count "$who" e filter bindfail)"
done
# What ours must show, from upstream's messages (when upstream ran) or Go's known wording.
for p in strict:filter bindfail:bind; do
  name=${p%%:*} verb=${p##*:}
  want="failed $verb with extender"
  if runs upstream; then
    message_has upstream-"$name" "$want" || want=""
    [ -n "$want" ] || note "upstream's $name message does not contain 'failed $verb with extender'"
  fi
  if [ -n "$want" ]; then
    for who in $whos; do check "$who: $name: the message contains '$want'" message_has "$who-$name" "$want"; done
  fi
  if both_run; then
    if [ "$(condition "ours-$name" message | sed 's#/ours-#/WHO-#')" = "$(condition "upstream-$name" message | sed 's#/upstream-#/WHO-#')" ]; then
      note "$name: ours' message equals upstream's but for the URL prefix"
    else
      note "$name: ours' message differs from upstream's beyond the URL prefix"
    fi
    check_eq "$name: same reason as upstream" "$(condition "upstream-$name" reason)" "$(condition "ours-$name" reason)"
    check_eq "$name: ours' extender calls (verb, args, node count, status, JSON keys) equal upstream's" \
      "$(call_set upstream "$name")" "$(call_set ours "$name")"
  fi
done
stop_phase 2
kubectl_admin delete pod -l ext-test=yes --field-selector spec.nodeName= --wait=false >/dev/null 2>&1 || true

# --- phase 3: preemption through extenders (preemptVerb) --------------------------------------------------
# Created while no scheduler runs, so that both start with the nodes and victims in their caches.
for class in ext-high:1000 ext-mid:500; do
  printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"%s"},"value":%s}\n' \
    "${class%%:*}" "${class##*:}" | kubectl_admin apply -f - >/dev/null
done
victim() {  # victim NAME NODE [PRIORITYCLASS]: a 3-cpu pod created bound to NODE
  local pc=""
  [ -n "${3:-}" ] && pc=",\"priorityClassName\":\"$3\""
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default","labels":{"ext-victim":"yes"}},"spec":{"nodeName":"%s","terminationGracePeriodSeconds":0%s,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"3","memory":"100Mi"}}}]}}\n' \
    "$1" "$2" "$pc" | kubectl_admin apply -f - >/dev/null
}
uid_of() { kubectl_admin get pod "$1" -o jsonpath='{.metadata.uid}'; }
gone() { ! kubectl_admin get pod "$1" >/dev/null 2>&1; }
preempted_event() {  # preempted_event VICTIM: type reason action note of its Preempted event
  kubectl_admin get events.events.k8s.io --field-selector "regarding.name=$1,reason=Preempted" \
    -o jsonpath='{.items[0].type} {.items[0].reason} {.items[0].action} {.items[0].note}'
}
has_preempted_event() { [ -n "$(preempted_event "$1" | tr -d ' ')" ]; }
failed_note() {  # failed_note POD: the note of its FailedScheduling event
  kubectl_admin get events.events.k8s.io --field-selector "regarding.name=$1,reason=FailedScheduling" \
    -o jsonpath='{.items[0].note}'
}
preempt_call() {  # preempt_call WHO LETTER POD: "letter verb args nodes status victims" of the first one
  calls "$1" --prefix "$1-$2" --verb preempt --pod "default/$1-$3" | awk -F'\t' 'NR == 1 {print $1, $2, $4, $5, $6, $8}'
}
preempt_field() {  # preempt_field WHO LETTER POD FIELD: FIELD (JSON) of the first such preempt call
  calls "$1" --prefix "$1-$2" --verb preempt --pod "default/$1-$3" --field "$4" | head -n 1
}
declare -A vuid
for who in $whos; do
  for set in pre prenone; do
    res=(); [ "$set" = prenone ] && res=(--resource example.com/nopreempt=1)
    # mknodes passes --cpu 8 first: the last --cpu wins.
    mknodes --prefix "ext-$set-$who" --cpu 4 "${res[@]}"
    mknodes --prefix "ext-$set-$who" --start 1 --cpu 4 "${res[@]}" --label ext.test/preempt-here=true
    victim "$who-$set-v0" "ext-$set-$who-0"
    victim "$who-$set-v1" "ext-$set-$who-1" ext-mid
    vuid[$who-$set-v0]=$(uid_of "$who-$set-v0") vuid[$who-$set-v1]=$(uid_of "$who-$set-v1")
  done
done
for who in $whos; do start_scheduler "$who" 3; done
high=',"priorityClassName":"ext-high","nodeSelector":{"kube-scheduler-cpp.test/node-set":"ext-SET-WHO"}'
for who in $whos; do
  pod "$who" pre "$(echo "$high" | sed "s/SET/pre/; s/WHO/$who/")" '' 2
  pod "$who" nopre "$(echo "$high" | sed "s/SET/prenone/; s/WHO/$who/")" '"example.com/nopreempt":"1"' 2
done
for who in $whos; do require_running "$who" 3 pre; done
for who in $whos; do
  v0=${vuid[$who-pre-v0]} v1=${vuid[$who-pre-v1]}
  check "$who binds the preemptor pre" wait_for 60 bound "$who-pre"
  check_eq "$who puts pre on ext-pre-$who-1 (the node the extender kept, not the default's node 0)" \
    "ext-pre-$who-1" "$(node_of "$who-pre")"
  check "$who evicted node 1's victim" wait_for 10 gone "$who-pre-v1"
  check_eq "$who kept node 0's victim" "ext-pre-$who-0" "$(node_of "$who-pre-v0")"
  wait_for 10 has_preempted_event "$who-pre-v1" || true
  check_eq "$who: the Preempted event on node 1's victim" \
    "Normal Preempted Preempting Preempted by pod $(uid_of "$who-pre") on node ext-pre-$who-1" \
    "$(preempted_event "$who-pre-v1")"
  check_eq "$who: g's preempt call for pre carries NodeNameToMetaVictims (2 nodes, 2 victims)" \
    "g preempt metavictims 2 200 2" "$(preempt_call "$who" g pre)"
  check_eq "$who: g was sent each node's victim UID" \
    "{\"ext-pre-$who-0\": [\"$v0\"], \"ext-pre-$who-1\": [\"$v1\"]}" "$(preempt_field "$who" g pre victim_uids)"
  check_eq "$who: g kept node 1" "[\"ext-pre-$who-1\"]" "$(preempt_field "$who" g pre kept)"
  check_eq "$who: h's preempt call for pre carries NodeNameToVictims (the 1 node g kept, 1 victim)" \
    "h preempt victims 1 200 1" "$(preempt_call "$who" h pre)"
  check_eq "$who: h was sent node 1's victim as a whole pod (its metadata.uid)" \
    "{\"ext-pre-$who-1\": [\"$v1\"]}" "$(preempt_field "$who" h pre victim_uids)"
  check_eq "$who: h was sent node 1's victim by name" \
    "{\"ext-pre-$who-1\": [\"default/$who-pre-v1\"]}" "$(preempt_field "$who" h pre victim_names)"
  check_eq "$who: i (not interested in pre) was not called for it" 0 "$(call_count "$who" i preempt pre)"
  note "$who pre: FailedScheduling: $(failed_note "$who-pre")"
  # nopre: i keeps no node.
  check "$who reports nopre as unschedulable" wait_for 60 has_condition "$who-nopre"
  check_eq "$who: nopre: PodScheduled False, Unschedulable" "False Unschedulable" \
    "$(condition "$who-nopre" status) $(condition "$who-nopre" reason)"
  check_eq "$who: nopre: not bound, not nominated" " " \
    "$(node_of "$who-nopre") $(kubectl_admin get pod "$who-nopre" -o jsonpath='{.status.nominatedNodeName}')"
  check "$who: nopre: the message contains 'no candidate node for preemption'" \
    message_has "$who-nopre" "no candidate node for preemption"
  note "$who nopre: $(condition "$who-nopre" message)"
  check_eq "$who: nopre: both victims stay" "ext-prenone-$who-0 ext-prenone-$who-1" \
    "$(node_of "$who-prenone-v0") $(node_of "$who-prenone-v1")"
  check_eq "$who: nopre: g's preempt call (meta victims, 2 nodes, 2 victims)" \
    "g preempt metavictims 2 200 2" "$(preempt_call "$who" g nopre)"
  check_eq "$who: nopre: h's preempt call (whole pods, the 1 node g kept)" \
    "h preempt victims 1 200 1" "$(preempt_call "$who" h nopre)"
  check_eq "$who: nopre: i's preempt call (meta victims, the 1 node h kept)" \
    "i preempt metavictims 1 200 1" "$(preempt_call "$who" i nopre)"
  check_eq "$who: nopre: i kept no node" "[]" "$(preempt_field "$who" i nopre kept)"
done
if both_run; then
  # v1.37's preemption message names the node: each scheduler's own (ext-pre-<who>-1).
  check_eq "pre: the FailedScheduling note equals upstream's (the node's name read for each scheduler)" \
    "$(failed_note upstream-pre)" "$(failed_note ours-pre | sed 's/ext-pre-ours-/ext-pre-upstream-/g')"
  check_eq "nopre: same reason as upstream" "$(condition upstream-nopre reason)" "$(condition ours-nopre reason)"
  check_eq "nopre: same message as upstream, byte for byte" "$(condition upstream-nopre message)" "$(condition ours-nopre message)"
  for l in g h; do
    for f in victim_keys pod_keys pod_object_keys pod_meta_keys; do
      check_eq "pre: $l's $f (as sent) equal upstream's" "$(preempt_field upstream "$l" pre "$f")" "$(preempt_field ours "$l" pre "$f")"
    done
  done
  for p in pre nopre; do
    check_eq "$p: ours' preempt calls (prefix, kind, node count, status, keys, victims) equal upstream's" \
      "$(call_set upstream "$p")" "$(call_set ours "$p")"
  done
fi
for who in $whos; do
  note "$who pre: keys sent to g: $(preempt_field "$who" g pre victim_keys) $(preempt_field "$who" g pre pod_keys), to h: $(preempt_field "$who" h pre victim_keys) $(preempt_field "$who" h pre pod_keys); the Pod argument's: $(preempt_field "$who" g pre pod_object_keys)"
  for p in pre nopre; do note "$who calls for $p: $(call_set "$who" "$p" | tr '\t' ' ' | paste -sd';' | sed 's/;/; /g')"; done
done
stop_phase 3
# --- phase 4: HTTPS extenders (tlsConfig) ------------------------------------------------------------------
# A second fake extender serves HTTPS on 127.0.0.1 with a certificate for the name $tls_name only (no
# IP address), signed by a CA made here, and answers only clients presenting a certificate that CA
# signed (CN ext-test-client). Each scheduler gets four extenders there:
#   j  filter + prioritize (weight 5): caFile, serverName $tls_name, certFile / keyFile
#   k  filter, nodeCacheCapable: insecure (server not verified), certData / keyData inline
#   l  filter, managedResources [example.com/strict]: caData of ANOTHER CA -> the handshake fails
#   m  bind, managedResources [example.com/ext]: caFile, no serverName -> the certificate is not
#      valid for 127.0.0.1, the handshake fails
kubectl_admin delete pod -l ext-test=yes --field-selector spec.nodeName= --wait=false >/dev/null 2>&1 || true
tls="$work/tls" tls_name=ext-extender.test
mkdir -p "$tls"
mkcert() {  # mkcert NAME CN CA EXT: NAME.key, NAME.crt signed by CA (CA.crt / CA.key) with extensions EXT
  openssl req -newkey rsa:2048 -nodes -keyout "$tls/$1.key" -out "$tls/$1.csr" -subj "/CN=$2" 2>/dev/null &&
    printf '%s\n' "$4" >"$tls/$1.ext" &&
    openssl x509 -req -in "$tls/$1.csr" -CA "$tls/$3.crt" -CAkey "$tls/$3.key" -CAcreateserial -days 2 \
      -extfile "$tls/$1.ext" -out "$tls/$1.crt" 2>/dev/null
}
for ca in ca other-ca; do
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/$ca.key" -out "$tls/$ca.crt" -days 2 \
    -subj "/CN=ext-test-$ca" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
done
mkcert server "$tls_name" ca "subjectAltName=DNS:$tls_name
extendedKeyUsage=serverAuth"
mkcert client ext-test-client ca "extendedKeyUsage=clientAuth"
check "test certificates made (CA, server, client, another CA)" \
  test -s "$tls/ca.crt" -a -s "$tls/other-ca.crt" -a -s "$tls/server.crt" -a -s "$tls/client.crt"
python3 "$fake_extender" serve --env "$cp_dir/env" --log "$calls_log" --port 0 --port-file "$work/tls-port" \
  --tls-cert "$tls/server.crt" --tls-key "$tls/server.key" --tls-client-ca "$tls/ca.crt" \
  >"$cp_dir/logs/fake-extender-tls.log" 2>&1 &
tls_extender_pid=$!
check "the HTTPS fake extender listens on 127.0.0.1" wait_for 20 test -s "$work/tls-port"
tls_port=$(cat "$work/tls-port")
tls_url="https://127.0.0.1:$tls_port"
note "HTTPS fake extender at $tls_url"
probe() {  # probe [CURL ARGS]: a filter call to the HTTPS fake extender by its name, trusting its CA
  curl -fsS --max-time 5 --noproxy '*' --cacert "$tls/ca.crt" --resolve "$tls_name:$tls_port:127.0.0.1" \
    -X POST -d '{"Nodes":{"Items":[]}}' -o /dev/null "$@" "https://$tls_name:$tls_port/probe/filter" 2>/dev/null
}
no_probe() { ! probe "$@"; }
check "the HTTPS fake extender refuses a client without a certificate" no_probe
check "the HTTPS fake extender serves a client with the client certificate" \
  probe --cert "$tls/client.crt" --key "$tls/client.key"
for who in $whos; do start_scheduler "$who" 4; done
for who in $whos; do
  pod "$who" tls-plain
  pod "$who" tls-strict '' '"example.com/strict":"1"'
  pod "$who" tls-ext '' '"example.com/ext":"1"'
done
for who in $whos; do require_running "$who" 4 tls-plain; done
client_cns() {  # client_cns WHO LETTER POD: the distinct client certificate names of those calls
  calls "$1" --prefix "$1-$2" --pod "default/$1-$3" --field client_cn | sort -u | paste -sd' '
}
for who in $whos; do
  check "$who binds tls-plain" wait_for 60 bound "$who-tls-plain"
  check_eq "$who puts tls-plain on ext-fav-0 (j's prioritize over HTTPS wins)" ext-fav-0 "$(node_of "$who-tls-plain")"
  check_eq "$who: j's filter call for tls-plain (caFile + serverName, client certificate files)" "j filter nodes 200" \
    "$(first_call "$who" j filter tls-plain | awk '{print $1, $2, $3, $5}')"
  check_eq "$who: k's filter call for tls-plain (insecure, inline client certificate)" "k filter nodenames 200" \
    "$(first_call "$who" k filter tls-plain | awk '{print $1, $2, $3, $5}')"
  check_eq "$who: j's prioritize call for tls-plain" "j prioritize nodes 200" \
    "$(first_call "$who" j prioritize tls-plain | awk '{print $1, $2, $3, $5}')"
  check_eq "$who: j and k were called with the client certificate (CN)" '"ext-test-client" "ext-test-client"' \
    "$(client_cns "$who" j tls-plain) $(client_cns "$who" k tls-plain)"
  for p in tls-strict:l tls-ext:m; do
    name=${p%%:*} letter=${p##*:}
    check "$who reports $name as not scheduled" wait_for 60 has_condition "$who-$name"
    check_eq "$who: $name is not bound" "" "$(node_of "$who-$name")"
    check_eq "$who: $name: PodScheduled False, SchedulerError" "False SchedulerError" \
      "$(condition "$who-$name" status) $(condition "$who-$name" reason)"
    check_eq "$who: $letter never got a request (its handshake failed)" 0 \
      "$(calls "$who" --prefix "$who-$letter" | grep -c . || true)"
    note "$who $name: $(condition "$who-$name" message)"
  done
  check "$who: tls-strict's message names the filter URL, as Go's client does" \
    message_has "$who-tls-strict" "Post \"$tls_url/$who-l/filter\": "
  check "$who: tls-ext's message names the bind URL, as Go's client does" \
    message_has "$who-tls-ext" "Post \"$tls_url/$who-m/bind\": "
done
if runs upstream; then
  check "upstream: tls-strict fails on the unknown CA" message_has upstream-tls-strict "certificate signed by unknown authority"
  check "upstream: tls-ext fails on the certificate's names" message_has upstream-tls-ext "cannot validate certificate for 127.0.0.1"
fi
if runs ours; then
  check "ours: tls-strict fails on the unknown CA (naming caData)" \
    message_has ours-tls-strict "(trusting the CA from tlsConfig.caData; extender $tls_url/ours-l)"
  check "ours: tls-strict's message says the certificate failed verification" \
    message_has ours-tls-strict "TLS: the certificate of $tls_url/ours-l failed verification: "
  check "ours: tls-ext fails on the certificate's names" message_has ours-tls-ext "failed verification: IP address mismatch"
fi
if both_run; then
  for p in tls-plain tls-strict tls-ext; do
    check_eq "$p: ours' extender calls (verb, args, node count, status, JSON keys) equal upstream's" \
      "$(call_set upstream "$p")" "$(call_set ours "$p")"
  done
fi
stop_phase 4
for who in $whos; do
  note "$who: the Pod argument's keys, all calls: $(calls "$who" --prefix-start "$who-" --field pod_object_keys | grep -v '^\[\]$' | sort -u | paste -sd' ')"
  note "$who: its metadata's keys, all calls: $(calls "$who" --prefix-start "$who-" --field pod_meta_keys | grep -v '^\[\]$' | sort -u | paste -sd' ')"
done
note "extender calls logged: $(grep -c . "$calls_log")"
if [ "$failed" != 0 ]; then
  for who in $whos; do for ph in 1 2 3 4; do scheduler_log_tail "$who" "$ph"; done; done
  echo "--- fake-extender.log (tail)"; tail -n 10 "$cp_dir/logs/fake-extender.log"
  echo "--- fake-extender-tls.log (tail)"; tail -n 10 "$cp_dir/logs/fake-extender-tls.log" 2>/dev/null || true
fi
finish
