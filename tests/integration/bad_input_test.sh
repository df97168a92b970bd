#!/usr/bin/env bash
# Integration: bad input (flags, configuration files, kubeconfigs, certificates) on a real control
# plane. Every case must exit 1 within seconds with ONE line of output that names the flag, field
# or file, and nothing may be bound: a pending pod for the default profile stays pending through
# all of them. Configuration cases are also given to the upstream kube-scheduler v1.37.2, which
# must reject them too (same verdict); flag and feature-gate cases compare its error word for word.
. "$(dirname "$0")/lib.sh"
find_ours
find_upstream

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix bad --count 2 >/dev/null
kubectl_admin apply -f - >/dev/null <<'POD'
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"must-stay-pending","namespace":"default"},
 "spec":{"terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"}]}}
POD
work="$cp_dir/bad-input"
mkdir -p "$work"

# Valid connection flags, serving on loopback only; a case's own flags come after and win.
# (--kubeconfig would add its deprecation warning: the connection comes from a configuration file.)
with_kubeconfig() {  # with_kubeconfig PATH: a configuration file whose clientConnection names PATH
  local file="$work/with-$(basename "$1").yaml"
  printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection:\n  kubeconfig: %s\nleaderElection:\n  leaderElect: false\n' "$1" >"$file"
  echo "$file"
}
base=(--config "$(with_kubeconfig "$KUBECONFIG_SCHEDULER")" --bind-address 127.0.0.1 --secure-port 0)
cases=0
# bad NAME EXPECTED-SUBSTRING ARGS...: exit 1, one line, naming the problem.
# The output is compared with klog's quoting undone (err="open \"x\"" reads as open "x").
bad() {
  run_bad "$1" "$2" "${base[@]}" "${@:3}"
}
run_bad() {
  local name=$1 expected=$2; shift 2
  cases=$((cases + 1))
  local rc=0
  timeout 30 "$ours" "$@" >"$work/raw" 2>&1 || rc=$?
  sed 's/\\"/"/g' "$work/raw" >"$work/out"
  local lines
  lines=$(wc -l <"$work/out" | tr -d ' ')
  if [ "$rc" = 1 ] && [ "$lines" = 1 ] && grep -qF -- "$expected" "$work/out"; then
    check "$name: exit 1, one line: $(cut -c1-150 "$work/out")" true
  else
    check "$name: expected exit 1 and one line naming '$expected'; got exit $rc, $lines lines" false
    head -n 5 "$work/out"
  fi
}
# config NAME: the configuration file for the next case, from stdin.
config() { cat >"$work/$1.yaml"; echo "$work/$1.yaml"; }
# bad_config NAME EXPECTED < file: ours and upstream both reject the file.
bad_config() {
  local name=$1 expected=$2 file
  file=$(config "$name")
  # The file's clientConnection.kubeconfig is empty: --master points both at the API server.
  # No --kubeconfig (ignored with --config) and no --leader-elect (it would override the file).
  run_bad "config $name" "$expected" --config "$file" --master "$APISERVER_URL" \
    --bind-address 127.0.0.1 --secure-port 0
  if [ -x "$upstream" ]; then
    local rc=0
    timeout 30 "$upstream" --config "$file" --master https://127.0.0.1:1 --secure-port 0 \
      --write-config-to "$work/upstream-out.yaml" >"$work/upstream.log" 2>&1 || rc=$?
    check "config $name: upstream kube-scheduler rejects it too (exit $rc)" [ "$rc" != 0 ]
  fi
}
header='apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration'

# --- flags ---------------------------------------------------------------------------------------
bad "unknown flag" "unknown flag: --foo" --foo
bad "positional argument" 'does not take any arguments, got ["extra"]' extra
bad "bad duration" '"--leader-elect-lease-duration" flag' --leader-elect-lease-duration=abc
bad "port not a number" '"--secure-port" flag' --secure-port=x
bad "port out of range" "--secure-port 70000 must be between 1 and 65535" --secure-port=70000

# --feature-gates: upstream's errors, word for word (its err="..." equals ours); a gate kube-scheduler
# reads set to a value this scheduler does not implement is refused (upstream would run with it).
upstream_err() {  # upstream_err ARGS...: the err="..." of the upstream kube-scheduler's failure
  timeout 30 "$upstream" "$@" --master https://127.0.0.1:1 --secure-port 0 2>&1 | grep -o 'err=".*"$' | head -n 1
}
upstream_err_serving() {  # upstream_err_serving ARGS...: the same with secure serving on (a free port)
  timeout 30 "$upstream" "$@" --master https://127.0.0.1:1 --bind-address 127.0.0.1 --secure-port "$(free_port)" 2>&1 |
    grep -o 'err=".*"$' | head -n 1
}
bad_gate() {  # bad_gate NAME EXPECTED VALUE...: ours refuses, and names it as upstream does
  local name=$1 expected=$2; shift 2
  local args=() v
  for v in "$@"; do args+=(--feature-gates "$v"); done
  bad "feature gates: $name" "$expected" "${args[@]}"
  if [ -x "$upstream" ]; then
    check_eq "feature gates: $name: upstream's error" "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err "${args[@]}")"
  fi
}
bad_gate "unknown gate" 'unrecognized feature gate: NoSuchGate' SchedulerAsyncPreemption=true,NoSuchGate=true
bad_gate "gate removed since v1.34" 'unrecognized feature gate: SchedulerQueueingHints' SchedulerQueueingHints=true
bad_gate "locked gate" 'cannot set feature gate DynamicResourceAllocation to false, feature is locked to true' \
  DynamicResourceAllocation=false
# Two errors: upstream joins them in Go map order (either may come first); ours in the flags' order.
bad "feature gates: two locked gates (repeated flag)" \
  '[cannot set feature gate DynamicResourceAllocation to false, feature is locked to true, cannot set feature gate VolumeAttributesClass to false, feature is locked to true]' \
  --feature-gates kube:DynamicResourceAllocation=false --feature-gates 'kube: VolumeAttributesClass = false'
if [ -x "$upstream" ]; then
  two=$(upstream_err --feature-gates kube:DynamicResourceAllocation=false --feature-gates 'kube: VolumeAttributesClass = false' || true)
  check "feature gates: two locked gates: upstream names both ($two)" \
    bash -c '[[ $1 == *"gate DynamicResourceAllocation to false"* && $1 == *"gate VolumeAttributesClass to false"* ]]' _ "$two"
fi
bad_gate "kube: prefix and none mixed" \
  'set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use' \
  kube:SchedulerAsyncPreemption=true SchedulerPopFromBackoffQ=true
bad_gate "not a bool" 'invalid value of DRAAdminAccess=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax' \
  DRAAdminAccess=maybe
bad_gate "no value" 'missing bool value for DRAAdminAccess' DRAAdminAccess
bad_gate "unknown component" 'component not registered: wardle' wardle:featureA=true
bad_gate "a dependency disabled (#133697)" \
  'TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload]' \
  TopologyAwareWorkloadScheduling=true
bad "feature gates: a gate read by kube-scheduler at a value not implemented here" \
  'feature gate SchedulerAsyncPreemption=false is not supported by kube-scheduler-cpp: it implements SchedulerAsyncPreemption=true only' \
  --feature-gates SchedulerAsyncPreemption=false
# AllAlpha=true alone turns on alpha gates whose beta dependency GenericWorkload is off: upstream
# refuses it too (four errors, in map order upstream).
bad "feature gates: AllAlpha=true alone" \
  'CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload]' --feature-gates AllAlpha=true
if [ -x "$upstream" ]; then
  all_alpha=$(upstream_err --feature-gates AllAlpha=true || true)
  check "feature gates: AllAlpha=true alone: upstream refuses it the same way" \
    bash -c '[[ $1 == *"CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload]"* && $1 == *"WorkloadWithJob is enabled"* ]]' _ "$all_alpha"
fi
bad "feature gates: AllAlpha=true reaches an alpha gate not implemented here" \
  'feature gate ClientsAllowCBOR=true (set by AllAlpha=true) is not supported by kube-scheduler-cpp' \
  --feature-gates AllAlpha=true,GenericWorkload=true

# --emulated-version / --min-compatibility-version: upstream's errors, word for word.
bad_versions() {  # bad_versions NAME EXPECTED ARGS...: ours refuses, and names it as upstream does
  local name=$1 expected=$2; shift 2
  bad "versions: $name" "$expected" "$@"
  if [ -x "$upstream" ]; then
    check_eq "versions: $name: upstream's error" "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err "$@")"
  fi
}
bad_versions "emulated version below the floor" \
  '[emulation version 1.33 is not between [1.34, 1.37.0], minCompatibilityVersion version 1.34 is not between [1.34, 1.33]]' \
  --emulated-version=1.33
bad_versions "emulated version above the binary" 'emulation version 1.38 is not between [1.34, 1.37.0]' \
  --emulated-version=kube=1.38
bad_versions "emulated version of another component" 'component not registered: wardle' --emulated-version=wardle=1.2
bad_versions "emulated version with a patch" 'patch version not allowed, got: kube=1.36.1' --emulated-version=1.36.1
bad_versions "emulated version not a version" 'could not parse "one" as version' --emulated-version=one
bad_versions "emulated version given twice" 'duplicate version flag, kube=1.35 and kube=1.36' \
  --emulated-version=1.35 --emulated-version=kube=1.36
bad_versions "min compatibility version above the emulated version" \
  'minCompatibilityVersion version 1.37 is not between [1.34, 1.36]' \
  --emulated-version=1.36 --min-compatibility-version=1.37
bad_versions "a gate introduced after the emulated version" \
  'cannot set feature gate SchedulerPreQueueingHints to true, feature is PreAlpha at emulated version 1.36, min compatibility version 1.35' \
  --emulated-version=1.36 --feature-gates=SchedulerPreQueueingHints=true
# Every version upstream emulates runs here with its defaults (config_differential_test.sh
# compares the configuration written at each); a gate not implemented here stays refused by name
# at any of them.
bad "versions: an older emulated version, a gate not implemented here" \
  'feature gate ClientsAllowCBOR=true is not supported by kube-scheduler-cpp: it implements ClientsAllowCBOR=false only' \
  --emulated-version=1.35 --feature-gates=ClientsAllowCBOR=true

# --tls-curve-preferences: pflag's int32Slice, then cliflag.TLSCurvePreferences when serving.
bad "tls curve preferences not numbers" \
  'invalid argument "X25519" for "--tls-curve-preferences" flag: strconv.ParseInt: parsing "X25519": invalid syntax' \
  --tls-curve-preferences=X25519
if [ -x "$upstream" ]; then  # (upstream prints its usage first)
  check_eq "tls curve preferences not numbers: upstream's error" "$(head -n 1 "$work/raw")" \
    "$(timeout 30 "$upstream" --tls-curve-preferences=X25519 2>&1 | tail -n 1)"
fi
bad_curves() {  # bad_curves NAME EXPECTED VALUE: refused when serving, as upstream's words
  local name=$1 expected=$2
  bad "tls curve preferences: $name" "$expected" --secure-port "$(free_port)" "${serving_pair[@]}" \
    --tls-curve-preferences="$3"
  if [ -x "$upstream" ]; then
    check_eq "tls curve preferences: $name: upstream's error" "$(grep -o 'err=".*"$' "$work/raw")" \
      "$(upstream_err_serving --tls-curve-preferences="$3")"
  fi
}
# (A serving certificate of the test PKI, so that no "Generated self-signed cert" line comes first.)
serving_pair=(--tls-cert-file "$PKI_DIR/apiserver.crt" --tls-private-key-file "$PKI_DIR/apiserver.key")
bad_curves "out of range" 'curve preference 0 is out of range (must be 1-65535)' 23,0
bad_curves "duplicate" 'duplicate curve preference 29' 29,23,29
bad_curves "unknown to Go" 'curve preference 22 is not supported by the current Go version' 22
bad "bind address not an IP" '"--bind-address" flag: failed to parse IP' --bind-address=foo
bad "verbosity not a number" '"-v, --v" flag' -v=x
bad "bad boolean" '"--leader-elect" flag' --leader-elect=maybe
bad "unknown log format" 'format: Invalid value: "xml": Unsupported log format' --logging-format=xml
bad "renew deadline not below lease duration" "leaderElection.leaseDuration" \
  --leader-elect=true --leader-elect-renew-deadline=20s
bad "resource lock not leases" "leaderElection.resourceLock" --leader-elect=true --leader-elect-resource-lock=configmaps
bad "hidden metrics for a version other than the previous minor" \
  "metrics.showHiddenMetricsForVersion: Invalid value: \"1.32\": must be omitted or have the value '1.36'; only the previous minor version is allowed" \
  --show-hidden-metrics-for-version=1.32
if [ -x "$upstream" ]; then
  check_eq "hidden metrics for another version: upstream's error" \
    "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err --show-hidden-metrics-for-version=1.32)"
fi

# --help: upstream's text, byte for byte (sections, flags, usage texts, the feature gate list).
if [ -x "$upstream" ]; then
  check_eq "--help is upstream's" "$(timeout 30 "$upstream" --help 2>&1)" "$(timeout 30 "$ours" --help 2>&1)"
fi

bad "disabled metrics not metric names" \
  'metrics.disabledMetrics: Invalid value: ["scheduler_pending_pods","not a name"]: must be fully qualified metric names matching "^[a-zA-Z_:][a-zA-Z0-9_:]*$", got "not a name"' \
  '--disabled-metrics=scheduler_pending_pods,not a name'
if [ -x "$upstream" ]; then
  check_eq "disabled metrics not metric names: upstream's error" \
    "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err '--disabled-metrics=scheduler_pending_pods,not a name')"
fi

# --- files ---------------------------------------------------------------------------------------
run_bad "missing config file" "open $work/none.yaml: no such file or directory" --config "$work/none.yaml" \
  --bind-address 127.0.0.1 --secure-port 0
bad "missing kubeconfig" "stat $work/none.kubeconfig: no such file or directory" \
  --config "$(with_kubeconfig "$work/none.kubeconfig")"
if [ -x "$upstream" ]; then
  check_eq "missing kubeconfig: upstream's error" "$(upstream_err --kubeconfig "$work/none.kubeconfig")" \
    "$(grep -o 'err=".*"$' "$work/raw")"
fi
printf 'apiVersion: v1\nkind: Config\nclusters: [ {name: x\n' >"$work/garbage.kubeconfig"
bad "kubeconfig not YAML" "$work/garbage.kubeconfig" --config "$(with_kubeconfig "$work/garbage.kubeconfig")"
sed 's/^current-context:.*/current-context: nowhere/' "$KUBECONFIG_SCHEDULER" >"$work/nocontext.kubeconfig"
bad "kubeconfig context missing" "nowhere" --config "$(with_kubeconfig "$work/nocontext.kubeconfig")"
bad "certificate file missing" "$work/none.crt" --secure-port "$(free_port)" \
  --tls-cert-file "$work/none.crt" --tls-private-key-file "$work/none.key"
bad "certificate without key" "--tls-private-key-file" --secure-port "$(free_port)" --tls-cert-file "$work/none.crt"
bad "authentication kubeconfig missing" \
  "failed to get delegated authentication kubeconfig: failed to get delegated authentication kubeconfig: stat $work/none-authn.kubeconfig: no such file or directory" \
  --secure-port "$(free_port)" --authentication-kubeconfig "$work/none-authn.kubeconfig"
if [ -x "$upstream" ]; then
  check_eq "authentication kubeconfig missing: upstream's error" \
    "$(upstream_err_serving --kubeconfig "$KUBECONFIG_SCHEDULER" --authentication-kubeconfig "$work/none-authn.kubeconfig")" \
    "$(grep -o 'err=".*"$' "$work/raw")"
fi
bad "client CA file missing" "unable to load client CA provider: open $work/none-ca.crt: no such file or directory" \
  --secure-port "$(free_port)" "${serving_pair[@]}" --client-ca-file "$work/none-ca.crt"
if [ -x "$upstream" ]; then
  check_eq "client CA file missing: upstream's error" \
    "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err_serving --client-ca-file "$work/none-ca.crt")"
fi
printf 'not a certificate\n' >"$work/garbage-ca.crt"
bad "client CA file without certificates" \
  "error loading CA bundle for \"client-ca-bundle::$work/garbage-ca.crt\": data does not contain any valid RSA or ECDSA certificates" \
  --secure-port "$(free_port)" "${serving_pair[@]}" --client-ca-file "$work/garbage-ca.crt"
if [ -x "$upstream" ]; then
  check_eq "client CA file without certificates: upstream's error" \
    "$(grep -o 'err=".*"$' "$work/raw")" "$(upstream_err_serving --client-ca-file "$work/garbage-ca.crt")"
fi
bad "write-config-to in a missing directory" "$work/none/out.yaml" --write-config-to "$work/none/out.yaml"
# An extender whose tlsConfig names a CA file that does not exist (extender_test.sh covers the
# extenders that work).
extenders_file=$(config extenders <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_SCHEDULER
leaderElection:
  leaderElect: false
extenders:
- urlPrefix: https://127.0.0.1:1/scheduler
  filterVerb: filter
  enableHTTPS: true
  tlsConfig:
    caFile: $work/no-such-ca.crt
EOF
)
run_bad "extender CA file missing" "tlsConfig.caFile: cannot read $work/no-such-ca.crt" \
  --config "$extenders_file" --bind-address 127.0.0.1 --secure-port 0

# --- configuration files -------------------------------------------------------------------------
# A content type client-go has no serializer for: refused at start (upstream would fail every request).
printf '%s\nclientConnection:\n  kubeconfig: %s\n  contentType: application/yaml\nleaderElection:\n  leaderElect: false\n' \
  "apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration" "$KUBECONFIG_SCHEDULER" >"$work/content-type.yaml"
run_bad "unsupported clientConnection.contentType" \
  'clientConnection.contentType: Unsupported value: "application/yaml"' \
  --config "$work/content-type.yaml" --bind-address 127.0.0.1 --secure-port 0
bad_config wrong-api-version 'no kind "KubeSchedulerConfiguration" is registered for version "foo/v1"' <<Y
apiVersion: foo/v1
kind: KubeSchedulerConfiguration
Y
bad_config wrong-kind 'no kind "SchedulerConfig" is registered' <<Y
apiVersion: kubescheduler.config.k8s.io/v1
kind: SchedulerConfig
Y
bad_config unknown-field 'unknown field "profiles[0].pluginz"' <<Y
$header
profiles:
- schedulerName: a
  pluginz: {}
Y
bad_config not-yaml 'yaml' <<Y
$header
profiles: [ {schedulerName: a
Y
bad_config wrong-type 'parallelism' <<Y
$header
parallelism: many
Y
bad_config negative-parallelism 'parallelism: Invalid value: -1' <<Y
$header
parallelism: -1
Y
bad_config percentage-over-100 'percentageOfNodesToScore: Invalid value: 101' <<Y
$header
percentageOfNodesToScore: 101
Y
bad_config profile-percentage-over-100 'profiles[0].percentageOfNodesToScore: Invalid value: 120' <<Y
$header
profiles:
- schedulerName: a
  percentageOfNodesToScore: 120
Y
bad_config duplicate-scheduler-name 'profiles[1].schedulerName: Duplicate value' <<Y
$header
profiles:
- schedulerName: a
- schedulerName: a
Y
bad_config empty-scheduler-name 'profiles[0].schedulerName: Required value' <<Y
$header
profiles:
- schedulerName: ""
Y
bad_config two-queue-sorts 'queueSort' <<Y
$header
profiles:
- schedulerName: a
- schedulerName: b
  plugins:
    queueSort:
      disabled:
      - name: "*"
Y
bad_config unknown-plugin \
  'initializing profiles: creating profile for scheduler name a: ScorePlugin "Foo" does not exist' <<Y
$header
profiles:
- schedulerName: a
  plugins:
    score:
      enabled:
      - name: Foo
Y
if [ -x "$upstream" ]; then
  check_eq "config unknown-plugin: upstream's error" "$(upstream_err --config "$work/unknown-plugin.yaml")" \
    "$(grep -o 'err=".*"$' "$work/raw")"
fi
# v1.37's PodGroup extension points: a name there is checked as anywhere else (upstream's words).
bad_config unknown-placement-score-plugin 'PlacementScorePlugin "Foo" does not exist' <<Y
$header
profiles:
- schedulerName: a
  plugins:
    placementScore:
      enabled:
      - name: Foo
Y
bad_config negative-weight 'weight' <<Y
$header
profiles:
- schedulerName: a
  plugins:
    score:
      enabled:
      - name: ImageLocality
        weight: -3
Y
bad_config bad-args 'scoringStrategy.type: Unsupported value: "Foo"' <<Y
$header
profiles:
- schedulerName: a
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: Foo
Y
bad_config args-unknown-field 'unknown field' <<Y
$header
profiles:
- schedulerName: a
  pluginConfig:
  - name: InterPodAffinity
    args:
      hardPodAffinityWeigth: 3
Y
bad_config renew-deadline-not-below-lease 'leaderElection.leaseDuration: Invalid value' <<Y
$header
leaderElection:
  leaderElect: true
  leaseDuration: 10s
  renewDeadline: 10s
Y
bad_config initial-backoff-zero 'podInitialBackoffSeconds: Invalid value: 0' <<Y
$header
podInitialBackoffSeconds: 0
Y
bad_config max-backoff-below-initial 'podMaxBackoffSeconds: Invalid value: 1' <<Y
$header
podInitialBackoffSeconds: 5
podMaxBackoffSeconds: 1
Y
bad_config removed-plugin 'AzureDiskLimits' <<Y
$header
profiles:
- schedulerName: a
  plugins:
    filter:
      enabled:
      - name: AzureDiskLimits
Y
bad_config bad-duration 'time: invalid duration' <<Y
$header
leaderElection:
  leaseDuration: soon
Y
# v1.37's args fields and NodeResourcesFit's stricter strategy (#132120).
bad_config binding-timeout-under-1s \
  'bindingTimeout: Invalid value: "500ms": must be at least 1 second' <<Y
$header
profiles:
- pluginConfig:
  - name: DynamicResources
    args:
      bindingTimeout: 500ms
Y
bad_config volume-binding-shape-unsorted \
  'shape[1].utilization: Invalid value: 10: values must be sorted in increasing order' <<Y
$header
profiles:
- pluginConfig:
  - name: VolumeBinding
    args:
      shape: [{utilization: 50, score: 5}, {utilization: 10, score: 2}]
Y
bad_config fit-ratio-with-least-allocated \
  'requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio' <<Y
$header
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: LeastAllocated
        requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}]}
Y

# Unknown fields are named in the order upstream's YAML -> JSON conversion leaves them: sorted.
bad_config unknown-fields-sorted 'strict decoding error: unknown field "alpha", unknown field "zeta"' <<Y
$header
zeta: 1
alpha: 2
Y
check "config unknown-fields-sorted: upstream names them alike" \
  grep -qF 'strict decoding error: unknown field \"alpha\", unknown field \"zeta\"' "$work/upstream.log"

# A quote never closed: yaml-cpp took the rest of the file as the kubeconfig path and the second
# profile silently disappeared; go-yaml stops at the end of the stream. Same words as upstream.
bad_config unterminated-quote 'yaml: line 8: found unexpected end of stream' <<Y
$header
leaderElection:
  leaderElect: "false
profiles:
- schedulerName: default-scheduler
- schedulerName: second
Y
check "config unterminated-quote: upstream says the same" grep -qF 'yaml: line 8: found unexpected end of stream' \
  "$work/upstream.log"

# No thread to be had (a pids cgroup or RLIMIT_NPROC run out): a clear line and exit 1, not an
# uncaught exception's SIGABRT. As user nobody, since RLIMIT_NPROC does not bind root.
cases=$((cases + 1))
nobody_dir=$(mktemp -d /tmp/ksched-nobody.XXXXXX)  # a copy nobody may run, wherever the tree is
chmod 755 "$nobody_dir"
cp "$ours" "$nobody_dir/kube-scheduler-cpp"
rc=0
timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=6 \
  "$nobody_dir/kube-scheduler-cpp" --master "$APISERVER_URL" --leader-elect=false --bind-address 127.0.0.1 --secure-port 0 \
  >"$work/threads.log" 2>&1 || rc=$?
rm -rf "$nobody_dir"
check_eq "no thread to start: exit 1" 1 "$rc"
check "no thread to start: the last line says so ($(tail -n 1 "$work/threads.log" | cut -c1-120))" \
  grep -q 'failed to start a thread (or another system resource): Resource temporarily unavailable' "$work/threads.log"

check "at least 25 cases ($cases)" [ "$cases" -ge 25 ]
check_eq "nothing was bound: the pending pod is still pending" "" \
  "$(kubectl_admin get pod must-stay-pending -o jsonpath='{.spec.nodeName}')"
finish
