# Shared helpers for the shell integration tests: assertions that count, and a control plane owned by
# the test process (stopped on exit, found by stop.sh --stale if the test dies).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cp_dir=""
passed=0 failed=0

note() { printf '  %s\n' "$*"; }
check() {  # check DESCRIPTION COMMAND...: the command's exit status decides
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); printf 'ok   %s\n' "$what"
  else failed=$((failed + 1)); printf 'FAIL %s\n' "$what"; fi
}
check_eq() {  # check_eq DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); printf 'ok   %s\n' "$1"
  else failed=$((failed + 1)); printf 'FAIL %s\n     expected: %s\n     actual:   %s\n' "$1" "$2" "$3"; fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}

find_ours() {  # sets build_dir (KSCHED_BUILD_DIR, default build/) and ours, the daemon in it; exit 1 if missing
  build_dir=${KSCHED_BUILD_DIR:-$repo/build}
  ours="$build_dir/scheduler/kube-scheduler-cpp"
  [ -x "$ours" ] || { echo "missing $ours" >&2; exit 1; }
}

# find_upstream: sets upstream, the reference kube-scheduler of the pinned version (versions.env), built
# and cached by tests/controlplane/build.sh; exit 1 if missing. Never another cached version's.
find_upstream() {
  # shellcheck disable=SC1091
  . "$repo/tests/controlplane/versions.env"
  upstream="${KSCHED_CACHE:-$HOME/.cache/kube-scheduler-cpp}/k8s-bins/v$K8S_VERSION-etcd$ETCD_VERSION/kube-scheduler"
  [ -x "$upstream" ] || { echo "missing $upstream (run tests/controlplane/build.sh)" >&2; exit 1; }
}

start_controlplane() {  # start_controlplane [start.sh args...]: sets cp_dir and sources its env
  cp_dir=$("$repo/tests/controlplane/start.sh" --owner $$ "$@")
  # shellcheck disable=SC1091
  . "$cp_dir/env"
  trap 'stop_controlplane' EXIT
}
stop_controlplane() {
  if [ -n "$cp_dir" ] && [ -d "$cp_dir" ]; then
    [ "$failed" = 0 ] || { echo "logs of the failed run:"; tail -n 20 "$cp_dir"/logs/*.log || true; }
    "$repo/tests/controlplane/stop.sh" "$cp_dir" || true
  fi
}
# running PID: alive and not a zombie (a stopped child of ours may wait a moment to be reaped by init).
running() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
# still_running PID...: prints the PIDs among the arguments that are running
still_running() { local p out=""; for p in "$@"; do running "$p" && out+=" $p"; done; echo "${out# }"; }
kubectl_admin() { "$KUBECTL" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }
# free_port: a free TCP port on 127.0.0.1 (the tests listen on loopback only).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {  # wait_for SECONDS COMMAND...: until the command succeeds
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do [ "$SECONDS" -lt "$deadline" ] || return 1; sleep 0.2; done
}

# fetch PORT PATH [TOKEN]: a GET of https://127.0.0.1:PORT/PATH (certificate not verified), the
# body into $work/body, the headers into $work/headers, the status code on stdout ("curl-failed"
# when there is none). The caller sets $work.
fetch() {
  local auth=()
  [ -n "${3:-}" ] && auth=(-H "Authorization: Bearer $3")
  curl -sk --noproxy '*' --max-time 15 "${auth[@]}" -D "$work/headers" -o "$work/body" \
    -w '%{http_code}' "https://127.0.0.1:$1$2" || echo "curl-failed"
}
# content_type: the Content-Type of the last fetch.
content_type() { tr -d '\r' <"$work/headers" | awk -F': ' 'tolower($1) == "content-type" {print $2}'; }
