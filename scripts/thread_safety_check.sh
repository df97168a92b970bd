#!/usr/bin/env bash
# thread_safety_check.sh: clang's thread-safety analysis over every project translation unit.
# Reads the compile commands of a configured build (BUILD_DIR, default build; configured here when
# it has none), compiles each project source again with clang++-16 -fsyntax-only
# -Wthread-safety -Werror=thread-safety, and fails when any reports a violation: a member
# ABSL_GUARDED_BY a base::Mutex touched without it, a helper ABSL_EXCLUSIVE_LOCKS_REQUIRED called
# without the lock, a lock not released on every path (base/mutex.h states the contract).
# Only include paths, macros and the language standard are taken from the build's flags (the
# rest may be GCC's); NDEBUG is dropped so that assertions are analysed too. Nothing is written
# to the build directory. TSA_JOBS (default 2) translation units at a time. Before that, the full
# run fails on a std::mutex (or lock, or condition variable) in the layers' code: only base/'s
# types are checked.
#
#   thread_safety_check.sh                     every translation unit (`make thread-safety`, CI)
#   thread_safety_check.sh --only FILE...      only these sources, e.g. the probes of
#                                              tests/thread_safety/ (which the full run skips); without
#                                              clang this mode prints "thread-safety check skipped"
#                                              and exits 0, for the unit tests on machines without it
#   thread_safety_check.sh --std-types-only    only the refusal of standard mutexes (no clang
#                                              needed; a unit test runs it in every build)
#
# The sanitizer build (cmake/sanitize.cmake, `make sanitize-test`) compiles every translation unit
# with the same warnings as errors; CI relies on that and on the unit test, not on this full pass.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD build_dir=${BUILD_DIR:-build} jobs=${TSA_JOBS:-2}
log() { printf '[thread-safety] %s\n' "$*"; }
only=() std_types_only=false
if [ "${1:-}" = --only ]; then
  shift
  [ $# -gt 0 ] || { log "FAILED: --only needs at least one source file" >&2; exit 2; }
  only=("$@")
elif [ "${1:-}" = --std-types-only ]; then
  std_types_only=true
fi

clangxx=$(command -v clang++-16 || true)
if [ -z "$clangxx" ] && ! $std_types_only; then
  if [ ${#only[@]} -gt 0 ]; then
    log "thread-safety check skipped: clang++-16 not installed (scripts/install-deps.sh --clang installs it; CI does)"
    exit 0
  fi
  log "FAILED: clang++-16 not found (scripts/install-deps.sh --clang installs it)" >&2
  exit 1
fi
# The layers lock through base/mutex.h: a standard mutex, lock or condition variable there would be
# unchecked. A line that needs one anyway says why after "unchecked lock:".
if [ ${#only[@]} = 0 ]; then
  std_types='std::(mutex|shared_mutex|recursive_mutex|timed_mutex|condition_variable|condition_variable_any|lock_guard|unique_lock|scoped_lock|shared_lock)\b'
  raw=$(grep -rnE --include='*.h' --include='*.cc' "^([^/]|/[^/])*$std_types" \
          api client config framework plugins scheduler serving | grep -v 'unchecked lock:' || true)
  if [ -n "$raw" ]; then
    log "FAILED: standard mutexes, locks or condition variables in the layers (use base/mutex.h):" >&2
    printf '%s\n' "$raw" | sed 's/^/    /' >&2
    exit 1
  fi
  if $std_types_only; then
    log "no standard mutex, lock or condition variable in the layers"
    exit 0
  fi
fi
if [ ! -f "$build_dir/compile_commands.json" ]; then
  log "configuring $build_dir/ for its compile commands"
  cmake -S . -B "$build_dir" -G Ninja >/dev/null || { log "FAILED at step: cmake configure ($build_dir)" >&2; exit 1; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t=$(date +%s)
# One line per translation unit: the source, then its clang command (NUL-separated arguments go
# through a file each, so paths with spaces survive).
python3 - "$root" "$build_dir/compile_commands.json" "$clangxx" "$work" "${only[@]}" <<'PY'
import json, os, shlex, sys
root, db, clang, work, only = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
only = {os.path.realpath(os.path.join(root, f)) for f in only}
# Flags carried over from the build: where headers are and what the code is compiled as.
keep_prefix = ("-I", "-D", "-U", "-std=")
keep_with_arg = ("-isystem", "-iquote", "-idirafter", "-include", "-I", "-D", "-U")
flags = ["-fsyntax-only", "-Wno-everything", "-Wthread-safety", "-Wthread-safety-beta",
         "-Werror=thread-safety", "-Werror=thread-safety-beta", "-ferror-limit=0"]
seen, n = set(), 0
for entry in json.load(open(db)):
    source = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(source, root)
    if rel.startswith("..") or source in seen:
        continue  # outside the checkout, or the same source in a second target
    if only:
        if source not in only:
            continue
    elif rel.startswith("tests/thread_safety/"):
        continue  # the probes: a violation on purpose (tests/thread_safety/CMakeLists.txt)
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, i = [clang], 1
    while i < len(args):
        a = args[i]
        if a in keep_with_arg and i + 1 < len(args):
            if a == "-D" and args[i + 1] == "NDEBUG":
                i += 2
                continue
            out += [a, args[i + 1]]
            i += 2
            continue
        if a.startswith(keep_prefix) and a != "-DNDEBUG":
            out.append(a)
        i += 1
    seen.add(source)
    with open(os.path.join(work, f"{n}.args"), "w") as f:
        f.write("\0".join(out + flags + [source]))
    with open(os.path.join(work, f"{n}.name"), "w") as f:
        f.write(rel)
    n += 1
if only and n != len(only):
    sys.exit(f"[thread-safety] FAILED: {len(only) - n} of the --only sources are not in {db}")
PY
count=$(find "$work" -name '*.args' | wc -l)
[ "$count" -gt 0 ] || { log "FAILED: no translation units found in $build_dir/compile_commands.json" >&2; exit 1; }
log "$count translation units, clang $("$clangxx" -dumpversion), $jobs at a time"

# Each unit: its diagnostics into <n>.out, a <n>.failed marker when clang refused it.
export work
find "$work" -name '*.args' -printf '%f\n' | sed 's/\.args$//' | sort -n |
  xargs -P "$jobs" -I{} sh -c \
    'xargs -0 -x -a "$work/{}.args" env >"$work/{}.out" 2>&1 || touch "$work/{}.failed"'

failed=0
for marker in "$work"/*.failed; do
  [ -e "$marker" ] || break
  n=$(basename "$marker" .failed)
  failed=$((failed + 1))
  log "FAILED: $(cat "$work/$n.name")"
  sed 's/^/    /' "$work/$n.out"
done
elapsed=$(( $(date +%s) - t ))
if [ "$failed" -gt 0 ]; then
  log "$failed of $count translation units FAILED the thread-safety analysis (${elapsed}s)" >&2
  exit 1
fi
log "$count translation units pass -Wthread-safety (${elapsed}s)"
