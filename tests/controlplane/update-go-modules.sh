#!/usr/bin/env bash
# Regenerates the two Go tools modules (go.mod + go.sum) that pin the control plane:
#   go/kubernetes: k8s.io/kubernetes with a replace for every staging module, generated from the
#                  release's own go.mod (the list changes between minors), and tool directives for
#                  kube-apiserver, kube-controller-manager, kube-scheduler and kubectl;
#   go/etcd:       go.etcd.io/etcd/server/v3, kept apart so etcd's newer dependencies do not shift
#                  the apiserver's.
# Run it only when versions.env changes; the build uses the committed files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
rest=${K8S_VERSION#1.}

kube="$here/go/kubernetes"
mkdir -p "$kube"
rm -f "$kube/go.mod" "$kube/go.sum"
(cd "$kube" && go mod init local.invalid/kube-scheduler-cpp/controlplane/kubernetes >/dev/null 2>&1 && go mod edit -go=1.24.0)
modfile=$(cd "$(mktemp -d)" && go list -m -json "k8s.io/kubernetes@v$K8S_VERSION" |
  sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
[ -s "$modfile" ] || { echo "update-go-modules: cannot read go.mod of k8s.io/kubernetes@v$K8S_VERSION" >&2; exit 1; }
staging=$(sed -n 's|^[[:space:]]*\(k8s\.io/[A-Za-z0-9._-]*\)[[:space:]]*=>[[:space:]]*\./staging/.*|\1|p' "$modfile")
cd "$kube"
for m in $staging; do go mod edit -replace="$m=$m@v0.$rest"; done
go mod edit -require="k8s.io/kubernetes@v$K8S_VERSION"
# Same GODEBUG defaults as the official binaries of this release.
grep -q '^godebug' "$modfile" && go mod edit -godebug="$(sed -n 's/^godebug[[:space:]]*//p' "$modfile" | head -1)"
go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S_VERSION" \
  "k8s.io/kubernetes/cmd/kube-controller-manager@v$K8S_VERSION" \
  "k8s.io/kubernetes/cmd/kube-scheduler@v$K8S_VERSION" \
  "k8s.io/kubernetes/cmd/kubectl@v$K8S_VERSION"
go mod tidy
echo "update-go-modules: go/kubernetes pins k8s.io/kubernetes v$K8S_VERSION ($(echo "$staging" | wc -w) staging replaces)"

etcd="$here/go/etcd"
mkdir -p "$etcd"
rm -f "$etcd/go.mod" "$etcd/go.sum"
cd "$etcd"
go mod init local.invalid/kube-scheduler-cpp/controlplane/etcd >/dev/null 2>&1
go mod edit -go=1.24.0
go get -tool "go.etcd.io/etcd/server/v3@v$ETCD_VERSION"
go mod tidy
echo "update-go-modules: go/etcd pins go.etcd.io/etcd/server/v3 v$ETCD_VERSION"
