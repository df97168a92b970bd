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
# bench-gpu (the GPU packing study of docs/gpu-packing.md; BENCH_ARGS="--runs 5" passes options), clean.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
KSCHED_WERROR ?=
CTEST_ARGS ?=
BENCH_ARGS ?=
PERF_ARGS ?=

.PHONY: all deps build debug controlplane test unit-test bench-decode bench-gpu bench bench-short demo cluster-up \
        cluster-down cluster-list clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@BUILD_DIR=$(BUILD_DIR) BUILD_TYPE=$(BUILD_TYPE) KSCHED_WERROR=$(KSCHED_WERROR) scripts/build.sh

debug:
	@$(MAKE) --no-print-directory build BUILD_DIR=build-debug BUILD_TYPE=Debug

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

bench: build controlplane
	@python3 bench/scheduler_perf.py --build-dir $(BUILD_DIR) $(PERF_ARGS)

bench-short: build controlplane
	@python3 bench/scheduler_perf.py --short --build-dir $(BUILD_DIR) --out $(BUILD_DIR)/bench-short \
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
	rm -rf build build-debug
