#!/usr/bin/env bash
# restart-apiserver.sh [--component kube-apiserver|etcd] [--kill] [--down-seconds N] DIR
#
# Kills a component recorded in DIR (a run of start.sh; kube-apiserver by default, or etcd) and
# starts it again with the very same command line (same ports, flags, PKI, data directory), recorded
# by start.sh in DIR/<component>.args; replaces its line in DIR/pids and waits until it is ready
# (the API server's /readyz, etcd's /health).
# --kill: SIGKILL at once (a crash, as the chaos suite's etcd kill); default SIGTERM, SIGKILL after 10 s.
# --down-seconds N: stay down N seconds (after the old process exited) before restarting.
#
# Only the recorded PID is signalled, and only while /proc/PID/exe is the recorded executable (as
# stop.sh checks). Exit status 1 with a line naming the failed step.
set -euo pipefail
log() { printf '[controlplane/restart] %s\n' "$*" >&2; }
fail() { log "FAILED at step: $*"; exit 1; }

down=0 dir="" component=kube-apiserver first_signal=TERM
while [ $# -gt 0 ]; do
  case "$1" in
    --down-seconds) down=${2:?--down-seconds needs a number}; shift ;;
    --component) component=${2:?--component needs kube-apiserver or etcd}; shift ;;
    --kill) first_signal=KILL ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    -*) echo "restart-apiserver.sh: unknown argument $1" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "restart-apiserver.sh: one DIR only" >&2; exit 2; }; dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || { echo "usage: restart-apiserver.sh [--component kube-apiserver|etcd] [--kill] [--down-seconds N] DIR" >&2; exit 2; }
case "$component" in kube-apiserver|etcd) ;; *) fail "parse --component '$component' (kube-apiserver or etcd)" ;; esac
[[ "$down" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "parse --down-seconds '$down'"
[ -d "$dir" ] || fail "find the run directory $dir"
dir=$(cd "$dir" && pwd)
export NO_PROXY=127.0.0.1,localhost,::1 no_proxy=127.0.0.1,localhost,::1

# --- what start.sh recorded ------------------------------------------------------------------------
[ -f "$dir/pids" ] || fail "read $dir/pids"
[ -s "$dir/$component.args" ] || fail "read $dir/$component.args (run started by an older start.sh?)"
[ -f "$dir/env" ] || fail "read $dir/env"
read -r _ old_pid exe < <(grep "^$component " "$dir/pids") || fail "find $component in $dir/pids"
args=()
while IFS= read -r -d '' a; do args+=("$a"); done < "$dir/$component.args"
[ ${#args[@]} -gt 0 ] || fail "read the recorded $component arguments"
[ "$(readlink -f "${args[0]}")" = "$exe" ] || fail "check the recorded arguments start with $exe"
if [ "$component" = kube-apiserver ]; then url=$(sed -n 's/^APISERVER_URL=//p' "$dir/env"); probe=/readyz
else url=$(sed -n 's/^ETCD_URL=//p' "$dir/env"); probe=/health; fi
[ -n "$url" ] || fail "find the $component URL in $dir/env"
pki="$dir/pki"

ours() { [ -e "/proc/$1" ] && [ "$(readlink -f "/proc/$1/exe" 2>/dev/null)" = "$2" ]; }
ready() {
  if [ "$component" = etcd ]; then curl -fsS --max-time 5 --noproxy '*' "$url$probe" >/dev/null 2>&1
  else curl -fsS --max-time 5 --noproxy '*' --cacert "$pki/ca.crt" --cert "$pki/admin.crt" \
         --key "$pki/admin.key" "$url$probe" >/dev/null 2>&1; fi
}

# --- kill ------------------------------------------------------------------------------------------
if ours "$old_pid" "$exe"; then
  log "stopping $component (pid $old_pid, SIG$first_signal)"
  kill -"$first_signal" "$old_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do ours "$old_pid" "$exe" || break; sleep 0.2; done
  if ours "$old_pid" "$exe"; then
    log "$component (pid $old_pid) ignored SIG$first_signal for 10 s: SIGKILL"
    kill -KILL "$old_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do ours "$old_pid" "$exe" || break; sleep 0.2; done
  fi
  ours "$old_pid" "$exe" && fail "wait for $component (pid $old_pid) to exit"
else
  log "recorded $component (pid $old_pid) is not running $exe: not signalling it"
fi
if [ "$down" != 0 ]; then log "staying down ${down}s"; sleep "$down"; fi

# --- start again -----------------------------------------------------------------------------------
t0=$(date +%s.%N)
echo "--- restarted by restart-apiserver.sh at $(date -u +%FT%TZ) ---" >> "$dir/logs/$component.log"
"${args[@]}" < /dev/null >> "$dir/logs/$component.log" 2>&1 &
new_pid=$!
tmp=$(mktemp "$dir/pids.XXXXXX")
awk -v name="$component" -v pid="$new_pid" -v exe="$exe" '$1 == name { print name " " pid " " exe; next } { print }' \
  "$dir/pids" > "$tmp" && mv "$tmp" "$dir/pids" || fail "record the new pid in $dir/pids"
log "$component restarted (pid $new_pid), waiting for $url$probe"

deadline=$(( $(date +%s) + 120 ))
until ready; do
  kill -0 "$new_pid" 2>/dev/null ||
    fail "start $component again (it exited; see $dir/logs/$component.log: $(tail -n 3 "$dir/logs/$component.log" | tr '\n' ' '))"
  [ "$(date +%s)" -lt "$deadline" ] || fail "wait for $component $probe after restart (120 s; see $dir/logs/$component.log)"
  sleep 0.2
done
ready_s=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")
log "$component ready again on $url (pid $new_pid), ${ready_s}s from restart to $probe"
