#!/usr/bin/env bash
# restart-apiserver.sh [--down-seconds N] DIR
#
# Kills the kube-apiserver recorded in DIR (a run of start.sh) and starts it again with the very
# same command line (same port, flags, PKI and etcd), recorded by start.sh in
# DIR/kube-apiserver.args; replaces its line in DIR/pids and waits for /readyz.
# --down-seconds N: stay down N seconds (after the old process exited) before restarting.
#
# Only the recorded PID is signalled, and only while /proc/PID/exe is the recorded executable (as
# stop.sh checks): SIGTERM, SIGKILL after 10 s. Exit status 1 with a line naming the failed step.
set -euo pipefail
log() { printf '[controlplane/restart] %s\n' "$*" >&2; }
fail() { log "FAILED at step: $*"; exit 1; }

down=0 dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --down-seconds) down=${2:?--down-seconds needs a number}; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    -*) echo "restart-apiserver.sh: unknown argument $1" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "restart-apiserver.sh: one DIR only" >&2; exit 2; }; dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || { echo "usage: restart-apiserver.sh [--down-seconds N] DIR" >&2; exit 2; }
[[ "$down" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "parse --down-seconds '$down'"
[ -d "$dir" ] || fail "find the run directory $dir"
dir=$(cd "$dir" && pwd)
export NO_PROXY=127.0.0.1,localhost,::1 no_proxy=127.0.0.1,localhost,::1

# --- what start.sh recorded ------------------------------------------------------------------------
[ -f "$dir/pids" ] || fail "read $dir/pids"
[ -s "$dir/kube-apiserver.args" ] || fail "read $dir/kube-apiserver.args (run started by an older start.sh?)"
[ -f "$dir/env" ] || fail "read $dir/env"
read -r _ old_pid exe < <(grep '^kube-apiserver ' "$dir/pids") || fail "find kube-apiserver in $dir/pids"
api_args=()
while IFS= read -r -d '' a; do api_args+=("$a"); done < "$dir/kube-apiserver.args"
[ ${#api_args[@]} -gt 0 ] || fail "read the recorded kube-apiserver arguments"
[ "$(readlink -f "${api_args[0]}")" = "$exe" ] || fail "check the recorded arguments start with $exe"
url=$(sed -n 's/^APISERVER_URL=//p' "$dir/env")
[ -n "$url" ] || fail "find APISERVER_URL in $dir/env"
pki="$dir/pki"

ours() { [ -e "/proc/$1" ] && [ "$(readlink -f "/proc/$1/exe" 2>/dev/null)" = "$2" ]; }
ready() {
  curl -fsS --max-time 5 --noproxy '*' --cacert "$pki/ca.crt" --cert "$pki/admin.crt" \
    --key "$pki/admin.key" "$url/readyz" >/dev/null 2>&1
}

# --- kill ------------------------------------------------------------------------------------------
if ours "$old_pid" "$exe"; then
  log "stopping kube-apiserver (pid $old_pid)"
  kill -TERM "$old_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do ours "$old_pid" "$exe" || break; sleep 0.2; done
  if ours "$old_pid" "$exe"; then
    log "kube-apiserver (pid $old_pid) ignored SIGTERM for 10 s: SIGKILL"
    kill -KILL "$old_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do ours "$old_pid" "$exe" || break; sleep 0.2; done
  fi
  ours "$old_pid" "$exe" && fail "wait for kube-apiserver (pid $old_pid) to exit"
else
  log "recorded kube-apiserver (pid $old_pid) is not running $exe: not signalling it"
fi
if [ "$down" != 0 ]; then log "staying down ${down}s"; sleep "$down"; fi

# --- start again -----------------------------------------------------------------------------------
t0=$(date +%s.%N)
echo "--- restarted by restart-apiserver.sh at $(date -u +%FT%TZ) ---" >> "$dir/logs/kube-apiserver.log"
"${api_args[@]}" < /dev/null >> "$dir/logs/kube-apiserver.log" 2>&1 &
new_pid=$!
tmp=$(mktemp "$dir/pids.XXXXXX")
awk -v pid="$new_pid" -v exe="$exe" '$1 == "kube-apiserver" { print "kube-apiserver " pid " " exe; next } { print }' \
  "$dir/pids" > "$tmp" && mv "$tmp" "$dir/pids" || fail "record the new pid in $dir/pids"
log "kube-apiserver restarted (pid $new_pid), waiting for $url/readyz"

deadline=$(( $(date +%s) + 120 ))
until ready; do
  kill -0 "$new_pid" 2>/dev/null ||
    fail "start kube-apiserver again (it exited; see $dir/logs/kube-apiserver.log: $(tail -n 3 "$dir/logs/kube-apiserver.log" | tr '\n' ' '))"
  [ "$(date +%s)" -lt "$deadline" ] || fail "wait for kube-apiserver /readyz after restart (120 s; see $dir/logs/kube-apiserver.log)"
  sleep 0.2
done
ready_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")
log "kube-apiserver ready again on $url (pid $new_pid), ${ready_s}s from restart to /readyz"
