#!/bin/bash
# A/B of scheduler binaries and malloc settings, ours alone, variants alternating round by round,
# each invocation on a fresh control plane (bench/scheduler_perf.py; PodAntiAffinity and GPU run
# 3 times per invocation). Run from the repository root on an idle machine.
#   docs/bench/20261202-malloc-ab/ab.sh WORKLOAD ROUNDS "name|build-dir|ENV=value ..." ...
# A build directory needs scheduler/kube-scheduler-cpp; the variants of this directory's README:
#   main: /tmp/bin-main (11f7bce), new: /tmp/bin-new (the commit that adds this file); the
#   output directory /tmp/smaps is the one the README's runs came from.
# Output: $AB_OUT/ab2-<workload>-<name>-<round>/ (AB_OUT defaults to /tmp/smaps) and one line per
#   variant and round: peak RSS MiB, CPU ms per pod, throughput pods/s, and the machine probe's CPU
#   ms per unit beside the phase (bench/speed_probe.py: lower is a faster machine) of each run.
wl=$1; rounds=$2; shift 2
for r in $(seq 1 "$rounds"); do
  for v in "$@"; do
    IFS='|' read -r name dir envs <<< "$v"
    out=${AB_OUT:-/tmp/smaps}/ab2-$wl-$name-$r
    mkdir -p "${AB_OUT:-/tmp/smaps}"
    env $envs /usr/bin/python3 bench/scheduler_perf.py --workloads "$wl" --schedulers ours --no-decision-rate \
      --build-dir "$dir" --out "$out" > "$out.log" 2>&1
    echo "$name r$r: $(python3 -c "
import json,glob
fs=sorted(glob.glob('$out/*.ours.run*.json')) or sorted(glob.glob('$out/*.ours.json'))
for f in fs:
    r=json.load(open(f)); print(round(r['peak_rss_bytes']/2**20,1), round(r['cpu_ms_per_pod'],3), round(r['throughput']['average']), (r.get('machine_speed') or {}).get('probe_cpu_ms_mean'), end=' | ')
")"
  done
done
