// CEL timestamps and durations with the semantics cel-go gives them through Go's time package:
//   - A timestamp is an instant (Unix seconds, floor, and nanoseconds) within cel-go's range
//     0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z, plus the UTC offset it prints with
//     (string(t) keeps the offset an RFC 3339 literal was written with; arithmetic keeps it).
//   - A duration is a signed count of nanoseconds (Go's time.Duration, about +-292 years).
//   - Parsing: timestamps as Go's time.Parse(time.RFC3339, s) (two-digit fields but a one- or
//     two-digit hour, fractional seconds after '.' or ',' truncated to nanoseconds, "Z" or an
//     offset up to +-24:60); durations as time.ParseDuration ("1h30m", "-1.5s", "2us", "0").
//   - Formatting: string(timestamp) is time.RFC3339Nano in the timestamp's offset;
//     string(duration) is strconv.FormatFloat(seconds, 'f', -1, 64) + "s".
//   - Arithmetic fails as cel-go's checked operations do: "integer overflow" when an int64
//     (seconds, nanoseconds) overflows, "timestamp overflow" when a result leaves the range.
//
// Go's parser gives an offset equal to the local zone's (time.Local: $TZ, else /etc/localtime;
// UTC in the usual kube-scheduler container) the local zone itself; see Timestamp::local.
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ksched::plugins::dynamic_resources::cel {

inline constexpr std::int64_t kMinTimestampSeconds = -62135596800;  // 0001-01-01T00:00:00Z
inline constexpr std::int64_t kMaxTimestampSeconds = 253402300799;  // 9999-12-31T23:59:59Z
inline constexpr std::int64_t kNanosPerSecond = 1000000000;

struct Timestamp {
  std::int64_t seconds = 0;          // Unix seconds (floor)
  std::int32_t nanos = 0;            // [0, 1e9)
  std::int32_t offset_seconds = 0;   // east of UTC: how string() prints it
  // In Go's time.Local (an RFC 3339 offset equal to the local zone's): the offset then follows
  // the local zone at each instant, as arithmetic moves it.
  bool local = false;

  bool InRange() const { return seconds >= kMinTimestampSeconds && seconds <= kMaxTimestampSeconds; }
};

// A civil (wall-clock) time in the proleptic Gregorian calendar.
struct CivilTime {
  std::int64_t year = 1970;
  int month = 1;      // 1..12
  int day = 1;        // 1..31
  int hour = 0;
  int minute = 0;
  int second = 0;
  int weekday = 4;    // 0 = Sunday
  int year_day = 1;   // 1..366
};

// The wall-clock time `offset_seconds` east of UTC at Unix second `seconds`.
CivilTime ToCivil(std::int64_t seconds, std::int64_t offset_seconds);

// time.Parse(time.RFC3339, text); nullopt when Go rejects it. The result may be out of range
// (the caller reports "timestamp overflow").
std::optional<Timestamp> ParseRfc3339(std::string_view text);
// t.Format(time.RFC3339Nano) in the timestamp's offset.
std::string FormatRfc3339Nano(const Timestamp& t);

// time.ParseDuration(text) in nanoseconds; nullopt when Go rejects it.
std::optional<std::int64_t> ParseGoDuration(std::string_view text);
// string(duration): seconds with the shortest decimal digits, then "s" ("5400s", "-1.5s").
std::string FormatDurationSeconds(std::int64_t nanos);

// Go's %v of a time.Duration ("1h30m0s", "1.5µs", "0s") and of a time.Time in the timestamp's
// offset ("2023-01-01 00:00:00 +0000 UTC", "2023-01-01 00:00:00.5 +0530 +0530"), as cel-go's
// messages print them.
std::string FormatGoDuration(std::int64_t nanos);
std::string FormatGoTime(const Timestamp& t);

// Checked arithmetic; on failure `error` gets cel-go's message.
std::optional<Timestamp> AddDuration(const Timestamp& t, std::int64_t nanos, std::string& error);
std::optional<Timestamp> SubtractDuration(const Timestamp& t, std::int64_t nanos, std::string& error);
std::optional<std::int64_t> Difference(const Timestamp& a, const Timestamp& b, std::string& error);

// -1, 0 or 1 by instant (the offsets do not matter).
int CompareTimestamps(const Timestamp& a, const Timestamp& b);

// Go's time.Duration methods Hours(), Minutes(), Seconds() (float64) truncated to int64, as
// cel-go's duration getters compute them.
std::int64_t DurationHours(std::int64_t nanos);
std::int64_t DurationMinutes(std::int64_t nanos);
std::int64_t DurationSeconds(std::int64_t nanos);

}  // namespace ksched::plugins::dynamic_resources::cel
