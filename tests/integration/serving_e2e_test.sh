#!/usr/bin/env bash
# Integration: the HTTPS endpoints of kube-scheduler-cpp as an administrator and a real Prometheus
# (the Debian package) meet them, side by side with the upstream kube-scheduler v1.37.2 on the same
# control plane, with the same delegated authentication and authorization (the scheduler's own
# identity, as kubeadm runs it, here obtained through a client-go credential plugin returning the
# scheduler's client certificate: --authentication-kubeconfig = --authorization-kubeconfig = that
# kubeconfig; rest_client_exec_plugin_* as upstream's: one run for both clients, the TTL):
#   - system:kube-scheduler may create TokenReviews and SubjectAccessReviews (the stock RBAC);
#   - /healthz, /livez, /readyz answer "ok" without a token; their ?verbose bodies (checks
#     leaderElection, shutdown, sched-handler-sync) equal upstream's, byte for byte; a single check
#     (/readyz/shutdown, ...) needs authorization, as upstream's;
#   - /metrics anonymous -> 403, with a garbage token -> 401, with the token of a ServiceAccount
#     whose ClusterRole allows get on /metrics -> 200; that token is still refused /configz (403);
#     the refusals' bodies equal upstream's;
#   - both run with --feature-gates=SchedulerPopFromBackoffQ=false: kubernetes_feature_enabled lists
#     every gate with the same stage and value as upstream's;
#   - both run with --disabled-metrics=scheduler_cache_size,rest_client_response_size_bytes: the
#     first is gone, the second stays (client-go's, registered before the flag is read), and
#     disabled_metrics_total / hidden_metrics_total equal upstream's;
#   - scheduler_plugin_evaluation_total has upstream's plugin and extension point series;
#     version_info equals upstream's; the bearer token cache's hits, misses and fetches are counted
#     by both, with nothing left blocked or in flight;
#   - after pods are bound: scheduler_schedule_attempts_total, scheduler_pending_pods,
#     rest_client_requests_total, leader_election_master_status{name="kube-scheduler"} 1,
#     process_start_time_seconds; every family both serve has upstream's type; the families only one
#     side serves are listed (notes);
#   - client certificates of the API server's client CA (read by both from configmap
#     kube-system/extension-apiserver-authentication) authenticate: admin (O=system:masters) gets
#     /configz, system:kube-scheduler is refused it, a certificate of another CA is refused with 401
#     (also on /healthz) unless a bearer token authenticates the request, as upstream's answers;
#   - /configz with a system:masters token -> {"componentconfig": ...} of the configuration in use,
#     field by field as upstream's; other paths upstream serves (/debug/pprof/, ...) are listed (notes)
#     when ours answers otherwise;
#   - --version and --version=raw name the release of tests/controlplane/versions.env, as upstream's;
#     kubernetes_build_info's major, minor and git_version and version_info equal upstream's;
#   - /flagz (ComponentFlagz, on by default since 1.36): anonymous -> 403; the text form with
#     upstream's header and the flags' values of both (one separator per page, normalised); the
#     v1beta1 and v1alpha1 Flagz as JSON (the same flag names, the values of the flags both were
#     given equal), the deprecation Warning, YAML, and the 406 answers, as upstream's;
#   - /statusz (ComponentStatusz): the text form's lines (Started, Up, Go/Binary/Emulation version,
#     Paths), the v1beta1 Statusz's fields (binaryVersion, emulationVersion, paths) and the
#     negotiation answers, as upstream's;
#   - /metrics/slis: the health checks' results (HELP/TYPE lines, series, last results) as upstream's;
#   - DELETE /metrics and /metrics/slis: refused without the delete verb, as upstream; with it
#     "metrics reset", the same families emptied and the same series left as upstream's, counting
#     again from the reset;
#   - PUT /debug/flags/v: the same answers as upstream's (good and bad values); -v 4 makes ours log
#     its V(4) lines (Lease renewals) and -v 2 stops them; GET /debug/flags[/...] as upstream's;
#   - Prometheus scrapes it over HTTPS with the token (target up, scheduler_schedule_attempts_total
#     {result="scheduled"} > 0), and a job without credentials is refused (target down, 403);
#   - SIGTERM stops it with status 0.
# Every process started here is stopped by PID on exit.
. "$(dirname "$0")/lib.sh"
find_ours
. "$repo/tests/controlplane/versions.env"  # K8S_VERSION: the release both must name
prometheus=${PROMETHEUS:-/usr/bin/prometheus}
[ -x "$prometheus" ] || { echo "missing $prometheus (scripts/install-deps.sh installs the Debian package)" >&2; exit 1; }
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
upstream="$KSCHED_CP_BIN/kube-scheduler"
work="$cp_dir/serving-e2e"
mkdir -p "$work"

# --- the version both present -------------------------------------------------------------------------
up_version=$("$upstream" --version 2>&1)
check_eq "upstream --version names v$K8S_VERSION" "Kubernetes v$K8S_VERSION" "$up_version"
our_version=$("$ours" --version 2>&1)
check "ours --version starts as upstream's ('$our_version')" test "${our_version#"$up_version "}" != "$our_version"
raw_fields() {  # raw_fields TEXT: the version fields of a --version=raw line, up to GitVersion
  grep -o '[{ ]\(Major\|Minor\|EmulationMajor\|EmulationMinor\|MinCompatibilityMajor\|MinCompatibilityMinor\|GitVersion\):"[^"]*"' <<<"$1" |
    sed 's/^[{ ]//' | paste -sd' '
}
check_eq "--version=raw: Major, Minor, the emulation fields and GitVersion as upstream's" \
  "$(raw_fields "$("$upstream" --version=raw 2>&1)")" "$(raw_fields "$("$ours" --version=raw 2>&1)")"

ours_pid="" upstream_pid="" prometheus_pid=""
cleanup() {
  local p
  for p in $ours_pid $upstream_pid $prometheus_pid; do kill "$p" 2>/dev/null || true; done
  for p in $ours_pid $upstream_pid $prometheus_pid; do wait "$p" 2>/dev/null || true; done
  stop_controlplane
}
trap cleanup EXIT

body() { cat "$work/body"; }
json() {  # json PYTHON-EXPRESSION: evaluated with d = the JSON document on stdin
  python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"
}

# --- identities -------------------------------------------------------------------------------------
as_scheduler() { "$KUBECTL" --kubeconfig "$KUBECONFIG_SCHEDULER" "$@"; }
check_eq "system:kube-scheduler may create tokenreviews (delegated authentication)" yes \
  "$(as_scheduler auth can-i create tokenreviews.authentication.k8s.io 2>/dev/null)"
check_eq "system:kube-scheduler may create subjectaccessreviews (delegated authorization)" yes \
  "$(as_scheduler auth can-i create subjectaccessreviews.authorization.k8s.io 2>/dev/null)"

kubectl_admin create namespace monitoring >/dev/null
kubectl_admin -n monitoring create serviceaccount prometheus >/dev/null
kubectl_admin create clusterrole ksched-metrics-reader --verb=get --non-resource-url=/metrics >/dev/null
kubectl_admin create clusterrolebinding ksched-metrics-reader --clusterrole=ksched-metrics-reader \
  --serviceaccount=monitoring:prometheus >/dev/null
prometheus_sa=system:serviceaccount:monitoring:prometheus
check_eq "RBAC allows $prometheus_sa get /metrics" yes \
  "$(kubectl_admin auth can-i get /metrics --as="$prometheus_sa" 2>/dev/null)"
check_eq "RBAC does not allow it get /configz" no \
  "$(kubectl_admin auth can-i get /configz --as="$prometheus_sa" 2>/dev/null)"
token=$(kubectl_admin -n monitoring create token prometheus --duration=1h)
check "kubectl create token prometheus" test -n "$token"
token_file="$work/prometheus.token"
printf '%s' "$token" >"$token_file"
chmod 600 "$token_file"
admin_token=$(cat "$PKI_DIR/admin.token")  # static token of user admin, group system:masters
garbage_token="not-a-token-$RANDOM$RANDOM"

# --- the two schedulers ----------------------------------------------------------------------------
# Delegated authentication and authorization go through a client-go credential plugin returning
# the scheduler's own client certificate (the same identity as its kubeconfig's), so that both
# count the plugin's runs and its certificate's TTL in rest_client_exec_plugin_*.
cat >"$work/cert-plugin.sh" <<EOF
#!/bin/sh
exec python3 -c 'import json, sys; print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"clientCertificateData": open(sys.argv[1]).read(), "clientKeyData": open(sys.argv[2]).read()}}))' \\
  "$PKI_DIR/kube-scheduler.crt" "$PKI_DIR/kube-scheduler.key"
EOF
chmod 755 "$work/cert-plugin.sh"
delegated_kubeconfig="$work/delegated-exec.kubeconfig"
awk -v plugin="$work/cert-plugin.sh" '
  /^    client-certificate-data:/ { print "    exec:"; print "      apiVersion: client.authentication.k8s.io/v1"
                                   print "      command: " plugin; print "      interactiveMode: Never"; next }
  /^    client-key-data:/ { next }
  { print }' "$KUBECONFIG_SCHEDULER" >"$delegated_kubeconfig"
chmod 600 "$delegated_kubeconfig"
check "the delegated kubeconfig's user is the credential plugin" grep -q "command: $work/cert-plugin.sh" "$delegated_kubeconfig"
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix serving --count 3 \
  --cpu 4 --memory 16Gi >/dev/null

port=$(free_port)
"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" \
  --authentication-kubeconfig "$delegated_kubeconfig" --authorization-kubeconfig "$delegated_kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$port" --leader-elect=true --v=2 \
  --disabled-metrics=scheduler_cache_size,rest_client_response_size_bytes \
  --feature-gates=SchedulerPopFromBackoffQ=false >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
ours_started=$(date +%s)

# Upstream: its own scheduler name and Lease, so that both lead and neither touches the other's pods.
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
up_port=$(free_port)
"$upstream" --config "$work/upstream.yaml" \
  --authentication-kubeconfig "$delegated_kubeconfig" --authorization-kubeconfig "$delegated_kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$up_port" --v=2 \
  --disabled-metrics=scheduler_cache_size,rest_client_response_size_bytes \
  --feature-gates=SchedulerPopFromBackoffQ=false >"$cp_dir/logs/upstream.log" 2>&1 &
upstream_pid=$!
note "kube-scheduler-cpp on 127.0.0.1:$port (pid $ours_pid), upstream on 127.0.0.1:$up_port (pid $upstream_pid)"

ready() { [ "$(fetch "$1" /readyz)" = 200 ]; }
check "kube-scheduler-cpp becomes ready (/readyz 200) within 60 s" wait_for 60 ready "$port"
check "upstream becomes ready within 60 s" wait_for 60 ready "$up_port"

# --- probes: no token needed (--authorization-always-allow-paths) ------------------------------------
for path in /healthz /livez /readyz; do
  check_eq "$path without a token: 200 ok" "200 ok" "$(fetch "$port" "$path") $(body)"
done
check_eq "/readyz?verbose lists its checks" \
  "$(printf '[+]leaderElection ok\n[+]shutdown ok\n[+]sched-handler-sync ok\nreadyz check passed')" \
  "$(fetch "$port" '/readyz?verbose' >/dev/null; body)"
for path in '/healthz?verbose' '/livez?verbose' '/readyz?verbose' '/readyz?exclude=shutdown&verbose' \
            '/readyz?exclude=nothing-like-this'; do
  code=$(fetch "$up_port" "$path"); expected="$code $(body)"
  code=$(fetch "$port" "$path"); actual="$code $(body)"
  check_eq "$path: as upstream" "$expected" "$actual"
done
# The single checks are not always-allowed paths (exact match only): anonymous -> 403, an
# authorized user -> "ok", as upstream.
for path in /readyz/leaderElection /readyz/shutdown /readyz/sched-handler-sync /healthz/leaderElection /livez/ping; do
  check_eq "$path anonymous: 403" 403 "$(fetch "$port" "$path")"
  check_eq "$path with a system:masters token: 200 ok" "200 ok" "$(fetch "$port" "$path" "$admin_token") $(body)"
  code=$(fetch "$up_port" "$path" "$admin_token"); expected="$code $(body)"
  check_eq "$path with a system:masters token: as upstream" "$expected" "$(fetch "$port" "$path" "$admin_token") $(body)"
done

# --- /metrics and /configz: delegated authentication and authorization ---------------------------------
refusal() {  # refusal PORT PATH TOKEN: "code content-type body"
  local code; code=$(fetch "$1" "$2" "$3")
  printf '%s %s\n%s' "$code" "$(content_type)" "$(body)"
}
code=$(fetch "$port" /metrics)
check_eq "/metrics anonymous: 403" 403 "$code"
check "/metrics anonymous: forbidden for system:anonymous" grep -q 'forbidden: User \\"system:anonymous\\" cannot get path \\"/metrics\\"' "$work/body"
check_eq "/metrics anonymous: refusal as upstream's" "$(refusal "$up_port" /metrics "")" "$(refusal "$port" /metrics "")"
code=$(fetch "$port" /metrics "$garbage_token")
check_eq "/metrics with a garbage token: 401" 401 "$code"
check_eq "/metrics with a garbage token: refusal as upstream's" \
  "$(refusal "$up_port" /metrics "$garbage_token")" "$(refusal "$port" /metrics "$garbage_token")"
code=$(fetch "$port" /configz "$token")
check_eq "/configz with the prometheus token: 403 (RBAC allows only /metrics)" 403 "$code"
check_eq "/configz with the prometheus token: refusal as upstream's" \
  "$(refusal "$up_port" /configz "$token")" "$(refusal "$port" /configz "$token")"
code=$(fetch "$port" /metrics "$token")
check_eq "/metrics with the prometheus token: 200" 200 "$code"
ours_type=$(content_type); fetch "$up_port" /metrics "$token" >/dev/null
check_eq "/metrics Content-Type as upstream's" "$(content_type)" "$ours_type"

# --- client certificates: the API server's client CA, looked up in the cluster -------------------------
# Neither runs with --client-ca-file: both read client-ca-file from configmap
# kube-system/extension-apiserver-authentication with the authentication client (the API server
# publishes its --client-ca-file there), so its client certificates authenticate here too.
check "ours reads the client CA from the configmap" grep -q 'client certificates are verified against client-ca::kube-system::extension-apiserver-authentication::client-ca-file' "$cp_dir/logs/ours.log"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/rogue.key" -out "$work/rogue.crt" \
  -subj "/O=system:masters/CN=rogue" -days 1 2>/dev/null
with_cert() {  # with_cert PORT PATH CERT KEY [TOKEN]: "code content-type" and the body
  local auth=() code
  [ -n "${5:-}" ] && auth=(-H "Authorization: Bearer $5")
  code=$(curl -sk --noproxy '*' --max-time 15 --cert "$3" --key "$4" "${auth[@]}" -D "$work/headers" -o "$work/body" \
    -w '%{http_code}' "https://127.0.0.1:$1$2" || echo curl-failed)
  printf '%s %s\n%s' "$code" "$(content_type)" "$(body)"
}
for who in ours upstream; do
  p=$port; [ "$who" = ours ] || p=$up_port
  check "$who: /configz with the admin client certificate (O=system:masters): 200" \
    grep -q '^200 ' <<<"$(with_cert "$p" /configz "$PKI_DIR/admin.crt" "$PKI_DIR/admin.key")"
done
answer_pair() {  # answer_pair PATH CERT KEY [TOKEN]: ours' answer, then upstream's, for check_eq
  with_cert "$port" "$@" >"$work/ours.answer"; with_cert "$up_port" "$@" >"$work/upstream.answer"
}
answer_pair /configz "$PKI_DIR/kube-scheduler.crt" "$PKI_DIR/kube-scheduler.key"
check "/configz with the scheduler's client certificate: 403 for system:kube-scheduler" \
  grep -q 'User \\"system:kube-scheduler\\" cannot get path \\"/configz\\"' "$work/ours.answer"
check_eq "... as upstream's refusal" "$(cat "$work/upstream.answer")" "$(cat "$work/ours.answer")"
answer_pair /metrics "$work/rogue.crt" "$work/rogue.key"
check "/metrics with a certificate of another CA (O=system:masters): 401" grep -q '^401 ' "$work/ours.answer"
check_eq "... as upstream's refusal" "$(cat "$work/upstream.answer")" "$(cat "$work/ours.answer")"
answer_pair /healthz "$work/rogue.crt" "$work/rogue.key"
check_eq "/healthz with that certificate: refused before the always-allowed path, as upstream" \
  "$(cat "$work/upstream.answer")" "$(cat "$work/ours.answer")"
answer_pair /metrics "$work/rogue.crt" "$work/rogue.key" "$token"
check "/metrics with that certificate and the prometheus token: 200 (the token authenticates)" grep -q '^200 ' "$work/ours.answer"
check_eq "... as upstream" "$(head -1 "$work/upstream.answer")" "$(head -1 "$work/ours.answer")"
rogue_log='"Unable to authenticate the request".*verifying certificate SN=[0-9]*, SKID=[0-9A-F:]*, AKID=[0-9A-F:]* failed: x509: certificate signed by unknown authority'
check "ours logs why, in upstream's words" grep -Eq "$rogue_log" "$cp_dir/logs/ours.log"
check "(upstream logs it so)" grep -Eq "$rogue_log" "$cp_dir/logs/upstream.log"

# Pods to schedule, so that the scheduling metrics have samples.
# The same pods for upstream, so that both serve the families that appear with a first sample; and
# one pod each that fits no node (scheduler_unschedulable_pods). Plugin execution times are
# recorded in 10% of the scheduling cycles (upstream's pluginMetricsSamplePercent, drawn at random):
# with 100 pods, the chance of no sampled cycle is 0.9^100 < 3e-5.
pods=100
for who in ours upstream; do
  scheduler=default-scheduler; [ "$who" = ours ] || scheduler=upstream-scheduler
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-huge","namespace":"default"},"spec":{"schedulerName":"%s","terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"100"}}}]}}\n' \
    "$who" "$scheduler"
  for i in $(seq 1 "$pods"); do
    printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-%d","namespace":"default","labels":{"serving":"%s"}},"spec":{"schedulerName":"%s","terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"10m","memory":"10Mi"}}}]}}\n' \
      "$who" "$i" "$who" "$scheduler"
  done
done | kubectl_admin create -f - >/dev/null
bound_count() { kubectl_admin get pods -l serving="$1" -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c . || true; }
all_bound() { [ "$(bound_count "$1")" = "$pods" ]; }
check "kube-scheduler-cpp binds its $pods pods" wait_for 120 all_bound ours
check "upstream binds its $pods pods" wait_for 120 all_bound upstream
unschedulable() { [ "$(kubectl_admin get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].reason}')" = Unschedulable ]; }
check "kube-scheduler-cpp reports ours-huge unschedulable" wait_for 60 unschedulable ours-huge
check "upstream reports upstream-huge unschedulable" wait_for 60 unschedulable upstream-huge

fetch "$port" /metrics "$token" >/dev/null
cp "$work/body" "$work/ours.metrics"
fetch "$up_port" /metrics "$token" >/dev/null
cp "$work/body" "$work/upstream.metrics"
sample() {  # sample PREFIX: the value of the first sample line of ours starting with PREFIX
  awk -v p="$1" 'index($0, p) == 1 {print $NF; exit}' "$work/ours.metrics"
}
check_eq "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} counts the $pods pods" \
  "$pods" "$(sample 'scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"} ')"
check_eq "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"} counts ours-huge" \
  1 "$(sample 'scheduler_schedule_attempts_total{profile="default-scheduler",result="unschedulable"} ')"
for queue in active:0 backoff:0 gated:0 unschedulable:1; do
  check_eq "scheduler_pending_pods{queue=\"${queue%:*}\"} ${queue#*:} (the rest bound)" "${queue#*:}" \
    "$(sample "scheduler_pending_pods{queue=\"${queue%:*}\"} ")"
done
check_eq "scheduler_unschedulable_pods{plugin=\"NodeResourcesFit\",profile=\"default-scheduler\"} 1" 1 \
  "$(sample 'scheduler_unschedulable_pods{plugin="NodeResourcesFit",profile="default-scheduler"} ')"
check "rest_client_requests_total counts the bindings (code 201, POST)" \
  grep -Eq '^rest_client_requests_total\{code="201",host="[^"]+",method="POST"\} [1-9]' "$work/ours.metrics"
check "leader_election_master_status{name=\"kube-scheduler\"} 1" \
  grep -qx 'leader_election_master_status{name="kube-scheduler"} 1' "$work/ours.metrics"
start_time=$(sample 'process_start_time_seconds ')
check "process_start_time_seconds ($start_time) is when the process started (±5 s)" python3 -c \
  "import sys; v = float('$start_time' or 'nan'); sys.exit(0 if abs(v - $ours_started) <= 5 else 1)"

# Both run with --feature-gates=SchedulerPopFromBackoffQ=false: the same gates, stages and values.
feature_lines() { grep '^kubernetes_feature_enabled{' "$1" | LC_ALL=C sort; }
check_eq "kubernetes_feature_enabled: every gate as upstream's ($(feature_lines "$work/upstream.metrics" | wc -l) series)" \
  "$(feature_lines "$work/upstream.metrics")" "$(feature_lines "$work/ours.metrics")"
check "kubernetes_feature_enabled shows SchedulerPopFromBackoffQ off" \
  grep -qx 'kubernetes_feature_enabled{name="SchedulerPopFromBackoffQ",stage="BETA"} 0' "$work/ours.metrics"
check_eq "kubernetes_feature_enabled: the same HELP line as upstream's" \
  "$(grep '^# HELP kubernetes_feature_enabled ' "$work/upstream.metrics")" "$(grep '^# HELP kubernetes_feature_enabled ' "$work/ours.metrics")"

families() { awk '$1 == "#" && $2 == "TYPE" {print $3, $4}' "$1" | LC_ALL=C sort; }
families "$work/ours.metrics" >"$work/ours.families"
families "$work/upstream.metrics" >"$work/upstream.families"
for family in scheduler_schedule_attempts_total scheduler_scheduling_attempt_duration_seconds \
              scheduler_scheduling_algorithm_duration_seconds scheduler_pending_pods \
              scheduler_framework_extension_point_duration_seconds scheduler_plugin_execution_duration_seconds \
              scheduler_pod_scheduling_sli_duration_seconds scheduler_pod_scheduling_attempts \
              scheduler_queue_incoming_pods_total scheduler_unschedulable_pods leader_election_master_status \
              rest_client_requests_total rest_client_request_duration_seconds process_start_time_seconds \
              scheduler_event_handling_duration_seconds scheduler_inflight_events scheduler_goroutines; do
  check "family $family served" grep -q "^$family " "$work/ours.families"
done
# label_values FILE METRIC LABEL: the distinct values of LABEL among METRIC's sample lines.
label_values() {
  grep "^$2{" "$1" | sed -n "s/.*[{,]$3=\"\([^\"]*\)\".*/\1/p" | LC_ALL=C sort -u | paste -sd' '
}
# Both saw the same nodes and pods (each its own pending pods, everyone's bound ones), so both
# timed the same kinds of events.
check_eq "scheduler_event_handling_duration_seconds: the same event labels as upstream's" \
  "$(label_values "$work/upstream.metrics" scheduler_event_handling_duration_seconds_count event)" \
  "$(label_values "$work/ours.metrics" scheduler_event_handling_duration_seconds_count event)"
# scheduler_plugin_evaluation_total: a series for each PreFilter, Filter, PreScore and Score plugin
# of the profile, as upstream's (each its own profile name); the Filter of NodeResourcesFit ran
# for the pods bound. Counts differ: this scheduler reuses per-node results across identical pods.
evaluations() {  # evaluations FILE: "plugin/extension_point" of each series, sorted
  grep '^scheduler_plugin_evaluation_total{' "$1" |
    sed 's/.*extension_point="\([^"]*\)".*plugin="\([^"]*\)".*/\2\/\1/' | LC_ALL=C sort | paste -sd' '
}
check_eq "scheduler_plugin_evaluation_total: the same plugins and extension points as upstream's" \
  "$(evaluations "$work/upstream.metrics")" "$(evaluations "$work/ours.metrics")"
check "scheduler_plugin_evaluation_total counts NodeResourcesFit's Filter runs" \
  awk '/^scheduler_plugin_evaluation_total\{extension_point="Filter",plugin="NodeResourcesFit",profile="default-scheduler"\} / {found = 1; ok = $NF > 0} END {exit !(found && ok)}' "$work/ours.metrics"
note "NodeResourcesFit Filter evaluations: ours $(awk '/^scheduler_plugin_evaluation_total\{extension_point="Filter",plugin="NodeResourcesFit"/ {print $NF}' "$work/ours.metrics"), upstream $(awk '/^scheduler_plugin_evaluation_total\{extension_point="Filter",plugin="NodeResourcesFit"/ {print $NF}' "$work/upstream.metrics")"
# --disabled-metrics: a scheduler family goes, a client-go one stays (registered before the flag is
# read upstream); both counted as upstream counts them.
for who in ours upstream; do
  check "--disabled-metrics: $who serves no scheduler_cache_size" bash -c '! grep -q "^scheduler_cache_size" "$1"' _ "$work/$who.metrics"
  check "--disabled-metrics: $who still serves rest_client_response_size_bytes" grep -q '^rest_client_response_size_bytes_count{' "$work/$who.metrics"
done
for meta in disabled_metrics_total hidden_metrics_total; do
  check_eq "$meta as upstream's" "$(grep "^$meta " "$work/upstream.metrics")" "$(grep "^$meta " "$work/ours.metrics")"
done
# The scrapes with a token went through TokenReview and SubjectAccessReview: both count them by
# the API server's answer (201).
for family in apiserver_delegated_authn_request_total apiserver_delegated_authz_request_total; do
  for who in ours upstream; do
    check "$family{code=\"201\"} counted by $who" grep -q "^$family{code=\"201\"} [1-9]" "$work/$who.metrics"
  done
done
# Every request's authentication and authorization, by result; probes and scrapes alike.
for family in 'authentication_attempts{result="success"}' 'authentication_attempts{result="error"}' 'authorization_attempts_total{result="allowed"}' \
              'authorization_attempts_total{result="no-opinion"}' 'authenticated_user_requests{username="other"}'; do
  for who in ours upstream; do
    check "$family counted by $who" grep -qF "$family " "$work/$who.metrics"
  done
done
# The bearer tokens went through the token cache: the first sight of each a miss and one fetch,
# the scrapes and probes right after it hits; nothing left blocked or in flight once answered.
for family in 'authentication_token_cache_request_total{status="miss"}' 'authentication_token_cache_request_total{status="hit"}' \
              'authentication_token_cache_fetch_total{status="ok"}' 'authentication_token_cache_request_duration_seconds_count{status="hit"}'; do
  for who in ours upstream; do
    check "$family counted by $who" grep -qF "$family " "$work/$who.metrics"
  done
done
for who in ours upstream; do
  check_eq "authentication_token_cache_active_fetch_count: $who has nothing blocked or in flight" \
    'authentication_token_cache_active_fetch_count{status="blocked"} 0
authentication_token_cache_active_fetch_count{status="in_flight"} 0' \
    "$(grep '^authentication_token_cache_active_fetch_count{' "$work/$who.metrics" | LC_ALL=C sort)"
done
# The delegated clients' credential plugin: one run shared by the authentication and authorization
# clients (client-go's cache of exec authenticators), its certificate's TTL, no rotation.
check_eq "rest_client_exec_plugin_call_total as upstream's (one run for both delegated clients)" \
  "$(grep '^rest_client_exec_plugin_call_total{' "$work/upstream.metrics")" "$(grep '^rest_client_exec_plugin_call_total{' "$work/ours.metrics")"
check "rest_client_exec_plugin_call_total{call_status=\"no_error\",code=\"0\"} 1" \
  grep -qx 'rest_client_exec_plugin_call_total{call_status="no_error",code="0"} 1' "$work/ours.metrics"
not_after=$(date -d "$(openssl x509 -enddate -noout -in "$PKI_DIR/kube-scheduler.crt" | cut -d= -f2)" +%s)
ttl_near() {  # ttl_near FILE: its TTL within 120 s of the certificate's NotAfter - now
  awk -v expected="$((not_after - $(date +%s)))" '$1 == "rest_client_exec_plugin_ttl_seconds" {
    d = $2 - expected; found = 1; ok = (d < 120 && d > -120) } END { exit !(found && ok) }' "$1"
}
for who in ours upstream; do
  check "$who: rest_client_exec_plugin_ttl_seconds is the certificate's time to NotAfter" ttl_near "$work/$who.metrics"
  check "$who: rest_client_exec_plugin_certificate_rotation_age_count 0" \
    grep -qx 'rest_client_exec_plugin_certificate_rotation_age_count 0' "$work/$who.metrics"
done
note "rest_client_exec_plugin_ttl_seconds: ours $(awk '$1 == "rest_client_exec_plugin_ttl_seconds" {print $2}' "$work/ours.metrics"), upstream $(awk '$1 == "rest_client_exec_plugin_ttl_seconds" {print $2}' "$work/upstream.metrics")"
# Every client certificate presented above (the same requests to both) was observed.
check_eq "apiserver_client_certificate_expiration_seconds_count as upstream's" \
  "$(grep '^apiserver_client_certificate_expiration_seconds_count ' "$work/upstream.metrics")" \
  "$(grep '^apiserver_client_certificate_expiration_seconds_count ' "$work/ours.metrics")"
check "apiserver_client_certificate_expiration_seconds_count counts them" \
  grep -Eq '^apiserver_client_certificate_expiration_seconds_count [1-9]' "$work/ours.metrics"
check_eq "version_info as upstream's" "$(grep '^version_info{' "$work/upstream.metrics")" "$(grep '^version_info{' "$work/ours.metrics")"
check "kubernetes_build_info names v$K8S_VERSION" \
  grep -q "^kubernetes_build_info{.*git_version=\"v$K8S_VERSION\".*} 1\$" "$work/ours.metrics"
build_labels() {  # build_labels FILE: major, minor and git_version of kubernetes_build_info
  grep '^kubernetes_build_info{' "$1" | grep -o '\(major\|minor\|git_version\)="[^"]*"' | paste -sd' '
}
check_eq "kubernetes_build_info: major, minor and git_version as upstream's" \
  "$(build_labels "$work/upstream.metrics")" "$(build_labels "$work/ours.metrics")"
check_eq "kubernetes_build_info: the same HELP line (stability) as upstream's" \
  "$(grep '^# HELP kubernetes_build_info ' "$work/upstream.metrics")" "$(grep '^# HELP kubernetes_build_info ' "$work/ours.metrics")"
note "kubernetes_build_info: ours $(grep '^kubernetes_build_info{' "$work/ours.metrics"), upstream $(grep '^kubernetes_build_info{' "$work/upstream.metrics")"
note "registered_metrics_total: ours [$(grep '^registered_metrics_total{' "$work/ours.metrics" | sed 's/.*stability_level="\([A-Z]*\)"} /\1=/' | paste -sd' ')], upstream [$(grep '^registered_metrics_total{' "$work/upstream.metrics" | sed 's/.*stability_level="\([A-Z]*\)"} /\1=/' | paste -sd' ')]"
check "scheduler_inflight_events{event=\"PodPopped\"} 0 (idle)" \
  grep -qx 'scheduler_inflight_events{event="PodPopped"} 0' "$work/ours.metrics"
check "scheduler_goroutines{operation=\"binding\"} 0 (idle)" \
  grep -qx 'scheduler_goroutines{operation="binding"} 0' "$work/ours.metrics"
# Which events arrive during an attempt, and which plugins fan out, depend on timing and on the
# implementations: shown, not compared.
note "scheduler_inflight_events labels: ours [$(label_values "$work/ours.metrics" scheduler_inflight_events event)], upstream [$(label_values "$work/upstream.metrics" scheduler_inflight_events event)]"
note "scheduler_goroutines operations: ours [$(label_values "$work/ours.metrics" scheduler_goroutines operation)], upstream [$(label_values "$work/upstream.metrics" scheduler_goroutines operation)]"
mismatched=$(LC_ALL=C join "$work/ours.families" "$work/upstream.families" | awk '$2 != $3 {print $1 " ours=" $2 " upstream=" $3}')
check_eq "every family both serve has the same type" "" "$mismatched"
# The HELP lines carry component-base's stability level ([ALPHA], [BETA], [STABLE]) and deprecation.
helps() {  # helps FILE FAMILIES-FILE: the HELP lines of the families named in the second file
  awk 'NR == FNR {wanted[$1] = 1; next} $1 == "#" && $2 == "HELP" && ($3 in wanted)' "$2" "$1" | LC_ALL=C sort
}
LC_ALL=C join "$work/ours.families" "$work/upstream.families" >"$work/both.families"
check_eq "every family both serve has upstream's HELP line (stability level and text)" \
  "" "$(diff <(helps "$work/upstream.metrics" "$work/both.families") <(helps "$work/ours.metrics" "$work/both.families") | grep '^[<>]')"
only_ours=$(LC_ALL=C join -v1 "$work/ours.families" "$work/upstream.families" | awk '{print $1}' | paste -sd' ')
only_upstream=$(LC_ALL=C join -v2 "$work/ours.families" "$work/upstream.families" | awk '{print $1}' | paste -sd' ')
note "families only kube-scheduler-cpp serves: ${only_ours:-none}"
note "families only upstream serves, besides $(tr ' ' '\n' <<<"$only_upstream" | grep -c '^go_') go_*: $(tr ' ' '\n' <<<"$only_upstream" | grep -v '^go_' | paste -sd' ')"
note "plugin execution samples (10% of cycles are sampled): ours $(grep -c '^scheduler_plugin_execution_duration_seconds_count' "$work/ours.metrics"), upstream $(grep -c '^scheduler_plugin_execution_duration_seconds_count' "$work/upstream.metrics")"

code=$(fetch "$port" /configz "$admin_token")
check_eq "/configz with a system:masters token: 200" 200 "$code"
check_eq "/configz: application/json" application/json "$(content_type)"
cp "$work/body" "$work/ours.configz"
# Upstream serves its configuration converted to v1 (v1.37, #136044), with apiVersion and kind.
check_eq "/configz: componentconfig of the configuration in use" \
  "True kube-scheduler default-scheduler $KUBECONFIG_SCHEDULER" \
  "$(json "' '.join(str(x) for x in (d['componentconfig']['leaderElection']['leaderElect'], d['componentconfig']['leaderElection']['resourceName'], d['componentconfig']['profiles'][0]['schedulerName'], d['componentconfig']['clientConnection']['kubeconfig']))" \
     <"$work/ours.configz" 2>&1)"
fetch "$up_port" /configz "$admin_token" >/dev/null
cp "$work/body" "$work/upstream.configz"
# Field by field as upstream's, but for the Lease and scheduler name upstream was given here.
check_eq "/configz: field by field as upstream's (Lease and scheduler name aside)" "" "$(python3 - "$work/ours.configz" "$work/upstream.configz" 2>&1 <<'PY'
import json, sys
ours, upstream = (json.load(open(f)) for f in sys.argv[1:3])
upstream["componentconfig"]["leaderElection"]["resourceName"] = "kube-scheduler"
upstream["componentconfig"]["profiles"][0]["schedulerName"] = "default-scheduler"
def flat(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items(): yield from flat(v, path + "." + k)
    elif isinstance(x, list):
        for i, v in enumerate(x): yield from flat(v, "%s[%d]" % (path, i))
    else:
        yield path, x
a, b = dict(flat(ours)), dict(flat(upstream))
for k in sorted(set(a) | set(b)):
    if a.get(k, "<absent>") != b.get(k, "<absent>"):
        print("%s: ours %r, upstream %r" % (k, a.get(k, "<absent>"), b.get(k, "<absent>")))
PY
)"

# --- /flagz and /statusz ---------------------------------------------------------------------------------
# zpage PORT PATH ACCEPT [AGENT]: a GET with the admin token, the given Accept header ("-" for none)
# and User-Agent (default "serving-e2e", so that JSON is not indented as for curl); the body into
# $work/body; "code content-type" and the Warning header on stdout.
zpage() {
  local code accept=(-H "Accept: $3")
  [ "$3" = - ] && accept=(-H "Accept:")
  code=$(curl -sk --noproxy '*' --max-time 15 -H "Authorization: Bearer $admin_token" "${accept[@]}" \
    -A "${4:-serving-e2e}" -D "$work/headers" -o "$work/body" -w '%{http_code}' "https://127.0.0.1:$1$2" || echo curl-failed)
  echo "$code $(content_type) $(tr -d '\r' <"$work/headers" | awk -F': ' 'tolower($1) == "warning" {print $2}')"
}
check_eq "/flagz anonymous: refused as upstream refuses it" "$(refusal "$up_port" /flagz "")" "$(refusal "$port" /flagz "")"
check_eq "/statusz anonymous: refused as upstream refuses it" "$(refusal "$up_port" /statusz "")" "$(refusal "$port" /statusz "")"
# The flags given differently (the configuration file, the kubeconfig, the port) are left out of
# the value comparisons.
differing='config kubeconfig secure-port'
flagz_text() {  # flagz_text FILE: "name=value" per flag of a text /flagz, its separator found on bind-address
  python3 - "$1" <<'PY'
import sys
text = open(sys.argv[1]).read()
lines = text.split("\n")
header = "\n".join(lines[:3])
line = next(l for l in lines[3:] if l.startswith("bind-address"))
sep = line[len("bind-address"):-len("127.0.0.1")]
print(header.replace("\n", "|"))
for l in lines[3:]:
    if l:
        name, _, value = l.partition(sep)
        print("%s=%s" % (name, value))
PY
}
for accept in - '*/*' text/plain 'application/json;v=foo;g=config.k8s.io;as=Flagz,*/*'; do
  expected=$(zpage "$up_port" /flagz "$accept"); cp "$work/body" "$work/flagz-upstream.txt"
  actual=$(zpage "$port" /flagz "$accept"); cp "$work/body" "$work/flagz-ours.txt"
  check_eq "/flagz (Accept $accept): status and type as upstream's" "$expected" "$actual"
done
flagz_text "$work/flagz-upstream.txt" >"$work/flagz-upstream.lines"
flagz_text "$work/flagz-ours.txt" >"$work/flagz-ours.lines"
check_eq "/flagz text: upstream's header" "$(head -1 "$work/flagz-upstream.lines")" "$(head -1 "$work/flagz-ours.lines")"
check_eq "/flagz text: the same flags as upstream's" "$(tail -n +2 "$work/flagz-upstream.lines" | cut -d= -f1)" \
  "$(tail -n +2 "$work/flagz-ours.lines" | cut -d= -f1)"
same_values() { tail -n +2 "$1" | grep -v -E "^($(tr ' ' '|' <<<"$differing"))="; }
check_eq "/flagz text: the values as upstream's (but $differing)" "$(same_values "$work/flagz-upstream.lines")" \
  "$(same_values "$work/flagz-ours.lines")"
check "/flagz text: ours shows its --secure-port" grep -qx "secure-port=$port" "$work/flagz-ours.lines"
flagz_json_diff() {  # flagz_json_diff OURS UPSTREAM: what differs, but the flags given differently
  python3 - "$1" "$2" "$differing" <<'PY'
import json, sys
ours, upstream = (json.load(open(f)) for f in sys.argv[1:3])
for doc in (ours, upstream):
    for name in sys.argv[3].split():
        doc.get("flags", {}).pop(name, None)
if ours != upstream:
    for k in sorted(set(ours) | set(upstream)):
        if ours.get(k) != upstream.get(k):
            if k == "flags":
                a, b = ours.get(k, {}), upstream.get(k, {})
                for f in sorted(set(a) | set(b)):
                    if a.get(f) != b.get(f):
                        print("flags.%s: ours %r, upstream %r" % (f, a.get(f, "<absent>"), b.get(f, "<absent>")))
            else:
                print("%s: ours %r, upstream %r" % (k, ours.get(k), upstream.get(k)))
PY
}
for version in v1beta1 v1alpha1; do
  accept="application/json;v=$version;g=config.k8s.io;as=Flagz"
  expected=$(zpage "$up_port" /flagz "$accept"); cp "$work/body" "$work/flagz-upstream.json"
  actual=$(zpage "$port" /flagz "$accept"); cp "$work/body" "$work/flagz-ours.json"
  check_eq "/flagz $version JSON: status, type and Warning as upstream's" "$expected" "$actual"
  check_eq "/flagz $version JSON: the document as upstream's (but $differing)" "" \
    "$(flagz_json_diff "$work/flagz-ours.json" "$work/flagz-upstream.json" 2>&1)"
done
check "/flagz JSON: ours ends with a newline, compact (json.Encoder)" bash -c '[ "$(tail -c1 "$1" | od -An -c | tr -d " ")" = "\n" ]' _ "$work/flagz-ours.json"
# Indented for curl (isPrettyPrint), and YAML: the same text once the differing flags' lines are gone.
without_differing() { grep -v -E "^ *\"?($(tr ' ' '|' <<<"$differing"))\"?:" "$1"; }
for accept in 'application/json;v=v1beta1;g=config.k8s.io;as=Flagz' 'application/yaml;v=v1beta1;g=config.k8s.io;as=Flagz'; do
  expected=$(zpage "$up_port" /flagz "$accept" curl/8); cp "$work/body" "$work/flagz-upstream.doc"
  actual=$(zpage "$port" /flagz "$accept" curl/8); cp "$work/body" "$work/flagz-ours.doc"
  check_eq "/flagz as curl asks (Accept $accept): status and type as upstream's" "$expected" "$actual"
  check_eq "/flagz as curl asks (Accept $accept): the text as upstream's (but $differing)" \
    "$(without_differing "$work/flagz-upstream.doc")" "$(without_differing "$work/flagz-ours.doc")"
done
# Refused negotiations: the same Status, as JSON, YAML or raw JSON.
for path in /flagz /statusz; do
  for accept in application/json application/xml application/yaml 'application/json;v=v1beta1;g=config.k8s.io' \
                'application/cbor;v=v1beta1;g=config.k8s.io;as=Flagz'; do
    expected="$(zpage "$up_port" "$path" "$accept") $(body)"
    actual="$(zpage "$port" "$path" "$accept") $(body)"
    check_eq "$path (Accept $accept): refused as upstream" "$expected" "$actual"
  done
done
# /statusz: the versions and paths as upstream's; the times are each process's own.
statusz_lines() {  # statusz_lines FILE: the text's lines, separator normalised to ":", times dropped
  python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
print("|".join(lines[:3]))
line = next(l for l in lines if l.startswith("Binary version"))
sep = line[len("Binary version"):line.rindex(" ")]
for l in lines[3:]:
    for key in ("Started", "Up", "Go version", "Binary version", "Emulation version", "Paths"):
        if l.startswith(key + sep):
            value = l[len(key + sep):]
            print("%s:%s" % (key, "<time>" if key in ("Started", "Up") else "<go>" if key == "Go version" else value))
            break
    else:
        print(repr(l))
PY
}
for accept in - '*/*' text/plain; do
  expected=$(zpage "$up_port" /statusz "$accept"); cp "$work/body" "$work/statusz-upstream.txt"
  actual=$(zpage "$port" /statusz "$accept"); cp "$work/body" "$work/statusz-ours.txt"
  check_eq "/statusz (Accept $accept): status and type as upstream's" "$expected" "$actual"
  check_eq "/statusz (Accept $accept): the lines as upstream's (times and Go version aside)" \
    "$(statusz_lines "$work/statusz-upstream.txt" 2>&1)" "$(statusz_lines "$work/statusz-ours.txt" 2>&1)"
done
note "/statusz text: ours $(grep -E '^(Started|Up|Go version)' "$work/statusz-ours.txt" | paste -sd'|'); upstream $(grep -E '^(Started|Up|Go version)' "$work/statusz-upstream.txt" | paste -sd'|')"
for version in v1beta1 v1alpha1; do
  accept="application/json;v=$version;g=config.k8s.io;as=Statusz"
  expected=$(zpage "$up_port" /statusz "$accept"); cp "$work/body" "$work/statusz-upstream.json"
  actual=$(zpage "$port" /statusz "$accept"); cp "$work/body" "$work/statusz-ours.json"
  check_eq "/statusz $version JSON: status, type and Warning as upstream's" "$expected" "$actual"
  check_eq "/statusz $version JSON: the fields as upstream's (times and Go version aside)" \
    "$(json "sorted((k, v) for k, v in d.items() if k not in ('startTime', 'uptimeSeconds', 'goVersion'))" <"$work/statusz-upstream.json" 2>&1)" \
    "$(json "sorted((k, v) for k, v in d.items() if k not in ('startTime', 'uptimeSeconds', 'goVersion'))" <"$work/statusz-ours.json" 2>&1)"
done
check_eq "/statusz JSON: ours names v$K8S_VERSION" "$K8S_VERSION ${K8S_VERSION%.*}" \
  "$(json "d['binaryVersion'] + ' ' + d['emulationVersion']" <"$work/statusz-ours.json" 2>&1)"
check "/statusz JSON: ours started when its process did (±5 s)" python3 -c "
import calendar, json, sys, time
d = json.load(open('$work/statusz-ours.json'))
started = calendar.timegm(time.strptime(d['startTime'], '%Y-%m-%dT%H:%M:%SZ'))
sys.exit(0 if abs(started - $ours_started) <= 5 and d['uptimeSeconds'] >= 0 else 1)"

# Other paths upstream serves (not claimed by issue #5): listed when ours answers otherwise.
for path in /metrics/slis /metrics/resources /debug/pprof/ /debug/flags/v /flagz /statusz /nonexistent; do
  up_code=$(fetch "$up_port" "$path" "$admin_token"); our_code=$(fetch "$port" "$path" "$admin_token")
  [ "$up_code" = "$our_code" ] || note "$path with a system:masters token: upstream $up_code, kube-scheduler-cpp $our_code"
done

# /metrics/slis: the results of the health checks the probes above ran, as upstream's registry
# writes them: the same HELP/TYPE lines, the same series, the same last result per check (the
# run counts differ: each was probed its own number of times while starting).
slis() {  # slis PORT: /metrics/slis with the admin token into $work/body; the status on stdout
  fetch "$1" /metrics/slis "$admin_token"
}
check_eq "/metrics/slis with a system:masters token: 200 (ours, upstream)" "200 200" "$(slis "$port") $(slis "$up_port")"
slis "$up_port" >/dev/null; cp "$work/body" "$work/slis-upstream"
slis "$port" >/dev/null; cp "$work/body" "$work/slis-ours"
check_eq "/metrics/slis: HELP and TYPE lines as upstream's" "$(grep '^#' "$work/slis-upstream")" "$(grep '^#' "$work/slis-ours")"
# (A check that failed while its scheduler started, e.g. sched-handler-sync, adds a status="error"
# series on one side only: those are listed, not compared.)
slis_series() { grep -v '^#' "$1" | grep -v 'status="error"' | sed 's/ [^ ]*$//' | sort; }
check_eq "/metrics/slis: the same series as upstream's" "$(slis_series "$work/slis-upstream")" "$(slis_series "$work/slis-ours")"
note "/metrics/slis failures while starting: upstream: $(grep -c 'status="error"' "$work/slis-upstream" || true), ours: $(grep -c 'status="error"' "$work/slis-ours" || true)"
check_eq "/metrics/slis: kubernetes_healthcheck as upstream's (every check's last result)" \
  "$(grep '^kubernetes_healthcheck{' "$work/slis-upstream" | sort)" "$(grep '^kubernetes_healthcheck{' "$work/slis-ours" | sort)"
check "/metrics/slis counts ours' readyz sched-handler-sync successes" \
  grep -q '^kubernetes_healthchecks_total{name="sched-handler-sync",status="success",type="readyz"} [1-9]' "$work/slis-ours"
check "/metrics/slis without a token: 403" test "$(fetch "$port" /metrics/slis)" = 403

# /debug/flags/v (profiling is on by default): PUT sets the log verbosity, as upstream answers it.
put_flag() {  # put_flag PORT BODY: "status body" of PUT /debug/flags/v
  local code
  code=$(curl -sk --noproxy '*' --max-time 15 -H "Authorization: Bearer $admin_token" -X PUT \
    --data-binary "$2" -o "$work/body" -w '%{http_code}' "https://127.0.0.1:$1/debug/flags/v" || echo curl-failed)
  echo "$code $(body)"
}
# Ours runs with --v=2: the Lease renewals (a V(4) line every 2 s) are not logged until -v 4.
renewals() { grep -c "successfully renewed lease" "$cp_dir/logs/ours.log" || true; }
check_eq "ours logs no V(4) line at --v=2" 0 "$(renewals)"
for value in 4 abc 4294967296 2147483648 2; do
  check_eq "PUT /debug/flags/v '$value': as upstream" "$(put_flag "$up_port" "$value")" "$(put_flag "$port" "$value")"
done
check_eq "PUT /debug/flags/v 4: ours says it is set" "200 successfully set klog.logging.verbosity to 4" "$(put_flag "$port" 4)"
some_renewals() { [ "$(renewals)" -gt 0 ]; }
check "ours logs the Lease renewals (V(4)) after it" wait_for 20 some_renewals
check_eq "PUT /debug/flags/v 2: ours says it is set" "200 successfully set klog.logging.verbosity to 2" "$(put_flag "$port" 2)"
logged=$(renewals); sleep 5
check_eq "no V(4) line within 5 s after it" "$logged" "$(renewals)"
for path in /debug/flags/v /debug/flags /debug/flags/ /debug/flags/x; do
  code=$(fetch "$up_port" "$path" "$admin_token"); expected="$code $(content_type) $(body)"
  code=$(fetch "$port" "$path" "$admin_token"); actual="$code $(content_type) $(body)"
  check_eq "GET $path: as upstream (status, type, body)" "$expected" "$actual"
done

# --- a real Prometheus ---------------------------------------------------------------------------------
prom_port=$(free_port)
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
- job_name: kube-scheduler-cpp
  scheme: https
  tls_config:
    insecure_skip_verify: true
  authorization:
    type: Bearer
    credentials_file: $token_file
  static_configs:
  - targets: ['127.0.0.1:$port']
- job_name: kube-scheduler-cpp-anonymous
  scheme: https
  tls_config:
    insecure_skip_verify: true
  static_configs:
  - targets: ['127.0.0.1:$port']
- job_name: upstream-kube-scheduler
  scheme: https
  tls_config:
    insecure_skip_verify: true
  authorization:
    type: Bearer
    credentials_file: $token_file
  static_configs:
  - targets: ['127.0.0.1:$up_port']
EOF
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prometheus-data" \
  --web.listen-address="127.0.0.1:$prom_port" >"$cp_dir/logs/prometheus.log" 2>&1 &
prometheus_pid=$!
note "prometheus $("$prometheus" --version 2>&1 | head -1 | awk '{print $3}') on 127.0.0.1:$prom_port (pid $prometheus_pid)"
prom_api() { curl -s --noproxy '*' --max-time 10 "http://127.0.0.1:$prom_port$1"; }
target() {  # target JOB FIELD: health or lastError of the job's active target
  prom_api /api/v1/targets | json "[t.get('$2', '') for t in d['data']['activeTargets'] if t['labels']['job'] == '$1'][0]" 2>/dev/null
}
scraped() { [ "$(target "$1" health)" = "$2" ]; }
check "Prometheus: target kube-scheduler-cpp is up" wait_for 60 scraped kube-scheduler-cpp up
check "Prometheus: target upstream-kube-scheduler is up (the same job shape)" wait_for 30 scraped upstream-kube-scheduler up
check "Prometheus: the job without credentials is down" wait_for 30 scraped kube-scheduler-cpp-anonymous down
anonymous_error=$(target kube-scheduler-cpp-anonymous lastError)
note "anonymous scrape: $anonymous_error"
check "Prometheus: its lastError names 403" grep -q 403 <<<"$anonymous_error"
note "kube-scheduler-cpp scrape lastError: '$(target kube-scheduler-cpp lastError)'"
scheduled_value() {
  prom_api '/api/v1/query?query=scheduler_schedule_attempts_total%7Bjob%3D%22kube-scheduler-cpp%22%2Cresult%3D%22scheduled%22%7D' \
    | json "[r['value'][1] for r in d['data']['result']][0]" 2>/dev/null
}
positive_scheduled() { python3 -c "import sys; sys.exit(0 if float('${1:-0}') > 0 else 1)" 2>/dev/null; }
has_scheduled() { positive_scheduled "$(scheduled_value)"; }
check "Prometheus: scheduler_schedule_attempts_total{result=\"scheduled\"} > 0" wait_for 30 has_scheduled
note "Prometheus query scheduler_schedule_attempts_total{job=\"kube-scheduler-cpp\",result=\"scheduled\"} = $(scheduled_value)"
check_eq "Prometheus: up{job=\"kube-scheduler-cpp-anonymous\"} is 0" 0 \
  "$(prom_api '/api/v1/query?query=up%7Bjob%3D%22kube-scheduler-cpp-anonymous%22%7D' | json "d['data']['result'][0]['value'][1]" 2>&1)"

# --- DELETE /metrics and /metrics/slis: component-base's HandlerWithReset ------------------------------
reset_as() {  # reset_as PORT PATH TOKEN: a DELETE; "code content-type" and the body
  local code
  code=$(curl -sk --noproxy '*' --max-time 15 -H "Authorization: Bearer $3" -X DELETE -D "$work/headers" \
    -o "$work/body" -w '%{http_code}' "https://127.0.0.1:$1$2" || echo curl-failed)
  printf '%s %s\n%s' "$code" "$(content_type)" "$(body)"
}
refused=$(reset_as "$port" /metrics "$token")
check "DELETE /metrics with the prometheus token (RBAC allows get only): 403" grep -q '^403 ' <<<"$refused"
check_eq "DELETE /metrics refused as upstream refuses it" "$(reset_as "$up_port" /metrics "$token")" "$refused"
for who in ours upstream; do
  p=$port; [ "$who" = ours ] || p=$up_port
  fetch "$p" /metrics "$admin_token" >/dev/null; cp "$work/body" "$work/$who.before-reset"
  check_eq "DELETE /metrics with a system:masters token: $who answers as component-base" \
    "$(printf '200 text/plain; charset=utf-8\nmetrics reset')" "$(reset_as "$p" /metrics "$admin_token")"
  fetch "$p" /metrics "$admin_token" >/dev/null; cp "$work/body" "$work/$who.after-reset"
done
# The families a reset empties, among those both serve: the scheduler's and component-base's own
# (the authentication, authorization and REST client families are observed again by this test's and
# the lease's requests, at times that differ). Ours keeps scheduler_goroutines and
# scheduler_inflight_events, read from the running counts (upstream hides them until the next cycle).
reset_scope='^(scheduler_|kubernetes_|version_info|registered_metrics_total|leader_election_|disabled_metrics_total|hidden_metrics_total|cardinality_)'
both_families=$(LC_ALL=C join <(families "$work/ours.before-reset") <(families "$work/upstream.before-reset") | awk '{print $1}' |
  grep -E "$reset_scope" | grep -vx 'scheduler_goroutines\|scheduler_inflight_events')
emptied() {  # emptied WHO: the families of the scope served before the reset and not after it
  LC_ALL=C join -v1 <(families "$work/$1.before-reset") <(families "$work/$1.after-reset") | awk '{print $1}' |
    grep -Fxf <(printf '%s\n' "$both_families") | paste -sd' '
}
ours_emptied=$(emptied ours)
check_eq "DELETE /metrics empties the same families as upstream's" "$(emptied upstream)" "$ours_emptied"
check "... among them scheduler_schedule_attempts_total, scheduler_pending_pods, kubernetes_build_info, leader_election_master_status" \
  bash -c 'for f in scheduler_schedule_attempts_total scheduler_pending_pods kubernetes_build_info leader_election_master_status; do
             grep -qw "$f" <<<"$1" || exit 1; done' _ "$ours_emptied"
left() {  # left WHO: the series (names and labels) left after the reset in the families compared
  awk -v families="$(paste -sd' ' <<<"$both_families")" '
    BEGIN { n = split(families, list, " "); for (i = 1; i <= n; i++) wanted[list[i]] = 1 }
    /^#/ { next }
    { series = $0; sub(/ [^ ]*$/, "", series); name = series; sub(/\{.*/, "", name); family = name
      sub(/_(bucket|sum|count)$/, "", family)
      if (name in wanted || family in wanted) print series }' "$work/$1.after-reset" | LC_ALL=C sort
}
check_eq "DELETE /metrics leaves the same series as upstream's" "$(left upstream)" "$(left ours)"
note "emptied by the reset in both: $ours_emptied"
note "series left in the families compared: $(left ours | wc -l) (the histograms and counters without labels)"
check "... and some are left (counters and histograms without labels)" test "$(left ours | wc -l)" -gt 0
for who in ours upstream; do
  check "$who: scheduler_preemption_attempts_total (a counter without labels) restarts from 0" \
    grep -qx 'scheduler_preemption_attempts_total 0' "$work/$who.after-reset"
  check_eq "$who: scheduler_pod_scheduling_attempts (a histogram without labels) keeps its count" \
    "$(grep '^scheduler_pod_scheduling_attempts_count ' "$work/$who.before-reset")" \
    "$(grep '^scheduler_pod_scheduling_attempts_count ' "$work/$who.after-reset")"
done
# One more pod each: the attempts count again from the reset.
for who in ours upstream; do
  scheduler=default-scheduler; [ "$who" = ours ] || scheduler=upstream-scheduler
  printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-after-reset","namespace":"default","labels":{"after-reset":"%s"}},"spec":{"schedulerName":"%s","terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":"10m"}}}]}}\n' \
    "$who" "$who" "$scheduler"
done | kubectl_admin create -f - >/dev/null
bound_after_reset() { [ -n "$(kubectl_admin get pod "$1-after-reset" -o jsonpath='{.spec.nodeName}')" ]; }
for who in ours upstream; do
  p=$port profile=default-scheduler; [ "$who" = ours ] || { p=$up_port; profile=upstream-scheduler; }
  check "$who binds $who-after-reset" wait_for 60 bound_after_reset "$who"
  fetch "$p" /metrics "$admin_token" >/dev/null
  check_eq "$who: scheduler_schedule_attempts_total{result=\"scheduled\"} counts 1 since the reset" \
    "scheduler_schedule_attempts_total{profile=\"$profile\",result=\"scheduled\"} 1" \
    "$(grep "^scheduler_schedule_attempts_total{profile=\"$profile\",result=\"scheduled\"} " "$work/body")"
done
# /metrics/slis (SLIMetricsWithReset): every series gone, the checks' back as probes run them.
for who in ours upstream; do
  p=$port; [ "$who" = ours ] || p=$up_port
  check_eq "DELETE /metrics/slis: $who answers as component-base" \
    "$(printf '200 text/plain; charset=utf-8\nmetrics reset')" "$(reset_as "$p" /metrics/slis "$admin_token")"
  slis "$p" >/dev/null; cp "$work/body" "$work/slis-$who.after-reset"
  fetch "$p" /healthz >/dev/null
  slis "$p" >/dev/null; cp "$work/body" "$work/slis-$who.after-probe"
done
check_eq "/metrics/slis right after the reset as upstream's (empty)" "$(cat "$work/slis-upstream.after-reset")" "$(cat "$work/slis-ours.after-reset")"
check_eq "/metrics/slis after one /healthz as upstream's" "$(cat "$work/slis-upstream.after-probe")" "$(cat "$work/slis-ours.after-probe")"

# --- stop ---------------------------------------------------------------------------------------------
kill -TERM "$ours_pid"
rc=0; wait "$ours_pid" || rc=$?
ours_pid=""
check_eq "SIGTERM stops kube-scheduler-cpp with status 0" 0 "$rc"
# (The refusals of this test's own requests are logged as "Forbidden URI=...".)
check_eq "no request of kube-scheduler-cpp to the API server was forbidden" 0 \
  "$(grep -i forbidden "$cp_dir/logs/ours.log" | grep -vc 'Forbidden URI=' || true)"
[ "$failed" = 0 ] || { echo "--- ours.log (tail)"; tail -n 40 "$cp_dir/logs/ours.log"; echo "--- prometheus.log (tail)"; tail -n 20 "$cp_dir/logs/prometheus.log"; }
finish
