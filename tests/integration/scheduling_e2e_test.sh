#!/usr/bin/env bash
# Integration: kube-scheduler-cpp schedules pods on the real control plane, side by side with the
# upstream kube-scheduler of the same version (built from the same Go modules) on an equivalent
# profile. Every scenario creates the same pod twice, once for each scheduler (schedulerName
# default-scheduler = ours, upstream-scheduler = upstream's), and compares what users see:
#   - schedulable pods are bound by both; a GPU pod tolerating the taint lands on a GPU node;
#   - an unschedulable pod gets PodScheduled=False with the same reason and, byte for byte, the
#     same message as upstream's, and a Warning FailedScheduling event with that note from
#     reportingController default-scheduler;
#   - a node added later makes the pending pods schedulable (event-driven requeue);
#   - pods of another scheduler are left alone; a bound pod has the Normal Scheduled event;
#   - 200 pods on 20 nodes are all bound without overcommitting any node;
#   - preemption: a high-priority pod that fits nowhere evicts the same victim on the same node
#     for both schedulers (the node whose victims have the lowest priority; with a
#     PodDisruptionBudget guarding that victim, the other node), is nominated, then bound; the
#     victim gets the Normal Preempted event; the other pods stay;
#   - default spreading: a pod a ReplicaSet owns or a Service selects is spread by hostname where
#     resources alone would stack it, as upstream's; a pod nothing selects is not;
#   - pod affinity with a namespaceSelector finds the pod of the labelled namespace, as upstream's;
#   - v1.36-v1.37 decisions: BalancedAllocation's change-in-balance score picks the node v1.34's
#     formula would not; ImageLocality counts an image volume's image; NodeDeclaredFeatures rejects
#     a pod with a RestartAllContainers rule on nodes not declaring the feature, with upstream's
#     message byte for byte;
#   - v1.37 requeueing: a pod kept off by another pod's required anti-affinity, or by its own, is
#     bound soon after the bound pod's or its own labels change (not at the 5-minute flush), as
#     upstream's;
#   - SIGUSR1 and SIGUSR2 leave it running (SIGUSR2 logs the cache and queue dump); SIGTERM stops
#     the scheduler with exit status 0.
#   - volumes: a claim that does not exist, then one unbound without a class, a bound volume in
#     one zone, one in a zone without nodes, a ReadWriteOncePod claim in use (and freed), an inline
#     GCE disk in use on the node: the same nodes or, byte for byte, the same messages as upstream's
#     (VolumeRestrictions, VolumeBinding and VolumeZone run in both);
#   - volume binding (WaitForFirstConsumer, the PersistentVolume controller running): a claim gets
#     the smallest local volume that fits (on vol-1), written by the scheduler and bound by the
#     controller before the pod is; a claim with no volume and no provisioner gets upstream's
#     message; a claim of a provisioning class gets volume.kubernetes.io/selected-node, this script
#     plays the external provisioner (a volume on that node), and the pod is bound there once the
#     controller bound the claim; a provisioner that gives up (removes the annotation) sends the pod
#     back to scheduling, which selects a node again. While PreBind waits for the volume, both set
#     status.nominatedNodeName to the chosen node (NominatedNodeNameForExpectation); the API server
#     clears it at bind, and a failed binding cycle clears it (seen with the node cordoned).
#   - volume limits: a CSINode allowing 2 volumes of the provisioner's driver on vol-0, which
#     holds 2 already: a pod with one more claim gets upstream's message (`exceed max volume
#     count`); a CSINode with a higher limit (CSINodeAdd) schedules it.
#   - storage capacity: the driver's CSIDriver publishes capacities; a claim larger than every
#     CSIStorageCapacity gets upstream's message (`did not have enough free storage`), and a
#     capacity grown enough (an update) schedules it on the node that capacity reaches.
#   - storage capacity scoring (StorageCapacityScoring, on in v1.37): a claim of a second
#     capacity-tracking driver goes where most of its capacity is free (vol-0), for both.
#   - volume limit scaling (VolumeLimitScaling, on in v1.37): a CSIDriver with
#     preventPodSchedulingIfMissing keeps a claim of its driver off nodes whose CSINode does not
#     list it, with upstream's message; a CSINode listing it (CSINodeAdd) schedules the pods there.
#   - in-place resize: a bound pod whose status (written as a resizing kubelet would) allocates 2 +
#     1 cpu to containers asking 1 + 2 counts 3 cpu, as v1.37 counts (v1.34 counted 4): a 1-cpu pod
#     fits beside it on a 4-cpu node, a second one gets upstream's message.
#   - dynamic resource allocation: a claim for a device of at least 20Gi gets the a100 on dra-0
#     (allocation, reservation, node selector and finalizer written as upstream writes them); a
#     second such claim gets upstream's message, and is allocated once the first pod is deleted
#     and the resourceclaim controller deallocated its claim; a template claim (firstAvailable,
#     matchAttribute) gets both t4s on dra-1 through its second subrequest; a pod whose claim is
#     missing waits until the claim is created.
#   - CSI migration: a bound in-tree GCE PD volume is checked as its CSI translation on nodes whose
#     CSINode lists the plugin as migrated (the pod lands in the volume's zone, or gets upstream's
#     message), as it is on a node that did not migrate; a CSINode update requeues the pod.
# Both profiles are the default one (every default plugin, DynamicResources included).
# DefaultPreemption runs in both, so the unschedulable pods' messages end with preemption's own,
# compared byte for byte too. kube-controller-manager runs only its PersistentVolume binder and
# its ResourceClaim controller (claims and volumes get bound, template claims created and released
# as in a cluster; no other controller touches the pods and ReplicaSets made here).
. "$(dirname "$0")/lib.sh"
find_ours

start_controlplane --kcm-controllers persistentvolume-binder-controller,resourceclaim-controller
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
upstream="$KSCHED_CP_BIN/kube-scheduler"

python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix cpu --count 4 --cpu 4 --memory 32Gi --zones 2 >/dev/null
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix gpu --count 2 --cpu 16 \
  --memory 128Gi --resource nvidia.com/gpu=8 --label accelerator=gpu --taint dedicated=gpu:NoSchedule --zones 2 >/dev/null

cat >"$cp_dir/upstream-scheduler.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_SCHEDULER
leaderElection:
  leaderElect: false
profiles:
- schedulerName: upstream-scheduler
EOF

"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port=0 --v=2 >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
"$upstream" --config "$cp_dir/upstream-scheduler.yaml" --secure-port=0 --v=2 >"$cp_dir/logs/upstream.log" 2>&1 &
upstream_pid=$!
cleanup() {
  kill "$ours_pid" "$upstream_pid" 2>/dev/null || true
  stop_controlplane
}
trap cleanup EXIT

pod() {  # pod NAME SCHEDULER CPU [extra spec json] [extended resource json, e.g. "nvidia.com/gpu":"1"]
  local extra=${4:-} ext=${5:-}
  local requests="\"cpu\":\"$3\",\"memory\":\"500Mi\"${ext:+,$ext}"
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$1","namespace":"default","labels":{"e2e":"yes"}},
 "spec":{"schedulerName":"$2","terminationGracePeriodSeconds":0$extra,
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{$requests},"limits":{$ext}}}]}}
EOF
}
sched_of() { [ "$1" = ours ] && echo default-scheduler || echo upstream-scheduler; }
both() {  # both NAME CPU [extra spec] [extended resource]: the same pod for each scheduler
  pod "ours-$1" default-scheduler "$2" "${3:-}" "${4:-}"
  pod "upstream-$1" upstream-scheduler "$2" "${3:-}" "${4:-}"
}
node_of() { kubectl_admin get pod "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
condition() {  # condition POD FIELD: the PodScheduled condition's reason or message
  kubectl_admin get pod "$1" -o jsonpath="{.status.conditions[?(@.type==\"PodScheduled\")].$2}"
}
has_condition() { [ -n "$(condition "$1" reason)" ]; }

# Schedulable pods.
both small 500m
both gpu 1 ',"tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"}],"nodeSelector":{"accelerator":"gpu"}'
check "ours binds a small pod" wait_for 60 bound ours-small
check "upstream binds the same pod" wait_for 60 bound upstream-small
check "ours puts the tolerating GPU pod on a GPU node" wait_for 30 bash -c "[[ \$($KUBECTL --kubeconfig $KUBECONFIG_ADMIN get pod ours-gpu -o jsonpath='{.spec.nodeName}') == gpu-* ]]"
check_eq "the Scheduled event of ours" "Normal Scheduled Binding Successfully assigned default/ours-small to $(node_of ours-small) default-scheduler" \
  "$(kubectl_admin get events.events.k8s.io --field-selector regarding.name=ours-small,reason=Scheduled -o jsonpath='{.items[0].type} {.items[0].reason} {.items[0].action} {.items[0].note} {.items[0].reportingController}')"

# Unschedulable pods: too much cpu; a node selector no node matches; a GPU request without
# toleration; a node affinity naming a missing node (PreFilter narrows to nothing); too much ephemeral storage; pod affinity to no pod.
both huge 100
both nowhere 100m ',"nodeSelector":{"no-such-label":"x"}'
both gpu-untolerated 100m '' '"nvidia.com/gpu":"1"'
both pinned 100m ',"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["no-such-node"]}]}]}}}'
both fat 100m '' '"ephemeral-storage":"10Ti"'
both lonely 100m ',"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"nobody":"here"}},"topologyKey":"kubernetes.io/hostname"}]}}'
for name in huge nowhere gpu-untolerated pinned fat lonely; do
  check "ours reports $name as unschedulable" wait_for 60 has_condition "ours-$name"
  check "upstream reports $name as unschedulable" wait_for 60 has_condition "upstream-$name"
  check_eq "$name: same reason as upstream" "$(condition "upstream-$name" reason)" "$(condition "ours-$name" reason)"
  check_eq "$name: same message as upstream, byte for byte" "$(condition "upstream-$name" message)" "$(condition "ours-$name" message)"
  note "$name: $(condition "ours-$name" message)"
  check_eq "$name: FailedScheduling event note equals the condition message" "$(condition "ours-$name" message)" \
    "$(kubectl_admin get events.events.k8s.io --field-selector regarding.name=ours-$name,reason=FailedScheduling -o jsonpath='{.items[0].note}')"
done

# A pod for nobody we know.
pod stranger someone-else 100m
sleep 2
check_eq "a pod of another scheduler is left alone" "|" "$(node_of stranger)|$(condition stranger reason)"

# A big node arrives: the huge pods become schedulable through the NodeAdd event.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix big --count 1 --cpu 256 --memory 1Ti >/dev/null
check "ours binds the huge pod after the node was added" wait_for 60 bound ours-huge
check "upstream too" wait_for 60 bound upstream-huge
check_eq "ours-huge is on the big node" "big-0" "$(node_of ours-huge)"

# Load: 200 pods of 400m on 20 fresh 4-cpu nodes selected by label: exactly full when all are
# bound, so any overcommitment or lost pod shows.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix load --count 20 --cpu 4 --memory 32Gi >/dev/null
for i in $(seq 0 199); do
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"load-%d","namespace":"default","labels":{"load":"yes"}},"spec":{"terminationGracePeriodSeconds":0,"nodeSelector":{"kube-scheduler-cpp.test/node-set":"load"},"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"400m","memory":"500Mi"}}}]}}\n' "$i"
done >"$cp_dir/load-pods.json"
start=$SECONDS
kubectl_admin create -f "$cp_dir/load-pods.json" >/dev/null
all_load_bound() { [ "$(kubectl_admin get pods -l load=yes -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .)" = 200 ]; }
check "200 pods bound" wait_for 120 all_load_bound
note "200 pods bound $((SECONDS - start)) s after creation (kubectl create included)"
max_per_node=$(kubectl_admin get pods -l load=yes -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | sort | uniq -c | sort -rn | head -1 | awk '{print $1}')
check "no load node holds more than 10 pods of 400m (4 cpu)" [ "$max_per_node" -le 10 ]

# Preemption. Per scheduler and scenario two 4-cpu nodes, filled by pods created bound: node 0 with
# priority-0 pods of 1 and 3 cpu, node 1 with priority-500 pods of 1 and 3 cpu. A priority-1000
# pod of 2 cpu fits nowhere; evicting the 3-cpu pod of node 0 is the cheapest room (lowest victim
# priority). In the "pdb" scenario a PodDisruptionBudget (no disruption controller runs here, so
# it allows no disruption) guards that pod, and node 1's 3-cpu pod goes instead.
for class in e2e-high:1000 e2e-mid:500; do
  printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"%s"},"value":%s}\n' \
    "${class%%:*}" "${class##*:}" | kubectl_admin apply -f - >/dev/null
done
bound_pod() {  # bound_pod NAME NODE CPU [PRIORITYCLASS]: created already bound, labelled victim=NAME
  local pc=""
  [ -n "${4:-}" ] && pc=",\"priorityClassName\":\"$4\""
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default","labels":{"victim":"%s"}},"spec":{"nodeName":"%s","terminationGracePeriodSeconds":0%s,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"%s","memory":"100Mi"}}}]}}\n' \
    "$1" "$1" "$2" "$pc" "$3" | kubectl_admin apply -f - >/dev/null
}
gone() { ! kubectl_admin get pod "$1" >/dev/null 2>&1; }
preempted_event() {  # preempted_event VICTIM: type reason action note of its Preempted event
  kubectl_admin get events.events.k8s.io --field-selector "regarding.name=$1,reason=Preempted" \
    -o jsonpath='{.items[0].type} {.items[0].reason} {.items[0].action} {.items[0].note}'
}
failed_note() {  # failed_note POD: the note of its FailedScheduling event, its node-set name as SET
  kubectl_admin get events.events.k8s.io --field-selector "regarding.name=$1,reason=FailedScheduling" \
    -o jsonpath='{.items[0].note}' | sed 's/pre-[a-z]*-[a-z]*-[01]/SET/g'
}
for scenario in plain pdb; do
  for who in ours upstream; do
    set_name="pre-$scenario-$who"
    python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$set_name" --count 2 --cpu 4 --memory 32Gi >/dev/null
    bound_pod "$set_name-n0-small" "$set_name-0" 1
    bound_pod "$set_name-n0-big" "$set_name-0" 3
    bound_pod "$set_name-n1-small" "$set_name-1" 1 e2e-mid
    bound_pod "$set_name-n1-big" "$set_name-1" 3 e2e-mid
    if [ "$scenario" = pdb ]; then
      printf '{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"%s","namespace":"default"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"victim":"%s-n0-big"}}}}\n' \
        "$set_name" "$set_name" | kubectl_admin apply -f - >/dev/null
    fi
  done
  sleep 2  # both schedulers' informers have the pods and the budget
  for who in ours upstream; do
    set_name="pre-$scenario-$who"
    scheduler=default-scheduler; [ "$who" = upstream ] && scheduler=upstream-scheduler
    pod "$set_name-preemptor" "$scheduler" 2 ",\"priorityClassName\":\"e2e-high\",\"nodeSelector\":{\"kube-scheduler-cpp.test/node-set\":\"$set_name\"}"
  done
  want=0; [ "$scenario" = pdb ] && want=1
  for who in ours upstream; do
    set_name="pre-$scenario-$who"
    check "$scenario: $who binds the preemptor" wait_for 60 bound "$set_name-preemptor"
    check_eq "$scenario: $who put it on node $want" "$set_name-$want" "$(node_of "$set_name-preemptor")"
    check "$scenario: $who evicted node $want's 3-cpu pod" wait_for 10 gone "$set_name-n$want-big"
    check_eq "$scenario: $who evicted no other pod" 3 "$(kubectl_admin get pods -o name | grep -c "/$set_name-n" || true)"
    uid=$(kubectl_admin get pod "$set_name-preemptor" -o jsonpath='{.metadata.uid}')
    check_eq "$scenario: $who's Preempted event on the victim" \
      "Normal Preempted Preempting Preempted by pod $uid on node $set_name-$want" "$(preempted_event "$set_name-n$want-big")"
  done
  check_eq "$scenario: the preemptor's FailedScheduling note equals upstream's (node names aside)" \
    "$(failed_note "pre-$scenario-upstream-preemptor")" "$(failed_note "pre-$scenario-ours-preemptor")"
  note "$scenario: $(failed_note "pre-$scenario-ours-preemptor")"
done
# A priority-0 pod of 2 cpu on the full "plain" set of ours: no pod there has a lower priority, so
# preemption finds no victims on the two nodes where it would fit by size.
both novictims 2 ',"nodeSelector":{"kube-scheduler-cpp.test/node-set":"pre-plain-ours"}'
check "ours reports novictims as unschedulable" wait_for 60 has_condition ours-novictims
check "upstream reports novictims as unschedulable" wait_for 60 has_condition upstream-novictims
check_eq "novictims: same message as upstream, byte for byte" "$(condition upstream-novictims message)" "$(condition ours-novictims message)"
note "novictims: $(condition ours-novictims message)"

# Default spreading (PodTopologySpread's system default constraints: hostname maxSkew 3, zone
# maxSkew 5, ScheduleAnyway), which apply only to pods a Service, ReplicaSet, StatefulSet or
# ReplicationController selects (the daemon watches those four kinds). Per scheduler a namespace,
# a ReplicaSet "web" (replicas 0; no controller runs here) and two tainted nodes: "big" (64 cpu,
# 256Gi) holding 4 of the ReplicaSet's pods, "small" (4 cpu, 8Gi) empty. A 1-cpu pod prefers big
# by resources (LeastAllocated and BalancedAllocation: 170 against 152); spreading outweighs that
# (102 against 178) for a pod owned by the ReplicaSet, and for one a Service selects, but not
# for a pod with the same labels that nothing selects.
spread_pod() {  # spread_pod WHO NAME OWNED(yes|no) [NODE]: a 1-cpu app=web pod in spread-WHO
  local who=$1 name=$2 owned=$3 node=${4:-} scheduler=default-scheduler owner="" bind=""
  [ "$who" = upstream ] && scheduler=upstream-scheduler
  if [ "$owned" = yes ]; then
    owner=$(printf ',"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"%s","controller":true}]' \
      "$(kubectl_admin -n "spread-$who" get rs web -o jsonpath='{.metadata.uid}')")
  fi
  [ -n "$node" ] && bind=",\"nodeName\":\"$node\""
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$name","namespace":"spread-$who","labels":{"app":"web"}$owner},
 "spec":{"schedulerName":"$scheduler","terminationGracePeriodSeconds":0$bind,"nodeSelector":{"spread":"$who"},
  "tolerations":[{"key":"spread","operator":"Exists","effect":"NoSchedule"}],
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}
EOF
}
spread_node_of() { kubectl_admin -n "spread-$1" get pod "$2" -o jsonpath='{.spec.nodeName}'; }
spread_bound() { [ -n "$(spread_node_of "$1" "$2")" ]; }
for who in ours upstream; do
  kubectl_admin create namespace "spread-$who" >/dev/null
  python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "spread-$who-big" --count 1 \
    --cpu 64 --memory 256Gi --label "spread=$who" --taint "spread=$who:NoSchedule" >/dev/null
  python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "spread-$who-small" --count 1 \
    --cpu 4 --memory 8Gi --label "spread=$who" --taint "spread=$who:NoSchedule" >/dev/null
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web","namespace":"spread-$who"},
 "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"}]}}}}
EOF
  for i in 0 1 2 3; do spread_pod "$who" "web-bound-$i" yes "spread-$who-big-0"; done
done
sleep 2  # both schedulers' informers have the ReplicaSets and the bound pods
for step in "naked no big-0" "owned yes small-0"; do
  read -r name owned want <<<"$step"
  for who in ours upstream; do spread_pod "$who" "web-$name" "$owned"; done
  for who in ours upstream; do
    check "default spreading: $who binds the $name pod" wait_for 60 spread_bound "$who" "web-$name"
    check_eq "default spreading: $who puts the $name pod on $want" "spread-$who-$want" "$(spread_node_of "$who" "web-$name")"
  done
done
# A Service selecting app=web: a pod with no owner now spreads too (big holds 5 app=web pods, small 1).
for who in ours upstream; do
  kubectl_admin -n "spread-$who" apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}
EOF
done
sleep 2
for who in ours upstream; do spread_pod "$who" web-serviced no; done
for who in ours upstream; do
  check "default spreading: $who binds the pod the Service selects" wait_for 60 spread_bound "$who" web-serviced
  check_eq "default spreading: $who puts the pod the Service selects on small-0" "spread-$who-small-0" \
    "$(spread_node_of "$who" web-serviced)"
done

# Pod affinity across namespaces by label (the daemon watches Namespaces): a pod requiring a node
# with an app=cache pod of a namespace labelled team=blue goes to the node of the one such pod (in
# namespace team-blue, bound to cpu-2), as upstream's; with team=red, which no namespace has, it
# stays pending with upstream's message.
kubectl_admin create namespace team-blue >/dev/null
kubectl_admin label namespace team-blue team=blue >/dev/null
kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"cache-0","namespace":"team-blue","labels":{"app":"cache"}},
 "spec":{"nodeName":"cpu-2","terminationGracePeriodSeconds":0,
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"10m","memory":"10Mi"}}}]}}
EOF
sleep 2  # both schedulers' informers have the namespace and the pod
ns_affinity() {  # ns_affinity TEAM: the affinity term, as extra pod spec
  printf ',"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"cache"}},"namespaceSelector":{"matchLabels":{"team":"%s"}},"topologyKey":"kubernetes.io/hostname"}]}}' "$1"
}
both near-blue-cache 10m "$(ns_affinity blue)"
both near-red-cache 10m "$(ns_affinity red)"
for who in ours upstream; do
  check "namespaceSelector: $who binds the pod near team=blue's cache" wait_for 60 bound "$who-near-blue-cache"
  check_eq "namespaceSelector: $who puts it on cpu-2" cpu-2 "$(node_of "$who-near-blue-cache")"
  check "namespaceSelector: $who reports the team=red pod as unschedulable" wait_for 60 has_condition "$who-near-red-cache"
done
check_eq "namespaceSelector: the team=red pod's message equals upstream's, byte for byte" \
  "$(condition upstream-near-red-cache message)" "$(condition ours-near-red-cache message)"
note "near-red-cache: $(condition ours-near-red-cache message)"

# Scoring and filtering of v1.36-v1.37. Per scheduler and scenario a node-set of two 4-cpu, 8Gi
# nodes, tainted for it; the pods tolerate the taint and select the set.
set_pod() {  # set_pod WHO SET NAME CPU MEMORY [extra spec] [extra container fields]
  local scheduler=default-scheduler
  [ "$1" = upstream ] && scheduler=upstream-scheduler
  kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$1-$3","namespace":"default"},
 "spec":{"schedulerName":"$scheduler","terminationGracePeriodSeconds":0${6:-},
  "nodeSelector":{"kube-scheduler-cpp.test/node-set":"$2-$1"},"tolerations":[{"key":"$2","operator":"Exists","effect":"NoSchedule"}],
  "containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"${7:-},"resources":{"requests":{"cpu":"$4","memory":"$5"}}}]}}
EOF
}
for who in ours upstream; do
  for set in balanced image features; do
    python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$set-$who" --count 2 \
      --cpu 4 --memory 8Gi --taint "$set=$who:NoSchedule" >/dev/null
  done
done
# BalancedAllocation scores the change in balance (kubernetes#135573): node 0 holds 2 cpu and 4Gi,
# node 1 3 cpu and 256Mi; a pod of 100m and 1Gi. LeastAllocated gives 42 and 53, the balance of
# the node with the pod 95 and 69 (without it 100 and 64): v1.34's sum preferred node 0 (137
# against 122); v1.36's 50 + (50 + with - without) / 2 gives 72 and 77, so node 1 (114 against 130).
for who in ours upstream; do
  for held in 0:2:4Gi 1:3:256Mi; do
    IFS=: read -r n cpu memory <<<"$held"
    printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"balanced-%s-held-%s","namespace":"default"},"spec":{"nodeName":"balanced-%s-%s","terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"%s","memory":"%s"}}}]}}\n' \
      "$who" "$n" "$who" "$n" "$cpu" "$memory" | kubectl_admin apply -f - >/dev/null
  done
done
sleep 2  # both schedulers' informers have the held pods
for who in ours upstream; do set_pod "$who" balanced rebalancing 100m 1Gi; done
for who in ours upstream; do
  check "balanced allocation: $who binds the pod" wait_for 60 bound "$who-rebalancing"
  check_eq "balanced allocation: $who puts it on node 1, whose balance it improves" "balanced-$who-1" "$(node_of "$who-rebalancing")"
done
# ImageLocality counts image volumes (kubernetes#130231): node 1 holds the 50Gi image of the pod's
# image volume, scored like a container image (scaled by its spread over the cluster's nodes);
# were the volume not counted, both nodes would tie.
for who in ours upstream; do
  kubectl_admin patch node "image-$who-1" --subresource=status --type=merge \
    -p '{"status":{"images":[{"names":["registry.example/dataset:v1"],"sizeBytes":53687091200}]}}' >/dev/null
done
sleep 2  # both schedulers' informers have the node's image
for who in ours upstream; do
  set_pod "$who" image image-volume 100m 100Mi ',"volumes":[{"name":"data","image":{"reference":"registry.example/dataset:v1"}}]'
done
for who in ours upstream; do
  check "image locality: $who binds the pod of the image volume" wait_for 60 bound "$who-image-volume"
  check_eq "image locality: $who puts it on the node holding the volume's image" "image-$who-1" "$(node_of "$who-image-volume")"
done
# NodeDeclaredFeatures (in the default set since v1.36): a container's RestartAllContainers rule
# needs RestartAllContainersOnContainerExits, which no node here declares.
restart_all=',"restartPolicy":"Never","restartPolicyRules":[{"action":"RestartAllContainers","exitCodes":{"operator":"In","values":[42]}}]'
for who in ours upstream; do set_pod "$who" features restart-all 100m 100Mi '' "$restart_all"; done
check "node declared features: ours reports the pod as unschedulable" wait_for 60 has_condition ours-restart-all
check "node declared features: upstream reports the pod as unschedulable" wait_for 60 has_condition upstream-restart-all
check_eq "node declared features: same message as upstream, byte for byte" \
  "$(condition upstream-restart-all message)" "$(condition ours-restart-all message)"
note "restart-all: $(condition ours-restart-all message)"

# Requeueing of v1.37: a pod kept off by anti-affinity is retried when that changes, not at the
# 5-minute flush. Per scheduler two one-node sets: on "requeue" a bound pod app=blocker that the
# pending pod's required anti-affinity (hostname) avoids; relabelling the bound pod (an AssignedPod
# UpdatePodLabel event) must bring the pending pod back. On "retarget" a bound pod whose own
# anti-affinity avoids app=guarded; relabelling the pending pod itself (TargetPod UpdatePodLabel,
# kubernetes#135394) must bring it back.
for who in ours upstream; do
  for set in requeue retarget; do
    python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$set-$who" --count 1 \
      --cpu 4 --memory 8Gi --taint "$set=$who:NoSchedule" >/dev/null
  done
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"requeue-%s-blocker","namespace":"default","labels":{"app":"blocker"}},"spec":{"nodeName":"requeue-%s-0","terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"}]}}\n' \
    "$who" "$who" | kubectl_admin apply -f - >/dev/null
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"retarget-%s-guard","namespace":"default"},"spec":{"nodeName":"retarget-%s-0","terminationGracePeriodSeconds":0,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"guarded"}},"topologyKey":"kubernetes.io/hostname"}]}},"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"}]}}\n' \
    "$who" "$who" | kubectl_admin apply -f - >/dev/null
done
sleep 2  # both schedulers' informers have the bound pods
avoid_blocker=',"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"blocker"}},"topologyKey":"kubernetes.io/hostname"}]}}'
for who in ours upstream; do
  set_pod "$who" requeue avoids-blocker 100m 100Mi "$avoid_blocker"
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-guarded","namespace":"default","labels":{"app":"guarded"}},"spec":{"schedulerName":"%s","terminationGracePeriodSeconds":0,"nodeSelector":{"kube-scheduler-cpp.test/node-set":"retarget-%s"},"tolerations":[{"key":"retarget","operator":"Exists","effect":"NoSchedule"}],"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"100m","memory":"100Mi"}}}]}}\n' \
    "$who" "$(sched_of "$who")" "$who" | kubectl_admin apply -f - >/dev/null
done
for pod in avoids-blocker guarded; do
  for who in ours upstream; do
    check "requeue: $who reports $pod as unschedulable" wait_for 60 has_condition "$who-$pod"
  done
  check_eq "requeue: $pod's message equals upstream's, byte for byte" \
    "$(condition "upstream-$pod" message)" "$(condition "ours-$pod" message)"
done
note "avoids-blocker: $(condition ours-avoids-blocker message)"
note "guarded: $(condition ours-guarded message)"
for who in ours upstream; do
  kubectl_admin label pod "requeue-$who-blocker" app=moved --overwrite >/dev/null
  kubectl_admin label pod "$who-guarded" app=free --overwrite >/dev/null
done
for who in ours upstream; do
  check "requeue: $who binds avoids-blocker once the bound pod's label changed (well before the 5-minute flush)" \
    wait_for 45 bound "$who-avoids-blocker"
  check "requeue: $who binds guarded once its own label changed (well before the 5-minute flush)" \
    wait_for 45 bound "$who-guarded"
done

# Volumes. Two nodes of node-set "vol", vol-0 in zone-0 and vol-1 in zone-1; every pod here selects
# that set. No default StorageClass exists; the PersistentVolume controller binds a claim created
# with spec.volumeName to that volume (VolumeBinding waits for it: until then the claim is an
# unbound immediate one).
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix vol --count 2 --cpu 4 --memory 32Gi --zones 2 >/dev/null
vol_spec() {  # vol_spec CLAIM [NODE]: extra pod spec using the claim, on the vol set (or on NODE)
  local select="\"kube-scheduler-cpp.test/node-set\":\"vol\""
  [ -n "${2:-}" ] && select="\"kubernetes.io/hostname\":\"$2\""
  printf ',"nodeSelector":{%s},"volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"%s"}}]' "$select" "$1"
}
pv() {  # pv NAME ACCESSMODE [ZONE]
  local labels=""
  [ -n "${3:-}" ] && labels=",\"labels\":{\"topology.kubernetes.io/zone\":\"$3\"}"
  printf '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"%s"%s},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["%s"],"storageClassName":"","hostPath":{"path":"/tmp/%s"}}}\n' \
    "$1" "$labels" "$2" "$1" | kubectl_admin apply -f - >/dev/null
}
pvc() {  # pvc NAME ACCESSMODE [VOLUME]: without VOLUME, unbound and without a class
  local bound=""
  [ -n "${3:-}" ] && bound=",\"volumeName\":\"$3\",\"storageClassName\":\"\""
  printf '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"%s","namespace":"default"},"spec":{"accessModes":["%s"],"resources":{"requests":{"storage":"1Gi"}}%s}}\n' \
    "$1" "$2" "$bound" | kubectl_admin apply -f - >/dev/null
}
same_message() {  # same_message NAME: both pods unschedulable, upstream's message byte for byte
  check "volumes: ours reports $1 as unschedulable" wait_for 60 has_condition "ours-$1"
  check "volumes: upstream reports $1 as unschedulable" wait_for 60 has_condition "upstream-$1"
  check_eq "volumes: $1: same message as upstream, byte for byte" "$(condition "upstream-$1" message)" "$(condition "ours-$1" message)"
  note "$1: $(condition "ours-$1" message)"
}
message_has() { condition "$1" message | grep -qF "$2"; }
# A claim that does not exist (VolumeRestrictions' PreFilter), then created unbound and without a
# class: the PersistentVolumeClaimAdd event retries the pods, and VolumeBinding's PreFilter stops
# them (no volume here ever offers ReadWriteOnce without a class, so the claim stays unbound).
both vol-missing 100m "$(vol_spec vol-missing)"
same_message vol-missing
pvc vol-missing ReadWriteOnce
for who in ours upstream; do
  check "volumes: the new claim retries $who's pod, now stopped by VolumeBinding" \
    wait_for 60 message_has "$who-vol-missing" "pod has unbound immediate PersistentVolumeClaims"
done
same_message vol-missing
# A volume in zone-1: both schedulers put the pod on vol-1.
pv vol-zone-1 ReadWriteMany zone-1
pvc vol-zoned ReadWriteMany vol-zone-1
both vol-zoned 100m "$(vol_spec vol-zoned)"
for who in ours upstream; do
  check "volumes: $who binds the pod of the zone-1 volume" wait_for 60 bound "$who-vol-zoned"
  check_eq "volumes: $who puts it in zone-1" vol-1 "$(node_of "$who-vol-zoned")"
done
# A volume in a zone without nodes.
pv vol-zone-9 ReadWriteMany zone-9
pvc vol-nowhere ReadWriteMany vol-zone-9
both vol-nowhere 100m "$(vol_spec vol-nowhere)"
same_message vol-nowhere
# A ReadWriteOncePod claim: ours binds a first pod, then a second pod of each scheduler finds it in
# use. With upstream's pod gone, deleting the first pod frees the claim for ours' second (PodDelete).
pv vol-rwop ReadWriteOncePod
pvc vol-rwop ReadWriteOncePod vol-rwop
pod ours-vol-rwop-first default-scheduler 100m "$(vol_spec vol-rwop)"
check "volumes: ours binds the first pod of the ReadWriteOncePod claim" wait_for 60 bound ours-vol-rwop-first
sleep 1  # upstream's informer has the bound pod
both vol-rwop-second 100m "$(vol_spec vol-rwop)"
same_message vol-rwop-second
kubectl_admin delete pod upstream-vol-rwop-second --wait=false >/dev/null
kubectl_admin delete pod ours-vol-rwop-first --wait=false >/dev/null
check "volumes: deleting the first pod lets ours bind the second" wait_for 60 bound ours-vol-rwop-second
# An inline GCE disk mounted read-write by a pod on vol-0: a second pod of each scheduler with the
# same disk, pinned to vol-0, cannot go there.
gce_spec() { printf ',"nodeSelector":{"kubernetes.io/hostname":"vol-0"},"volumes":[{"name":"d","gcePersistentDisk":{"pdName":"disk-1"}}]'; }
pod ours-vol-disk-first default-scheduler 100m "$(gce_spec)"
check "volumes: ours binds the first pod of the GCE disk" wait_for 60 bound ours-vol-disk-first
sleep 1
both vol-disk-second 100m "$(gce_spec)"
same_message vol-disk-second

# Volume binding: StorageClasses with volumeBindingMode WaitForFirstConsumer, one without a
# provisioner (local volumes made by hand) and one whose provisioner this script plays.
kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"local-wait"},
  "provisioner":"kubernetes.io/no-provisioner","volumeBindingMode":"WaitForFirstConsumer"},
 {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"fake-csi"},
  "provisioner":"fake-csi.example.com","volumeBindingMode":"WaitForFirstConsumer"}]}
EOF
local_pv() {  # local_pv NAME OWNER SIZE NODE: an Available local volume of class local-wait on NODE
  printf '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"%s","labels":{"owner":"%s"}},"spec":{"capacity":{"storage":"%s"},"accessModes":["ReadWriteOnce"],"storageClassName":"local-wait","local":{"path":"/mnt/%s"},"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["%s"]}]}]}}}}\n' \
    "$1" "$2" "$3" "$1" "$4" | kubectl_admin apply -f - >/dev/null
}
class_pvc() {  # class_pvc NAME CLASS SIZE [OWNER]: a claim of CLASS (selecting the volumes of OWNER)
  local selector=""
  [ -n "${4:-}" ] && selector=",\"selector\":{\"matchLabels\":{\"owner\":\"$4\"}}"
  printf '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"%s","namespace":"default"},"spec":{"accessModes":["ReadWriteOnce"],"storageClassName":"%s"%s,"resources":{"requests":{"storage":"%s"}}}}\n' \
    "$1" "$2" "$selector" "$3" | kubectl_admin apply -f - >/dev/null
}
claim_field() { kubectl_admin get pvc "$1" -o jsonpath="$2"; }
claim_bound_to() { [ "$(claim_field "$1" '{.status.phase}/{.spec.volumeName}')" = "Bound/$2" ]; }
selected_node() { claim_field "$1" '{.metadata.annotations.volume\.kubernetes\.io/selected-node}'; }
has_selected_node() { [ -n "$(selected_node "$1")" ]; }
# Each scheduler's claim wants 2Gi of its own volumes: the 1Gi one on vol-0 is too small, the 5Gi
# one on vol-1 fits (the 10Gi one there is larger than needed).
for who in ours upstream; do
  local_pv "$who-small" "$who" 1Gi vol-0
  local_pv "$who-fits" "$who" 5Gi vol-1
  local_pv "$who-large" "$who" 10Gi vol-1
  class_pvc "$who-local" local-wait 2Gi "$who"
  pod "$who-vol-local" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-local")"
done
for who in ours upstream; do
  check "volume binding: $who binds the pod of the WaitForFirstConsumer claim" wait_for 60 bound "$who-vol-local"
  check_eq "volume binding: $who puts it on vol-1, where the volume that fits is" vol-1 "$(node_of "$who-vol-local")"
  check "volume binding: the controller bound $who's claim to the smallest volume that fits" \
    wait_for 30 claim_bound_to "$who-local" "$who-fits"
done
# No volume of the owner is large enough, and the class provisions nothing.
for who in ours upstream; do
  class_pvc "$who-too-big" local-wait 100Gi "$who"
  pod "$who-vol-too-big" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-too-big")"
done
same_message vol-too-big
# Dynamic provisioning: the scheduler annotates the claim with the node it chose; this script then
# provisions a volume there (as an external provisioner would: a PersistentVolume with the claim in
# its claimRef), the controller binds them, and the pod is bound on that node.
provision() {  # provision CLAIM [SIZE [CLASS DRIVER]]: a volume (1Gi, of fake-csi) on the claim's selected node, pre-bound to it
  local node uid class=${3:-fake-csi} driver=${4:-fake-csi.example.com}
  node=$(selected_node "$1")
  uid=$(claim_field "$1" '{.metadata.uid}')
  printf '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-%s","annotations":{"pv.kubernetes.io/provisioned-by":"%s"}},"spec":{"capacity":{"storage":"%s"},"accessModes":["ReadWriteOnce"],"storageClassName":"%s","claimRef":{"namespace":"default","name":"%s","uid":"%s"},"csi":{"driver":"%s","volumeHandle":"%s"},"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["%s"]}]}]}}}}\n' \
    "$1" "$driver" "${2:-1Gi}" "$class" "$1" "$uid" "$driver" "$1" "$node" | kubectl_admin apply -f - >/dev/null
}
for who in ours upstream; do
  class_pvc "$who-dyn" fake-csi 1Gi
  pod "$who-vol-dyn" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-dyn" vol-0)"
done
# NominatedNodeNameForExpectation (beta, on since 1.35): a pod whose PreBind has work to do (here
# VolumeBinding waiting for the provisioned volume) gets status.nominatedNodeName = the chosen node
# before PreBind starts, for cluster autoscalers; the API server clears it at bind
# (ClearingNominatedNodeNameAfterBinding).
nnn_of() { kubectl_admin get pod "$1" -o jsonpath='{.status.nominatedNodeName}'; }
nnn_is() { [ "$(nnn_of "$1")" = "$2" ]; }
for who in ours upstream; do
  check "dynamic provisioning: $who annotates the claim with the chosen node" wait_for 60 has_selected_node "$who-dyn"
  check_eq "dynamic provisioning: $who chose vol-0 (the pod's node selector)" vol-0 "$(selected_node "$who-dyn")"
  check_eq "dynamic provisioning: $who waits for the volume before binding the pod" "" "$(node_of "$who-vol-dyn")"
  check "nominatedNodeName: $who sets it to vol-0 while PreBind waits for the volume" \
    wait_for 10 nnn_is "$who-vol-dyn" vol-0
  provision "$who-dyn"
  check "dynamic provisioning: $who binds the pod once the claim is bound" wait_for 60 bound "$who-vol-dyn"
  check_eq "dynamic provisioning: $who binds it to the selected node" vol-0 "$(node_of "$who-vol-dyn")"
  check "dynamic provisioning: $who's claim is bound to the provisioned volume" claim_bound_to "$who-dyn" "pv-$who-dyn"
  check "nominatedNodeName: cleared at $who's bind" wait_for 10 nnn_is "$who-vol-dyn" ""
done
# A provisioner that gives up removes selected-node: PreBind fails and the pod is scheduled again.
# With vol-1 (the only node the pods may use) cordoned meanwhile, the failure's nominatedNodeName
# clearing stays visible: the next attempt finds no node and nominates none.
for who in ours upstream; do
  class_pvc "$who-retry" fake-csi 1Gi
  pod "$who-vol-retry" "$(sched_of "$who")" 100m "$(vol_spec "$who-retry" vol-1)"
done
for who in ours upstream; do
  check "provisioning retry: $who annotates the claim" wait_for 60 has_selected_node "$who-retry"
  check "nominatedNodeName: $who sets it to vol-1 while PreBind waits" wait_for 10 nnn_is "$who-vol-retry" vol-1
done
kubectl_admin cordon vol-1 >/dev/null
for who in ours upstream; do
  kubectl_admin annotate pvc "$who-retry" volume.kubernetes.io/selected-node- >/dev/null
done
unschedulable() { [ "$(condition "$1" reason)" = Unschedulable ]; }
for who in ours upstream; do
  check "provisioning retry: $who's failed PreBind sends the pod back, now unschedulable" \
    wait_for 60 unschedulable "$who-vol-retry"
  check_eq "nominatedNodeName: $who cleared it when the binding cycle failed" "" "$(nnn_of "$who-vol-retry")"
  check_eq "provisioning retry: the pod is not bound meanwhile" "" "$(node_of "$who-vol-retry")"
done
same_message vol-retry
kubectl_admin uncordon vol-1 >/dev/null
for who in ours upstream; do
  check "provisioning retry: $who schedules the pod again and annotates the claim anew" \
    wait_for 60 has_selected_node "$who-retry"
  provision "$who-retry"
  check "provisioning retry: $who binds the pod once the claim is bound" wait_for 60 bound "$who-vol-retry"
done
# Volume limits (NodeVolumeLimits): vol-0 holds the two provisioned volumes of fake-csi.example.com
# (ours-vol-dyn, upstream-vol-dyn); its CSINode allows 2 of that driver, so a third claim does not
# fit there. A CSINode with a limit of 4 retries the pods (CSINodeAdd).
csinode() {  # csinode NODE COUNT
  printf '{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"%s"},"spec":{"drivers":[{"name":"fake-csi.example.com","nodeID":"%s","allocatable":{"count":%s}}]}}\n' \
    "$1" "$1" "$2" | kubectl_admin apply -f - >/dev/null
}
csinode vol-0 2
for who in ours upstream; do
  class_pvc "$who-limit" fake-csi 1Gi
  pod "$who-vol-limit" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-limit" vol-0)"
done
same_message vol-limit
# A CSINode's drivers are immutable: a new limit comes with a new CSINode (CSINodeAdd).
kubectl_admin delete csinode vol-0 >/dev/null
csinode vol-0 4
for who in ours upstream; do
  check "volume limits: the higher limit lets $who choose vol-0 for the claim" wait_for 60 has_selected_node "$who-limit"
  provision "$who-limit"
  check "volume limits: $who binds the pod once its volume is bound" wait_for 60 bound "$who-vol-limit"
done
# Storage capacity: the fake driver now publishes capacities (CSIDriver storageCapacity: true); a
# 10Gi claim of its class fits only where a CSIStorageCapacity of at least 10Gi reaches the node.
# vol-1 has 5Gi (and vol-0 is at its volume limit); growing vol-1's to 20Gi (an update) retries the
# pods, and both go to vol-1.
kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"fake-csi.example.com"},
 "spec":{"attachRequired":false,"storageCapacity":true}}
EOF
capacity() {  # capacity SIZE: the CSIStorageCapacity of class fake-csi that reaches vol-1
  printf '{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"fake-csi-vol-1","namespace":"default"},"storageClassName":"fake-csi","capacity":"%s","nodeTopology":{"matchLabels":{"kubernetes.io/hostname":"vol-1"}}}\n' \
    "$1" | kubectl_admin apply -f - >/dev/null
}
capacity 5Gi
for who in ours upstream; do
  class_pvc "$who-cap" fake-csi 10Gi
  pod "$who-vol-cap" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-cap")"
done
same_message vol-cap
capacity 20Gi
for who in ours upstream; do
  check "storage capacity: the larger capacity lets $who choose a node for the claim" wait_for 60 has_selected_node "$who-cap"
  check_eq "storage capacity: $who chose vol-1, the node the capacity reaches" vol-1 "$(selected_node "$who-cap")"
  provision "$who-cap" 10Gi
  check "storage capacity: $who binds the pod once its volume is bound" wait_for 60 bound "$who-vol-cap"
done

# Storage capacity scoring (StorageCapacityScoring, on in v1.37): a second driver
# (score-csi.example.com, its CSIDriver publishing capacities) has 1000Gi reaching vol-0 and 6Gi
# reaching vol-1. VolumeBinding scores a 5Gi claim of its class by the share of the capacity it
# would take, through the default shape [{0,10},{100,0}]: 100 on vol-0, 17 on vol-1 (v1.34 scored
# 0 everywhere and left the choice to the other plugins). Both choose vol-0.
kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"score-csi"},
  "provisioner":"score-csi.example.com","volumeBindingMode":"WaitForFirstConsumer"},
 {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"score-csi.example.com"},
  "spec":{"attachRequired":false,"storageCapacity":true}},
 {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"score-csi-vol-0","namespace":"default"},
  "storageClassName":"score-csi","capacity":"1000Gi","nodeTopology":{"matchLabels":{"kubernetes.io/hostname":"vol-0"}}},
 {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"score-csi-vol-1","namespace":"default"},
  "storageClassName":"score-csi","capacity":"6Gi","nodeTopology":{"matchLabels":{"kubernetes.io/hostname":"vol-1"}}}]}
EOF
sleep 1  # both schedulers' informers have the driver and the capacities
for who in ours upstream; do
  class_pvc "$who-score" score-csi 5Gi
  pod "$who-vol-score" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-score")"
done
for who in ours upstream; do
  check "storage capacity scoring: $who chooses a node for the claim" wait_for 60 has_selected_node "$who-score"
done
check_eq "storage capacity scoring: upstream chose vol-0, where most of the capacity is free" vol-0 "$(selected_node upstream-score)"
check_eq "storage capacity scoring: ours chose the node upstream chose" "$(selected_node upstream-score)" "$(selected_node ours-score)"
for who in ours upstream; do
  provision "$who-score" 5Gi score-csi score-csi.example.com
  check "storage capacity scoring: $who binds the pod once its volume is bound" wait_for 60 bound "$who-vol-score"
done
# Volume limit scaling (VolumeLimitScaling, on in v1.37): the CSIDriver of strict-csi.example.com
# sets preventPodSchedulingIfMissing and no CSINode lists that driver: NodeVolumeLimits keeps a
# claim of its class off every node, with upstream's message. A CSINode of vol-1 listing the
# driver (CSINodeAdd) lets both schedulers choose vol-1.
kubectl_admin apply -f - >/dev/null <<EOF
{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"strict-csi"},
  "provisioner":"strict-csi.example.com","volumeBindingMode":"WaitForFirstConsumer"},
 {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"strict-csi.example.com"},
  "spec":{"attachRequired":false,"preventPodSchedulingIfMissing":true}}]}
EOF
check_eq "volume limit scaling: the API server keeps preventPodSchedulingIfMissing" true \
  "$(kubectl_admin get csidriver strict-csi.example.com -o jsonpath='{.spec.preventPodSchedulingIfMissing}')"
sleep 1
for who in ours upstream; do
  class_pvc "$who-strict" strict-csi 1Gi
  pod "$who-vol-strict" "$([ "$who" = ours ] && echo default-scheduler || echo upstream-scheduler)" 100m "$(vol_spec "$who-strict")"
done
same_message vol-strict
check "volume limit scaling: the message names the driver that is not installed" \
  message_has ours-vol-strict "strict-csi.example.com CSI driver is not installed on the node"
printf '{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"vol-1"},"spec":{"drivers":[{"name":"strict-csi.example.com","nodeID":"vol-1"}]}}\n' |
  kubectl_admin apply -f - >/dev/null
for who in ours upstream; do
  check "volume limit scaling: the CSINode listing the driver lets $who choose a node" wait_for 60 has_selected_node "$who-strict"
  check_eq "volume limit scaling: $who chose vol-1, where the driver is" vol-1 "$(selected_node "$who-strict")"
  provision "$who-strict" 1Gi strict-csi strict-csi.example.com
  check "volume limit scaling: $who binds the pod once its volume is bound" wait_for 60 bound "$who-vol-strict"
done

# In-place resize accounting: per scheduler a 4-cpu node with a pod created bound there, two
# containers asking 1 and 2 cpu, whose status this script then writes as a kubelet resizing it
# would (c1 allocated and running with 2 cpu, c2 with 1; the pod-level allocatedResources and
# resources of a v1.37 kubelet). v1.37 counts the larger of the sums (3 cpu; v1.34 took each
# container's larger value: 4), so a 1-cpu pod fits beside it and a second one does not.
for who in ours upstream; do
  set_name="resize-$who"
  python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$set_name" --count 1 --cpu 4 --memory 32Gi >/dev/null
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-resized","namespace":"default"},"spec":{"nodeName":"%s-0","terminationGracePeriodSeconds":0,"containers":[{"name":"c1","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"1","memory":"100Mi"}}},{"name":"c2","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"2","memory":"100Mi"}}}]}}\n' \
    "$set_name" "$set_name" | kubectl_admin apply -f - >/dev/null
  kubectl_admin patch pod "$set_name-resized" --subresource=status --type=merge -p '{"status":{"phase":"Running",
    "containerStatuses":[
      {"name":"c1","image":"registry.k8s.io/pause:3.10","imageID":"","ready":true,"restartCount":0,
       "allocatedResources":{"cpu":"2","memory":"100Mi"},"resources":{"requests":{"cpu":"2","memory":"100Mi"}}},
      {"name":"c2","image":"registry.k8s.io/pause:3.10","imageID":"","ready":true,"restartCount":0,
       "allocatedResources":{"cpu":"1","memory":"100Mi"},"resources":{"requests":{"cpu":"1","memory":"100Mi"}}}],
    "allocatedResources":{"cpu":"3","memory":"200Mi"},"resources":{"requests":{"cpu":"3","memory":"200Mi"}}}}' >/dev/null
done
check_eq "resize: the API server keeps the pod-level allocatedResources" 3 \
  "$(kubectl_admin get pod resize-ours-resized -o jsonpath='{.status.allocatedResources.cpu}')"
sleep 2  # both schedulers' caches have the resized pods
resize_spec() { printf ',"nodeSelector":{"kube-scheduler-cpp.test/node-set":"resize-%s"}' "$1"; }
pod ours-resize-fits default-scheduler 1 "$(resize_spec ours)"
pod upstream-resize-fits upstream-scheduler 1 "$(resize_spec upstream)"
check "resize: ours fits a 1-cpu pod beside the resized pod (3 of 4 cpu counted)" wait_for 60 bound ours-resize-fits
check "resize: upstream too" wait_for 60 bound upstream-resize-fits
pod ours-resize-full default-scheduler 1 "$(resize_spec ours)"
pod upstream-resize-full upstream-scheduler 1 "$(resize_spec upstream)"
check "resize: ours reports the second 1-cpu pod as unschedulable" wait_for 60 has_condition ours-resize-full
check "resize: upstream too" wait_for 60 has_condition upstream-resize-full
check_eq "resize: same message as upstream, byte for byte" "$(condition upstream-resize-full message)" "$(condition ours-resize-full message)"
note "resize-full: $(condition ours-resize-full message)"

# Dynamic resource allocation (DynamicResources runs in both schedulers; kube-controller-manager's
# resourceclaim-controller creates template claims and releases claims whose pods are gone). Two
# nodes "dra-0" and "dra-1"; per scheduler (WHO = ours, upstream) a DeviceClass gpu-WHO whose CEL
# selects gpu.example.com devices with attribute owner=WHO, and ResourceSlices as a driver would
# publish them: one "a100" (40Gi) on dra-0, two "t4" (16Gi) on dra-1.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix dra --count 2 --cpu 4 --memory 32Gi --zones 2 >/dev/null
dra_slice() {  # dra_slice WHO NODE MODEL MEMORY DEVICE...
  local who=$1 node=$2 model=$3 memory=$4 devices="" d
  shift 4
  for d in "$@"; do
    devices="$devices${devices:+,}{\"name\":\"$d\",\"attributes\":{\"owner\":{\"string\":\"$who\"},\"model\":{\"string\":\"$model\"},\"driverVersion\":{\"version\":\"1.2.0\"}},\"capacity\":{\"memory\":{\"value\":\"$memory\"}}}"
  done
  printf '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"%s-%s"},"spec":{"driver":"gpu.example.com","nodeName":"%s","pool":{"name":"%s-%s","generation":1,"resourceSliceCount":1},"devices":[%s]}}\n' \
    "$node" "$who" "$node" "$node" "$who" "$devices" | kubectl_admin apply -f - >/dev/null
}
dra_request() {  # dra_request WHO SELECTOR COUNT: one ExactCount request "gpu" of class gpu-WHO
  printf '{"name":"gpu","exactly":{"deviceClassName":"gpu-%s","count":%s,"selectors":[{"cel":{"expression":%s}}]}}' \
    "$1" "$3" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$2")"
}
dra_claim() {  # dra_claim NAME REQUEST
  printf '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"%s","namespace":"default"},"spec":{"devices":{"requests":[%s]}}}\n' \
    "$1" "$2" | kubectl_admin apply -f - >/dev/null
}
dra_pod() {  # dra_pod WHO NAME CLAIM-SOURCE-JSON: a pod with one resource claim "gpu"
  pod "$1-$2" "$(sched_of "$1")" 100m ",\"resourceClaims\":[{\"name\":\"gpu\",$3}]"
}
claim_field() { kubectl_admin get resourceclaim "$1" -o jsonpath="$2"; }
allocated_devices() { claim_field "$1" '{range .status.allocation.devices.results[*]}{.device}{" "}{end}'; }
for who in ours upstream; do
  printf '{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu-%s"},"spec":{"selectors":[{"cel":{"expression":"device.driver == \\"gpu.example.com\\" && device.attributes[\\"gpu.example.com\\"].owner == \\"%s\\""}}]}}\n' \
    "$who" "$who" | kubectl_admin apply -f - >/dev/null
  dra_slice "$who" dra-0 a100 40Gi a100-0
  dra_slice "$who" dra-1 t4 16Gi t4-0 t4-1
done
# A claim for one device of at least 20Gi: only the a100 on dra-0 has that much.
for who in ours upstream; do
  dra_claim "$who-big" "$(dra_request "$who" 'device.capacity["gpu.example.com"].memory.compareTo(quantity("20Gi")) >= 0' 1)"
  dra_pod "$who" dra-big '"resourceClaimName":"'"$who"'-big"'
done
for who in ours upstream; do
  check "dra: $who binds the pod of the 20Gi claim" wait_for 60 bound "$who-dra-big"
  check_eq "dra: $who puts it on dra-0, where the a100 is" dra-0 "$(node_of "$who-dra-big")"
  check_eq "dra: $who allocated the a100 to the claim" "a100-0 " "$(allocated_devices "$who-big")"
  check_eq "dra: $who reserved the claim for the pod" "$who-dra-big" "$(claim_field "$who-big" '{.status.reservedFor[0].name}')"
  check_eq "dra: $who's allocation is for dra-0 only" "metadata.name In dra-0" \
    "$(claim_field "$who-big" '{.status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].key} {.status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].operator} {.status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].values[0]}')"
  check_eq "dra: $who added the delete-protection finalizer" "resource.kubernetes.io/delete-protection" \
    "$(claim_field "$who-big" '{.metadata.finalizers[0]}')"
done
# A second claim of the same kind: the a100 is taken, so no node can allocate it.
for who in ours upstream; do
  dra_claim "$who-big-2" "$(dra_request "$who" 'device.capacity["gpu.example.com"].memory.compareTo(quantity("20Gi")) >= 0' 1)"
  dra_pod "$who" dra-big-2 '"resourceClaimName":"'"$who"'-big-2"'
done
same_message dra-big-2
# Deleting the first pod: the resourceclaim controller releases and deallocates its claim (a
# ResourceClaim update), and the waiting pod gets the a100.
kubectl_admin delete pod ours-dra-big upstream-dra-big --wait=false >/dev/null
for who in ours upstream; do
  check "dra: the freed a100 lets $who bind the waiting pod" wait_for 90 bound "$who-dra-big-2"
  check_eq "dra: $who allocated the a100 to the second claim" "a100-0 " "$(allocated_devices "$who-big-2")"
done
# A claim from a template (the controller creates it and names it in the pod's status: the pod's
# UpdatePodGeneratedResourceClaim event) for two t4 devices of the same driverVersion; firstAvailable
# prefers three (there are only two), then two.
for who in ours upstream; do
  template_request=$(python3 - "$who" <<'PYEOF2'
import json, sys
who = sys.argv[1]
sel = 'device.attributes["gpu.example.com"].model == "t4"'
print(json.dumps({"name": "gpu", "firstAvailable": [
    {"name": "three", "deviceClassName": "gpu-" + who, "count": 3, "selectors": [{"cel": {"expression": sel}}]},
    {"name": "two", "deviceClassName": "gpu-" + who, "count": 2, "selectors": [{"cel": {"expression": sel}}]}]}))
PYEOF2
)
  printf '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"%s-t4","namespace":"default"},"spec":{"spec":{"devices":{"requests":[%s],"constraints":[{"matchAttribute":"gpu.example.com/driverVersion"}]}}}}\n' \
    "$who" "$template_request" | kubectl_admin apply -f - >/dev/null
  dra_pod "$who" dra-t4 '"resourceClaimTemplateName":"'"$who"'-t4"'
done
generated_claim() { kubectl_admin get pod "$1" -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}'; }
for who in ours upstream; do
  check "dra: $who binds the pod of the template claim" wait_for 90 bound "$who-dra-t4"
  check_eq "dra: $who puts it on dra-1, where the t4s are" dra-1 "$(node_of "$who-dra-t4")"
  check_eq "dra: $who allocated both t4s through the second subrequest" "gpu/two gpu/two " \
    "$(claim_field "$(generated_claim "$who-dra-t4")" '{range .status.allocation.devices.results[*]}{.request}{" "}{end}')"
done
# A pod whose claim does not exist yet waits (PreEnqueue); creating the claim schedules it.
for who in ours upstream; do
  dra_pod "$who" dra-late '"resourceClaimName":"'"$who"'-late"'
done
sleep 2
for who in ours upstream; do
  check_eq "dra: $who does not bind a pod whose claim is missing" "" "$(node_of "$who-dra-late")"
  dra_claim "$who-late" "$(dra_request "$who" 'device.attributes["gpu.example.com"].model == "a100" || device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("2.0.0"))' 1)"
done
# The a100 is taken (ours-dra-big-2): the claim cannot be allocated; same message as upstream.
same_message dra-late
kubectl_admin delete pod ours-dra-big-2 upstream-dra-big-2 --wait=false >/dev/null
for who in ours upstream; do
  check "dra: the claim's creation and the freed a100 let $who bind the late pod" wait_for 90 bound "$who-dra-late"
done

# CSI migration (VolumeBinding's tryTranslatePVToCSI): an in-tree GCE PD volume without node
# affinity, zone us-east-1 by its beta label, bound to a claim. mig-0 (zone us-east-1) and mig-1
# (us-east-2) have CSINodes listing kubernetes.io/gce-pd as migrated, so the volume is checked
# there as its CSI translation (topology.gke.io/zone In [us-east-1]); mig-2 (us-east-2) has a
# CSINode without the annotation, so the volume, which has no node affinity, fits it. Removing the
# annotation from mig-1's CSINode (a CSINode update) schedules the pod pinned there.
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix mig --count 3 --cpu 4 --memory 32Gi >/dev/null
kubectl_admin label node mig-0 topology.gke.io/zone=us-east-1 >/dev/null
kubectl_admin label node mig-1 mig-2 topology.gke.io/zone=us-east-2 >/dev/null
mig_csinode() {  # mig_csinode NODE MIGRATED-PLUGINS ("" for none)
  local annotations=""
  [ -n "$2" ] && annotations=",\"annotations\":{\"storage.alpha.kubernetes.io/migrated-plugins\":\"$2\"}"
  printf '{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"%s"%s},"spec":{"drivers":[]}}\n' \
    "$1" "$annotations" | kubectl_admin apply -f - >/dev/null
}
mig_csinode mig-0 kubernetes.io/gce-pd
mig_csinode mig-1 kubernetes.io/gce-pd
mig_csinode mig-2 ""
printf '%s\n' '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"mig-pd","labels":{"failure-domain.beta.kubernetes.io/zone":"us-east-1"}},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"storageClassName":"","gcePersistentDisk":{"pdName":"mig-disk"}}}' |
  kubectl_admin apply -f - >/dev/null
pvc mig-data ReadWriteOnce mig-pd
pvc_bound_to() { [ "$(kubectl_admin get pvc "$1" -o jsonpath='{.status.phase}/{.spec.volumeName}')" = "Bound/$2" ]; }
check "csi migration: the controller binds the claim to the GCE PD volume" wait_for 30 pvc_bound_to mig-data mig-pd
mig_spec() {  # mig_spec NODE...: the claim, on one of NODEs
  local nodes
  nodes=$(printf '"%s",' "$@")
  printf ',"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":[%s]}]}]}}},"volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"mig-data"}}]' \
    "${nodes%,}"
}
both mig-01 100m "$(mig_spec mig-0 mig-1)"
both mig-2 100m "$(mig_spec mig-2)"
both mig-1 100m "$(mig_spec mig-1)"
for who in ours upstream; do
  check "csi migration: $who binds the pod that may use mig-0 or mig-1" wait_for 60 bound "$who-mig-01"
  check_eq "csi migration: $who puts it on mig-0, in the translated volume's zone" mig-0 "$(node_of "$who-mig-01")"
  check "csi migration: $who binds the pod on mig-2, whose CSINode did not migrate the plugin" wait_for 60 bound "$who-mig-2"
done
same_message mig-1
kubectl_admin annotate csinode mig-1 storage.alpha.kubernetes.io/migrated-plugins- >/dev/null
for who in ours upstream; do
  check "csi migration: the CSINode update lets $who bind the pod on mig-1" wait_for 60 bound "$who-mig-1"
done

# SIGUSR1 is ignored and SIGUSR2 dumps the cache and the queue (upstream's cache debugger);
# neither stops the daemon.
kill -USR1 "$ours_pid"
kill -USR2 "$ours_pid"
check "SIGUSR2 logs the cache's NodeInfos and the scheduling queue" \
  wait_for 10 bash -c "grep -q 'Dump of cached NodeInfo' '$cp_dir/logs/ours.log' && grep -q 'Dump of scheduling queue' '$cp_dir/logs/ours.log'"
check "SIGUSR1 and SIGUSR2 leave kube-scheduler-cpp running" kill -0 "$ours_pid"
kill -TERM "$ours_pid"
wait_for 30 bash -c "! kill -0 $ours_pid 2>/dev/null"
rc=0; wait "$ours_pid" || rc=$?
check_eq "SIGTERM stops kube-scheduler-cpp with exit status 0" 0 "$rc"
grep -q "stopped:" "$cp_dir/logs/ours.log" && note "$(grep 'stopped:' "$cp_dir/logs/ours.log")"
[ "$failed" = 0 ] || { echo "--- ours.log (tail)"; tail -n 40 "$cp_dir/logs/ours.log"; }
finish
