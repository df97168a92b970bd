// cel-go's standard library (common/stdlib) as the DRA environment has it: operators, size, the
// type conversions, the string predicates and matches. The operators' and conversions' timestamp
// and duration cases delegate to library_time.h.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/library_time.h"
#include "plugins/dynamic_resources/cel/regex.h"
#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinInt = std::numeric_limits<std::int64_t>::min();
constexpr std::uint64_t kMaxUint = std::numeric_limits<std::uint64_t>::max();

Value IntOverflow() { return Value::Error("integer overflow"); }
Value UintOverflow() { return Value::Error("unsigned integer overflow"); }
// An operand without the operator's trait: "no such overload: _-_", except that a string, a
// timestamp or a duration, being a traits.Receiver, answers cel-go's fallback Receive with a plain
// "no such overload".
Value NoSuchOverloadFor(std::string_view function, const Value& operand) {
  if (operand.kind() == ValueKind::kString || operand.kind() == ValueKind::kTimestamp ||
      operand.kind() == ValueKind::kDuration) {
    return Value::Error("no such overload");
  }
  return Value::Error("no such overload: " + std::string(function));
}

// --- arithmetic (singletons over cel-go's traits) ----------------------------------------------

Value Add(CallContext& ctx, std::span<const Value> args) {
  const Value& a = args[0];
  const Value& b = args[1];
  switch (a.kind()) {
    case ValueKind::kInt: {
      if (b.kind() != ValueKind::kInt) return ErrorOrNoSuchOverload(b);
      std::int64_t out = 0;
      if (__builtin_add_overflow(a.int_value(), b.int_value(), &out)) return IntOverflow();
      return Value::Int(out);
    }
    case ValueKind::kUint: {
      if (b.kind() != ValueKind::kUint) return ErrorOrNoSuchOverload(b);
      std::uint64_t out = 0;
      if (__builtin_add_overflow(a.uint_value(), b.uint_value(), &out)) return UintOverflow();
      return Value::Uint(out);
    }
    case ValueKind::kDouble:
      if (b.kind() != ValueKind::kDouble) return ErrorOrNoSuchOverload(b);
      return Value::Double(a.double_value() + b.double_value());
    case ValueKind::kString:
    case ValueKind::kBytes: {
      if (b.kind() != a.kind()) return ErrorOrNoSuchOverload(b);
      std::string out;
      out.reserve(a.text().size() + b.text().size());
      out.append(a.text()).append(b.text());
      Value v = MakeString(ctx, std::move(out));
      return a.kind() == ValueKind::kBytes && !v.IsError() ? Value::Bytes(std::string(v.text())) : v;
    }
    case ValueKind::kList: {
      if (b.kind() != ValueKind::kList) return ErrorOrNoSuchOverload(b);
      if (a.list().elements.empty()) return b;
      if (b.list().elements.empty()) return a;
      std::vector<Value> out;
      out.reserve(a.list().elements.size() + b.list().elements.size());
      out.insert(out.end(), a.list().elements.begin(), a.list().elements.end());
      out.insert(out.end(), b.list().elements.begin(), b.list().elements.end());
      return MakeList(ctx, std::move(out));
    }
    case ValueKind::kTimestamp:
    case ValueKind::kDuration:
      return AddTime(a, b);
    default:
      return NoSuchOverloadFor("_+_", a);
  }
}

Value Subtract(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  const Value& b = args[1];
  switch (a.kind()) {
    case ValueKind::kInt: {
      if (b.kind() != ValueKind::kInt) return ErrorOrNoSuchOverload(b);
      std::int64_t out = 0;
      if (__builtin_sub_overflow(a.int_value(), b.int_value(), &out)) return IntOverflow();
      return Value::Int(out);
    }
    case ValueKind::kUint:
      if (b.kind() != ValueKind::kUint) return ErrorOrNoSuchOverload(b);
      if (b.uint_value() > a.uint_value()) return UintOverflow();
      return Value::Uint(a.uint_value() - b.uint_value());
    case ValueKind::kDouble:
      if (b.kind() != ValueKind::kDouble) return ErrorOrNoSuchOverload(b);
      return Value::Double(a.double_value() - b.double_value());
    case ValueKind::kTimestamp:
    case ValueKind::kDuration:
      return SubtractTime(a, b);
    default:
      return NoSuchOverloadFor("_-_", a);
  }
}

Value Multiply(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  const Value& b = args[1];
  switch (a.kind()) {
    case ValueKind::kInt: {
      if (b.kind() != ValueKind::kInt) return ErrorOrNoSuchOverload(b);
      std::int64_t out = 0;
      if (__builtin_mul_overflow(a.int_value(), b.int_value(), &out)) return IntOverflow();
      return Value::Int(out);
    }
    case ValueKind::kUint: {
      if (b.kind() != ValueKind::kUint) return ErrorOrNoSuchOverload(b);
      std::uint64_t out = 0;
      if (__builtin_mul_overflow(a.uint_value(), b.uint_value(), &out)) return UintOverflow();
      return Value::Uint(out);
    }
    case ValueKind::kDouble:
      if (b.kind() != ValueKind::kDouble) return ErrorOrNoSuchOverload(b);
      return Value::Double(a.double_value() * b.double_value());
    default:
      return NoSuchOverloadFor("_*_", a);
  }
}

Value Divide(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  const Value& b = args[1];
  switch (a.kind()) {
    case ValueKind::kInt:
      if (b.kind() != ValueKind::kInt) return ErrorOrNoSuchOverload(b);
      if (b.int_value() == 0) return Value::Error("division by zero");
      if (a.int_value() == kMinInt && b.int_value() == -1) return IntOverflow();
      return Value::Int(a.int_value() / b.int_value());
    case ValueKind::kUint:
      if (b.kind() != ValueKind::kUint) return ErrorOrNoSuchOverload(b);
      if (b.uint_value() == 0) return Value::Error("division by zero");
      return Value::Uint(a.uint_value() / b.uint_value());
    case ValueKind::kDouble:
      if (b.kind() != ValueKind::kDouble) return ErrorOrNoSuchOverload(b);
      return Value::Double(a.double_value() / b.double_value());
    default:
      return NoSuchOverloadFor("_/_", a);
  }
}

Value Modulo(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  const Value& b = args[1];
  switch (a.kind()) {
    case ValueKind::kInt:
      if (b.kind() != ValueKind::kInt) return ErrorOrNoSuchOverload(b);
      if (b.int_value() == 0) return Value::Error("modulus by zero");
      if (a.int_value() == kMinInt && b.int_value() == -1) return IntOverflow();
      return Value::Int(a.int_value() % b.int_value());
    case ValueKind::kUint:
      if (b.kind() != ValueKind::kUint) return ErrorOrNoSuchOverload(b);
      if (b.uint_value() == 0) return Value::Error("modulus by zero");
      return Value::Uint(a.uint_value() % b.uint_value());
    default:
      return NoSuchOverloadFor("_%_", a);
  }
}

Value Negate(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kInt:
      if (a.int_value() == kMinInt) return IntOverflow();
      return Value::Int(-a.int_value());
    case ValueKind::kDouble:
      return Value::Double(-a.double_value());
    case ValueKind::kDuration:
      return NegateDuration(a);
    case ValueKind::kBool:
      return Value::Error("no such overload");
    default:
      return NoSuchOverloadFor("-_", a);
  }
}

Value LogicalNot(CallContext&, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kBool) return ErrorOrNoSuchOverload(args[0]);
  return Value::Bool(!args[0].bool_value());
}

// --- relations ---------------------------------------------------------------------------------

template <bool kLess, bool kEqual, bool kGreater>
Value Relation(CallContext&, std::span<const Value> args) {
  if (!IsComparable(args[0])) {
    constexpr std::string_view kName = kLess ? (kEqual ? "_<=_" : "_<_") : (kEqual ? "_>=_" : "_>_");
    return NoSuchOverloadFor(kName, args[0]);
  }
  const Value cmp = Compare(args[0], args[1]);
  if (cmp.IsError()) return cmp;
  const std::int64_t c = cmp.int_value();
  return Value::Bool((c < 0 && kLess) || (c == 0 && kEqual) || (c > 0 && kGreater));
}

Value In(CallContext&, std::span<const Value> args) {
  const Value& element = args[0];
  const Value& container = args[1];
  if (container.kind() == ValueKind::kList) {
    for (const Value& item : container.list().elements) {
      // baseList.Contains: elem.Equal(item); only a true result counts.
      if (EqualBool(element, item)) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (container.kind() == ValueKind::kMap) return Value::Bool(MapContains(container, element));
  return Value::Error("no such overload");
}

// --- size and conversions ----------------------------------------------------------------------

Value Size(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kString: return Value::Int(static_cast<std::int64_t>(CodePointCount(a.text())));
    case ValueKind::kBytes: return Value::Int(static_cast<std::int64_t>(a.text().size()));
    case ValueKind::kList: return Value::Int(static_cast<std::int64_t>(a.list().elements.size()));
    case ValueKind::kMap: return Value::Int(static_cast<std::int64_t>(MapSize(a)));
    default: return NoSuchOverloadFor("size", a);
  }
}

Value ConversionError(const Value& from, std::string_view to) {
  return Value::Error("type conversion error from '" + std::string(TypeNameOf(from)) + "' to '" + std::string(to) +
                      "'");
}

// strconv.ParseInt(s, 10, 64) / ParseUint.
bool ParseDecimal(std::string_view s, bool is_signed, std::int64_t& int_out, std::uint64_t& uint_out) {
  std::size_t pos = 0;
  bool negative = false;
  if (is_signed && !s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    pos = 1;
  }
  if (pos >= s.size()) return false;
  std::uint64_t value = 0;
  for (; pos < s.size(); ++pos) {
    if (s[pos] < '0' || s[pos] > '9') return false;
    const auto digit = static_cast<std::uint64_t>(s[pos] - '0');
    if (value > (kMaxUint - digit) / 10) return false;
    value = value * 10 + digit;
  }
  if (!is_signed) {
    uint_out = value;
    return true;
  }
  if (negative) {
    if (value > static_cast<std::uint64_t>(kMaxInt) + 1) return false;
    int_out = value == static_cast<std::uint64_t>(kMaxInt) + 1 ? kMinInt : -static_cast<std::int64_t>(value);
  } else {
    if (value > static_cast<std::uint64_t>(kMaxInt)) return false;
    int_out = static_cast<std::int64_t>(value);
  }
  return true;
}

bool EqualFoldAscii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// strconv.ParseFloat(s, 64): decimal or hexadecimal (with a p exponent) literals, inf/infinity,
// nan; an overflow fails, an underflow rounds.
bool ParseFloat(std::string_view s, double& out) {
  std::size_t pos = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    pos = 1;
  }
  const std::string_view rest = s.substr(pos);
  if (EqualFoldAscii(rest, "inf") || EqualFoldAscii(rest, "infinity")) {
    out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (EqualFoldAscii(rest, "nan")) {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  auto digit = [](char c, bool hex) {
    return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
  };
  bool hex = false;
  std::size_t p = pos;
  if (p + 1 < s.size() && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
    hex = true;
    p += 2;
  }
  std::size_t digits = 0;
  while (p < s.size() && (digit(s[p], hex) || (hex && s[p] == '_'))) {
    if (s[p] != '_') ++digits;
    ++p;
  }
  if (p < s.size() && s[p] == '.') {
    ++p;
    while (p < s.size() && (digit(s[p], hex) || (hex && s[p] == '_'))) {
      if (s[p] != '_') ++digits;
      ++p;
    }
  }
  if (digits == 0) return false;
  const char exp_char = hex ? 'p' : 'e';
  if (p < s.size() && (s[p] == exp_char || s[p] == exp_char - 'a' + 'A')) {
    ++p;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
    std::size_t exp_digits = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      ++p;
      ++exp_digits;
    }
    if (exp_digits == 0) return false;
  } else if (hex) {
    return false;  // a hexadecimal float needs its p exponent
  }
  if (p != s.size()) return false;
  std::string text(s);
  text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  if (errno == ERANGE && std::isinf(value)) return false;
  out = value;
  return true;
}

Value ToInt(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kInt: return a;
    case ValueKind::kUint:
      if (a.uint_value() > static_cast<std::uint64_t>(kMaxInt)) return IntOverflow();
      return Value::Int(static_cast<std::int64_t>(a.uint_value()));
    case ValueKind::kDouble: {
      const double d = a.double_value();
      if (std::isinf(d) || std::isnan(d) || d <= -9223372036854775808.0 || d >= 9223372036854775808.0) {
        return IntOverflow();
      }
      return Value::Int(static_cast<std::int64_t>(d));
    }
    case ValueKind::kString: {
      std::int64_t i = 0;
      std::uint64_t u = 0;
      if (!ParseDecimal(a.text(), true, i, u)) return ConversionError(a, "int");
      return Value::Int(i);
    }
    case ValueKind::kTimestamp:
    case ValueKind::kDuration:
      return TimeToInt(a);
    default:
      return ConversionError(a, "int");
  }
}

Value ToUint(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kUint: return a;
    case ValueKind::kInt:
      if (a.int_value() < 0) return UintOverflow();
      return Value::Uint(static_cast<std::uint64_t>(a.int_value()));
    case ValueKind::kDouble: {
      const double d = a.double_value();
      if (std::isinf(d) || std::isnan(d) || d < 0 || d >= 18446744073709551616.0) return UintOverflow();
      return Value::Uint(static_cast<std::uint64_t>(d));
    }
    case ValueKind::kString: {
      std::int64_t i = 0;
      std::uint64_t u = 0;
      if (!ParseDecimal(a.text(), false, i, u)) return ConversionError(a, "uint");
      return Value::Uint(u);
    }
    default:
      return ConversionError(a, "uint");
  }
}

Value ToDouble(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kDouble: return a;
    case ValueKind::kInt: return Value::Double(static_cast<double>(a.int_value()));
    case ValueKind::kUint: return Value::Double(static_cast<double>(a.uint_value()));
    case ValueKind::kString: {
      double d = 0;
      if (!ParseFloat(a.text(), d)) return ConversionError(a, "double");
      return Value::Double(d);
    }
    default:
      return ConversionError(a, "double");
  }
}

Value ToString(CallContext& ctx, std::span<const Value> args) {
  const Value& a = args[0];
  switch (a.kind()) {
    case ValueKind::kString: return a;
    case ValueKind::kBool: return Value::BorrowedString(a.bool_value() ? "true" : "false");
    case ValueKind::kInt: return MakeString(ctx, std::to_string(a.int_value()));
    case ValueKind::kUint: return MakeString(ctx, std::to_string(a.uint_value()));
    case ValueKind::kDouble: return MakeString(ctx, FormatDouble(a.double_value()));
    case ValueKind::kBytes: {
      // Go's utf8.Valid.
      const std::string_view text = a.text();
      for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t before = pos;
        if (DecodeUtf8(text, pos) == 0xFFFD && !(pos - before == 3 && text.substr(before, 3) == "\xEF\xBF\xBD")) {
          return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
        }
      }
      return MakeString(ctx, std::string(text));
    }
    case ValueKind::kTimestamp:
    case ValueKind::kDuration: {
      const Value text = TimeToString(a);
      return MakeString(ctx, std::string(text.text()));
    }
    default:
      return ConversionError(a, "string");
  }
}

Value ToBytes(CallContext& ctx, std::span<const Value> args) {
  const Value& a = args[0];
  if (a.kind() == ValueKind::kBytes) return a;
  if (a.kind() == ValueKind::kString) {
    Value v = MakeString(ctx, std::string(a.text()));
    return v.IsError() ? v : Value::Bytes(std::string(v.text()));
  }
  return ConversionError(a, "bytes");
}

Value ToBool(CallContext&, std::span<const Value> args) {
  const Value& a = args[0];
  if (a.kind() == ValueKind::kBool) return a;
  if (a.kind() == ValueKind::kString) {
    const std::string_view s = a.text();
    if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return Value::Bool(true);
    if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") return Value::Bool(false);
  }
  return ConversionError(a, "bool");
}

Value ToType(CallContext&, std::span<const Value> args) { return Value::Type(TypeNameOf(args[0])); }
Value ToDyn(CallContext&, std::span<const Value> args) { return args[0]; }

// --- strings -------------------------------------------------------------------------------------

// The string predicates run without type guards upstream: a non-string is "no such overload".
Value Contains(CallContext&, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kString || args[1].kind() != ValueKind::kString) {
    return Value::Error("no such overload");
  }
  return Value::Bool(args[0].text().find(args[1].text()) != std::string_view::npos);
}
Value StartsWith(CallContext&, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kString || args[1].kind() != ValueKind::kString) {
    return Value::Error("no such overload");
  }
  return Value::Bool(args[0].text().substr(0, args[1].text().size()) == args[1].text());
}
Value EndsWith(CallContext&, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kString || args[1].kind() != ValueKind::kString) {
    return Value::Error("no such overload");
  }
  const std::string_view s = args[0].text();
  const std::string_view suffix = args[1].text();
  return Value::Bool(s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix);
}

// A singleton over traits.Matcher (strings); with a constant pattern cel-go substitutes an
// implementation that answers any non-string with a plain "no such overload".
Value Matches(CallContext& ctx, std::span<const Value> args) {
  if (ctx.regex != nullptr) {
    if (args[0].kind() != ValueKind::kString) return Value::Error("no such overload");
    return Value::Bool(RegexMatches(*ctx.regex, args[0].text()));
  }
  if (args[0].kind() != ValueKind::kString) return Value::Error("no such overload: matches");
  if (args[1].kind() != ValueKind::kString) return Value::Error("no such overload");
  absl::StatusOr<std::shared_ptr<const re2::RE2>> re = CompileRegex(args[1].text());
  if (!re.ok()) return Value::Error(std::string(re.status().message()));
  return Value::Bool(RegexMatches(**re, args[0].text()));
}

}  // namespace

void RegisterStandardLibrary(FunctionRegistry& r) {
  // Special forms: the evaluator implements them (non-strict or attribute-like).
  r.Global("_?_:_", "conditional", "bool, A, A -> A");
  r.Global("_&&_", "logical_and", "bool, bool -> bool");
  r.Global("_||_", "logical_or", "bool, bool -> bool");
  r.Global("@not_strictly_false", "not_strictly_false", "bool -> bool");
  r.Global("_==_", "equals", "A, A -> bool");
  r.Global("_!=_", "not_equals", "A, A -> bool");
  r.Global("_[_]", "index_list", "list(A), int -> A");
  r.Global("_[_]", "index_map", "map(A, B), A -> B");

  r.Function("!_", LogicalNot);
  r.Global("!_", "logical_not", "bool -> bool");

  r.Function("_+_", Add);
  r.Global("_+_", "add_bytes", "bytes, bytes -> bytes");
  r.Global("_+_", "add_double", "double, double -> double");
  r.Global("_+_", "add_duration_duration", "duration, duration -> duration");
  r.Global("_+_", "add_duration_timestamp", "duration, timestamp -> timestamp");
  r.Global("_+_", "add_timestamp_duration", "timestamp, duration -> timestamp");
  r.Global("_+_", "add_int64", "int, int -> int");
  r.Global("_+_", "add_list", "list(A), list(A) -> list(A)");
  r.Global("_+_", "add_string", "string, string -> string");
  r.Global("_+_", "add_uint64", "uint, uint -> uint");
  r.Function("_/_", Divide);
  r.Global("_/_", "divide_double", "double, double -> double");
  r.Global("_/_", "divide_int64", "int, int -> int");
  r.Global("_/_", "divide_uint64", "uint, uint -> uint");
  r.Function("_%_", Modulo);
  r.Global("_%_", "modulo_int64", "int, int -> int");
  r.Global("_%_", "modulo_uint64", "uint, uint -> uint");
  r.Function("_*_", Multiply);
  r.Global("_*_", "multiply_double", "double, double -> double");
  r.Global("_*_", "multiply_int64", "int, int -> int");
  r.Global("_*_", "multiply_uint64", "uint, uint -> uint");
  r.Function("-_", Negate);
  r.Global("-_", "negate_double", "double -> double");
  r.Global("-_", "negate_int64", "int -> int");
  r.Function("_-_", Subtract);
  r.Global("_-_", "subtract_double", "double, double -> double");
  r.Global("_-_", "subtract_duration_duration", "duration, duration -> duration");
  r.Global("_-_", "subtract_int64", "int, int -> int");
  r.Global("_-_", "subtract_timestamp_duration", "timestamp, duration -> timestamp");
  r.Global("_-_", "subtract_timestamp_timestamp", "timestamp, timestamp -> duration");
  r.Global("_-_", "subtract_uint64", "uint, uint -> uint");

  struct RelationDecl {
    const char* function;
    const char* prefix;
    FunctionImpl impl;
  };
  for (const RelationDecl& rel : {RelationDecl{"_<_", "less", Relation<true, false, false>},
                                  RelationDecl{"_<=_", "less_equals", Relation<true, true, false>},
                                  RelationDecl{"_>_", "greater", Relation<false, false, true>},
                                  RelationDecl{"_>=_", "greater_equals", Relation<false, true, true>}}) {
    const std::string p = rel.prefix;
    r.Function(rel.function, rel.impl);
    r.Global(rel.function, p + "_bool", "bool, bool -> bool");
    r.Global(rel.function, p + "_int64", "int, int -> bool");
    r.Global(rel.function, p + "_int64_double", "int, double -> bool");
    r.Global(rel.function, p + "_int64_uint64", "int, uint -> bool");
    r.Global(rel.function, p + "_uint64", "uint, uint -> bool");
    r.Global(rel.function, p + "_uint64_double", "uint, double -> bool");
    r.Global(rel.function, p + "_uint64_int64", "uint, int -> bool");
    r.Global(rel.function, p + "_double", "double, double -> bool");
    r.Global(rel.function, p + "_double_int64", "double, int -> bool");
    r.Global(rel.function, p + "_double_uint64", "double, uint -> bool");
    r.Global(rel.function, p + "_string", "string, string -> bool");
    r.Global(rel.function, p + "_bytes", "bytes, bytes -> bool");
    r.Global(rel.function, p + "_timestamp", "timestamp, timestamp -> bool");
    r.Global(rel.function, p + "_duration", "duration, duration -> bool");
  }

  r.Function("@in", In);
  r.Global("@in", "in_list", "A, list(A) -> bool");
  r.Global("@in", "in_map", "A, map(A, B) -> bool");

  r.Function("size", Size);
  r.Global("size", "size_bytes", "bytes -> int");
  r.Member("size", "bytes_size", "bytes -> int");
  r.Global("size", "size_list", "list(A) -> int");
  r.Member("size", "list_size", "list(A) -> int");
  r.Global("size", "size_map", "map(A, B) -> int");
  r.Member("size", "map_size", "map(A, B) -> int");
  r.Global("size", "size_string", "string -> int");
  r.Member("size", "string_size", "string -> int");

  r.Function("type", ToType);
  r.Global("type", "type", "A -> type(A)");
  r.Global("bool", "bool_to_bool", "bool -> bool", ToBool);
  r.Global("bool", "string_to_bool", "string -> bool", ToBool);
  r.Global("bytes", "bytes_to_bytes", "bytes -> bytes", ToBytes);
  r.Global("bytes", "string_to_bytes", "string -> bytes", ToBytes);
  r.Global("double", "double_to_double", "double -> double", ToDouble);
  r.Global("double", "int64_to_double", "int -> double", ToDouble);
  r.Global("double", "string_to_double", "string -> double", ToDouble);
  r.Global("double", "uint64_to_double", "uint -> double", ToDouble);
  r.Function("dyn", ToDyn);
  r.Global("dyn", "to_dyn", "A -> dyn");
  r.Global("int", "int64_to_int64", "int -> int", ToInt);
  r.Global("int", "double_to_int64", "double -> int", ToInt);
  r.Global("int", "duration_to_int64", "duration -> int", ToInt);
  r.Global("int", "string_to_int64", "string -> int", ToInt);
  r.Global("int", "timestamp_to_int64", "timestamp -> int", ToInt);
  r.Global("int", "uint64_to_int64", "uint -> int", ToInt);
  r.Global("string", "string_to_string", "string -> string", ToString);
  r.Global("string", "bool_to_string", "bool -> string", ToString);
  r.Global("string", "bytes_to_string", "bytes -> string", ToString);
  r.Global("string", "double_to_string", "double -> string", ToString);
  r.Global("string", "duration_to_string", "duration -> string", ToString);
  r.Global("string", "int64_to_string", "int -> string", ToString);
  r.Global("string", "timestamp_to_string", "timestamp -> string", ToString);
  r.Global("string", "uint64_to_string", "uint -> string", ToString);
  r.Global("uint", "uint64_to_uint64", "uint -> uint", ToUint);
  r.Global("uint", "double_to_uint64", "double -> uint", ToUint);
  r.Global("uint", "int64_to_uint64", "int -> uint", ToUint);
  r.Global("uint", "string_to_uint64", "string -> uint", ToUint);

  r.Function("contains", Contains);
  r.Member("contains", "contains_string", "string, string -> bool");
  r.Function("endsWith", EndsWith);
  r.Member("endsWith", "ends_with_string", "string, string -> bool");
  r.Function("startsWith", StartsWith);
  r.Member("startsWith", "starts_with_string", "string, string -> bool");
  r.Function("matches", Matches);
  r.Global("matches", "matches", "string, string -> bool");
  r.Member("matches", "matches_string", "string, string -> bool");
}

}  // namespace ksched::plugins::dynamic_resources::cel
