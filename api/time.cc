#include "api/time.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace ksched::api {

namespace {

absl::Status TimeError(std::string_view text, std::string_view reason) {
  std::string message = "cannot parse time \"";
  message.append(text);
  message.append("\": ");
  message.append(reason);
  return absl::InvalidArgumentError(message);
}

// Reads exactly `width` decimal digits at text[pos]; false if any is not a digit.
bool ReadDigits(std::string_view text, std::size_t pos, std::size_t width, int& out) {
  if (pos + width > text.size()) return false;
  int value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  out = value;
  return true;
}

struct Parsed {
  std::int64_t seconds;  // since the epoch, UTC
  std::int64_t nanos;    // 0..999999999
};

// Seconds since the Unix epoch of Go's zero time, 0001-01-01T00:00:00Z.
constexpr std::int64_t kGoZeroTimeSeconds = -62135596800;

absl::StatusOr<Parsed> Parse(std::string_view text) {
  // 0123456789012345678
  // YYYY-MM-DDThh:mm:ss
  int year = 0;
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (text.size() < 20 || !ReadDigits(text, 0, 4, year) || text[4] != '-' ||
      !ReadDigits(text, 5, 2, month) || text[7] != '-' || !ReadDigits(text, 8, 2, day) ||
      text[10] != 'T' || !ReadDigits(text, 11, 2, hour) || text[13] != ':' ||
      !ReadDigits(text, 14, 2, minute) || text[16] != ':' || !ReadDigits(text, 17, 2, second)) {
    return TimeError(text, "not in RFC 3339 format (YYYY-MM-DDThh:mm:ssZ)");
  }
  if (month < 1 || month > 12) return TimeError(text, "month out of range");
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (day < 1 || !date.ok()) return TimeError(text, "day out of range");
  if (hour > 23) return TimeError(text, "hour out of range");
  if (minute > 59) return TimeError(text, "minute out of range");
  if (second > 59) return TimeError(text, "second out of range");

  std::size_t pos = 19;
  std::int64_t nanos = 0;
  if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
    ++pos;
    const std::size_t start = pos;
    int taken = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (taken < 9) {
        nanos = nanos * 10 + (text[pos] - '0');
        ++taken;
      }
      ++pos;
    }
    if (pos == start) return TimeError(text, "missing digits after the decimal point");
    for (; taken < 9; ++taken) nanos *= 10;
  }

  std::int64_t offset_seconds = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool negative = text[pos] == '-';
    int offset_hour = 0;
    int offset_minute = 0;
    if (!ReadDigits(text, pos + 1, 2, offset_hour) || pos + 3 >= text.size() ||
        text[pos + 3] != ':' || !ReadDigits(text, pos + 4, 2, offset_minute)) {
      return TimeError(text, "malformed time zone offset");
    }
    if (offset_hour > 24 || offset_minute > 60) {
      return TimeError(text, "time zone offset out of range");
    }
    offset_seconds = (offset_hour * 3600 + offset_minute * 60) * (negative ? -1 : 1);
    pos += 6;
  } else {
    return TimeError(text, "missing time zone (Z or +hh:mm)");
  }
  if (pos != text.size()) return TimeError(text, "extra text after the time zone");

  const std::int64_t days = std::chrono::sys_days{date}.time_since_epoch().count();
  // Years 0000-9999 keep this well inside int64.
  return Parsed{days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds, nanos};
}

absl::StatusOr<Time> ToTime(std::string_view text, const Parsed& parsed) {
  std::int64_t total = 0;
  if (__builtin_mul_overflow(parsed.seconds, std::int64_t{1'000'000'000}, &total) ||
      __builtin_add_overflow(total, parsed.nanos, &total)) {
    return TimeError(text, "out of the representable range (years 1677 to 2262)");
  }
  return Time{std::chrono::nanoseconds{total}};
}

}  // namespace

absl::StatusOr<Time> ParseRfc3339(std::string_view text) {
  absl::StatusOr<Parsed> parsed = Parse(text);
  if (!parsed.ok()) return parsed.status();
  return ToTime(text, *parsed);
}

absl::StatusOr<std::optional<Time>> ParseApiTime(std::string_view text) {
  absl::StatusOr<Parsed> parsed = Parse(text);
  if (!parsed.ok()) return parsed.status();
  if (parsed->seconds == kGoZeroTimeSeconds && parsed->nanos == 0) return std::nullopt;
  absl::StatusOr<Time> time = ToTime(text, *parsed);
  if (!time.ok()) return time.status();
  return std::optional<Time>(*time);
}

}  // namespace ksched::api
