#!/usr/bin/env bash
# grab.sh LOG TAG OUT: when LOG shows "<TAG>: 5000 nodes; scheduler pid", wait 8 s and take a 15 s
# CPU profile of the newest control plane's kube-apiserver.
log=$1 tag=$2 out=$3
until grep -q "$tag: 5000 nodes; scheduler pid" "$log"; do sleep 0.5; done
d=$(ls -td /dev/shm/kube-scheduler-cpp-controlplanes/run-* | head -1)
. "$d/env"
sleep 8
curl -s --cacert "$PKI_DIR/ca.crt" --cert "$PKI_DIR/admin.crt" --key "$PKI_DIR/admin.key" \
  "$APISERVER_URL/debug/pprof/profile?seconds=15" -o "$out"
echo "grabbed $out $(stat -c %s "$out") bytes"
