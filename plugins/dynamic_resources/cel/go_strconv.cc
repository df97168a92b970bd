#include "plugins/dynamic_resources/cel/go_strconv.h"

#include <limits>

#include "api/field_errors.h"

namespace ksched::plugins::dynamic_resources::cel {

bool GoAtoi(std::string_view s, std::int64_t& out, std::string& error) {
  auto fail = [&](std::string_view why) {
    error = "strconv.Atoi: parsing " + api::GoQuote(s) + ": " + std::string(why);
    return false;
  };
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return fail("invalid syntax");
  // Digits are read left to right: an overflow before a bad character is a range error, as in
  // Go's ParseUint.
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  std::uint64_t magnitude = 0;
  bool overflow = false;
  for (char c : digits) {
    if (c < '0' || c > '9') return fail(overflow ? "value out of range" : "invalid syntax");
    if (overflow) continue;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      overflow = true;
      continue;
    }
    magnitude = magnitude * 10 + digit;
  }
  if (overflow || magnitude > (negative ? kLimit : kLimit - 1)) return fail("value out of range");
  out = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

}  // namespace ksched::plugins::dynamic_resources::cel
