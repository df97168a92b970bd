#!/bin/bash
# The A/B of docs/bench/20261202-tls-stream-ab/README.md: ours alone (--schedulers ours), one run
# per invocation, variants alternating, each on a fresh control plane. Run from the repository root
# on an otherwise idle machine. Each variant is a build directory /tmp/bin-<variant> holding
# scheduler/kube-scheduler-cpp (a binary, or a script that sets variables and execs one), e.g.
#   git stash; ninja -C build scheduler/kube-scheduler-cpp; cp build/scheduler/kube-scheduler-cpp /tmp/bin-old/scheduler/
# Environment: OUT (default /tmp/ab/runs), VARIANTS ("old new"), ROUNDS (3), WORKLOADS ("GPU").
set -u
OUT=${OUT:-/tmp/ab/runs}
mkdir -p "$OUT"
run() {  # workload variant round
  local out=$OUT/$1-$2-$3
  python3 bench/scheduler_perf.py --build-dir /tmp/bin-$2 --workloads "$1" --schedulers ours \
    --no-decision-rate --repeat 1 --out "$out" > "$out.log" 2>&1
  echo "$1 $2 $3: $(grep 'bound in' "$out.log")"
}
for w in ${WORKLOADS:-GPU}; do
  for round in $(seq "${FIRST_ROUND:-1}" "${ROUNDS:-3}"); do for v in ${VARIANTS:-old new}; do run "$w" "$v" "$round"; done; done
done
