#!/usr/bin/env bash
# fuzz.sh [TARGET...]: builds the fuzz targets with libFuzzer, ASan and UBSan (clang, in
# build-fuzz/), and runs each for FUZZ_SECONDS (default 60) from a working copy of its corpus
# (fuzz/corpus/<target>/ seeds it; what libFuzzer adds stays in build-fuzz/corpus/<target>/).
# A crash, leak, sanitizer report or timeout is kept in build-fuzz/crashes/<target>/ and fails the
# run: add the input to fuzz/corpus/<target>/ with the fix, and the replay unit test keeps it.
# FUZZ_JOBS (default 1) fuzzing processes per target. Without targets: all of them.
# FUZZ_RUNS=N instead: N inputs per target from the checked-in corpus only, seed 1, one process:
# the same inputs on every machine, so a finding is the code's, not the clock's (what CI runs).
# FUZZ_BUILD_DIR: an already configured fuzz build to use instead of configuring build-fuzz/ (CI
# passes build-asan/, which `make sanitize-test` built with the targets in it).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60} jobs=${FUZZ_JOBS:-1} runs=${FUZZ_RUNS:-} build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
log() { printf '[fuzz] %s\n' "$*"; }
clangxx=$(command -v clang++-16 || command -v clang++ || true)
[ -n "$clangxx" ] || { log "FAILED: clang++ not found (scripts/install-deps.sh installs clang-16 and libclang-rt-16-dev)" >&2; exit 1; }
export CCACHE_BASEDIR="$PWD"
t=$(date +%s)
if [ -n "${FUZZ_BUILD_DIR:-}" ]; then
  grep -qx 'KSCHED_FUZZ:BOOL=ON' "$build_dir/CMakeCache.txt" 2>/dev/null \
    || { log "FAILED: FUZZ_BUILD_DIR=$build_dir is not a configured KSCHED_FUZZ build (make sanitize-test makes build-asan/)" >&2; exit 1; }
else
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" \
    -DKSCHED_FUZZ=ON -DKSCHED_SANITIZE=address,undefined -DKSCHED_BUILD_TESTS=OFF >/dev/null \
    || { log "FAILED at step: cmake configure ($build_dir)" >&2; exit 1; }
fi
cmake --build "$build_dir" --target ksched_fuzz_all || { log "FAILED at step: compile ($build_dir)" >&2; exit 1; }
log "built in $(( $(date +%s) - t ))s"
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
  for source in fuzz/*_fuzz.cc; do name=$(basename "$source" _fuzz.cc); targets+=("$name"); done
fi
failed=()
for name in "${targets[@]}"; do
  corpus="$build_dir/corpus/$name" crashes="$build_dir/crashes/$name"
  limits=(-max_total_time="$seconds")
  # libFuzzer's -jobs writes fuzz-<n>.log into the working directory: only when asked for.
  [ "$jobs" = 1 ] || limits+=(-jobs="$jobs" -workers="$jobs")
  if [ -n "$runs" ]; then
    corpus="$build_dir/corpus-fixed/$name"
    rm -rf "$corpus"
    limits=(-runs="$runs" -seed=1)
  fi
  mkdir -p "$corpus" "$crashes"
  cp -n fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null || true
  before=$(find "$corpus" -type f | wc -l)
  rc=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build_dir/fuzz/ksched_fuzz_$name" "$corpus" "${limits[@]}" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 \
    >"$build_dir/$name.log" 2>&1 || rc=$?
  executed=$(grep -ho 'stat::number_of_executed_units: *[0-9]*' "$build_dir/$name.log" | awk '{s += $2} END {print s + 0}')
  after=$(find "$corpus" -type f | wc -l)
  if [ "$rc" = 0 ]; then
    log "$name: $executed inputs run, corpus $before -> $after, no crash"
  else
    failed+=("$name")
    log "$name: FAILED (exit $rc) after $executed inputs; findings in $crashes/, log $build_dir/$name.log:"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$build_dir/$name.log" | head -n 5 | sed 's/^/    /' || true
  fi
done
[ ${#failed[@]} = 0 ] || { log "targets with findings: ${failed[*]}" >&2; exit 1; }
