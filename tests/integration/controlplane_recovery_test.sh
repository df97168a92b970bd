#!/usr/bin/env bash
# Integration: a port clash is retried on a new port, and a control plane left behind by a dead
# owner is found and stopped by stop.sh --stale (and by the next start.sh).
. "$(dirname "$0")/lib.sh"

# Hold a loopback port so that the API server's first choice clashes.
python3 -c 'import socket,time; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(600)' > "${TMPDIR:-/tmp}/ksched-held-port.$$" &
holder=$!
trap 'kill "$holder" "${owner:-}" 2>/dev/null || true; [ -n "${dir:-}" ] && [ -d "$dir" ] && "$repo/tests/controlplane/stop.sh" "$dir"' EXIT
for _ in $(seq 1 50); do [ -s "${TMPDIR:-/tmp}/ksched-held-port.$$" ] && break; sleep 0.1; done
held=$(cat "${TMPDIR:-/tmp}/ksched-held-port.$$"); rm -f "${TMPDIR:-/tmp}/ksched-held-port.$$"

# The owner is a short-lived process: when it dies, the control plane counts as left behind.
sleep 600 & owner=$!
dir=$("$repo/tests/controlplane/start.sh" --owner "$owner" --api-port "$held" 2> "${TMPDIR:-/tmp}/ksched-start.$$.log")
cat "${TMPDIR:-/tmp}/ksched-start.$$.log"
check "start.sh reported the clash on the held port" grep -q "port $held in use, retrying" "${TMPDIR:-/tmp}/ksched-start.$$.log"
rm -f "${TMPDIR:-/tmp}/ksched-start.$$.log"
. "$dir/env"
check "API server came up on another port" test "$APISERVER_PORT" != "$held"
check "API server is ready" curl -fsS --noproxy '*' --cacert "$PKI_DIR/ca.crt" --cert "$PKI_DIR/admin.crt" --key "$PKI_DIR/admin.key" -o /dev/null "$APISERVER_URL/readyz"
kill "$holder"

"$repo/tests/controlplane/stop.sh" --stale
check "owner alive: --stale leaves the run alone" test -d "$dir"
pids=$(awk '{print $2}' "$dir/pids")
kill "$owner"; wait "$owner" 2>/dev/null || true
"$repo/tests/controlplane/stop.sh" --list
"$repo/tests/controlplane/stop.sh" --stale
left=$(still_running $pids)
check_eq "owner gone: --stale stopped every process of the run" "" "$left"
check "owner gone: --stale removed the run directory" test ! -d "$dir"

# Bad input: a build without Go names the step.
out=$(PATH=/usr/bin:/bin "$repo/tests/controlplane/build.sh" 2>&1 || true)
check "build.sh without Go names the failing step" grep -q "FAILED at step: find the Go toolchain" <<<"$out"
finish
