#!/usr/bin/env bash
# Integration: `--write-config-to` of kube-scheduler-cpp equals the upstream kube-scheduler's of the
# version of tests/controlplane/versions.env (built from Go modules, cached by
# tests/controlplane/build.sh in k8s-bins/v<K8S_VERSION>-etcd<ETCD_VERSION>/), byte for
# byte, for every sample configuration in tests/integration/configs/ and the in-tree-only samples
# of manifests/. Both are given `--master` on a closed loopback port: neither contacts a server
# before writing. No control plane is needed.
. "$(dirname "$0")/lib.sh"
find_ours
# shellcheck disable=SC1091
. "$repo/tests/controlplane/versions.env" 2>/dev/null || true
find_upstream
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
master=https://127.0.0.1:1

# A kubeconfig that points at nothing, for the samples that name one.
cat >"$work/nowhere.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$master"}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
users: [{name: u, user: {token: t}}]
current-context: c
KC

# Accepted samples: the written files must be equal.
samples=("$repo"/tests/integration/configs/*.yaml "$repo/manifests/configs/gpu-binpack.yaml"
         "$repo/manifests/second-scheduler/config.yaml" "$repo/manifests/static-pod/kube-scheduler-config.yaml")
for file in "${samples[@]}"; do
  name=$(basename "$(dirname "$file")")/$(basename "$file")
  sed -E "s#^([[:space:]]*kubeconfig:).*#\1 $work/nowhere.kubeconfig#" "$file" >"$work/config.yaml"
  rm -f "$work/upstream.yaml" "$work/ours.yaml"
  up_rc=0 our_rc=0
  timeout 60 "$upstream" --config "$work/config.yaml" --master "$master" \
    --write-config-to "$work/upstream.yaml" >"$work/upstream.log" 2>&1 || up_rc=$?
  timeout 60 "$ours" --config "$work/config.yaml" --master "$master" \
    --write-config-to "$work/ours.yaml" >"$work/ours.log" 2>&1 || our_rc=$?
  if [ "$up_rc" != 0 ]; then
    check "$name: upstream accepts it" false; tail -n 2 "$work/upstream.log"; continue
  fi
  check_eq "$name: ours exits 0 as upstream" 0 "$our_rc"
  [ "$our_rc" = 0 ] || { tail -n 2 "$work/ours.log"; continue; }
  if diff -u "$work/upstream.yaml" "$work/ours.yaml" >"$work/diff"; then
    check "$name: --write-config-to equals upstream's ($(wc -l <"$work/ours.yaml") lines)" true
  else
    check "$name: --write-config-to equals upstream's" false
    head -n 40 "$work/diff"
  fi
done
finish
