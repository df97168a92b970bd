#include "plugins/dynamic_resources/cel/timestamp.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>

#include "api/go_duration.h"
#include "plugins/dynamic_resources/cel/time_zone.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::int64_t kSecondsPerDay = 86400;

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t DaysFromCivil(std::int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = FloorDiv(year, 400);
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

bool IsLeapYear(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int DaysInMonth(int month, std::int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && IsLeapYear(year)) return 29;
  return kDays[month - 1];
}

bool IsDigitAt(std::string_view s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// Go's getnum: one or two digits (`fixed`: exactly two) from the front of `s`.
bool TakeNumber(std::string_view& s, bool fixed, int& out) {
  if (!IsDigitAt(s, 0)) return false;
  if (!IsDigitAt(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

bool TakeChar(std::string_view& s, char c) {
  if (s.empty() || s[0] != c) return false;
  s.remove_prefix(1);
  return true;
}

void AppendPadded(std::string& out, std::int64_t value, int width) {
  if (value < 0) {
    out += '-';
    value = -value;
  }
  const std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()); i < width; ++i) out += '0';
  out += digits;
}

bool CheckedAdd(std::int64_t a, std::int64_t b, std::int64_t& out, std::string& error) {
  if (__builtin_add_overflow(a, b, &out)) {
    error = "integer overflow";
    return false;
  }
  return true;
}

// The fraction of value / 10^precision as ".ddd" without trailing zeros ("" when it is zero);
// `value` becomes value / 10^precision.
std::string FractionDigits(std::uint64_t& value, int precision) {
  char reversed[20];
  int count = 0;
  bool significant = false;
  for (int i = 0; i < precision; ++i) {
    const auto digit = static_cast<char>('0' + value % 10);
    value /= 10;
    significant = significant || digit != '0';
    if (significant) reversed[count++] = digit;
  }
  std::string out;
  if (count > 0) out.push_back('.');
  for (int i = count - 1; i >= 0; --i) out.push_back(reversed[i]);
  return out;
}

// Nine digits of nanoseconds without trailing zeros ("" for zero), after a '.'.
std::string NanosFraction(std::int32_t nanos) {
  auto value = static_cast<std::uint64_t>(nanos);
  return FractionDigits(value, 9);
}

}  // namespace

CivilTime ToCivil(std::int64_t seconds, std::int64_t offset_seconds) {
  const std::int64_t local = seconds + offset_seconds;
  const std::int64_t days = FloorDiv(local, kSecondsPerDay);
  const std::int64_t second_of_day = local - days * kSecondsPerDay;
  // H. Hinnant's civil_from_days.
  const std::int64_t z = days + 719468;
  const std::int64_t era = FloorDiv(z, 146097);
  const std::int64_t day_of_era = z - era * 146097;
  const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t mp = (5 * day_of_year + 2) / 153;
  CivilTime civil;
  civil.day = static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1);
  civil.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  civil.year = year_of_era + era * 400 + (civil.month <= 2 ? 1 : 0);
  civil.hour = static_cast<int>(second_of_day / 3600);
  civil.minute = static_cast<int>(second_of_day / 60 % 60);
  civil.second = static_cast<int>(second_of_day % 60);
  civil.weekday = static_cast<int>(((days % 7) + 7 + 4) % 7);
  civil.year_day = static_cast<int>(days - DaysFromCivil(civil.year, 1, 1) + 1);
  return civil;
}

std::optional<Timestamp> ParseRfc3339(std::string_view s) {
  // Layout "2006-01-02T15:04:05Z07:00", field by field as Go's general parser reads it.
  if (s.size() < 4) return std::nullopt;
  std::int64_t year = 0;
  for (int i = 0; i < 4; ++i) {
    if (!IsDigitAt(s, static_cast<std::size_t>(i))) return std::nullopt;
    year = year * 10 + (s[static_cast<std::size_t>(i)] - '0');
  }
  s.remove_prefix(4);
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (!TakeChar(s, '-') || !TakeNumber(s, true, month) || month < 1 || month > 12) return std::nullopt;
  if (!TakeChar(s, '-') || !TakeNumber(s, true, day)) return std::nullopt;
  if (!TakeChar(s, 'T') || !TakeNumber(s, false, hour) || hour > 23) return std::nullopt;
  if (!TakeChar(s, ':') || !TakeNumber(s, true, minute) || minute > 59) return std::nullopt;
  if (!TakeChar(s, ':') || !TakeNumber(s, true, second) || second > 59) return std::nullopt;
  std::int32_t nanos = 0;
  if (s.size() >= 2 && (s[0] == '.' || s[0] == ',') && IsDigitAt(s, 1)) {
    std::size_t end = 2;
    while (IsDigitAt(s, end)) ++end;
    // Only the first nine digits count.
    std::int64_t fraction = 0;
    std::size_t digits = 0;
    for (std::size_t i = 1; i < end && digits < 9; ++i, ++digits) fraction = fraction * 10 + (s[i] - '0');
    for (; digits < 9; ++digits) fraction *= 10;
    nanos = static_cast<std::int32_t>(fraction);
    s.remove_prefix(end);
  }
  std::int64_t offset = 0;
  const bool utc = !s.empty() && s[0] == 'Z';
  if (utc) {
    s.remove_prefix(1);
  } else {
    if (s.size() < 6 || s[3] != ':') return std::nullopt;
    std::string_view hours_text = s.substr(1, 2);
    std::string_view minutes_text = s.substr(4, 2);
    int offset_hours = 0;
    int offset_minutes = 0;
    if (!TakeNumber(hours_text, true, offset_hours) || !TakeNumber(minutes_text, true, offset_minutes)) {
      return std::nullopt;
    }
    if (offset_hours > 24 || offset_minutes > 60) return std::nullopt;
    if (s[0] != '+' && s[0] != '-') return std::nullopt;
    offset = (offset_hours * 60 + offset_minutes) * 60;
    if (s[0] == '-') offset = -offset;
    s.remove_prefix(6);
  }
  if (!s.empty()) return std::nullopt;
  if (day < 1 || day > DaysInMonth(month, year)) return std::nullopt;
  Timestamp t;
  t.seconds = DaysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second - offset;
  t.nanos = nanos;
  t.offset_seconds = static_cast<std::int32_t>(offset);
  t.local = !utc && LocalOffsetAt(t.seconds) == offset;
  return t;
}

namespace {

// "2006-01-02<separator>15:04:05" and the fraction's significant digits (".5", none for 0), in
// the timestamp's offset.
std::string DateTimeWithFraction(const Timestamp& t, char separator) {
  const CivilTime c = ToCivil(t.seconds, t.offset_seconds);
  std::string out;
  out.reserve(40);
  AppendPadded(out, c.year, 4);
  out += '-';
  AppendPadded(out, c.month, 2);
  out += '-';
  AppendPadded(out, c.day, 2);
  out += separator;
  AppendPadded(out, c.hour, 2);
  out += ':';
  AppendPadded(out, c.minute, 2);
  out += ':';
  AppendPadded(out, c.second, 2);
  out += NanosFraction(t.nanos);
  return out;
}

}  // namespace

std::string FormatRfc3339Nano(const Timestamp& t) {
  std::string out = DateTimeWithFraction(t, 'T');
  if (t.offset_seconds == 0) {
    out += 'Z';
    return out;
  }
  std::int64_t zone_minutes = t.offset_seconds / 60;
  if (zone_minutes < 0) {
    out += '-';
    zone_minutes = -zone_minutes;
  } else {
    out += '+';
  }
  AppendPadded(out, zone_minutes / 60, 2);
  out += ':';
  AppendPadded(out, zone_minutes % 60, 2);
  return out;
}

std::optional<std::int64_t> ParseGoDuration(std::string_view text) {
  absl::StatusOr<std::chrono::nanoseconds> parsed = api::ParseGoDuration(text);
  if (!parsed.ok()) return std::nullopt;
  return parsed->count();
}

std::string FormatDurationSeconds(std::int64_t nanos) {
  const double seconds =
      static_cast<double>(nanos / kNanosPerSecond) + static_cast<double>(nanos % kNanosPerSecond) / 1e9;
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), seconds, std::chars_format::fixed);
  std::string out(buffer, static_cast<std::size_t>(result.ptr - buffer));
  out += 's';
  return out;
}

std::string FormatGoDuration(std::int64_t nanos) { return api::FormatGoDuration(std::chrono::nanoseconds(nanos)); }

std::string FormatGoTime(const Timestamp& t) {
  std::string out = DateTimeWithFraction(t, ' ');
  std::int64_t zone_minutes = t.offset_seconds / 60;
  std::string numeric = zone_minutes < 0 ? "-" : "+";
  if (zone_minutes < 0) zone_minutes = -zone_minutes;
  AppendPadded(numeric, zone_minutes / 60, 2);
  AppendPadded(numeric, zone_minutes % 60, 2);
  out += ' ';
  out += numeric;
  out += ' ';
  // The zone's name: UTC for an offset of zero (the local zone), else none, printed as -0700.
  out += t.offset_seconds == 0 ? "UTC" : numeric;
  return out;
}

std::optional<Timestamp> AddDuration(const Timestamp& t, std::int64_t nanos, std::string& error) {
  std::int64_t seconds = 0;
  if (!CheckedAdd(t.seconds, nanos / kNanosPerSecond, seconds, error)) return std::nullopt;
  std::int64_t nano_part = t.nanos + nanos % kNanosPerSecond;
  if (nano_part < 0 || nano_part >= kNanosPerSecond) {
    if (!CheckedAdd(seconds, nano_part / kNanosPerSecond, seconds, error)) return std::nullopt;
    nano_part -= (nano_part / kNanosPerSecond) * kNanosPerSecond;
    if (nano_part < 0) {
      if (!CheckedAdd(seconds, -1, seconds, error)) return std::nullopt;
      nano_part += kNanosPerSecond;
    }
  }
  Timestamp out{seconds, static_cast<std::int32_t>(nano_part), t.offset_seconds, t.local};
  if (!out.InRange()) {
    error = "timestamp overflow";
    return std::nullopt;
  }
  return out;
}

std::optional<Timestamp> SubtractDuration(const Timestamp& t, std::int64_t nanos, std::string& error) {
  if (nanos == std::numeric_limits<std::int64_t>::min()) {
    error = "integer overflow";
    return std::nullopt;
  }
  return AddDuration(t, -nanos, error);
}

std::optional<std::int64_t> Difference(const Timestamp& a, const Timestamp& b, std::string& error) {
  std::int64_t seconds = 0;
  std::int64_t scaled = 0;
  std::int64_t out = 0;
  if (__builtin_sub_overflow(a.seconds, b.seconds, &seconds) ||
      __builtin_mul_overflow(seconds, kNanosPerSecond, &scaled) ||
      __builtin_add_overflow(scaled, static_cast<std::int64_t>(a.nanos) - b.nanos, &out)) {
    error = "integer overflow";
    return std::nullopt;
  }
  return out;
}

int CompareTimestamps(const Timestamp& a, const Timestamp& b) {
  if (a.seconds != b.seconds) return a.seconds < b.seconds ? -1 : 1;
  if (a.nanos != b.nanos) return a.nanos < b.nanos ? -1 : 1;
  return 0;
}

std::int64_t DurationHours(std::int64_t nanos) {
  constexpr std::int64_t kHour = 3600 * kNanosPerSecond;
  return static_cast<std::int64_t>(static_cast<double>(nanos / kHour) + static_cast<double>(nanos % kHour) / 3.6e12);
}

std::int64_t DurationMinutes(std::int64_t nanos) {
  constexpr std::int64_t kMinute = 60 * kNanosPerSecond;
  return static_cast<std::int64_t>(static_cast<double>(nanos / kMinute) + static_cast<double>(nanos % kMinute) / 6e10);
}

std::int64_t DurationSeconds(std::int64_t nanos) {
  return static_cast<std::int64_t>(static_cast<double>(nanos / kNanosPerSecond) +
                                   static_cast<double>(nanos % kNanosPerSecond) / 1e9);
}

}  // namespace ksched::plugins::dynamic_resources::cel
