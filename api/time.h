// Time: a timestamp as the API carries it (metav1.Time, metav1.MicroTime), and RFC 3339 parsing.
//
// Representation: std::chrono::sys_time<std::chrono::nanoseconds>, i.e. a system_clock time point
// holding int64 nanoseconds since the Unix epoch (UTC). It covers 1677-09-21 to 2262-04-11; a
// timestamp outside that range is a parse error. The API server writes metav1.Time with second
// precision ("2025-01-02T03:04:05Z") and metav1.MicroTime with six fractional digits; both parse
// here. A JSON null timestamp (Go's zero time.Time, which metav1.Time writes as null) is
// represented by the caller as std::nullopt, never as a Time value.
//
// Thread-safety: value type; the functions are pure.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::api {

using Time = std::chrono::sys_time<std::chrono::nanoseconds>;

// Parses an RFC 3339 timestamp the way Go's time.Parse(time.RFC3339, s) accepts it:
//   YYYY-MM-DD "T" hh:mm:ss [("." | ",") digits] ("Z" | ("+" | "-") hh:mm)
// Fields are range-checked as Go does (month 1-12, day within the month, hour 0-23, minute and
// second 0-59; the offset's hours 0-24 and minutes 0-60, as Go's general parser allows).
// Fractional digits beyond nine are truncated. Lower-case "t"/"z" and surrounding whitespace are
// rejected.
//
// Errors: InvalidArgument "cannot parse time \"<text>\": <reason>", including for a valid timestamp
// outside the range of Time.
absl::StatusOr<Time> ParseRfc3339(std::string_view text);

// ParseRfc3339 for a metav1.Time / metav1.MicroTime field: Go's zero time.Time
// ("0001-01-01T00:00:00Z", in any offset), which the API treats as unset, is std::nullopt instead of
// an out-of-range error.
absl::StatusOr<std::optional<Time>> ParseApiTime(std::string_view text);

}  // namespace ksched::api
