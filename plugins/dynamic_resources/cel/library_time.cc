// cel-go's timestamp and duration functions (common/stdlib with DefaultUTCTimeZone(true), as
// apiserver's base environment sets it): the timestamp() and duration() conversions and the
// getters getFullYear, getMonth, getDayOfYear, getDayOfMonth, getDate, getDayOfWeek, getHours,
// getMinutes, getSeconds, getMilliseconds (on timestamps: in UTC, or in the zone their string
// argument names; on durations: getHours, getMinutes, getSeconds, getMilliseconds). The
// operators and int()/string() conversions are in library_standard.cc and call the helpers of
// library_time.h.
#include "plugins/dynamic_resources/cel/library_time.h"

#include <limits>
#include <string>

#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/time_zone.h"
#include "plugins/dynamic_resources/cel/timestamp.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

Value TimeResult(const std::optional<Timestamp>& t, const std::string& error) {
  return t.has_value() ? Value::Timestamp(*t) : Value::Error(error);
}

Value ConversionError(const Value& from, std::string_view to) {
  return Value::Error("type conversion error from '" + std::string(TypeNameOf(from)) + "' to '" +
                      std::string(to) + "'");
}

// A timestamp component in the zone of args[1] (UTC without one).
template <typename Component>
Value InZone(std::span<const Value> args, Component component) {
  const Timestamp t = args[0].timestamp();
  std::int64_t offset = 0;
  if (args.size() > 1) {
    if (args[1].kind() != ValueKind::kString) return ErrorOrNoSuchOverload(args[1]);
    std::string error;
    if (!ZoneOffsetAt(args[1].text(), t.seconds, offset, error)) return Value::Error(error);
  }
  return Value::Int(component(ToCivil(t.seconds, offset), t));
}

Value GetFullYear(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return c.year; });
}
Value GetMonth(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.month} - 1; });
}
Value GetDayOfYear(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.year_day} - 1; });
}
Value GetDayOfMonth(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.day} - 1; });
}
Value GetDate(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.day}; });
}
Value GetDayOfWeek(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.weekday}; });
}
Value GetTimestampHours(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.hour}; });
}
Value GetTimestampMinutes(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.minute}; });
}
Value GetTimestampSeconds(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime& c, const Timestamp&) { return std::int64_t{c.second}; });
}
Value GetTimestampMilliseconds(CallContext&, std::span<const Value> args) {
  return InZone(args, [](const CivilTime&, const Timestamp& t) { return std::int64_t{t.nanos / 1000000}; });
}

Value GetDurationHours(CallContext&, std::span<const Value> args) {
  return Value::Int(DurationHours(args[0].duration_nanos()));
}
Value GetDurationMinutes(CallContext&, std::span<const Value> args) {
  return Value::Int(DurationMinutes(args[0].duration_nanos()));
}
Value GetDurationSeconds(CallContext&, std::span<const Value> args) {
  return Value::Int(DurationSeconds(args[0].duration_nanos()));
}
Value GetDurationMilliseconds(CallContext&, std::span<const Value> args) {
  return Value::Int(args[0].duration_nanos() / 1000000);
}

Value TimestampConversion(CallContext&, std::span<const Value> args) { return ToTimestamp(args[0]); }
Value DurationConversion(CallContext&, std::span<const Value> args) { return ToDuration(args[0]); }

}  // namespace

Value ToTimestamp(const Value& value) {
  switch (value.kind()) {
    case ValueKind::kTimestamp: return value;
    case ValueKind::kInt: {
      const Timestamp t{value.int_value(), 0, 0};
      if (!t.InRange()) return Value::Error("timestamp overflow");
      return Value::Timestamp(t);
    }
    case ValueKind::kString: {
      std::optional<Timestamp> t = ParseRfc3339(value.text());
      if (!t.has_value()) break;
      if (!t->InRange()) return Value::Error("timestamp overflow");
      return Value::Timestamp(*t);
    }
    default:
      break;
  }
  return ConversionError(value, "google.protobuf.Timestamp");
}

Value ToDuration(const Value& value) {
  if (value.kind() == ValueKind::kDuration) return value;
  if (value.kind() == ValueKind::kString) {
    if (std::optional<std::int64_t> nanos = ParseGoDuration(value.text()); nanos.has_value()) {
      return Value::Duration(*nanos);
    }
  }
  return ConversionError(value, "google.protobuf.Duration");
}

Value AddTime(const Value& lhs, const Value& rhs) {
  std::string error;
  if (lhs.kind() == ValueKind::kTimestamp && rhs.kind() == ValueKind::kDuration) {
    return TimeResult(cel::AddDuration(lhs.timestamp(), rhs.duration_nanos(), error), error);
  }
  if (lhs.kind() == ValueKind::kDuration && rhs.kind() == ValueKind::kTimestamp) {
    return TimeResult(cel::AddDuration(rhs.timestamp(), lhs.duration_nanos(), error), error);
  }
  if (lhs.kind() == ValueKind::kDuration && rhs.kind() == ValueKind::kDuration) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(lhs.duration_nanos(), rhs.duration_nanos(), &sum)) {
      return Value::Error("integer overflow");
    }
    return Value::Duration(sum);
  }
  return ErrorOrNoSuchOverload(rhs);
}

Value SubtractTime(const Value& lhs, const Value& rhs) {
  std::string error;
  if (lhs.kind() == ValueKind::kTimestamp && rhs.kind() == ValueKind::kDuration) {
    return TimeResult(SubtractDuration(lhs.timestamp(), rhs.duration_nanos(), error), error);
  }
  if (lhs.kind() == ValueKind::kTimestamp && rhs.kind() == ValueKind::kTimestamp) {
    std::optional<std::int64_t> difference = Difference(lhs.timestamp(), rhs.timestamp(), error);
    return difference.has_value() ? Value::Duration(*difference) : Value::Error(error);
  }
  if (lhs.kind() == ValueKind::kDuration && rhs.kind() == ValueKind::kDuration) {
    std::int64_t difference = 0;
    if (__builtin_sub_overflow(lhs.duration_nanos(), rhs.duration_nanos(), &difference)) {
      return Value::Error("integer overflow");
    }
    return Value::Duration(difference);
  }
  return ErrorOrNoSuchOverload(rhs);
}

Value NegateDuration(const Value& duration) {
  if (duration.duration_nanos() == std::numeric_limits<std::int64_t>::min()) return Value::Error("integer overflow");
  return Value::Duration(-duration.duration_nanos());
}

Value TimeToInt(const Value& time) {
  if (time.kind() == ValueKind::kTimestamp) return Value::Int(time.timestamp().seconds);
  return Value::Int(time.duration_nanos());
}

Value TimeToString(const Value& time) {
  if (time.kind() == ValueKind::kTimestamp) return Value::String(FormatRfc3339Nano(time.timestamp()));
  return Value::String(FormatDurationSeconds(time.duration_nanos()));
}

void RegisterTimeLibrary(FunctionRegistry& r) {
  r.Global("duration", "duration_to_duration", "duration -> duration", DurationConversion);
  r.Global("duration", "int64_to_duration", "int -> duration", DurationConversion);
  r.Global("duration", "string_to_duration", "string -> duration", DurationConversion);
  r.Global("timestamp", "timestamp_to_timestamp", "timestamp -> timestamp", TimestampConversion);
  r.Global("timestamp", "int64_to_timestamp", "int -> timestamp", TimestampConversion);
  r.Global("timestamp", "string_to_timestamp", "string -> timestamp", TimestampConversion);

  struct Getter {
    const char* function;
    const char* id;     // the overload ids' stem: timestamp_to_<id>, timestamp_to_<id>_with_tz
    const char* tz_id;  // the with-zone id where cel-go's differs from the pattern
    FunctionImpl timestamp;
    FunctionImpl duration;  // null: no duration overload
  };
  static constexpr Getter kGetters[] = {
      {"getFullYear", "year", nullptr, GetFullYear, nullptr},
      {"getMonth", "month", nullptr, GetMonth, nullptr},
      {"getDayOfYear", "day_of_year", nullptr, GetDayOfYear, nullptr},
      {"getDayOfMonth", "day_of_month", nullptr, GetDayOfMonth, nullptr},
      {"getDate", "day_of_month_1_based", nullptr, GetDate, nullptr},
      {"getDayOfWeek", "day_of_week", nullptr, GetDayOfWeek, nullptr},
      {"getHours", "hours", nullptr, GetTimestampHours, GetDurationHours},
      {"getMinutes", "minutes", nullptr, GetTimestampMinutes, GetDurationMinutes},
      {"getSeconds", "seconds", "timestamp_to_seconds_tz", GetTimestampSeconds, GetDurationSeconds},
      {"getMilliseconds", "milliseconds", nullptr, GetTimestampMilliseconds, GetDurationMilliseconds},
  };
  for (const Getter& g : kGetters) {
    const std::string id = g.id;
    r.Member(g.function, "timestamp_to_" + id, "timestamp -> int", g.timestamp);
    r.Member(g.function, g.tz_id != nullptr ? g.tz_id : "timestamp_to_" + id + "_with_tz", "timestamp, string -> int",
             g.timestamp);
    if (g.duration != nullptr) r.Member(g.function, "duration_to_" + id, "duration -> int", g.duration);
  }
}

}  // namespace ksched::plugins::dynamic_resources::cel
