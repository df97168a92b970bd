// The timestamp and duration operations the standard library's operators and conversions
// delegate to (library_time.cc), with cel-go's results and errors:
//   timestamp + duration, duration + timestamp, duration + duration; timestamp - duration,
//   timestamp - timestamp, duration - duration ("integer overflow", "timestamp overflow"; an
//   operand of another type is "no such overload"); -duration; int(t) (Unix seconds), int(d)
//   (nanoseconds); string(t) (RFC 3339 in t's offset), string(d) ("1.5s").
// `lhs` must be a timestamp or a duration.
//
// Thread-safety: pure functions.
#pragma once

#include "plugins/dynamic_resources/cel/value.h"

namespace ksched::plugins::dynamic_resources::cel {

Value AddTime(const Value& lhs, const Value& rhs);
Value SubtractTime(const Value& lhs, const Value& rhs);
Value NegateDuration(const Value& duration);
Value TimeToInt(const Value& time);
Value TimeToString(const Value& time);

// timestamp(x) and duration(x) as cel-go converts (also used by the literal validators).
Value ToTimestamp(const Value& value);
Value ToDuration(const Value& value);

}  // namespace ksched::plugins::dynamic_resources::cel
