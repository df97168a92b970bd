#!/usr/bin/env bash
# Builds the real control plane from the committed Go tools modules: kube-apiserver,
# kube-controller-manager, kube-scheduler (upstream, the reference), kubectl and etcd, version-stamped.
#
# Output: $KSCHED_CACHE/k8s-bins/v<k8s>-etcd<etcd>/ (default KSCHED_CACHE=~/.cache/kube-scheduler-cpp),
# outside the repository, with a STAMP file written last. A build whose stamp matches the go.mod/go.sum
# hashes is reused in well under a second. Prints the bin directory on stdout; progress on stderr.
# Exit status: 0 built or cached; 1 with a line naming the failed step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
log() { printf '[controlplane/build] %s\n' "$*" >&2; }
fail() { log "FAILED at step: $*"; exit 1; }

command -v go >/dev/null || fail "find the Go toolchain (go is not on PATH; install Go >= 1.26)"
export GOTOOLCHAIN=local GOFLAGS='-mod=readonly -buildvcs=false' CGO_ENABLED=0

cache=${KSCHED_CACHE:-$HOME/.cache/kube-scheduler-cpp}
out="$cache/k8s-bins/v$K8S_VERSION-etcd$ETCD_VERSION"
want=$(cat "$here/versions.env" "$here"/go/*/go.mod "$here"/go/*/go.sum | sha256sum | cut -c1-16)
bins=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd)

have_all() { for b in "${bins[@]}"; do [ -x "$out/$b" ] || return 1; done; }
if [ -f "$out/STAMP" ] && [ "$(cat "$out/STAMP")" = "$want" ] && have_all; then
  log "cached: $out (stamp $want)"
  echo "$out"; exit 0
fi

mkdir -p "$out"; rm -f "$out/STAMP"
start=$(date +%s)
log "cold build of Kubernetes v$K8S_VERSION and etcd v$ETCD_VERSION into $out"
log "this downloads ~1 GB of modules and compiles for 15-30 minutes on 2 cores; it happens once per version"

ldf="-s -w"
build_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
minor=${K8S_VERSION#1.}; minor=${minor%%.*}
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldf+=" -X $p.gitVersion=v$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"
  ldf+=" -X $p.gitTreeState=clean -X $p.buildDate=$build_date"
done

( cd "$here/go/kubernetes" && go mod download ) >&2 || fail "download Kubernetes Go modules (go mod download in go/kubernetes)"
( cd "$here/go/etcd" && go mod download ) >&2 || fail "download etcd Go modules (go mod download in go/etcd)"
log "modules downloaded ($(( $(date +%s) - start ))s)"

# One binary per go build call so that progress shows and a failure names its binary; the Go build
# cache shares the common packages between them.
# go build prints nothing for minutes: a heartbeat shows the build is alive (CI logs, make demo).
heartbeat() {
  local what=$1 t0=$2
  while sleep 60; do log "still building $what ($(( $(date +%s) - t0 ))s so far)"; done
}
# build_one NAME MODULE_DIR PACKAGE LDFLAGS
build_one() {
  local name=$1 moddir=$2 pkg=$3 flags=$4 t hb rc=0
  t=$(date +%s)
  log "building $name ..."
  heartbeat "$name" "$t" & hb=$!
  ( cd "$moddir" && go build -trimpath -ldflags "$flags" -o "$out/$name.tmp" "$pkg" ) >&2 || rc=$?
  kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null || true
  [ $rc = 0 ] || fail "go build $name ($pkg)"
  mv "$out/$name.tmp" "$out/$name"
  log "built $name in $(( $(date +%s) - t ))s"
}
for cmd in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  build_one "$cmd" "$here/go/kubernetes" "k8s.io/kubernetes/cmd/$cmd" "$ldf"
done
build_one etcd "$here/go/etcd" go.etcd.io/etcd/server/v3 "-s -w"

"$out/kube-apiserver" --version >&2 || fail "run the freshly built kube-apiserver --version"
echo "$want" > "$out/STAMP"
log "control plane built in $(( $(date +%s) - start ))s: $out"
echo "$out"
