#!/usr/bin/env bash
# stop.sh DIR       stop the control plane recorded in DIR (from start.sh) and remove DIR
# stop.sh --stale   stop every recorded control plane whose owner process is gone (a crashed run)
# stop.sh --all     stop every recorded control plane
# stop.sh --list    list recorded control planes: dir, owner, live processes
# stop.sh --runs-root   print where runs are recorded
#
# Only processes listed in a run's pids file are signalled, and only while /proc/PID/exe is still
# the recorded executable (a recycled PID is left alone). SIGTERM first, SIGKILL after 10 s.
# Set KEEP_CONTROLPLANE_DIR=1 to keep DIR (logs) after stopping.
set -euo pipefail
if [ -d /dev/shm ] && [ -w /dev/shm ]; then default_root=/dev/shm/kube-scheduler-cpp-controlplanes
else default_root=${TMPDIR:-/tmp}/kube-scheduler-cpp-controlplanes; fi
runs=${KSCHED_CP_RUNS:-$default_root}
log() { printf '[controlplane/stop] %s\n' "$*" >&2; }

ours() {  # ours PID EXE: the PID is alive and still runs the recorded executable
  [ -e "/proc/$1" ] && [ "$(readlink -f "/proc/$1/exe" 2>/dev/null)" = "$2" ]
}

stop_run() {
  local dir=$1 name pid exe left
  [ -f "$dir/pids" ] || { rm -rf "$dir"; return 0; }
  # Reverse start order: controller-manager, apiserver, then etcd.
  tac "$dir/pids" | while read -r name pid exe; do
    if ours "$pid" "$exe"; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for _ in $(seq 1 50); do
    left=0
    while read -r name pid exe; do ours "$pid" "$exe" && left=1; done < "$dir/pids"
    [ $left = 0 ] && break
    sleep 0.2
  done
  while read -r name pid exe; do
    if ours "$pid" "$exe"; then log "$name (pid $pid) ignored SIGTERM for 10 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
  done < "$dir/pids"
  log "stopped $dir"
  if [ "${KEEP_CONTROLPLANE_DIR:-0}" = 1 ]; then : > "$dir/pids"; else rm -rf "$dir"; fi
}

owner_gone() {
  local owner
  owner=$(cat "$1/owner" 2>/dev/null || echo none)
  [ "$owner" != none ] && ! kill -0 "$owner" 2>/dev/null
}

case "${1:-}" in
  --runs-root) echo "$runs" ;;
  --stale)
    for d in "$runs"/run-*; do
      [ -d "$d" ] || continue
      if owner_gone "$d"; then log "owner of $d ($(cat "$d/owner")) is gone: stopping what it left behind"; stop_run "$d"; fi
    done ;;
  --all)
    for d in "$runs"/run-*; do [ -d "$d" ] && stop_run "$d"; done ;;
  --list)
    for d in "$runs"/run-*; do
      [ -d "$d" ] || continue
      live=""
      while read -r name pid exe; do ours "$pid" "$exe" && live+=" $name:$pid"; done < "$d/pids"
      echo "$d owner=$(cat "$d/owner" 2>/dev/null || echo ?) live:${live:- none}"
    done ;;
  ""|-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  *)
    [ -d "$1" ] || { log "no control plane recorded in $1"; exit 1; }
    stop_run "$(cd "$1" && pwd)" ;;
esac
