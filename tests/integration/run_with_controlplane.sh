#!/usr/bin/env bash
# run_with_controlplane.sh [--with-kcm] COMMAND [ARGS...]: starts a real control plane owned by this
# script, runs COMMAND with KSCHED_CP_ENV pointing at its env file, stops the control plane, and
# exits with COMMAND's status. Used for the C++ integration test binaries.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
args=()
if [ "${1:-}" = --with-kcm ]; then args+=(--with-kcm); shift; fi
dir=$("$repo/tests/controlplane/start.sh" --owner $$ "${args[@]}")
trap '"$repo/tests/controlplane/stop.sh" "$dir"' EXIT
export KSCHED_CP_ENV="$dir/env"
rc=0
"$@" || rc=$?
[ $rc = 0 ] || { echo "logs of the failed run:"; tail -n 20 "$dir"/logs/*.log || true; }
exit $rc
