# Initial cache of the sanitizer build (`make sanitize-test`, CI; scripts/build.sh passes it with
# -C): one clang 16 build that is at once
#   - the unit tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang's UBSan, with
#     float-cast-overflow, which GCC's lacks: the score casts),
#   - the fuzz targets linked with libFuzzer (KSCHED_FUZZ: every layer coverage-instrumented), so
#     that `make fuzz FUZZ_BUILD_DIR=build-asan` runs them without another build,
#   - clang's thread-safety analysis as errors (KSCHED_THREAD_SAFETY) over every translation unit.
# -O1: several times faster under ASan than -O0 for little more compile time; line tables only:
# the reports' stacks need file:line, not variables, and full debug info doubles the link time.
# Asserts stay on (Debug: no NDEBUG).
set(CMAKE_CXX_COMPILER clang++-16 CACHE STRING "")
set(CMAKE_CXX_FLAGS_DEBUG "-O1 -gline-tables-only" CACHE STRING "")
set(KSCHED_FUZZ ON CACHE BOOL "")
set(KSCHED_THREAD_SAFETY ON CACHE BOOL "")
