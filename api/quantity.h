// Quantity: Kubernetes' resource.Quantity (k8s.io/apimachinery/pkg/api/resource, v0.34), the
// fixed-point number that every resource request, limit, capacity and allocatable is written in.
//
// Contract: parsing, the canonical String(), Value()/MilliValue()/ScaledValue(), Cmp and Add/Sub
// give the same results as upstream v0.34.4, byte for byte, including upstream's quirks:
//   - Grammar: <sign>? <digits>? ('.' <digits>?)? <suffix>, suffix one of n u m "" k M G T P E,
//     Ki Mi Gi Ti Pi Ei, or e/E followed by a signed integer. "1.", ".5", "1.G" are accepted, and so
//     are ".", "-" and "+" (all zero). Whitespace anywhere is rejected. The exponent of e/E is read
//     as an int64 and then truncated to 32 bits, as upstream does ("1e4294967297" is 1e1).
//   - Precision: any number of digits parses exactly; values below a nano are rounded away from
//     zero to a multiple of 1n ("0.9n" -> 1n, "-3.001n" -> -4n). Binary-suffixed values are capped
//     at 2^63-1 in magnitude ("9Ei" -> 9223372036854775807); decimal ones are not capped.
//   - The format (BinarySI, DecimalSI, DecimalExponent) of the suffix is kept for String(). A
//     BinarySI value below 1 in magnitude is parsed as DecimalSI ("0.000000000001Ki").
//   - String() is upstream's canonical form: the largest suffix that keeps the number integral,
//     "1.5Gi" -> "1536Mi", "0.1" -> "100m", "1000" -> "1k", "1e3" -> "1e3". A BinarySI value in
//     (-1024, 1024), or one with a fraction, prints in DecimalSI. When the parsed text was already
//     in a form upstream recognizes as canonical, String() returns the text as written (this is how
//     "+1k" prints "+1k", "1.500k" prints "1.500k" and "1E3" prints "1E3" upstream). Upstream has no
//     DecimalSI suffix past E or below n and no binary one past Ei, and then drops the exponent:
//     "1000E" prints "1" and 2^70 in BinarySI prints "1". That is reproduced, not fixed.
//   - Value(), MilliValue(), ScaledValue(s) round the value up to a whole multiple of 10^s. When
//     the result does not fit an int64 they return what upstream returns, which is not saturation
//     but wrapped or zeroed garbage that depends on how the value was written: "10E".Value() == 0,
//     "9300P".Value() == 0 but "9300000000000000k".Value() == -9146744073709551616 (both print
//     "9300P"), "9Ei".MilliValue() == -1000. Check magnitude with Cmp first (for example against
//     Quantity::FromInt(kMaxMilliValue, ...)) before trusting them on untrusted input.
//   - Upstream keeps a value either as (int64, scale) or as an inf.Dec, and rounding in
//     Value()/ScaledValue() of a negative non-integral value differs between the two (an int64-backed
//     -1.5 gives -2, a Dec-backed one 0, "-0.1Ki".Value() == -101). This class tracks which of the two
//     upstream would use, through Parse, Add, Sub, Neg and RoundUp, and reproduces both.
//
// Known deviations, each only reachable with absurd inputs:
//   - Upstream's Cmp promotes the receiver to inf.Dec in place when either side is Dec-backed; here
//     Cmp is const and never changes the representation, so a later Value() of a negative
//     non-integral quantity can differ from upstream's after such a Cmp.
//   - Upstream caches the result of String() and keeps returning it after the format is changed;
//     here only the text cached at parse time is kept (set_format does not clear it, as upstream),
//     String() itself caches nothing.
//   - Where upstream's int32 scale arithmetic on the inf.Dec path would wrap (exponents near
//     +-2^31) and it then runs for minutes materializing 10^(2^31), the value is computed exactly.
//   - Add/Sub of two operands whose exponents are more than kMaxDigits apart (upstream stalls for
//     minutes materializing the padding) keep the operand of larger magnitude and drop the other.
//   - A BinarySI value of more than kMaxBinaryDigits integer digits (unreachable by parsing, which
//     caps BinarySI at 2^63-1) prints in DecimalExponent form instead of upstream's binary form.
//
// Errors: Parse returns InvalidArgument "cannot parse '<text>': <upstream error>", the wording of
// upstream's MustParse panic, with the upstream error one of kQuantityErrFormatWrong,
// kQuantityErrNumeric, kQuantityErrSuffix. No exception escapes.
//
// Memory: 24 bytes and no allocation for the usual quantity (an int64 and a power-of-ten scale,
// whether parsed, built or summed); an inf.Dec-backed value, or a parsed text that String() must
// return verbatim and that differs from the canonical form, lives in one out-of-line block.
//
// Thread-safety: a value type. Const member functions do not mutate; distinct objects may be used
// from distinct threads freely, and one object may be read from many threads at once.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::api {

// Upstream's three formats (resource.Format). A zero Quantity{} in upstream has the empty format,
// which prints like DecimalExponent; here a default-constructed Quantity is DecimalExponent.
enum class QuantityFormat : std::uint8_t {
  kDecimalExponent,  // 12e6
  kBinarySI,         // 12Mi (12 * 2^20)
  kDecimalSI,        // 12M  (12 * 10^6)
};

// "DecimalExponent", "BinarySI", "DecimalSI": upstream's string values.
std::string_view QuantityFormatName(QuantityFormat format);

// Upstream's parse errors (ErrFormatWrong, ErrNumeric, ErrSuffix), word for word.
inline constexpr std::string_view kQuantityErrFormatWrong =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
inline constexpr std::string_view kQuantityErrNumeric = "unable to parse numeric part of quantity";
inline constexpr std::string_view kQuantityErrSuffix = "unable to parse quantity's suffix";

// The largest whole number whose value in milli-units fits an int64 (upstream MaxMilliValue).
inline constexpr std::int64_t kMaxMilliValue = std::numeric_limits<std::int64_t>::max() / 1000;

namespace quantity_internal {
// An exact decimal: sign * magnitude * 10^exponent. The magnitude is little-endian base-10^9
// limbs without trailing decimal zeros (they are moved into the exponent); zero is sign 0, no
// limbs, exponent 0. Only quantity.cc operates on it.
struct BigDecimal {
  int sign = 0;
  std::vector<std::uint32_t> magnitude;
  std::int64_t exponent = 0;
};
}  // namespace quantity_internal

class Quantity {
 public:
  // Power-of-ten exponents (upstream resource.Scale): 1k has scale 3, 1m has scale -3.
  using Scale = std::int32_t;
  static constexpr Scale kNano = -9;
  static constexpr Scale kMicro = -6;
  static constexpr Scale kMilli = -3;
  static constexpr Scale kKilo = 3;
  static constexpr Scale kMega = 6;
  static constexpr Scale kGiga = 9;
  static constexpr Scale kTera = 12;
  static constexpr Scale kPeta = 15;
  static constexpr Scale kExa = 18;

  // Where exact Add/Sub and BinarySI printing give up (see the deviations above).
  static constexpr std::int64_t kMaxDigits = 1 << 20;
  static constexpr std::int64_t kMaxBinaryDigits = 4096;

  // Zero, DecimalExponent.
  Quantity() = default;

  // Upstream ParseQuantity.
  static absl::StatusOr<Quantity> Parse(std::string_view text);
  // Upstream NewQuantity: value * 10^0.
  static Quantity FromInt(std::int64_t value, QuantityFormat format);
  // Upstream NewMilliQuantity: value * 10^-3.
  static Quantity FromMilli(std::int64_t value, QuantityFormat format);
  // Upstream NewScaledQuantity: value * 10^scale, DecimalSI.
  static Quantity FromScaled(std::int64_t value, Scale scale);

  // Canonical text (upstream String()); see the contract above.
  std::string String() const;

  // ceil-away-from-zero(q), ceil(q * 1000), ceil(q / 10^scale) as upstream Value(), MilliValue(),
  // ScaledValue(); overflow returns upstream's garbage (see above), never saturates or throws.
  std::int64_t Value() const;
  std::int64_t MilliValue() const;
  std::int64_t ScaledValue(Scale scale) const;
  // Upstream AsInt64: the value when it is an integer that fits and the quantity is held as an
  // int64 with a scale >= 0; otherwise nullopt (always for an inf.Dec-backed quantity).
  std::optional<std::int64_t> AsInt64() const;
  // Upstream AsApproximateFloat64, bit for bit: the unscaled integer (int64 amount, or the inf.Dec
  // unscaled value correctly rounded) times Go's math.Pow10 of the decimal exponent; +-Inf or 0
  // when that leaves the double range. What metrics report quantities as.
  double AsApproximateFloat64() const;

  // -1, 0, 1 as this is less than, equal to, greater than other (exact, format ignored).
  int Cmp(const Quantity& other) const;
  int CmpInt64(std::int64_t other) const;
  bool Equal(const Quantity& other) const { return Cmp(other) == 0; }
  bool IsZero() const;
  int Sign() const;  // -1, 0, 1

  // this += other / this -= other, exactly. When this is zero beforehand, this takes other's format
  // (upstream: Add does so when this is zero, Sub too). Clears the parse-time text.
  void Add(const Quantity& other);
  void Sub(const Quantity& other);
  // this = -this (an int64-backed most negative value wraps onto itself, as upstream).
  void Neg();
  // Rounds away from zero to a multiple of 10^scale when the value has finer digits; returns
  // whether no precision was lost (upstream RoundUp).
  bool RoundUp(Scale scale);

  // Upstream Set / SetMilli / SetScaled: value * 10^scale, keeping the format.
  void Set(std::int64_t value) { SetScaled(value, 0); }
  void SetMilli(std::int64_t value) { SetScaled(value, kMilli); }
  void SetScaled(std::int64_t value, Scale scale);

  QuantityFormat format() const { return format_; }
  // Upstream assigns q.Format directly; the parse-time text, if any, still wins in String().
  void set_format(QuantityFormat format) { format_ = format; }

 private:
  // The rare parts, out of line so that a Quantity stays 24 bytes: upstream's inf.Dec form (the
  // exact value, plus the inf.Dec scale, digits after the point, that upstream's inf.Dec would
  // carry; Value() and friends depend on it) and a parse-time text that String() would not
  // reproduce ("+1k", "1.500k", "1E3").
  struct Rare {
    std::optional<quantity_internal::BigDecimal> big;
    std::int64_t big_scale = 0;
    std::string text;
  };

  // Upstream's int64Amount, used while there is no big form: value_ * 10^scale_.
  std::int64_t value_ = 0;
  Scale scale_ = 0;
  QuantityFormat format_ = QuantityFormat::kDecimalExponent;
  // Upstream kept the parsed text (Quantity.s) and it equals the canonical form in text_format_,
  // so it is not stored: String() recomputes it in text_format_ (set_format does not change it).
  bool kept_text_ = false;
  QuantityFormat text_format_ = QuantityFormat::kDecimalExponent;
  std::unique_ptr<Rare> rare_;  // null in the common case; deep-copied

 public:
  Quantity(const Quantity& other);
  Quantity& operator=(const Quantity& other);
  Quantity(Quantity&&) noexcept = default;
  Quantity& operator=(Quantity&&) noexcept = default;
  ~Quantity() = default;

 private:
  bool IsBig() const noexcept { return rare_ != nullptr && rare_->big.has_value(); }
  // Forgets the parse-time text (every mutation does, as upstream).
  void ClearText() noexcept;
  // Records that upstream keeps `text` (the value and format_ are already set).
  void KeepText(std::string_view text);
  std::string CanonicalString(QuantityFormat format) const;
  quantity_internal::BigDecimal Exact() const;
  void ToBig();
  static bool AddInt64Amount(std::int64_t& value, Scale& scale, std::int64_t other_value,
                             Scale other_scale);
};

}  // namespace ksched::api
