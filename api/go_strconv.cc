#include "api/go_strconv.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "api/field_errors.h"

namespace ksched::api {
namespace {

enum class NumError { kSyntax, kRange };

// A caller's base or bit size Go would refuse, or this file's grammar disagreeing with strtod: a bug.
[[noreturn]] void Abort(const std::string& what) {
  std::fprintf(stderr, "go_strconv: %s\n", what.c_str());
  std::abort();
}

// *NumError.Error(): "strconv." + Func + ": parsing " + Quote(Num) + ": " + Err.
absl::Status MakeNumError(std::string_view func, std::string_view text, NumError error) {
  return absl::InvalidArgumentError("strconv." + std::string(func) + ": parsing " + GoQuote(text) + ": " +
                                    (error == NumError::kSyntax ? "invalid syntax" : "value out of range"));
}

char Lower(char c) { return static_cast<char>(c | ('x' - 'X')); }

// underscoreOK: underscores only between digits, or between a base prefix and a digit.
bool UnderscoresOk(std::string_view s) {
  char saw = '^';  // ^ start, 0 digit or prefix, _ underscore, ! anything else
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' && (Lower(s[1]) == 'b' || Lower(s[1]) == 'o' || Lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = Lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    if ((s[i] >= '0' && s[i] <= '9') || (hex && Lower(s[i]) >= 'a' && Lower(s[i]) <= 'f')) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// strconv's internal ParseUint: the value, or which error (the caller names the function).
struct UintResult {
  std::uint64_t value = 0;
  bool ok = true;
  NumError error = NumError::kSyntax;
};
UintResult ParseUintCore(std::string_view s, int base, int bit_size) {
  if (!((base == 0 || (base >= 2 && base <= 36)) && bit_size >= 0 && bit_size <= 64)) {
    Abort("base " + std::to_string(base) + ", bit size " + std::to_string(bit_size));
  }
  UintResult out;
  auto fail = [&out](NumError error, std::uint64_t value) {
    out.ok = false;
    out.error = error;
    out.value = value;
    return out;
  };
  if (s.empty()) return fail(NumError::kSyntax, 0);
  const bool base0 = base == 0;
  const std::string_view whole = s;
  if (base0) {
    base = 10;
    if (s[0] == '0') {
      if (s.size() >= 3 && Lower(s[1]) == 'b') {
        base = 2;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'o') {
        base = 8;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'x') {
        base = 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  if (bit_size == 0) bit_size = 64;
  const std::uint64_t cutoff = std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(base) + 1;
  const std::uint64_t max_value = bit_size == 64 ? std::numeric_limits<std::uint64_t>::max()
                                                 : (std::uint64_t{1} << bit_size) - 1;
  bool underscores = false;
  std::uint64_t n = 0;
  for (char c : s) {
    unsigned digit = 0;
    if (c == '_' && base0) {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      digit = static_cast<unsigned>(Lower(c) - 'a') + 10;
    } else {
      return fail(NumError::kSyntax, 0);
    }
    if (digit >= static_cast<unsigned>(base)) return fail(NumError::kSyntax, 0);
    // An overflow is reported as soon as it happens, before any later bad digit.
    if (n >= cutoff) return fail(NumError::kRange, max_value);
    n *= static_cast<std::uint64_t>(base);
    const std::uint64_t next = n + digit;
    if (next < n || next > max_value) return fail(NumError::kRange, max_value);
    n = next;
  }
  if (underscores && !UnderscoresOk(whole)) return fail(NumError::kSyntax, 0);
  out.value = n;
  return out;
}

absl::StatusOr<std::int64_t> ParseIntAs(std::string_view func, std::string_view text, int base, int bit_size) {
  if (text.empty()) return MakeNumError(func, text, NumError::kSyntax);
  std::string_view digits = text;
  bool negative = false;
  if (digits[0] == '+' || digits[0] == '-') {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const UintResult magnitude = ParseUintCore(digits, base, bit_size);
  if (!magnitude.ok && magnitude.error == NumError::kSyntax) return MakeNumError(func, text, NumError::kSyntax);
  if (bit_size == 0) bit_size = 64;
  const std::uint64_t cutoff = std::uint64_t{1} << (bit_size - 1);
  if ((!negative && magnitude.value >= cutoff) || (negative && magnitude.value > cutoff)) {
    return MakeNumError(func, text, NumError::kRange);
  }
  return negative ? static_cast<std::int64_t>(0 - magnitude.value) : static_cast<std::int64_t>(magnitude.value);
}

// special(): "inf" / "infinity" with an optional sign, "nan" without, any case; the length read.
std::size_t SpecialLength(std::string_view s) {
  auto common_prefix = [](std::string_view text, std::string_view word) {
    std::size_t n = 0;
    while (n < text.size() && n < word.size() && Lower(text[n]) == word[n]) ++n;
    return n;
  };
  if (s.empty()) return 0;
  std::size_t sign = 0;
  if (s[0] == '+' || s[0] == '-') {
    sign = 1;
    s.remove_prefix(1);
  } else if (Lower(s[0]) == 'n') {
    return common_prefix(s, "nan") == 3 ? 3 : 0;
  }
  std::size_t n = common_prefix(s, "infinity");
  if (n > 3 && n < 8) n = 3;
  return n == 3 || n == 8 ? sign + n : 0;
}

// readFloat's grammar: how many bytes of `s` form a float literal (0: none).
std::size_t FloatLiteralLength(std::string_view s) {
  std::size_t i = 0;
  bool underscores = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = false;
  if (i + 2 < s.size() && s[i] == '0' && Lower(s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  bool saw_dot = false;
  bool saw_digits = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.') {
      if (saw_dot) break;
      saw_dot = true;
    } else if ((c >= '0' && c <= '9') || (hex && Lower(c) >= 'a' && Lower(c) <= 'f')) {
      saw_digits = true;
    } else {
      break;
    }
  }
  if (!saw_digits) return 0;
  if (i < s.size() && Lower(s[i]) == (hex ? 'p' : 'e')) {
    ++i;
    if (i >= s.size()) return 0;
    if (s[i] == '+' || s[i] == '-') ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return 0;
    for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_'); ++i) {
      if (s[i] == '_') underscores = true;
    }
  } else if (hex) {
    return 0;  // a hexadecimal mantissa needs its p exponent
  }
  if (underscores && !UnderscoresOk(s.substr(0, i))) return 0;
  return i;
}

}  // namespace

absl::StatusOr<bool> GoParseBool(std::string_view text) {
  for (std::string_view yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (text == yes) return true;
  }
  for (std::string_view no : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (text == no) return false;
  }
  return MakeNumError("ParseBool", text, NumError::kSyntax);
}

absl::StatusOr<std::uint64_t> GoParseUint(std::string_view text, int base, int bit_size) {
  const UintResult result = ParseUintCore(text, base, bit_size);
  if (!result.ok) return MakeNumError("ParseUint", text, result.error);
  return result.value;
}

absl::StatusOr<std::int64_t> GoParseInt(std::string_view text, int base, int bit_size) {
  return ParseIntAs("ParseInt", text, base, bit_size);
}

absl::StatusOr<std::int64_t> GoAtoi(std::string_view text) { return ParseIntAs("Atoi", text, 10, 64); }

absl::StatusOr<double> GoParseFloat(std::string_view text, int bit_size) {
  if (bit_size != 32 && bit_size != 64) Abort("ParseFloat bit size " + std::to_string(bit_size));
  if (const std::size_t n = SpecialLength(text); n != 0) {
    if (n != text.size()) return MakeNumError("ParseFloat", text, NumError::kSyntax);
    if (Lower(text[0]) == 'n') return std::numeric_limits<double>::quiet_NaN();
    return text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  if (text.empty() || FloatLiteralLength(text) != text.size()) {
    return MakeNumError("ParseFloat", text, NumError::kSyntax);
  }
  // The grammar is checked: strtod / strtof (C locale) read the same literal without its
  // underscores and round it directly to the target precision, as Go does.
  std::string literal;
  literal.reserve(text.size());
  for (char c : text) {
    if (c != '_') literal.push_back(c);
  }
  errno = 0;
  char* end = nullptr;
  const double value = bit_size == 32 ? static_cast<double>(std::strtof(literal.c_str(), &end))
                                      : std::strtod(literal.c_str(), &end);
  if (end != literal.c_str() + literal.size()) Abort("strtod disagrees with Go's float grammar on " + literal);
  // ERANGE is also set on underflow, which Go does not report: only an infinite result is an error.
  if (errno == ERANGE && std::isinf(value)) return MakeNumError("ParseFloat", text, NumError::kRange);
  return value;
}

}  // namespace ksched::api
