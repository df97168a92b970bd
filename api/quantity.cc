#include "api/quantity.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"

namespace ksched::api {
namespace {

using quantity_internal::BigDecimal;
using Limbs = std::vector<std::uint32_t>;
using Scale = Quantity::Scale;

constexpr std::uint32_t kLimbBase = 1000000000;  // base of the magnitude limbs
constexpr std::int64_t kLimbDigits = 9;
constexpr std::int64_t kMostPositive = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMostNegative = std::numeric_limits<std::int64_t>::min();
// Upstream's maxInt64Factors: the most digits the int64 fast path of ParseQuantity takes.
constexpr std::int64_t kMaxInt64Factors = 18;

constexpr std::array<std::uint64_t, 20> kPow10 = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
    1000000000000000000ULL,
    10000000000000000000ULL,
};

// ---- Go's wrapping int64 arithmetic (two's complement, as Go defines it) ----

std::int64_t WrapMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
std::int64_t WrapAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t WrapNeg(std::int64_t a) {
  return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a));
}
// Scale arithmetic in upstream is int32 and wraps.
Scale WrapSub32(Scale a, Scale b) {
  return static_cast<Scale>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

// ---- upstream's int64 helpers (math.go), with their exact overflow results ----

// int64Add: a+b, or (0, false) on overflow.
std::pair<std::int64_t, bool> Int64Add(std::int64_t a, std::int64_t b) {
  const std::int64_t c = WrapAdd(a, b);
  if (a > 0 && b > 0 && c < 0) return {0, false};
  if (a < 0 && b < 0) {
    if (c > 0) return {0, false};
    if (a == kMostNegative && b == kMostNegative) return {0, false};
  }
  return {c, true};
}

// int64Multiply: a*b; on overflow the wrapped product (or 0 for the most negative operand) and
// false. b is never -1 here, so c / b is defined.
std::pair<std::int64_t, bool> Int64Multiply(std::int64_t a, std::int64_t b) {
  if (a == 0 || b == 0 || a == 1 || b == 1) return {WrapMul(a, b), true};
  if (a == kMostNegative || b == kMostNegative) return {0, false};
  const std::int64_t c = WrapMul(a, b);
  return {c, c / b == a};
}

// int64MultiplyScale / int64MultiplyScale10 / 100 / 1000 (b > 1): same results as above.
std::pair<std::int64_t, bool> Int64MultiplyScale(std::int64_t a, std::int64_t b) {
  if (a == 0 || a == 1) return {WrapMul(a, b), true};
  if (a == kMostNegative) return {0, false};
  const std::int64_t c = WrapMul(a, b);
  return {c, c / b == a};
}

// positiveScaleInt64: base * 10^scale. On overflow: the wrapped product for scales 1, 2, 3, 6
// and 9, 0 for the others, with false. A negative scale (reachable only through wrapped int32
// scale arithmetic) returns base unchanged, as upstream's loop does.
std::pair<std::int64_t, bool> PositiveScaleInt64(std::int64_t base, Scale scale) {
  switch (scale) {
    case 0:
      return {base, true};
    case 1:
      return Int64MultiplyScale(base, 10);
    case 2:
      return Int64MultiplyScale(base, 100);
    case 3:
      return Int64MultiplyScale(base, 1000);
    case 6:
      return Int64MultiplyScale(base, 1000000);
    case 9:
      return Int64MultiplyScale(base, 1000000000);
    default:
      break;
  }
  std::int64_t value = base;
  for (Scale i = 0; i < scale; ++i) {
    if (value == 0) break;  // 0 stays 0; upstream loops on, to the same result
    auto [next, ok] = Int64MultiplyScale(value, 10);
    if (!ok) return {0, false};
    value = next;
  }
  return {value, true};
}

// negativeScaleInt64: base / 10^scale rounded away from zero, and whether that was exact.
std::pair<std::int64_t, bool> NegativeScaleInt64(std::int64_t base, Scale scale) {
  if (scale == 0) return {base, true};
  std::int64_t value = base;
  bool fraction = false;
  for (Scale i = 0; i < scale; ++i) {
    if (!fraction && value % 10 != 0) fraction = true;
    value /= 10;
    if (value == 0) {
      if (fraction) return {base > 0 ? 1 : -1, false};
      return {0, true};
    }
  }
  if (fraction) value += base > 0 ? 1 : -1;
  return {value, !fraction};
}

// int64Amount.AsScaledInt64, result only (what ScaledValue returns).
std::int64_t Int64AmountScaled(std::int64_t value, Scale scale, Scale to) {
  if (scale < to) return NegativeScaleInt64(value, WrapSub32(to, scale)).first;
  return PositiveScaleInt64(value, WrapSub32(scale, to)).first;
}

// Exact comparison of value_a * 10^scale_a with value_b * 10^scale_b when both fit the int64
// division upstream uses; nullopt when the scales are 18 or more apart.
std::optional<int> CompareInt64Amounts(std::int64_t a, Scale scale_a, std::int64_t b,
                                       Scale scale_b) {
  if (scale_a == scale_b) return (a > b) - (a < b);
  const std::int64_t diff = static_cast<std::int64_t>(scale_a) - scale_b;
  if (diff >= 18 || diff <= -18) return std::nullopt;
  if (diff > 0) {
    // Bring b to a's scale: b = result * 10^diff + remainder.
    const auto divisor = static_cast<std::int64_t>(kPow10[static_cast<std::size_t>(diff)]);
    const std::int64_t result = b / divisor;
    const std::int64_t remainder = b % divisor;
    if (result == a) return remainder == 0 ? 0 : (remainder > 0 ? -1 : 1);
    return (a > result) - (a < result);
  }
  const auto divisor = static_cast<std::int64_t>(kPow10[static_cast<std::size_t>(-diff)]);
  const std::int64_t result = a / divisor;
  const std::int64_t remainder = a % divisor;
  if (result == b) return remainder == 0 ? 0 : (remainder > 0 ? 1 : -1);
  return (result > b) - (result < b);
}

// ---- magnitudes: little-endian base-10^9 limbs ----

void Trim(Limbs& a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

std::int64_t DigitsOfLimb(std::uint32_t v) {
  std::int64_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

std::int64_t DigitCount(const Limbs& a) {
  if (a.empty()) return 0;
  return static_cast<std::int64_t>(a.size() - 1) * kLimbDigits + DigitsOfLimb(a.back());
}

Limbs LimbsFromU64(std::uint64_t v) {
  Limbs r;
  while (v != 0) {
    r.push_back(static_cast<std::uint32_t>(v % kLimbBase));
    v /= kLimbBase;
  }
  return r;
}

// digits: only '0'..'9'.
Limbs LimbsFromDigits(std::string_view digits) {
  Limbs r;
  r.reserve(digits.size() / kLimbDigits + 1);
  std::size_t end = digits.size();
  while (end > 0) {
    const std::size_t begin = end >= kLimbDigits ? end - kLimbDigits : 0;
    std::uint32_t limb = 0;
    for (std::size_t i = begin; i < end; ++i) limb = limb * 10 + static_cast<std::uint32_t>(digits[i] - '0');
    r.push_back(limb);
    end = begin;
  }
  Trim(r);
  return r;
}

int CompareLimbs(const Limbs& a, const Limbs& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

void AddLimbs(Limbs& a, const Limbs& b) {
  if (a.size() < b.size()) a.resize(b.size(), 0);
  std::uint32_t carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::uint32_t sum = a[i] + carry + (i < b.size() ? b[i] : 0);
    carry = sum >= kLimbBase ? 1 : 0;
    if (carry != 0) sum -= kLimbBase;
    a[i] = sum;
    if (carry == 0 && i >= b.size()) break;
  }
  if (carry != 0) a.push_back(carry);
}

// a -= b; requires a >= b.
void SubLimbs(Limbs& a, const Limbs& b) {
  std::uint32_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint32_t sub = borrow + (i < b.size() ? b[i] : 0);
    if (a[i] >= sub) {
      a[i] -= sub;
      borrow = 0;
    } else {
      a[i] = a[i] + kLimbBase - sub;
      borrow = 1;
    }
    if (borrow == 0 && i >= b.size()) break;
  }
  Trim(a);
}

void MulSmall(Limbs& a, std::uint32_t m) {
  if (m == 0) {
    a.clear();
    return;
  }
  std::uint64_t carry = 0;
  for (std::uint32_t& limb : a) {
    const std::uint64_t cur = static_cast<std::uint64_t>(limb) * m + carry;
    limb = static_cast<std::uint32_t>(cur % kLimbBase);
    carry = cur / kLimbBase;
  }
  while (carry != 0) {
    a.push_back(static_cast<std::uint32_t>(carry % kLimbBase));
    carry /= kLimbBase;
  }
}

// a /= d; returns the remainder.
std::uint32_t DivSmall(Limbs& a, std::uint32_t d) {
  std::uint64_t rem = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const std::uint64_t cur = rem * kLimbBase + a[i];
    a[i] = static_cast<std::uint32_t>(cur / d);
    rem = cur % d;
  }
  Trim(a);
  return static_cast<std::uint32_t>(rem);
}

// a *= 10^k (k >= 0; the caller bounds k).
void ShiftLeftDecimal(Limbs& a, std::int64_t k) {
  if (a.empty() || k <= 0) return;
  const auto whole = static_cast<std::size_t>(k / kLimbDigits);
  a.insert(a.begin(), whole, 0);
  MulSmall(a, static_cast<std::uint32_t>(kPow10[static_cast<std::size_t>(k % kLimbDigits)]));
}

// a = trunc(a / 10^k) (k >= 0); returns whether a non-zero remainder was dropped.
bool ShiftRightDecimal(Limbs& a, std::int64_t k) {
  if (k <= 0 || a.empty()) return false;
  if (k >= DigitCount(a)) {
    a.clear();
    return true;
  }
  const auto whole = static_cast<std::size_t>(k / kLimbDigits);
  bool dropped = false;
  for (std::size_t i = 0; i < whole; ++i) dropped = dropped || a[i] != 0;
  a.erase(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(whole));
  const std::int64_t part = k % kLimbDigits;
  if (part != 0) {
    dropped = DivSmall(a, static_cast<std::uint32_t>(kPow10[static_cast<std::size_t>(part)])) != 0 ||
              dropped;
  }
  Trim(a);
  return dropped;
}

std::int64_t TrailingDecimalZeros(const Limbs& a) {
  if (a.empty()) return 0;
  std::size_t i = 0;
  while (a[i] == 0) ++i;
  std::int64_t zeros = static_cast<std::int64_t>(i) * kLimbDigits;
  for (std::uint32_t v = a[i]; v % 10 == 0; v /= 10) ++zeros;
  return zeros;
}

// The magnitude modulo 2^64 (what Go's big.Int.Int64 keeps).
std::uint64_t Low64(const Limbs& a) {
  std::uint64_t r = 0;
  for (std::size_t i = a.size(); i-- > 0;) r = r * kLimbBase + a[i];
  return r;
}

std::optional<std::uint64_t> LimbsToU64(const Limbs& a) {
  if (a.size() > 3) return std::nullopt;
  std::uint64_t r = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (__builtin_mul_overflow(r, std::uint64_t{kLimbBase}, &r) ||
        __builtin_add_overflow(r, std::uint64_t{a[i]}, &r)) {
      return std::nullopt;
    }
  }
  return r;
}

std::string LimbsToString(const Limbs& a) {
  if (a.empty()) return "0";
  std::string out = std::to_string(a.back());
  for (std::size_t i = a.size() - 1; i-- > 0;) {
    const std::string limb = std::to_string(a[i]);
    out.append(static_cast<std::size_t>(kLimbDigits) - limb.size(), '0');
    out += limb;
  }
  return out;
}

// 10^k modulo 2^64 (k >= 0): 0 once 2^64 divides it.
std::uint64_t Pow10Mod64(std::int64_t k) {
  if (k >= 64) return 0;
  std::uint64_t r = 1;
  for (std::int64_t i = 0; i < k; ++i) r *= 10;
  return r;
}

// ---- exact decimals ----

void Normalize(BigDecimal& d) {
  Trim(d.magnitude);
  if (d.magnitude.empty()) {
    d.sign = 0;
    d.exponent = 0;
    return;
  }
  const std::int64_t zeros = TrailingDecimalZeros(d.magnitude);
  if (zeros != 0) {
    ShiftRightDecimal(d.magnitude, zeros);
    d.exponent += zeros;
  }
}

BigDecimal DecimalFromInt64(std::int64_t value, std::int64_t exponent) {
  BigDecimal d;
  d.sign = (value > 0) - (value < 0);
  const std::uint64_t magnitude =
      value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  d.magnitude = LimbsFromU64(magnitude);
  d.exponent = exponent;
  Normalize(d);
  return d;
}

// log10 of the magnitude's upper bound: digits + exponent (the value is below 10^that).
std::int64_t Adjusted(const BigDecimal& d) { return DigitCount(d.magnitude) + d.exponent; }

// |a| vs |b|, both non-zero.
int CompareMagnitude(const BigDecimal& a, const BigDecimal& b) {
  const std::int64_t adj_a = Adjusted(a);
  const std::int64_t adj_b = Adjusted(b);
  if (adj_a != adj_b) return adj_a < adj_b ? -1 : 1;
  // Same leading-digit position, so the exponents differ by less than the digit counts.
  if (a.exponent == b.exponent) return CompareLimbs(a.magnitude, b.magnitude);
  if (a.exponent > b.exponent) {
    Limbs x = a.magnitude;
    ShiftLeftDecimal(x, a.exponent - b.exponent);
    return CompareLimbs(x, b.magnitude);
  }
  Limbs y = b.magnitude;
  ShiftLeftDecimal(y, b.exponent - a.exponent);
  return CompareLimbs(a.magnitude, y);
}

int CompareDecimal(const BigDecimal& a, const BigDecimal& b) {
  if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign == 0) return 0;
  const int m = CompareMagnitude(a, b);
  return a.sign > 0 ? m : -m;
}

BigDecimal Sum(const BigDecimal& a, const BigDecimal& b) {
  if (a.sign == 0) return b;
  if (b.sign == 0) return a;
  const std::int64_t gap =
      a.exponent > b.exponent ? a.exponent - b.exponent : b.exponent - a.exponent;
  if (gap > Quantity::kMaxDigits) {
    // The documented deviation: keep the larger operand rather than materialize the padding.
    return CompareMagnitude(a, b) >= 0 ? a : b;
  }
  const std::int64_t low = std::min(a.exponent, b.exponent);
  Limbs x = a.magnitude;
  Limbs y = b.magnitude;
  ShiftLeftDecimal(x, a.exponent - low);
  ShiftLeftDecimal(y, b.exponent - low);
  BigDecimal r;
  r.exponent = low;
  if (a.sign == b.sign) {
    AddLimbs(x, y);
    r.sign = a.sign;
    r.magnitude = std::move(x);
  } else {
    const int cmp = CompareLimbs(x, y);
    if (cmp == 0) return BigDecimal{};
    if (cmp > 0) {
      SubLimbs(x, y);
      r.sign = a.sign;
      r.magnitude = std::move(x);
    } else {
      SubLimbs(y, x);
      r.sign = b.sign;
      r.magnitude = std::move(y);
    }
  }
  Normalize(r);
  return r;
}

// Rounds d away from zero to a multiple of 10^exponent; returns whether it was exact.
bool RoundAwayFromZero(BigDecimal& d, std::int64_t exponent) {
  if (d.sign == 0 || d.exponent >= exponent) return true;
  // d is normalized, so cutting at least one digit always drops a non-zero remainder.
  ShiftRightDecimal(d.magnitude, exponent - d.exponent);
  AddLimbs(d.magnitude, Limbs{1});
  d.exponent = exponent;
  Normalize(d);
  return false;
}

// What Go's big.Int.Int64 returns for sign * magnitude * 10^k: the value modulo 2^64.
std::uint64_t WrappedBits(int sign, const Limbs& magnitude, std::int64_t k) {
  const std::uint64_t bits = Low64(magnitude) * Pow10Mod64(k);
  return sign < 0 ? 0 - bits : bits;
}

// Upstream scaledValue(unscaled, scale, newScale) for the inf.Dec form, where
// unscaled = d * 10^dec_scale. Every branch of upstream's arithmetic is reproduced, including
// int64 wrapping and the amd64 result of converting an out-of-range float64 to int64.
std::int64_t DecimalScaledValue(const BigDecimal& d, std::int64_t dec_scale, Scale to) {
  if (d.sign == 0) return 0;
  const std::int64_t new_scale = -static_cast<std::int64_t>(to);
  const std::int64_t dif = dec_scale - new_scale;
  const std::int64_t k = d.exponent + dec_scale;  // unscaled = sign * magnitude * 10^k, k >= 0
  const std::uint64_t wrapped = WrappedBits(d.sign, d.magnitude, k);
  if (dif == 0) return static_cast<std::int64_t>(wrapped);
  if (dif < 0) {
    // unscaled.Int64() * int64(math.Pow10(-dif)); 1e19 and above convert to MinInt64 on amd64.
    const std::uint64_t factor =
        -dif <= 18 ? kPow10[static_cast<std::size_t>(-dif)] : static_cast<std::uint64_t>(kMostNegative);
    return static_cast<std::int64_t>(wrapped * factor);
  }
  // Fast path: unscaled < MaxInt64 (signed: every negative qualifies) and dif < 19.
  bool below_max = d.sign < 0;
  if (!below_max) {
    const std::int64_t digits = DigitCount(d.magnitude) + k;
    if (digits <= 18) {
      below_max = true;
    } else if (digits == 19) {
      const std::optional<std::uint64_t> m = LimbsToU64(d.magnitude);
      below_max = m.has_value() && *m * kPow10[static_cast<std::size_t>(k)] <
                                       static_cast<std::uint64_t>(kMostPositive);
    }
  }
  if (below_max && dif < 19) {
    const auto unscaled = static_cast<std::int64_t>(wrapped);
    const auto divide = static_cast<std::int64_t>(kPow10[static_cast<std::size_t>(dif)]);
    const std::int64_t result = unscaled / divide;
    return unscaled % divide != 0 ? result + 1 : result;
  }
  // Slow path: Euclidean DivMod by 10^dif, then Int64() (+1 if the remainder is non-zero).
  if (k >= dif) return static_cast<std::int64_t>(WrappedBits(d.sign, d.magnitude, k - dif));
  Limbs quotient = d.magnitude;  // normalized, so the remainder is never zero here
  ShiftRightDecimal(quotient, dif - k);
  const std::uint64_t t = Low64(quotient);
  // positive: floor = trunc, +1; negative: floor = -(trunc + 1), +1 = -trunc.
  return static_cast<std::int64_t>(d.sign > 0 ? t + 1 : 0 - t);
}

// ---- parsing ----

absl::Status ParseError(std::string_view text, std::string_view upstream_error) {
  std::string message = "cannot parse '";
  message.append(text);
  message += "': ";
  message.append(upstream_error);
  return absl::InvalidArgumentError(message);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// upstream parseQuantityString: the pieces of <sign><num>.<denom><suffix>, with num stripped of
// leading zeros ("0" when empty) and value the signed number as written.
struct Scanned {
  bool ok = true;
  bool positive = true;
  std::string_view value;
  std::string_view num;
  std::string_view denom;
  std::string_view suffix;
};

Scanned ScanQuantity(std::string_view s) {
  Scanned r;
  std::size_t pos = 0;
  const std::size_t end = s.size();
  if (pos < end && (s[0] == '-' || s[0] == '+')) {
    r.positive = s[0] == '+';
    ++pos;
  }
  for (;; ++pos) {  // leading zeros
    if (pos >= end) {
      r.num = "0";
      r.value = "0";
      return r;
    }
    if (s[pos] != '0') break;
  }
  std::size_t i = pos;
  while (i < end && IsDigit(s[i])) ++i;
  if (i >= end) {
    r.num = s.substr(pos);
    r.value = s;
    return r;
  }
  r.num = s.substr(pos, i - pos);
  pos = i;
  if (r.num.empty()) r.num = "0";
  if (pos < end && s[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(s[i])) ++i;
    if (i >= end) {
      r.denom = s.substr(pos);
      r.value = s;
      return r;
    }
    r.denom = s.substr(pos, i - pos);
    pos = i;
  }
  r.value = s.substr(0, pos);
  const std::size_t suffix_start = pos;
  constexpr std::string_view kSuffixLetters = "eEinumkKMGTP";
  i = pos;
  while (i < end && kSuffixLetters.find(s[i]) != std::string_view::npos) ++i;
  if (i >= end) {
    r.suffix = s.substr(suffix_start);
    return r;
  }
  pos = i;
  if (s[pos] == '-' || s[pos] == '+') ++pos;
  i = pos;
  while (i < end && IsDigit(s[i])) ++i;
  if (i >= end) {
    r.suffix = s.substr(suffix_start);
    return r;
  }
  r.ok = false;  // something after the exponent digits
  return r;
}

// Go's strconv.ParseInt(s, 10, 64).
std::optional<std::int64_t> ParseGoInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const std::uint64_t limit = negative ? static_cast<std::uint64_t>(kMostPositive) + 1
                                       : static_cast<std::uint64_t>(kMostPositive);
  std::uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (v > (limit - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
}

struct Interpreted {
  int base = 10;
  std::int32_t exponent = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
};

// upstream quantitySuffixer.interpret.
std::optional<Interpreted> InterpretSuffix(std::string_view s) {
  struct Entry {
    std::string_view suffix;
    int base;
    std::int32_t exponent;
  };
  static constexpr std::array<Entry, 16> kTable = {{
      {"", 10, 0},    {"n", 10, -9},  {"u", 10, -6},  {"m", 10, -3},  {"k", 10, 3},   {"M", 10, 6},
      {"G", 10, 9},   {"T", 10, 12},  {"P", 10, 15},  {"E", 10, 18},  {"Ki", 2, 10},  {"Mi", 2, 20},
      {"Gi", 2, 30},  {"Ti", 2, 40},  {"Pi", 2, 50},  {"Ei", 2, 60},
  }};
  for (const Entry& e : kTable) {
    if (e.suffix == s) {
      return Interpreted{e.base, e.exponent,
                         e.base == 2 ? QuantityFormat::kBinarySI : QuantityFormat::kDecimalSI};
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    const std::optional<std::int64_t> parsed = ParseGoInt64(s.substr(1));
    if (!parsed.has_value()) return std::nullopt;
    // int32(parsed): Go truncates to the low 32 bits.
    return Interpreted{10, static_cast<std::int32_t>(static_cast<std::uint32_t>(*parsed)),
                       QuantityFormat::kDecimalExponent};
  }
  return std::nullopt;
}

// inf.Dec.SetString on the scanned number: digits with at most one '.', optional leading sign.
struct ParsedDecimal {
  BigDecimal value;
  std::int64_t fraction_digits = 0;  // the inf.Dec scale SetString gives
};

std::optional<ParsedDecimal> ParseDecimalValue(std::string_view value) {
  int sign = 1;
  if (!value.empty() && (value[0] == '+' || value[0] == '-')) {
    sign = value[0] == '-' ? -1 : 1;
    value.remove_prefix(1);
  }
  std::string digits;
  digits.reserve(value.size());
  std::int64_t fraction_digits = 0;
  bool seen_point = false;
  for (char c : value) {
    if (c == '.') {
      seen_point = true;  // the scanner admits at most one
    } else {
      digits += c;
      if (seen_point) ++fraction_digits;
    }
  }
  if (digits.empty()) return std::nullopt;
  ParsedDecimal r;
  r.value.sign = sign;
  r.value.magnitude = LimbsFromDigits(digits);
  r.value.exponent = -fraction_digits;
  Normalize(r.value);
  r.fraction_digits = fraction_digits;
  return r;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

const BigDecimal& MaxInt64Decimal() {
  static const BigDecimal kMax = DecimalFromInt64(kMostPositive, 0);
  return kMax;
}

std::string_view DecimalSISuffix(std::int64_t exponent) {
  switch (exponent) {
    case -9: return "n";
    case -6: return "u";
    case -3: return "m";
    case 3: return "k";
    case 6: return "M";
    case 9: return "G";
    case 12: return "T";
    case 15: return "P";
    case 18: return "E";
    default: return "";  // includes 0; upstream has no suffix beyond these and prints none
  }
}

std::string_view BinarySISuffix(std::int64_t power_of_1024) {
  switch (power_of_1024) {
    case 1: return "Ki";
    case 2: return "Mi";
    case 3: return "Gi";
    case 4: return "Ti";
    case 5: return "Pi";
    case 6: return "Ei";
    default: return "";  // 0, or beyond Ei where upstream has no suffix and prints none
  }
}

// Upstream AsCanonicalBytes + the decimal suffix: the exponent lowered to a multiple of 3.
std::string DecimalCanonical(const BigDecimal& v, QuantityFormat format) {
  Limbs mantissa = v.magnitude;
  std::int64_t exponent = v.exponent;
  std::int64_t rem = exponent % 3;
  if (rem < 0) rem += 3;
  ShiftLeftDecimal(mantissa, rem);
  exponent -= rem;
  std::string out = v.sign < 0 ? "-" : "";
  out += LimbsToString(mantissa);
  if (format == QuantityFormat::kDecimalSI) {
    out += DecimalSISuffix(exponent);
  } else if (exponent != 0) {
    out += 'e';
    out += std::to_string(exponent);
  }
  return out;
}

}  // namespace

std::string_view QuantityFormatName(QuantityFormat format) {
  switch (format) {
    case QuantityFormat::kDecimalExponent:
      return "DecimalExponent";
    case QuantityFormat::kBinarySI:
      return "BinarySI";
    case QuantityFormat::kDecimalSI:
      return "DecimalSI";
  }
  return "DecimalExponent";
}

absl::StatusOr<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return ParseError(text, kQuantityErrFormatWrong);
  if (text == "0") {
    Quantity q;  // the text "0" is the canonical form of zero
    q.format_ = QuantityFormat::kDecimalSI;
    return q;
  }
  const Scanned scanned = ScanQuantity(text);
  if (!scanned.ok) return ParseError(text, kQuantityErrFormatWrong);
  const std::optional<Interpreted> suffix = InterpretSuffix(scanned.suffix);
  if (!suffix.has_value()) return ParseError(text, kQuantityErrSuffix);
  QuantityFormat format = suffix->format;
  const auto num_digits = static_cast<std::int64_t>(scanned.num.size());
  const auto denom_digits = static_cast<std::int64_t>(scanned.denom.size());

  // The int64 fast path, taken exactly when upstream takes it.
  std::int64_t precision = -1;
  Scale scale = 0;
  std::int64_t mantissa = 1;
  if (format != QuantityFormat::kBinarySI) {
    scale = suffix->exponent;
    precision = kMaxInt64Factors - (num_digits + denom_digits);
  } else if (suffix->exponent >= 0 && denom_digits == 0) {
    mantissa = std::int64_t{1} << suffix->exponent;
    // Upstream: 15 - len(num) - int32(float32(exponent)*3/10) - 1.
    const auto binary_digits =
        static_cast<std::int64_t>(static_cast<float>(suffix->exponent) * 3.0F / 10.0F);
    precision = 15 - num_digits - binary_digits - 1;
  }
  if (precision >= 0) {
    scale = WrapSub32(scale, static_cast<Scale>(denom_digits));
    if (scale >= kNano) {
      std::string shifted(scanned.num);
      shifted += scanned.denom;
      std::int64_t value = 0;
      for (char c : shifted) value = value * 10 + (c - '0');  // at most 18 digits
      auto [result, ok] = Int64Multiply(value, mantissa);
      if (ok) {
        Quantity q;
        q.value_ = scanned.positive ? result : -result;
        q.scale_ = scale;
        q.format_ = format;
        // Upstream keeps the text when it is already canonical by its (loose) test.
        const bool canonical =
            format == QuantityFormat::kBinarySI
                ? suffix->exponent % 10 == 0 && (value & 0x07) != 0
                : scale % 3 == 0 && !EndsWith(shifted, "000") && shifted[0] != '0';
        if (canonical) q.KeepText(text);
        return q;
      }
    }
  }

  // The inf.Dec path.
  std::optional<ParsedDecimal> parsed = ParseDecimalValue(scanned.value);
  if (!parsed.has_value()) return ParseError(text, kQuantityErrNumeric);
  BigDecimal amount = std::move(parsed->value);
  std::int64_t dec_scale = parsed->fraction_digits;
  if (suffix->base == 10) {
    if (amount.sign != 0) amount.exponent += suffix->exponent;
    dec_scale -= suffix->exponent;
  } else {
    for (std::int32_t left = suffix->exponent; left > 0; left -= 30) {
      MulSmall(amount.magnitude, std::uint32_t{1} << std::min(left, 30));
    }
    Normalize(amount);
  }
  if (amount.sign != 0) {
    // Non-zero values are rounded away from zero to nano (inf.Dec.Round to scale 9).
    RoundAwayFromZero(amount, kNano);
    dec_scale = -kNano;
  }
  if (format == QuantityFormat::kBinarySI && amount.sign != 0) {
    if (CompareMagnitude(amount, MaxInt64Decimal()) > 0) {
      const int sign = amount.sign;
      amount = MaxInt64Decimal();
      amount.sign = sign;
      dec_scale = 0;
    }
    if (Adjusted(amount) <= 0) format = QuantityFormat::kDecimalSI;  // 0 < |amount| < 1
  }
  Quantity q;
  q.rare_ = std::make_unique<Rare>();
  q.rare_->big = std::move(amount);
  q.rare_->big_scale = dec_scale;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromInt(std::int64_t value, QuantityFormat format) {
  Quantity q;
  q.value_ = value;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromMilli(std::int64_t value, QuantityFormat format) {
  Quantity q;
  q.value_ = value;
  q.scale_ = kMilli;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromScaled(std::int64_t value, Scale scale) {
  Quantity q;
  q.value_ = value;
  q.scale_ = scale;
  q.format_ = QuantityFormat::kDecimalSI;
  return q;
}

Quantity::Quantity(const Quantity& other)
    : value_(other.value_),
      scale_(other.scale_),
      format_(other.format_),
      kept_text_(other.kept_text_),
      text_format_(other.text_format_),
      rare_(other.rare_ != nullptr ? std::make_unique<Rare>(*other.rare_) : nullptr) {}

Quantity& Quantity::operator=(const Quantity& other) {
  if (this != &other) *this = Quantity(other);
  return *this;
}

void Quantity::ClearText() noexcept {
  kept_text_ = false;
  if (rare_ == nullptr) return;
  rare_->text.clear();
  if (!rare_->big.has_value()) rare_.reset();
}

void Quantity::KeepText(std::string_view text) {
  kept_text_ = true;
  text_format_ = format_;
  // The usual text ("100m", "500Mi", "4"): digits without a leading zero and a suffix, which is
  // exactly what the canonical form of such a kept value prints. Anything else is compared.
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const std::string_view suffix = text.substr(digits);
  const bool plain = digits > 0 && text[0] != '0' &&
                     suffix.find_first_not_of("numkMGTPEi") == std::string_view::npos;
  if (plain) return;
  std::string canonical = CanonicalString(format_);
  if (canonical == text) return;
  kept_text_ = false;
  if (rare_ == nullptr) rare_ = std::make_unique<Rare>();
  rare_->text = std::string(text);
}

BigDecimal Quantity::Exact() const {
  if (IsBig()) return *rare_->big;
  return DecimalFromInt64(value_, scale_);
}

void Quantity::ToBig() {
  if (IsBig()) return;
  if (rare_ == nullptr) rare_ = std::make_unique<Rare>();
  rare_->big = DecimalFromInt64(value_, scale_);
  rare_->big_scale = -static_cast<std::int64_t>(scale_);
  value_ = 0;
  scale_ = 0;
}

std::string Quantity::String() const {
  if (rare_ != nullptr && !rare_->text.empty()) return rare_->text;
  return CanonicalString(kept_text_ ? text_format_ : format_);
}

std::string Quantity::CanonicalString(QuantityFormat format) const {
  if (IsZero()) return "0";
  const BigDecimal exact = Exact();
  BigDecimal rounded;
  if (format == QuantityFormat::kBinarySI) {
    if (CmpInt64(-1024) > 0 && CmpInt64(1024) < 0) {
      format = QuantityFormat::kDecimalSI;  // no rounding, and no confusion
    } else {
      rounded = exact;
      if (!RoundAwayFromZero(rounded, 0)) format = QuantityFormat::kDecimalSI;  // keep precision
    }
  }
  if (format != QuantityFormat::kBinarySI) return DecimalCanonical(exact, format);

  // Upstream's int64 path cannot strip factors from the most negative value and prints it whole.
  if (!IsBig() && value_ == kMostNegative && scale_ == 0) return "-9223372036854775808";
  if (Adjusted(rounded) > kMaxBinaryDigits) {
    // Not upstream (which takes minutes here): a value this large prints in exponent form.
    return DecimalCanonical(rounded, QuantityFormat::kDecimalExponent);
  }
  Limbs integer = rounded.magnitude;
  ShiftLeftDecimal(integer, rounded.exponent);
  std::int64_t powers = 0;
  for (;;) {
    Limbs next = integer;
    if (DivSmall(next, 1024) != 0) break;
    integer = std::move(next);
    ++powers;
  }
  std::string out = rounded.sign < 0 ? "-" : "";
  out += LimbsToString(integer);
  out += BinarySISuffix(powers);
  return out;
}

std::int64_t Quantity::Value() const { return ScaledValue(0); }

std::int64_t Quantity::MilliValue() const { return ScaledValue(kMilli); }

std::int64_t Quantity::ScaledValue(Scale scale) const {
  if (IsBig()) return DecimalScaledValue(*rare_->big, rare_->big_scale, scale);
  return Int64AmountScaled(value_, scale_, scale);
}

std::optional<std::int64_t> Quantity::AsInt64() const {
  if (IsBig() || scale_ < 0) return std::nullopt;
  if (scale_ == 0) return value_;
  auto [value, ok] = PositiveScaleInt64(value_, scale_);
  if (!ok) return std::nullopt;
  return value;
}

namespace {

// Go's math.Pow10: exact powers from its tables, so the product below rounds as Go's does.
double GoPow10(std::int64_t n) {
  static constexpr double kPow10Small[] = {
      1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
  static constexpr double kPow10Positive32[] = {1e00,  1e32,  1e64,  1e96,  1e128,
                                                1e160, 1e192, 1e224, 1e256, 1e288};
  static constexpr double kPow10Negative32[] = {1e-00,  1e-32,  1e-64,  1e-96,  1e-128, 1e-160,
                                                1e-192, 1e-224, 1e-256, 1e-288, 1e-320};
  if (n >= 0 && n <= 308) return kPow10Positive32[n / 32] * kPow10Small[n % 32];
  if (n < 0 && n >= -323) return kPow10Negative32[-n / 32] / kPow10Small[-n % 32];
  return n > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

}  // namespace

double Quantity::AsApproximateFloat64() const {
  double base = 0;
  std::int64_t exponent = 0;
  if (IsBig()) {
    // inf.Dec's unscaled integer is the value times 10^scale; big.Float rounds it to nearest even,
    // as strtod does with its decimal digits.
    const BigDecimal& big = *rare_->big;
    if (big.sign != 0) {
      std::string digits = big.sign < 0 ? "-" : "";
      digits += LimbsToString(big.magnitude);
      digits += 'e';
      digits += std::to_string(big.exponent + rare_->big_scale);
      base = std::strtod(digits.c_str(), nullptr);
    }
    exponent = -rare_->big_scale;
  } else {
    base = static_cast<double>(value_);
    exponent = scale_;
  }
  if (exponent == 0) return base;
  return base * GoPow10(exponent);
}

int Quantity::Cmp(const Quantity& other) const {
  if (!IsBig() && !other.IsBig()) {
    if (std::optional<int> c = CompareInt64Amounts(value_, scale_, other.value_, other.scale_)) {
      return *c;
    }
  }
  return CompareDecimal(Exact(), other.Exact());
}

int Quantity::CmpInt64(std::int64_t other) const {
  return Cmp(FromInt(other, QuantityFormat::kDecimalSI));
}

bool Quantity::IsZero() const { return IsBig() ? rare_->big->sign == 0 : value_ == 0; }

int Quantity::Sign() const {
  if (IsBig()) return rare_->big->sign;
  return (value_ > 0) - (value_ < 0);
}

bool Quantity::AddInt64Amount(std::int64_t& value, Scale& scale, std::int64_t other_value,
                              Scale other_scale) {
  if (other_value == 0) return true;
  if (value == 0) {
    value = other_value;
    scale = other_scale;
    return true;
  }
  if (scale == other_scale) {
    auto [sum, ok] = Int64Add(value, other_value);
    if (!ok) return false;
    value = sum;
    return true;
  }
  if (scale > other_scale) {
    auto [aligned, ok] = PositiveScaleInt64(value, WrapSub32(scale, other_scale));
    if (!ok) return false;
    auto [sum, ok2] = Int64Add(aligned, other_value);
    if (!ok2) return false;
    scale = other_scale;
    value = sum;
    return true;
  }
  auto [aligned, ok] = PositiveScaleInt64(other_value, WrapSub32(other_scale, scale));
  if (!ok) return false;
  auto [sum, ok2] = Int64Add(value, aligned);
  if (!ok2) return false;
  value = sum;
  return true;
}

void Quantity::Add(const Quantity& other) {
  ClearText();
  if (!IsBig() && !other.IsBig()) {
    if (value_ == 0) format_ = other.format_;
    if (AddInt64Amount(value_, scale_, other.value_, other.scale_)) return;
  } else if (IsZero()) {
    format_ = other.format_;
  }
  ToBig();
  const std::int64_t other_scale =
      other.IsBig() ? other.rare_->big_scale : -static_cast<std::int64_t>(other.scale_);
  *rare_->big = Sum(*rare_->big, other.Exact());
  rare_->big_scale = std::max(rare_->big_scale, other_scale);
}

void Quantity::Sub(const Quantity& other) {
  ClearText();
  if (IsZero()) format_ = other.format_;
  if (!IsBig() && !other.IsBig() &&
      AddInt64Amount(value_, scale_, WrapNeg(other.value_), other.scale_)) {
    return;
  }
  ToBig();
  const std::int64_t other_scale =
      other.IsBig() ? other.rare_->big_scale : -static_cast<std::int64_t>(other.scale_);
  BigDecimal negated = other.Exact();
  negated.sign = -negated.sign;
  *rare_->big = Sum(*rare_->big, negated);
  rare_->big_scale = std::max(rare_->big_scale, other_scale);
}

void Quantity::Neg() {
  ClearText();
  if (IsBig()) {
    rare_->big->sign = -rare_->big->sign;
  } else {
    value_ = WrapNeg(value_);
  }
}

bool Quantity::RoundUp(Scale scale) {
  if (IsBig()) {
    ClearText();
    const bool exact = RoundAwayFromZero(*rare_->big, scale);
    rare_->big_scale = -static_cast<std::int64_t>(scale);
    return exact;
  }
  if (scale_ >= scale) return true;
  ClearText();
  auto [rounded, exact] = NegativeScaleInt64(value_, WrapSub32(scale, scale_));
  value_ = rounded;
  scale_ = scale;
  return exact;
}

void Quantity::SetScaled(std::int64_t value, Scale scale) {
  kept_text_ = false;
  rare_.reset();
  value_ = value;
  scale_ = scale;
}

}  // namespace ksched::api
