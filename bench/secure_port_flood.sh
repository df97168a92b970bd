#!/usr/bin/env bash
# secure_port_flood.sh [CONNECTIONS...]: /healthz latency of kube-scheduler-cpp and the upstream
# kube-scheduler (tests/controlplane/versions.env) while anonymous clients flood their secure ports
# with requests that each need a TokenReview or SubjectAccessReview (bench/secure_port_flood.py),
# on a real control plane, rounds interleaved. Default connection counts: 1000 3500.
# Prints one JSON line per round; KSCHED_FLOOD_SECONDS (default 30) sets each round's length.
. "$(dirname "$0")/../tests/integration/lib.sh"
find_ours
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1000 3500)
seconds=${KSCHED_FLOOD_SECONDS:-30}
start_controlplane
upstream="$KSCHED_CP_BIN/kube-scheduler"
ours_pid="" upstream_pid=""
trap 'for p in $ours_pid $upstream_pid; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; stop_controlplane' EXIT
port=$(free_port)
"$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" --authentication-kubeconfig "$KUBECONFIG_SCHEDULER" \
  --authorization-kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port="$port" \
  --leader-elect=false >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
up_port=$(free_port)
"$upstream" --kubeconfig "$KUBECONFIG_SCHEDULER" --authentication-kubeconfig "$KUBECONFIG_SCHEDULER" \
  --authorization-kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port="$up_port" \
  --leader-elect=false >"$cp_dir/logs/upstream.log" 2>&1 &
upstream_pid=$!
ready() { [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$1/readyz")" = 200 ]; }
wait_for 60 ready "$port" || { echo "ours not ready" >&2; exit 1; }
wait_for 60 ready "$up_port" || { echo "upstream not ready" >&2; exit 1; }
rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
for connections in "${counts[@]}"; do
  for who in ours upstream; do
    if [ "$who" = ours ]; then p=$port pid=$ours_pid; else p=$up_port pid=$upstream_pid; fi
    result=$(python3 "$repo/bench/secure_port_flood.py" --port "$p" --connections "$connections" --seconds "$seconds")
    sleep 5
    echo "{\"scheduler\": \"$who\", \"rss_mb_after\": $(rss_mb "$pid"), \"alive\": $(running "$pid" && echo true || echo false), \"result\": $result}"
  done
done
