#include "api/go_duration.h"

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>

namespace ksched::api {
namespace {

// time's own quote(): non-ASCII and control bytes as \xNN.
std::string TimeQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<char>(c);
  }
  out += '"';
  return out;
}

std::optional<std::uint64_t> UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000;
  if (unit == "m") return 60ULL * 1000000000;
  if (unit == "h") return 3600ULL * 1000000000;
  return std::nullopt;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Go's fmtFrac: writes v / 10^prec's fraction (".5"; nothing when zero) ending before `w` in
// `buf`; returns the new start and v / 10^prec.
std::pair<std::size_t, std::uint64_t> FormatFraction(char* buf, std::size_t w, std::uint64_t v,
                                                     int prec) {
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const auto digit = static_cast<char>(v % 10);
    print = print || digit != 0;
    if (print) buf[--w] = static_cast<char>('0' + digit);
    v /= 10;
  }
  if (print) buf[--w] = '.';
  return {w, v};
}

// Go's fmtInt: writes v ending before `w`; returns the new start.
std::size_t FormatInt(char* buf, std::size_t w, std::uint64_t v) {
  if (v == 0) {
    buf[--w] = '0';
    return w;
  }
  while (v > 0) {
    buf[--w] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return w;
}

}  // namespace

absl::StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text) {
  const std::string_view orig = text;
  auto invalid = [&] {
    return absl::InvalidArgumentError("time: invalid duration " + TimeQuote(orig));
  };
  constexpr std::uint64_t kLimit = 1ULL << 63;
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid();
  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || IsDigit(s[0]))) return invalid();
    // Integer part.
    std::uint64_t v = 0;
    std::size_t i = 0;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      if (v > (kLimit - 1) / 10) return invalid();
      v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (v > kLimit) return invalid();
    }
    const bool pre = i > 0;
    s.remove_prefix(i);
    // Fraction.
    std::uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      std::size_t j = 0;
      bool overflow = false;
      for (; j < s.size() && IsDigit(s[j]); ++j) {
        if (overflow) continue;
        if (f > (kLimit - 1) / 10) {
          overflow = true;  // further digits cannot change the value
          continue;
        }
        const std::uint64_t next = f * 10 + static_cast<std::uint64_t>(s[j] - '0');
        if (next > kLimit) {
          overflow = true;
          continue;
        }
        f = next;
        scale *= 10;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return invalid();
    // Unit.
    std::size_t u = 0;
    while (u < s.size() && !(s[u] == '.' || IsDigit(s[u]))) ++u;
    if (u == 0) {
      return absl::InvalidArgumentError("time: missing unit in duration " + TimeQuote(orig));
    }
    const std::string_view unit_text = s.substr(0, u);
    s.remove_prefix(u);
    const std::optional<std::uint64_t> unit = UnitNanos(unit_text);
    if (!unit.has_value()) {
      return absl::InvalidArgumentError("time: unknown unit " + TimeQuote(unit_text) +
                                        " in duration " + TimeQuote(orig));
    }
    if (v > kLimit / *unit) return invalid();
    v *= *unit;
    if (f > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(f) *
                                      (static_cast<double>(*unit) / scale));
      if (v > kLimit) return invalid();
    }
    total += v;
    if (total > kLimit) return invalid();
  }
  if (negative) {
    return std::chrono::nanoseconds(total == kLimit ? INT64_MIN
                                                    : -static_cast<std::int64_t>(total));
  }
  if (total > kLimit - 1) return invalid();
  return std::chrono::nanoseconds(static_cast<std::int64_t>(total));
}

std::string FormatGoDuration(std::chrono::nanoseconds duration) {
  // Go's Duration.format, right to left into a fixed buffer.
  char buf[32];
  std::size_t w = sizeof(buf);
  const std::int64_t d = duration.count();
  const bool negative = d < 0;
  std::uint64_t u = negative ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d);
  if (u < 1000000000ULL) {
    // Below a second: smaller units, like 1.2ms.
    buf[--w] = 's';
    if (u == 0) return "0s";
    int prec = 0;
    if (u < 1000) {
      buf[--w] = 'n';
    } else if (u < 1000000) {
      prec = 3;
      buf[--w] = '\xB5';  // U+00B5 micro sign, two bytes
      buf[--w] = '\xC2';
    } else {
      prec = 6;
      buf[--w] = 'm';
    }
    std::tie(w, u) = FormatFraction(buf, w, u, prec);
    w = FormatInt(buf, w, u);
  } else {
    buf[--w] = 's';
    std::tie(w, u) = FormatFraction(buf, w, u, 9);
    w = FormatInt(buf, w, u % 60);  // seconds
    u /= 60;
    if (u > 0) {
      buf[--w] = 'm';
      w = FormatInt(buf, w, u % 60);  // minutes
      u /= 60;
      if (u > 0) {
        buf[--w] = 'h';
        w = FormatInt(buf, w, u);  // hours
      }
    }
  }
  if (negative) buf[--w] = '-';
  return std::string(buf + w, sizeof(buf) - w);
}

}  // namespace ksched::api
