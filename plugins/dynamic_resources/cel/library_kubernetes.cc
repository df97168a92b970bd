// The Kubernetes quantity and semver CEL libraries (k8s.io/apiserver/pkg/cel/library, v0.34.4):
// quantity(), isQuantity(), sign(q) (a global function upstream, despite its documentation's
// q.sign()), q.isInteger(), q.asInteger(), q.asApproximateFloat(), q.add(), q.sub(),
// q.isGreaterThan(), q.isLessThan(), q.compareTo(); semver(s[, normalize]), isSemver(s[,
// normalize]), v.major(), v.minor(), v.patch(), v.isGreaterThan(), v.isLessThan(), v.compareTo().
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/semver.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// resource.ParseQuantity's error (api::Quantity::Parse wraps it as "cannot parse '<s>': <err>").
std::string QuantityError(std::string_view text, const absl::Status& status) {
  const std::string prefix = "cannot parse '" + std::string(text) + "': ";
  std::string message(status.message());
  if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  return message;
}

Value ToQuantity(CallContext&, std::span<const Value> args) {
  absl::StatusOr<api::Quantity> q = api::Quantity::Parse(args[0].text());
  if (!q.ok()) return Value::Error(QuantityError(args[0].text(), q.status()));
  return Value::Quantity(*std::move(q));
}

Value IsQuantity(CallContext&, std::span<const Value> args) {
  return Value::Bool(api::Quantity::Parse(args[0].text()).ok());
}

Value Sign(CallContext&, std::span<const Value> args) { return Value::Int(args[0].quantity().Sign()); }

Value IsInteger(CallContext&, std::span<const Value> args) {
  return Value::Bool(args[0].quantity().AsInt64().has_value());
}

Value AsInteger(CallContext&, std::span<const Value> args) {
  const std::optional<std::int64_t> value = args[0].quantity().AsInt64();
  if (!value.has_value()) return Value::Error("cannot convert value to integer");
  return Value::Int(*value);
}

// Go's math.Pow10 (correctly rounded).
double Pow10(std::int64_t n) {
  if (n > 400) return HUGE_VAL;
  if (n < -400) return 0;
  const std::string text = "1e" + std::to_string(n);
  return std::strtod(text.c_str(), nullptr);
}

// AsApproximateFloat64: the quantity's digits times a power of ten (or of two for a binary
// suffix), from its canonical text.
Value AsApproximateFloat(CallContext&, std::span<const Value> args) {
  const std::string text = args[0].quantity().String();
  std::size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
  std::string digits;
  std::int64_t exponent = 0;
  bool fraction = false;
  for (; pos < text.size() && ((text[pos] >= '0' && text[pos] <= '9') || text[pos] == '.'); ++pos) {
    if (text[pos] == '.') {
      fraction = true;
      continue;
    }
    digits.push_back(text[pos]);
    if (fraction) --exponent;
  }
  const std::string suffix = text.substr(pos);
  int binary_power = 0;
  static constexpr std::pair<const char*, int> kDecimal[] = {{"n", -9}, {"u", -6}, {"m", -3}, {"", 0},  {"k", 3},
                                                             {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
  static constexpr std::pair<const char*, int> kBinary[] = {{"Ki", 10}, {"Mi", 20}, {"Gi", 30},
                                                            {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool known = false;
  for (const auto& [name, power] : kDecimal) {
    if (suffix == name) {
      exponent += power;
      known = true;
    }
  }
  for (const auto& [name, power] : kBinary) {
    if (suffix == name) {
      binary_power = power;
      known = true;
    }
  }
  if (!known && suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    exponent += std::strtoll(suffix.c_str() + 1, nullptr, 10);
  }
  double base = std::strtod(digits.empty() ? "0" : digits.c_str(), nullptr);
  if (binary_power != 0) base = std::ldexp(base, binary_power);
  double value = exponent == 0 ? base : base * Pow10(exponent);
  if (negative) value = -value;
  return Value::Double(value);
}

Value QuantityAdd(CallContext&, std::span<const Value> args) {
  api::Quantity result = args[0].quantity();
  if (args[1].kind() == ValueKind::kQuantity) {
    result.Add(args[1].quantity());
  } else {
    result.Add(api::Quantity::FromInt(args[1].int_value(), api::QuantityFormat::kDecimalExponent));
  }
  return Value::Quantity(std::move(result));
}

Value QuantitySub(CallContext&, std::span<const Value> args) {
  api::Quantity result = args[0].quantity();
  if (args[1].kind() == ValueKind::kQuantity) {
    result.Sub(args[1].quantity());
  } else {
    result.Sub(api::Quantity::FromInt(args[1].int_value(), api::QuantityFormat::kDecimalExponent));
  }
  return Value::Quantity(std::move(result));
}

int CompareOf(std::span<const Value> args) {
  if (args[0].kind() == ValueKind::kQuantity) return args[0].quantity().Cmp(args[1].quantity());
  return CompareSemver(args[0].semver(), args[1].semver());
}

Value IsGreaterThan(CallContext&, std::span<const Value> args) { return Value::Bool(CompareOf(args) == 1); }
Value IsLessThan(CallContext&, std::span<const Value> args) { return Value::Bool(CompareOf(args) == -1); }
Value CompareTo(CallContext&, std::span<const Value> args) { return Value::Int(CompareOf(args)); }

absl::StatusOr<Semver> ParseVersion(std::span<const Value> args) {
  const bool normalize = args.size() > 1 && args[1].bool_value();
  return normalize ? ParseSemverNormalized(args[0].text()) : ParseSemver(args[0].text());
}

Value ToSemver(CallContext&, std::span<const Value> args) {
  absl::StatusOr<Semver> v = ParseVersion(args);
  if (!v.ok()) return Value::Error(std::string(v.status().message()));
  return Value::Semver(*std::move(v));
}

Value IsSemver(CallContext&, std::span<const Value> args) { return Value::Bool(ParseVersion(args).ok()); }

Value Major(CallContext&, std::span<const Value> args) {
  return Value::Int(static_cast<std::int64_t>(args[0].semver().major));
}
Value Minor(CallContext&, std::span<const Value> args) {
  return Value::Int(static_cast<std::int64_t>(args[0].semver().minor));
}
Value Patch(CallContext&, std::span<const Value> args) {
  return Value::Int(static_cast<std::int64_t>(args[0].semver().patch));
}

}  // namespace

void RegisterKubernetesLibrary(FunctionRegistry& r) {
  r.Global("quantity", "string_to_quantity", "string -> Quantity", ToQuantity);
  r.Global("isQuantity", "is_quantity_string", "string -> bool", IsQuantity);
  r.Global("sign", "quantity_sign", "Quantity -> int", Sign);
  r.Member("isGreaterThan", "quantity_is_greater_than", "Quantity, Quantity -> bool", IsGreaterThan);
  r.Member("isLessThan", "quantity_is_less_than", "Quantity, Quantity -> bool", IsLessThan);
  r.Member("compareTo", "quantity_compare_to", "Quantity, Quantity -> int", CompareTo);
  r.Member("asApproximateFloat", "quantity_get_float", "Quantity -> double", AsApproximateFloat);
  r.Member("asInteger", "quantity_get_int", "Quantity -> int", AsInteger);
  r.Member("isInteger", "quantity_is_integer", "Quantity -> bool", IsInteger);
  r.Member("add", "quantity_add", "Quantity, Quantity -> Quantity", QuantityAdd);
  r.Member("add", "quantity_add_int", "Quantity, int -> Quantity", QuantityAdd);
  r.Member("sub", "quantity_sub", "Quantity, Quantity -> Quantity", QuantitySub);
  r.Member("sub", "quantity_sub_int", "Quantity, int -> Quantity", QuantitySub);

  r.Global("semver", "string_to_semver", "string -> Semver", ToSemver);
  r.Global("semver", "string_bool_to_semver", "string, bool -> Semver", ToSemver);
  r.Global("isSemver", "is_semver_string", "string -> bool", IsSemver);
  r.Global("isSemver", "is_semver_string_bool", "string, bool -> bool", IsSemver);
  r.Member("isGreaterThan", "semver_is_greater_than", "Semver, Semver -> bool", IsGreaterThan);
  r.Member("isLessThan", "semver_is_less_than", "Semver, Semver -> bool", IsLessThan);
  r.Member("compareTo", "semver_compare_to", "Semver, Semver -> int", CompareTo);
  r.Member("major", "semver_major", "Semver -> int", Major);
  r.Member("minor", "semver_minor", "Semver -> int", Minor);
  r.Member("patch", "semver_patch", "Semver -> int", Patch);
}

}  // namespace ksched::plugins::dynamic_resources::cel
