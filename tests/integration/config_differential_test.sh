#!/usr/bin/env bash
# Integration: `--write-config-to` of kube-scheduler-cpp equals the upstream kube-scheduler's of the
# version of tests/controlplane/versions.env (built from Go modules, cached by
# tests/controlplane/build.sh in k8s-bins/v<K8S_VERSION>-etcd<ETCD_VERSION>/), byte for
# byte, for every sample configuration in tests/integration/configs/ and the in-tree-only samples
# of manifests/, at the default version and at --emulated-version 1.36, 1.35 and 1.34. Both are given `--master` on a closed loopback port: neither contacts a server
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

# Every sample at the default version and at each version kube-scheduler v1.37 emulates
# (--emulated-version: the gates' defaults there change the default plugins and args). Where
# upstream writes the file, ours must write the same bytes; where upstream refuses the sample (a
# field whose gate is off at that version), ours must refuse it with the same error.
samples=("$repo"/tests/integration/configs/*.yaml "$repo/manifests/configs/gpu-binpack.yaml"
         "$repo/manifests/second-scheduler/config.yaml" "$repo/manifests/static-pod/kube-scheduler-config.yaml")
error_of() { grep -o 'command failed" err=.*' "$1" | head -n 1; }
for version in "" 1.36 1.35 1.34; do
  for file in "${samples[@]}"; do
    name=$(basename "$(dirname "$file")")/$(basename "$file")${version:+ at --emulated-version=$version}
    sed -E "s#^([[:space:]]*kubeconfig:).*#\1 $work/nowhere.kubeconfig#" "$file" >"$work/config.yaml"
    rm -f "$work/upstream.yaml" "$work/ours.yaml"
    up_rc=0 our_rc=0
    timeout 60 "$upstream" --config "$work/config.yaml" --master "$master" ${version:+--emulated-version=$version} \
      --write-config-to "$work/upstream.yaml" >"$work/upstream.log" 2>&1 || up_rc=$?
    timeout 60 "$ours" --config "$work/config.yaml" --master "$master" ${version:+--emulated-version=$version} \
      --write-config-to "$work/ours.yaml" >"$work/ours.log" 2>&1 || our_rc=$?
    if [ "$up_rc" != 0 ]; then
      if [ -z "$version" ]; then
        check "$name: upstream accepts it" false; tail -n 2 "$work/upstream.log"; continue
      fi
      check_eq "$name: refused as upstream refuses it" "$(error_of "$work/upstream.log")" "$(error_of "$work/ours.log")"
      continue
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
done
finish
