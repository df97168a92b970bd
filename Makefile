# The two commands of the README:
#   make demo   install dependencies, build, start a local real control plane with sample nodes and
#               pods, run the scheduler against it
#   make test   install dependencies, build, run unit and integration tests (CI runs exactly this)
# Other targets: build (Release), debug (Debug build in build-debug/), controlplane (Go-built
# binaries, cached), cluster-up / cluster-down / cluster-list, unit-test, bench-decode (the api
# layer's JSON decode throughput and bytes per cached pod/node; BENCH_ARGS="--json FILE" also writes
# them as JSON), bench (bench/scheduler_perf.py: every workload, ours vs upstream vs the null binder,
# plus the in-process decision rate; results in docs/bench/<timestamp>/; PERF_ARGS="--workloads ...
# --scale 0.1" passes options), bench-short (the same at smoke sizes, into $(BUILD_DIR)/bench-short),
# bench-gpu (the GPU packing study of docs/gpu-packing.md; BENCH_ARGS="--runs 5" passes options),
# sanitize-test (one clang build in build-asan/: the unit tests run under ASan + UBSan, every
# translation unit through clang's thread-safety analysis, the fuzz targets built for `make fuzz`;
# SANITIZE_ARGS="-R ^client" selects other tests), sanitize-chaos (the short chaos suite with that
# build's daemon), tsan-test (ThreadSanitizer: the unit tests and
# one scenario on the real control plane, in build-tsan/; TSAN_ARGS as SANITIZE_ARGS), fuzz
# (libFuzzer over fuzz/'s targets with clang, ASan and UBSan, FUZZ_SECONDS each, in build-fuzz/ or
# FUZZ_BUILD_DIR=build-asan after sanitize-test; their corpora replay as unit tests in every
# build), chaos (fault scenarios on the real control plane with
# invariants watched, ours next to upstream; docs/chaos/), thread-safety (clang 16's
# -Wthread-safety over every translation unit of $(BUILD_DIR)'s compile commands: members
# ABSL_GUARDED_BY a base::Mutex touched without it fail; base/mutex.h), clean.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
KSCHED_WERROR ?=
CTEST_ARGS ?=
BENCH_ARGS ?=
PERF_ARGS ?=

.PHONY: all deps build debug sanitize-test sanitize-chaos tsan-test controlplane test unit-test bench-decode bench-gpu fuzz chaos thread-safety \
        bench-deps bench bench-short demo cluster-up cluster-down cluster-list clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@BUILD_DIR=$(BUILD_DIR) BUILD_TYPE=$(BUILD_TYPE) KSCHED_WERROR=$(KSCHED_WERROR) scripts/build.sh

debug:
	@$(MAKE) --no-print-directory build BUILD_DIR=build-debug BUILD_TYPE=Debug

# The flags and why: cmake/sanitize.cmake (clang 16, -O1 with line tables, asserts kept, libFuzzer
# instrumentation, -Werror=thread-safety). Builds everything (the daemon, benchmarks and
# integration tests too, so that the thread-safety analysis sees every translation unit), then runs
# SANITIZE_ARGS' tests. CI runs it (.ci/run), then the fuzzing pass from the same build.
SANITIZE_ARGS ?= -L unit
SANITIZE_ENV = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
sanitize-test: deps
	@scripts/install-deps.sh --fuzz
	@BUILD_DIR=build-asan BUILD_TYPE=Debug KSCHED_SANITIZE=address,undefined CMAKE_INIT=cmake/sanitize.cmake \
	  scripts/build.sh
	@cd build-asan && $(SANITIZE_ENV) ctest --output-on-failure $(SANITIZE_ARGS)

# The short chaos suite (integration.chaos_short) with build-asan's daemon, after sanitize-test: a
# sanitizer report aborts the daemon, which the suite counts as crashed. Leak checks off: the suite
# kills and restarts the daemon on purpose, and the unit tests check for leaks. CI runs it.
sanitize-chaos: controlplane
	@test -f build-asan/CMakeCache.txt || { echo "[sanitize-chaos] FAILED: no build-asan/ (run make sanitize-test first)" >&2; exit 1; }
	@cmake --build build-asan
	@cd build-asan && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1 \
	  ctest --output-on-failure -R '^integration\.chaos_short$$'

# ThreadSanitizer in build-tsan/: the unit tests, then one integration test on the real control
# plane, integration.scheduler's binary (SchedulerApp with two profiles: reflectors, scheduling
# thread, binding threads, queue flush loop, 16 pods bound; the event recorder's worker, async
# binds, evictions), about 10 s. Debug at -O1 (CXXFLAGS is read when build-tsan/ is first
# configured): TSan at -O0 runs several times slower; -Wno-tsan: GCC warns at every
# std::atomic_thread_fence (Boost.Asio's fenced blocks), which TSan does not model. Reports that
# are not ours are suppressed in tests/sanitizers/tsan.supp, each with its reason. Not in CI.
TSAN_ARGS ?= -L unit
TSAN_ENV = TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/sanitizers/tsan.supp"
tsan-test: deps controlplane
	@CXXFLAGS="-O1 -Wno-tsan" BUILD_DIR=build-tsan BUILD_TYPE=Debug KSCHED_SANITIZE=thread \
	  BUILD_TARGETS="ksched_unit_tests ksched_scheduler_integration_tests" scripts/build.sh
	@cd build-tsan && $(TSAN_ENV) ctest --output-on-failure $(TSAN_ARGS)
	@echo "[tsan-test] integration.scheduler on the real control plane"
	@$(TSAN_ENV) tests/integration/run_with_controlplane.sh build-tsan/tests/integration/ksched_scheduler_integration_tests

controlplane: deps
	@tests/controlplane/build.sh >/dev/null

test: build controlplane
	@echo "[make test] running unit and integration tests (ctest)"
	@cd $(BUILD_DIR) && ctest --output-on-failure $(CTEST_ARGS)

unit-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L unit $(CTEST_ARGS)

bench-decode: build
	@$(BUILD_DIR)/bench/ksched_decode_bench $(BENCH_ARGS)

bench-gpu: build
	@$(BUILD_DIR)/bench/ksched_gpu_packing_bench $(BENCH_ARGS)

# libFuzzer over every decoder of outside input (fuzz/), ASan and UBSan, in build-fuzz/;
# FUZZ_SECONDS per target (default 60), or FUZZ_RUNS=N inputs from the checked-in corpus with a
# fixed seed (CI); FUZZ_TARGETS to pick some (default: all).
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_BUILD_DIR ?=
fuzz:
	@scripts/install-deps.sh --fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) scripts/fuzz.sh $(FUZZ_TARGETS)

# The chaos suite (tests/chaos/chaos.py, docs/chaos.md): fault scenarios on the real control plane
# with the invariants watched, kube-scheduler-cpp and upstream side by side; the table into
# docs/chaos/. CHAOS_ARGS passes options (--short, --scenarios a,b, --rounds N, --schedulers ours).
# CI runs the short suite for kube-scheduler-cpp as the ctest integration.chaos_short.
CHAOS_ARGS ?=
chaos: build controlplane
	@python3 tests/chaos/chaos.py --build-dir $(BUILD_DIR) --out docs/chaos $(CHAOS_ARGS)

# Syntax-only clang passes (nothing is built); configures $(BUILD_DIR) first if it has no compile
# commands. TSA_JOBS translation units at a time (default 2).
thread-safety:
	@scripts/install-deps.sh --clang
	@BUILD_DIR=$(BUILD_DIR) scripts/thread_safety_check.sh

bench-deps:
	@scripts/install-deps.sh --bench

# The benchmark draws its plots with Debian's python3-matplotlib: run it with Debian's interpreter
# (a python3 earlier on PATH, e.g. pyenv's, does not see Debian's packages).
BENCH_PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

bench: build controlplane bench-deps
	@$(BENCH_PYTHON) bench/scheduler_perf.py --build-dir $(BUILD_DIR) $(PERF_ARGS)

bench-short: build controlplane
	@$(BENCH_PYTHON) bench/scheduler_perf.py --short --build-dir $(BUILD_DIR) --out $(BUILD_DIR)/bench-short \
	  --log-dir $(BUILD_DIR)/bench-short-logs --verify $(PERF_ARGS)

demo: build controlplane
	@BUILD_DIR=$(BUILD_DIR) scripts/demo.sh

cluster-up: controlplane
	@tests/controlplane/start.sh --with-kcm

cluster-down:
	@tests/controlplane/stop.sh --all

cluster-list:
	@tests/controlplane/stop.sh --list

clean:
	rm -rf build build-debug build-asan build-tsan build-fuzz
