#!/usr/bin/env bash
# secure_port_flood.sh [CONNECTIONS...]: /healthz latency of kube-scheduler-cpp and the upstream
# kube-scheduler (tests/controlplane/versions.env) while anonymous clients flood their secure ports
# with requests that each need a TokenReview or SubjectAccessReview (bench/secure_port_flood.py),
# on a real control plane, rounds interleaved. Default connection counts: 1000 3500.
# Prints one JSON line per round; KSCHED_FLOOD_SECONDS (default 30) sets each round's length.
# RSS is sampled 5 s after each round and, with KSCHED_FLOOD_SETTLE_SECONDS=N, N seconds later again.
# KSCHED_FLOOD_MEMORY_LIMIT=256M runs each scheduler in a memory cgroup of its own with that limit
# (as a container's resources.limits.memory does; cgroup v2 or v1, made under this shell's own
# cgroup and removed on exit): the JSON lines then say whether it survived and its peak RSS.
. "$(dirname "$0")/../tests/integration/lib.sh"
find_ours
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(1000 3500)
seconds=${KSCHED_FLOOD_SECONDS:-30}
settle=${KSCHED_FLOOD_SETTLE_SECONDS:-0}
start_controlplane
upstream="$KSCHED_CP_BIN/kube-scheduler"
ours_pid="" upstream_pid=""
trap 'for p in $ours_pid $upstream_pid; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; remove_cgroups; stop_controlplane' EXIT
limit=${KSCHED_FLOOD_MEMORY_LIMIT:-}
# in_cgroup NAME COMMAND... &: becomes COMMAND (exec: $! is its PID) in a new memory cgroup limited
# to $limit, named ksched-flood-NAME-<this shell's PID> (found again by remove_cgroups).
in_cgroup() {
  local name=$1; shift
  [ -n "$limit" ] || exec "$@"
  local own dir file
  if own=$(sed -n 's/^0:://p' /proc/self/cgroup) && [ -f "/sys/fs/cgroup$own/cgroup.procs" ] &&
     [ -w "/sys/fs/cgroup$own" ] && [ -e /sys/fs/cgroup/cgroup.controllers ]; then
    dir="/sys/fs/cgroup$own/ksched-flood-$name-$$" file=memory.max
  else
    own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
    dir="/sys/fs/cgroup/memory$own/ksched-flood-$name-$$" file=memory.limit_in_bytes
  fi
  mkdir "$dir" || { echo "cannot make the memory cgroup $dir" >&2; exit 1; }
  echo "$limit" >"$dir/$file"
  exec sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$dir" "$@"
}
remove_cgroups() {
  [ -n "$limit" ] || return 0
  find /sys/fs/cgroup -maxdepth 8 -type d -name "ksched-flood-*-$$" -exec rmdir {} + 2>/dev/null || true
}
port=$(free_port)
in_cgroup ours "$ours" --kubeconfig "$KUBECONFIG_SCHEDULER" --authentication-kubeconfig "$KUBECONFIG_SCHEDULER" \
  --authorization-kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port="$port" \
  --leader-elect=false >"$cp_dir/logs/ours.log" 2>&1 &
ours_pid=$!
up_port=$(free_port)
in_cgroup upstream "$upstream" --kubeconfig "$KUBECONFIG_SCHEDULER" --authentication-kubeconfig "$KUBECONFIG_SCHEDULER" \
  --authorization-kubeconfig "$KUBECONFIG_SCHEDULER" --bind-address=127.0.0.1 --secure-port="$up_port" \
  --leader-elect=false >"$cp_dir/logs/upstream.log" 2>&1 &
upstream_pid=$!
ready() { [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$1/readyz")" = 200 ]; }
wait_for 60 ready "$port" || { echo "ours not ready" >&2; exit 1; }
wait_for 60 ready "$up_port" || { echo "upstream not ready" >&2; exit 1; }
rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo null; }
hwm_mb() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo null; }
for connections in "${counts[@]}"; do
  for who in ours upstream; do
    if [ "$who" = ours ]; then p=$port pid=$ours_pid; else p=$up_port pid=$upstream_pid; fi
    running "$pid" || { echo "{\"scheduler\": \"$who\", \"connections\": $connections, \"alive\": false}"; continue; }
    result=$(python3 "$repo/bench/secure_port_flood.py" --port "$p" --connections "$connections" --seconds "$seconds")
    hwm=$(hwm_mb "$pid")
    sleep 5
    after=$(rss_mb "$pid")
    sleep "$settle"  # what the process gives back once the flood is over
    echo "{\"scheduler\": \"$who\", \"memory_limit\": \"${limit:-none}\", \"rss_mb_after\": $after, \"rss_mb_later\": $(rss_mb "$pid"), \"later_s\": $((settle + 5)), \"peak_rss_mb\": $hwm, \"alive\": $(running "$pid" && echo true || echo false), \"result\": $result}"
  done
done
