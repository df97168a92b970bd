// Debug-build consistency checks: checks too costly for a Release build's hot paths (recomputing
// what a cache claims to hold, walking every node), run when NDEBUG is not defined (Debug and
// sanitizer builds, `make debug`, `make sanitize-test`).
//
// Write them as `if constexpr (framework::kDebugChecks) { ... }`: Release builds still compile the
// check (it cannot rot) and drop it, so it costs nothing there. A failed check is a broken
// invariant: BrokenInvariant prints what broke and aborts, as the project's other invariant checks
// do (std::abort with the message on stderr).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ksched::framework {

#ifdef NDEBUG
inline constexpr bool kDebugChecks = false;
#else
inline constexpr bool kDebugChecks = true;
#endif

// Writes "broken invariant: <what>" to stderr and aborts.
[[noreturn]] inline void BrokenInvariant(std::string_view what) {
  std::fprintf(stderr, "broken invariant: %.*s\n", static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  std::abort();
}

}  // namespace ksched::framework
