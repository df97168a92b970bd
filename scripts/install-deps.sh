#!/usr/bin/env bash
# Installs the Debian packages this project builds and tests with. Idempotent: skips what is
# present, says what it installs, and stops with a message naming the step that failed.
# Needs root (or sudo) only when something is missing. Usage: install-deps.sh [--bench] [--fuzz] [--clang]
set -euo pipefail
log() { printf '[install-deps] %s\n' "$*"; }
fail() { log "FAILED at step: $*" >&2; exit 1; }

packages=(
  # toolchain
  g++ cmake ninja-build ccache make pkg-config git
  # libraries the product links
  libboost-dev rapidjson-dev libyaml-cpp-dev libssl-dev prometheus-cpp-dev libcli11-dev
  libnghttp2-dev
  libspdlog-dev libfmt-dev libabsl-dev libre2-dev
  # tests: unit framework, PKI for the local control plane, curl for probes, python3 for helpers,
  # a real Prometheus for the metrics plugins
  catch2 openssl curl python3 prometheus
)
for option in "$@"; do
  case "$option" in
    # what `make bench` draws its PNG throughput plots with
    --bench) packages+=(python3-matplotlib) ;;
    # `make fuzz`: clang with libFuzzer and the sanitizer runtimes (16: captures of structured
    # bindings, which clang 14 refuses)
    --fuzz) packages+=(clang-16 libclang-rt-16-dev) ;;
    # `make thread-safety`: clang's -Wthread-safety analysis (syntax only: no runtime needed)
    --clang) packages+=(clang-16) ;;
    *) fail "parse the options: unknown $option (--bench, --fuzz, --clang)" ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then continue; fi
  missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  log "all ${#packages[@]} Debian packages already installed"
else
  log "installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || fail "apt-get install ${missing[*]} (not root and no sudo)"
    sudo=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || fail "apt-get update"
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || fail "apt-get install ${missing[*]}"
  log "installed ${#missing[@]} package(s)"
fi

# Go builds the real control plane (tests/controlplane/build.sh); it is not a Debian package here.
if ! command -v go >/dev/null; then
  fail "find Go >= 1.26 on PATH (needed to build kube-apiserver and etcd from Go modules)"
fi
gov=$(go env GOVERSION | sed 's/^go//')
case "$gov" in
  1.2[6-9]*|1.[3-9][0-9]*|[2-9].*) log "go $gov found" ;;
  *) fail "check the Go version: $gov found, >= 1.26 needed by Kubernetes v1.37" ;;
esac
