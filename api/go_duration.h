// Go's time.Duration text forms, as metav1.Duration reads and writes them in configuration files:
//   ParseGoDuration  time.ParseDuration: "15s", "1m30s", "1.5h", "-2ms", "0"; units ns, us, µs,
//                    ms, s, m, h. Errors carry Go's text: time: invalid duration "abc",
//                    time: missing unit in duration "1", time: unknown unit "x" in duration "1x".
//   FormatGoDuration Duration.String(): "15s", "1m30s", "1h0m0.5s", "1.5ms", "0s".
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::api {

absl::StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text);
std::string FormatGoDuration(std::chrono::nanoseconds duration);

}  // namespace ksched::api
