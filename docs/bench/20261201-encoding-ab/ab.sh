#!/usr/bin/env bash
# The encoding A/B on SchedulingBasic 5000/10000: JSON then protobuf, twice, every scheduler; the
# first round also takes a 15 s CPU profile of the kube-apiserver during each measured phase.
set -u
cd /work/main
for round in 1 2; do
  for ct in application/json application/vnd.kubernetes.protobuf; do
    short=$([ $ct = application/json ] && echo json || echo pb)
    log=/tmp/prof/ab-$round-$short.log
    : > $log
    if [ $round = 1 ]; then
      ( for s in ours upstream null; do
          /tmp/prof/grab.sh $log "SchedulingBasic_5000Nodes_10000Pods.$s" /tmp/prof/apiserver-$short-$s.pb.gz
          until grep -q "SchedulingBasic_5000Nodes_10000Pods.$s: 10000/10000 bound" $log; do sleep 0.5; done
        done ) &
    fi
    python3 bench/scheduler_perf.py --workloads SchedulingBasic_5000Nodes_10000Pods --schedulers ours,upstream,null \
      --content-type $ct --no-decision-rate --out docs/bench/20261201-encoding-ab/$short-round$round 2>>$log
    wait
  done
done
echo AB-DONE >> /tmp/prof/ab-done
