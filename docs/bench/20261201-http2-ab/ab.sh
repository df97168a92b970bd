#!/bin/bash
# The HTTP/2 A/B of docs/bench/20261201-http2-ab/README.md: ours alone (--schedulers ours), one run
# per invocation, HTTP/1.1 (the default) and HTTP/2 (KSCHED_HTTP2=1) alternating, each on a fresh
# control plane. Run from the repository root on an otherwise idle machine; writes /tmp/h2ab.
set -u
mkdir -p /tmp/h2ab
run() {  # workload proto round
  local out=/tmp/h2ab/$1-$2-$3
  if [ "$2" = h2 ]; then export KSCHED_HTTP2=1; else unset KSCHED_HTTP2; fi
  python3 bench/scheduler_perf.py --workloads "$1" --schedulers ours --no-decision-rate --repeat 1 \
    --out "$out" > "$out.log" 2>&1
  echo "$1 $2 $3: $(grep 'bound in' "$out.log")"
}
for round in 1 2 3; do for proto in h1 h2; do run GPU $proto $round; done; done
for round in 1 2; do
  for proto in h1 h2; do
    run SchedulingPodAntiAffinity $proto $round
    [ $round = 1 ] && run SchedulingBasic_5000Nodes_10000Pods $proto $round
  done
done
