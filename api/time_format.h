// Timestamps written the way the API types serialize them (the inverse of api/time.h parsing):
//   metav1.Time       "2026-11-30T12:00:00Z"         UTC, whole seconds (fraction truncated)
//   metav1.MicroTime  "2026-11-30T12:00:00.123456Z"  UTC, six fractional digits (truncated)
// Go formats with time.RFC3339 / "2006-01-02T15:04:05.000000Z07:00" after UTC(); both truncate
// toward the past (also before 1970).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "api/time.h"

namespace ksched::api {

std::string FormatTime(Time time);
std::string FormatMicroTime(Time time);

}  // namespace ksched::api
