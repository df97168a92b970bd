#include "plugins/dynamic_resources/cel/tzif.h"

#include <limits>

#include "plugins/dynamic_resources/cel/timestamp.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::int64_t kSecondsPerHour = 3600;
constexpr std::int64_t kSecondsPerDay = 86400;

// Go's dataIO: reads that run past the end fail and poison the reader.
class DataReader {
 public:
  explicit DataReader(std::string_view data) : rest_(data) {}

  std::string_view Read(std::size_t n) {
    if (rest_.size() < n) {
      rest_ = {};
      failed_ = true;
      return {};
    }
    std::string_view out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return out;
  }
  bool Big4(std::uint32_t& out) {
    const std::string_view p = Read(4);
    if (p.size() < 4) return Fail();
    out = 0;
    for (char c : p) out = (out << 8) | static_cast<unsigned char>(c);
    return true;
  }
  bool Big8(std::uint64_t& out) {
    const std::string_view p = Read(8);
    if (p.size() < 8) return Fail();
    out = 0;
    for (char c : p) out = (out << 8) | static_cast<unsigned char>(c);
    return true;
  }
  bool Byte(std::uint8_t& out) {
    const std::string_view p = Read(1);
    if (p.size() < 1) return Fail();
    out = static_cast<std::uint8_t>(p[0]);
    return true;
  }
  std::string_view rest() const { return rest_; }
  bool failed() const { return failed_; }

 private:
  bool Fail() {
    failed_ = true;
    return false;
  }
  std::string_view rest_;
  bool failed_ = false;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// --- the POSIX TZ rule, as Go's tzset reads and applies it ------------------------------------

bool RuleNumber(std::string_view& s, std::int64_t min, std::int64_t max, std::int64_t& out) {
  if (s.empty()) return false;
  std::int64_t number = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!IsDigit(s[i])) {
      if (i == 0 || number < min) return false;
      out = number;
      s.remove_prefix(i);
      return true;
    }
    number = number * 10 + (s[i] - '0');
    if (number > max) return false;
  }
  if (number < min) return false;
  out = number;
  s = {};
  return true;
}

bool RuleName(std::string_view& s) {
  if (s.empty()) return false;
  if (s[0] != '<') {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (IsDigit(c) || c == ',' || c == '-' || c == '+') {
        if (i < 3) return false;
        s.remove_prefix(i);
        return true;
      }
    }
    if (s.size() < 3) return false;
    s = {};
    return true;
  }
  const std::size_t close = s.find('>');
  if (close == std::string_view::npos) return false;
  s.remove_prefix(close + 1);
  return true;
}

bool RuleOffset(std::string_view& s, std::int64_t& out) {
  if (s.empty()) return false;
  bool negative = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    s.remove_prefix(1);
    negative = true;
  }
  std::int64_t hours = 0;
  if (!RuleNumber(s, 0, 24 * 7, hours)) return false;
  std::int64_t offset = hours * kSecondsPerHour;
  if (!s.empty() && s[0] == ':') {
    s.remove_prefix(1);
    std::int64_t minutes = 0;
    if (!RuleNumber(s, 0, 59, minutes)) return false;
    offset += minutes * 60;
    if (!s.empty() && s[0] == ':') {
      s.remove_prefix(1);
      std::int64_t seconds = 0;
      if (!RuleNumber(s, 0, 59, seconds)) return false;
      offset += seconds;
    }
  }
  out = negative ? -offset : offset;
  return true;
}

struct Rule {
  enum class Kind { kJulian, kDayOfYear, kMonthWeekDay } kind = Kind::kJulian;
  std::int64_t day = 0;
  std::int64_t week = 0;
  std::int64_t month = 0;
  std::int64_t time = 2 * kSecondsPerHour;
};

bool ParseRule(std::string_view& s, Rule& rule) {
  if (s.empty()) return false;
  if (s[0] == 'J') {
    s.remove_prefix(1);
    if (!RuleNumber(s, 1, 365, rule.day)) return false;
    rule.kind = Rule::Kind::kJulian;
  } else if (s[0] == 'M') {
    s.remove_prefix(1);
    if (!RuleNumber(s, 1, 12, rule.month) || s.empty() || s[0] != '.') return false;
    s.remove_prefix(1);
    if (!RuleNumber(s, 1, 5, rule.week) || s.empty() || s[0] != '.') return false;
    s.remove_prefix(1);
    if (!RuleNumber(s, 0, 6, rule.day)) return false;
    rule.kind = Rule::Kind::kMonthWeekDay;
  } else {
    if (!RuleNumber(s, 0, 365, rule.day)) return false;
    rule.kind = Rule::Kind::kDayOfYear;
  }
  if (s.empty() || s[0] != '/') return true;
  s.remove_prefix(1);
  return RuleOffset(s, rule.time);
}

bool IsLeap(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

std::int64_t DaysIn(std::int64_t month, std::int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && IsLeap(year)) return 29;
  return kDays[month - 1];
}

std::int64_t DaysBefore(std::int64_t month) {
  static constexpr int kBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
  return kBefore[month - 1];
}

// Seconds into `year` (local standard time `offset`) at which `rule` switches.
std::int64_t RuleTime(std::int64_t year, const Rule& rule, std::int64_t offset) {
  std::int64_t seconds = 0;
  switch (rule.kind) {
    case Rule::Kind::kJulian:
      seconds = (rule.day - 1) * kSecondsPerDay;
      if (IsLeap(year) && rule.day >= 60) seconds += kSecondsPerDay;
      break;
    case Rule::Kind::kDayOfYear:
      seconds = rule.day * kSecondsPerDay;
      break;
    case Rule::Kind::kMonthWeekDay: {
      // Zeller's congruence for the weekday of the month's first day.
      const std::int64_t m1 = (rule.month + 9) % 12 + 1;
      std::int64_t yy0 = year;
      if (rule.month <= 2) --yy0;
      const std::int64_t yy1 = yy0 / 100;
      const std::int64_t yy2 = yy0 % 100;
      std::int64_t dow = ((26 * m1 - 2) / 10 + 1 + yy2 + yy2 / 4 + yy1 / 4 - 2 * yy1) % 7;
      if (dow < 0) dow += 7;
      std::int64_t day = rule.day - dow;
      if (day < 0) day += 7;
      for (std::int64_t i = 1; i < rule.week; ++i) {
        if (day + 7 >= DaysIn(rule.month, year)) break;
        day += 7;
      }
      day += DaysBefore(rule.month);
      if (IsLeap(year) && rule.month > 2) ++day;
      seconds = day * kSecondsPerDay;
      break;
    }
  }
  return seconds + rule.time - offset;
}

// Go's tzset: the offset `rule` gives at `unix_seconds`, or nullopt when Go cannot read it.
std::optional<std::int64_t> RuleOffsetAt(std::string_view s, std::int64_t unix_seconds) {
  std::int64_t std_offset = 0;
  if (!RuleName(s) || !RuleOffset(s, std_offset)) return std::nullopt;
  std_offset = -std_offset;
  if (s.empty() || s[0] == ',') return std_offset;
  std::int64_t dst_offset = 0;
  if (!RuleName(s)) return std::nullopt;
  if (s.empty() || s[0] == ',') {
    dst_offset = std_offset + kSecondsPerHour;
  } else {
    if (!RuleOffset(s, dst_offset)) return std::nullopt;
    dst_offset = -dst_offset;
  }
  if (s.empty()) s = ",M3.2.0,M11.1.0";
  if (s[0] != ',' && s[0] != ';') return std::nullopt;
  s.remove_prefix(1);
  Rule start_rule;
  if (!ParseRule(s, start_rule) || s.empty() || s[0] != ',') return std::nullopt;
  s.remove_prefix(1);
  Rule end_rule;
  if (!ParseRule(s, end_rule) || !s.empty()) return std::nullopt;

  const CivilTime civil = ToCivil(unix_seconds, 0);
  // Go's arithmetic, truncating remainder included.
  const std::int64_t year_seconds = (civil.year_day - 1) * kSecondsPerDay + unix_seconds % kSecondsPerDay;
  std::int64_t start = RuleTime(civil.year, start_rule, std_offset);
  std::int64_t end = RuleTime(civil.year, end_rule, dst_offset);
  if (end < start) {
    std::swap(start, end);
    std::swap(std_offset, dst_offset);
  }
  if (year_seconds < start || year_seconds >= end) return std_offset;
  return dst_offset;
}

}  // namespace

std::optional<TzifZone> TzifZone::Parse(std::string_view data) {
  DataReader d(data);
  if (d.Read(4) != "TZif") return std::nullopt;
  const std::string_view header = d.Read(16);
  if (header.size() != 16) return std::nullopt;
  int version = 0;
  switch (header[0]) {
    case '\0': version = 1; break;
    case '2': version = 2; break;
    case '3': version = 3; break;
    default: return std::nullopt;
  }
  enum { kUtcLocal, kStdWall, kLeap, kTime, kZone, kChar };
  std::uint64_t n[6] = {};
  auto read_counts = [&] {
    for (std::uint64_t& count : n) {
      std::uint32_t value = 0;
      if (!d.Big4(value)) return false;
      count = value;
    }
    return true;
  };
  if (!read_counts()) return std::nullopt;
  bool is64 = false;
  if (version > 1) {
    // Skip the 32-bit data and the second header's magic and version.
    const std::uint64_t skip = n[kTime] * 4 + n[kTime] + n[kZone] * 6 + n[kChar] + n[kLeap] * 8 + n[kStdWall] +
                               n[kUtcLocal] + 4 + 16;
    d.Read(skip);
    is64 = true;
    if (!read_counts()) return std::nullopt;
  }
  const std::uint64_t size = is64 ? 8 : 4;
  DataReader times(d.Read(n[kTime] * size));
  const std::string_view type_indexes = d.Read(n[kTime]);
  DataReader type_data(d.Read(n[kZone] * 6));
  const std::string_view abbreviations = d.Read(n[kChar]);
  d.Read(n[kLeap] * (size + 4));  // leap seconds: read past, not applied
  d.Read(n[kStdWall]);
  d.Read(n[kUtcLocal]);
  if (d.failed()) return std::nullopt;

  TzifZone zone;
  const std::string_view rest = d.rest();
  if (rest.size() > 2 && rest.front() == '\n' && rest.back() == '\n') zone.rule_ = rest.substr(1, rest.size() - 2);

  if (n[kZone] == 0) return std::nullopt;
  zone.types_.resize(n[kZone]);
  for (LocalType& type : zone.types_) {
    std::uint32_t offset = 0;
    std::uint8_t is_dst = 0;
    std::uint8_t abbreviation = 0;
    if (!type_data.Big4(offset) || !type_data.Byte(is_dst) || !type_data.Byte(abbreviation) ||
        abbreviation >= abbreviations.size()) {
      return std::nullopt;
    }
    type.offset = static_cast<std::int32_t>(offset);
    type.is_dst = is_dst != 0;
  }
  zone.transitions_.resize(n[kTime]);
  for (std::size_t i = 0; i < zone.transitions_.size(); ++i) {
    Transition& transition = zone.transitions_[i];
    if (is64) {
      std::uint64_t when = 0;
      if (!times.Big8(when)) return std::nullopt;
      transition.when = static_cast<std::int64_t>(when);
    } else {
      std::uint32_t when = 0;
      if (!times.Big4(when)) return std::nullopt;
      transition.when = static_cast<std::int32_t>(when);
    }
    transition.type = static_cast<std::uint8_t>(type_indexes[i]);
    if (transition.type >= zone.types_.size()) return std::nullopt;
  }
  if (zone.transitions_.empty()) zone.transitions_.push_back({std::numeric_limits<std::int64_t>::min(), 0});
  return zone;
}

std::size_t TzifZone::FirstType() const {
  bool first_used = false;
  for (const Transition& transition : transitions_) first_used = first_used || transition.type == 0;
  if (!first_used) return 0;
  if (types_[transitions_[0].type].is_dst) {
    for (std::size_t i = transitions_[0].type; i-- > 0;) {
      if (!types_[i].is_dst) return i;
    }
  }
  for (std::size_t i = 0; i < types_.size(); ++i) {
    if (!types_[i].is_dst) return i;
  }
  return 0;
}

std::int64_t TzifZone::OffsetAt(std::int64_t unix_seconds) const {
  if (unix_seconds < transitions_[0].when) return types_[FirstType()].offset;
  std::size_t lo = 0;
  std::size_t hi = transitions_.size();
  while (hi - lo > 1) {
    const std::size_t middle = (lo + hi) / 2;
    if (unix_seconds < transitions_[middle].when) {
      hi = middle;
    } else {
      lo = middle;
    }
  }
  if (lo == transitions_.size() - 1 && !rule_.empty()) {
    if (std::optional<std::int64_t> offset = RuleOffsetAt(rule_, unix_seconds); offset.has_value()) return *offset;
  }
  return types_[transitions_[lo].type].offset;
}

}  // namespace ksched::plugins::dynamic_resources::cel
