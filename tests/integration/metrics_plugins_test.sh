#!/usr/bin/env bash
# Integration: the Prometheus-metrics plugins (cputraffic, memorytraffic, diskspacetraffic,
# disktraffic, networktraffic) with a real Prometheus (the Debian package) scraping fake
# node_exporters on loopback (tests/integration/metrics_plugins_helper.py: one port per node,
# node_exporter metric names, so the plugins' PromQL runs unmodified), on the real control plane
# with matching fake nodes:
#   1. the seed article's configuration (manifests/configs/metrics-traffic-seed-v1beta1.yaml: its
#      v1beta1 shape, names, args, weights, `disabled: "*"`; only `ip` and the kubeconfig path
#      changed), plus a second profile for disktraffic, which the article's profile does not list:
#      for each plugin, 3 nodes that differ only in that plugin's metric, and 5 pods that must all
#      land on the node the metric favours;
#   2. Prometheus stopped mid-run (every plugin given refreshInterval 1s, stalenessLimit 5s): pods
#      are still bound, ksched_node_metrics_stale_nodes reports every node, the errors are counted
#      and logged; Prometheus restarted: staleness back to 0, pods land by the metrics again;
#   3. queries per minute to Prometheus (its own prometheus_http_requests_total{handler=
#      "/api/v1/query"}) while pods arrive at 2/s, then at 20/s: constant, 5 distinct queries
#      (4 plugins of the article's profile + disktraffic) per 1 s refresh = 300 per minute.
# Every process started here is stopped by PID on exit.
. "$(dirname "$0")/lib.sh"
find_ours
prometheus=${PROMETHEUS:-/usr/bin/prometheus}
[ -x "$prometheus" ] || { echo "missing $prometheus (scripts/install-deps.sh installs the Debian package)" >&2; exit 1; }
helper="$repo/tests/integration/metrics_plugins_helper.py"
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

start_controlplane
note "control plane ready in ${CP_READY_SECONDS}s, $APISERVER_URL"
work="$cp_dir/metrics-plugins"
mkdir -p "$work/tsdb"

ours_pid="" prometheus_pid="" exporters_pid=""
cleanup() {
  local p
  for p in $ours_pid $prometheus_pid $exporters_pid; do kill "$p" 2>/dev/null || true; done
  for p in $ours_pid $prometheus_pid $exporters_pid; do wait "$p" 2>/dev/null || true; done
  stop_controlplane
}
trap cleanup EXIT


# --- fake node_exporters: 5 groups of 3 nodes; in each group only one metric differs --------------
# group  plugin            values of nodes 0, 1, 2           favoured
# cpu    cputraffic        idle share 0.2 / 0.9 / 0.5        cpu-1 (most free CPU)
# mem    memorytraffic     MemAvailable 30 / 40 / 85 %       mem-2 (most free memory)
# dsk    diskspacetraffic  / free 90 / 20 / 40 %             dsk-0 (most free disk space)
# dio    disktraffic       disk bytes/s 50M / 40M / 1M       dio-2 (least disk traffic)
# net    networktraffic    eth0 bytes/s 5M / 100k / 9M       net-1 (least network traffic)
declare -A expected=([cpu]=cpu-1 [mem]=mem-2 [dsk]=dsk-0 [dio]=dio-2 [net]=net-1)
groups="cpu mem dsk dio net"
python3 - "$work/exporters.json" <<'PY'
import json, socket, sys
values = {"cpu": ("idle", [0.2, 0.9, 0.5]), "mem": ("mem_avail_pct", [30, 40, 85]),
          "dsk": ("fs_free_pct", [90, 20, 40]), "dio": ("disk_bps", [5e7, 4e7, 1e6]),
          "net": ("net_bps", [5e6, 1e5, 9e6])}
socks, nodes = [], []
for group, (key, vals) in values.items():
    for i, v in enumerate(vals):
        s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
        nodes.append({"port": s.getsockname()[1], "nodename": f"{group}-{i}", key: v})
json.dump({"nodes": nodes}, open(sys.argv[1], "w"), indent=1)
PY
python3 "$helper" exporters "$work/exporters.json" >"$cp_dir/logs/exporters.log" 2>&1 &
exporters_pid=$!
targets=$(python3 -c 'import json,sys; print(", ".join("\"127.0.0.1:%d\"" % n["port"] for n in json.load(open(sys.argv[1]))["nodes"]))' "$work/exporters.json")
first_port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"][0]["port"])' "$work/exporters.json")
check "the fake node_exporters serve node_uname_info" \
  wait_for 20 bash -c "curl -s --noproxy '*' http://127.0.0.1:$first_port/metrics | grep -q 'nodename=\"cpu-0\"'"

# --- Prometheus -------------------------------------------------------------------------------------
prom_port=$(free_port)
prom="http://127.0.0.1:$prom_port"
cat >"$work/prometheus.yml" <<PROMCONFIG
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
- job_name: node
  static_configs:
  - targets: [$targets]
PROMCONFIG
start_prometheus() {
  "$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" >>"$cp_dir/logs/prometheus.log" 2>&1 &
  prometheus_pid=$!
}
prom_ready() { curl -sf --noproxy '*' "$prom/-/ready" >/dev/null; }
start_prometheus
check "Prometheus $("$prometheus" --version 2>&1 | head -1 | awk '{print $3}') is ready" wait_for 60 prom_ready
# Before the scheduler starts (the query counting below is later): every node has rate() data.
prom_value() {  # prom_value PROMQL: the first sample's value, or "none"
  curl -s --noproxy '*' "$prom/api/v1/query" --data-urlencode "query=$1" |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}
all_scraped() {
  [ "$(prom_value 'count(rate(node_cpu_seconds_total{mode="idle",cpu="0"}[5m]) * on(instance) group_left(nodename) node_uname_info)')" = 15 ]
}
check "Prometheus has rate() data for the 15 exporters" wait_for 60 all_scraped

# --- nodes ------------------------------------------------------------------------------------------
for g in $groups; do
  python3 "$repo/tests/controlplane/nodes.py" create --env "$cp_dir/env" --prefix "$g" --count 3 \
    --cpu 64 --memory 256Gi --pods 1000 --label "group=$g" >/dev/null
done
check_eq "15 fake nodes" 15 "$(kubectl_admin get nodes --no-headers | wc -l)"

# --- the article's configuration ----------------------------------------------------------------------
seed="$repo/manifests/configs/metrics-traffic-seed-v1beta1.yaml"
config="$work/article.yaml"
sed -e "s#http://172.19.32.140:9090#$prom#" -e "s#/etc/kubernetes/scheduler.conf#$KUBECONFIG_SCHEDULER#" \
  "$seed" >"$config"
check_eq "only ip and the kubeconfig path differ from the article's configuration" \
  "$(grep -v '^#' "$seed")" \
  "$(grep -v '^#' "$config" | sed -e "s#$prom#http://172.19.32.140:9090#" -e "s#$KUBECONFIG_SCHEDULER#/etc/kubernetes/scheduler.conf#")"
# disktraffic is not in the article's profile: a second profile of its own.
cat >>"$config" <<DISKPROFILE
- schedulerName: disk-scheduler
  plugins:
    score:
      enabled:
      - name: "disktraffic"
        weight: 1
      disabled:
      - name: "*"
  pluginConfig:
  - name: "disktraffic"
    args:
      ip: "$prom"
      devicename: "sda"
      timerange: 0
DISKPROFILE

admin_token=$(cat "$PKI_DIR/admin.token")
port=""
start_ours() {  # start_ours CONFIG LOG
  port=$(free_port)
  "$ours" --config "$1" --bind-address=127.0.0.1 --secure-port="$port" --leader-elect=false \
    --authentication-kubeconfig "$KUBECONFIG_SCHEDULER" --authorization-kubeconfig "$KUBECONFIG_SCHEDULER" \
    --v=2 >"$2" 2>&1 &
  ours_pid=$!
}
stop_ours() {
  kill -TERM "$ours_pid"; local rc=0; wait "$ours_pid" || rc=$?; ours_pid=""; return "$rc"
}
ready() { [ "$(curl -sk --noproxy '*' -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/readyz")" = 200 ]; }
metric() {  # metric SERIES: its value on our /metrics (admin token), or "none"
  curl -sk --noproxy '*' -H "Authorization: Bearer $admin_token" "https://127.0.0.1:$port/metrics" |
    awk -v s="$1" 'index($0, s " ") == 1 {print $2; found=1} END {if (!found) print "none"}'
}
metric_is() { [ "$(metric "$1")" = "$2" ]; }
bound_count() {  # bound_count PREFIX
  python3 "$helper" placements --env "$cp_dir/env" --prefix "$1" | awk '$2 != "-"' | wc -l
}
all_bound() { [ "$(bound_count "$1")" = "$2" ]; }
nodes_of() {  # nodes_of PREFIX: the distinct nodes its pods are on
  python3 "$helper" placements --env "$cp_dir/env" --prefix "$1" | awk '{print $2}' | sort -u | paste -sd' '
}
scheduler_for() { if [ "$1" = dio ]; then echo disk-scheduler; else echo custom-scheduler; fi; }

start_ours "$config" "$cp_dir/logs/ours-article.log"
check "kube-scheduler-cpp with the article's configuration becomes ready" wait_for 60 ready
for q in cputraffic memorytraffic diskspacetraffic networktraffic disktraffic; do
  check "$q: a successful query covering all 15 nodes" \
    wait_for 30 metric_is "ksched_node_metrics_nodes{query=\"$q\"}" 15
done

# --- 1. each plugin alone decides --------------------------------------------------------------------
for g in $groups; do
  python3 "$helper" pods --env "$cp_dir/env" --prefix "place-$g" --count 5 --rate 10 \
    --scheduler "$(scheduler_for "$g")" --selector "group=$g" >/dev/null
done
for g in $groups; do
  check "place-$g: 5 pods bound" wait_for 60 all_bound "place-$g-" 5
  check_eq "place-$g: all on ${expected[$g]}, the node its metric favours" "${expected[$g]}" "$(nodes_of "place-$g-")"
done
check "the article's v1beta1 configuration loaded (deprecation warning logged)" \
  grep -q 'kubescheduler.config.k8s.io/v1beta1' "$cp_dir/logs/ours-article.log"
check "no node scored neutral" bash -c "! grep -q 'scored neutral' '$cp_dir/logs/ours-article.log'"
check "SIGTERM stops it with status 0" stop_ours

# --- 2. Prometheus stops mid-run ------------------------------------------------------------------------
fast="$work/article-fast.yaml"
python3 - "$config" "$fast" <<'PY'
import sys
text = open(sys.argv[1]).read()
# Every plugin's args get refreshInterval 1s and stalenessLimit 5s (optional args).
text = text.replace('      timerange: ', '      refreshInterval: "1s"\n      stalenessLimit: "5s"\n      timerange: ')
open(sys.argv[2], "w").write(text)
PY
start_ours "$fast" "$cp_dir/logs/ours-fast.log"
check "kube-scheduler-cpp (refreshInterval 1s, stalenessLimit 5s) becomes ready" wait_for 60 ready
check "fresh values for 15 nodes" wait_for 30 metric_is 'ksched_node_metrics_nodes{query="cputraffic"}' 15
check_eq "no stale nodes" 0 "$(metric 'ksched_node_metrics_stale_nodes{query="cputraffic"}')"

kill -TERM "$prometheus_pid"; wait "$prometheus_pid" 2>/dev/null || true; prometheus_pid=""
stopped_at=$SECONDS
check "Prometheus stopped: ksched_node_metrics_stale_nodes{query=cputraffic} reaches 15" \
  wait_for 30 metric_is 'ksched_node_metrics_stale_nodes{query="cputraffic"}' 15
note "stale reported $((SECONDS - stopped_at)) s after Prometheus stopped (limit 5 s, refresh 1 s)"
for q in memorytraffic diskspacetraffic networktraffic; do
  check_eq "$q: 15 stale nodes" 15 "$(metric "ksched_node_metrics_stale_nodes{query=\"$q\"}")"
done
errors=$(metric 'ksched_node_metrics_query_errors_total{query="cputraffic",reason="unreachable"}')
check "query errors counted (unreachable: $errors)" python3 -c "import sys; sys.exit(not ('$errors' != 'none' and float('$errors') > 0))"
python3 "$helper" pods --env "$cp_dir/env" --prefix "outage" --count 10 --rate 5 \
  --scheduler custom-scheduler --selector group=cpu >/dev/null
check "Prometheus down: scheduling goes on (10 pods bound)" wait_for 60 all_bound "outage-" 10
check "the failure is logged with its reason" grep -q 'node metrics query for cputraffic to .* failed (unreachable' "$cp_dir/logs/ours-fast.log"
check "the neutral scores are logged" grep -q 'traffic: 3 of 3 nodes scored neutral' "$cp_dir/logs/ours-fast.log"
neutral=$(metric 'ksched_node_metrics_neutral_scores_total{plugin="cputraffic"}')
check_eq "ksched_node_metrics_neutral_scores_total{plugin=cputraffic}: 10 pods x 3 nodes" 30 "$neutral"

start_prometheus
check "Prometheus restarted" wait_for 60 prom_ready
check "staleness back to 0 once Prometheus answers" \
  wait_for 60 metric_is 'ksched_node_metrics_stale_nodes{query="cputraffic"}' 0
check "the recovery is logged" grep -q 'node metrics query for cputraffic answered again' "$cp_dir/logs/ours-fast.log"
for g in cpu mem net; do
  python3 "$helper" pods --env "$cp_dir/env" --prefix "back-$g" --count 5 --rate 10 \
    --scheduler custom-scheduler --selector "group=$g" >/dev/null
  check "back-$g: 5 pods bound" wait_for 60 all_bound "back-$g-" 5
  check_eq "back-$g: scores are back, all on ${expected[$g]}" "${expected[$g]}" "$(nodes_of "back-$g-")"
done

# --- 3. queries per minute while the pod rate grows tenfold -----------------------------------------
# From here on nothing but the scheduler sends /api/v1/query to Prometheus.
queries() {
  curl -s --noproxy '*' "$prom/metrics" |
    awk '/^prometheus_http_requests_total\{.*handler="\/api\/v1\/query"/ {s += $2} END {print s + 0}'
}
sleep 3
q0=$(queries); t0=$(date +%s.%N)
python3 "$helper" pods --env "$cp_dir/env" --prefix "slow" --count 60 --rate 2 --scheduler custom-scheduler >/dev/null
q1=$(queries); t1=$(date +%s.%N)
python3 "$helper" pods --env "$cp_dir/env" --prefix "fast" --count 600 --rate 20 --scheduler custom-scheduler >/dev/null
q2=$(queries); t2=$(date +%s.%N)
check "slow: 60 pods bound" wait_for 60 all_bound "slow-" 60
check "fast: 600 pods bound" wait_for 120 all_bound "fast-" 600
read -r slow_qpm fast_qpm slow_pps fast_pps <<<"$(python3 -c "
q0,q1,q2,t0,t1,t2 = $q0,$q1,$q2,$t0,$t1,$t2
print('%.1f %.1f %.2f %.2f' % ((q1-q0)/(t1-t0)*60, (q2-q1)/(t2-t1)*60, 60/(t1-t0), 600/(t2-t1)))")"
note "pods/s $slow_pps -> $fast_pps; queries/min to Prometheus $slow_qpm -> $fast_qpm (5 distinct queries every 1 s = 300/min)"
check "queries per minute at 2 pods/s: 300 +- 10% ($slow_qpm)" \
  python3 -c "import sys; sys.exit(not 270 <= $slow_qpm <= 330)"
check "queries per minute at 20 pods/s: 300 +- 10% ($fast_qpm)" \
  python3 -c "import sys; sys.exit(not 270 <= $fast_qpm <= 330)"
check "the pod rate grew (at least) ninefold ($slow_pps -> $fast_pps pods/s)" \
  python3 -c "import sys; sys.exit(not $fast_pps >= 9 * $slow_pps)"
check "SIGTERM stops it with status 0" stop_ours

finish
