#!/usr/bin/env bash
# Configures (once) and builds the C++ project with CMake + Ninja (+ ccache when present).
# BUILD_DIR (build), BUILD_TYPE (Release|Debug|RelWithDebInfo), KSCHED_WERROR (OFF|ON) and
# KSCHED_SANITIZE (e.g. address,undefined; empty for none) and BUILD_TARGETS (targets to build;
# empty for all) and CMAKE_INIT (an initial-cache script for cmake -C, read when BUILD_DIR is first
# configured, e.g. cmake/sanitize.cmake) come from the environment.
# KSCHED_WERROR unset or empty keeps what the build directory has (OFF for a new one): switching it
# changes every compile command, so ccache misses and everything recompiles.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build} build_type=${BUILD_TYPE:-Release} werror=${KSCHED_WERROR:-}
sanitize=${KSCHED_SANITIZE:-} targets=${BUILD_TARGETS:-} init=${CMAKE_INIT:-}
log() { printf '[build] %s\n' "$*"; }
for tool in cmake ninja g++; do
  command -v "$tool" >/dev/null || { log "FAILED at step: find $tool (run scripts/install-deps.sh)" >&2; exit 1; }
done
# Paths under the checkout are hashed relative to it, so another clone (CI) reuses the cache.
export CCACHE_BASEDIR="$PWD"
t=$(date +%s)
cmake ${init:+-C "$init"} -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" ${werror:+-DKSCHED_WERROR="$werror"} \
  -DKSCHED_SANITIZE="$sanitize" >/dev/null \
  || { log "FAILED at step: cmake configure ($build_dir, $build_type)" >&2; exit 1; }
cmake --build "$build_dir" ${targets:+--target $targets} || { log "FAILED at step: compile ($build_dir, $build_type)" >&2; exit 1; }
log "built $build_type in $build_dir/ in $(( $(date +%s) - t ))s"
