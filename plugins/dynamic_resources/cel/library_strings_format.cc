#include "plugins/dynamic_resources/cel/library_strings_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>
#include <vector>

#include "api/field_errors.h"
#include "api/go_strconv.h"
#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/source.h"
#include "plugins/dynamic_resources/cel/timestamp.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// One parsed clause: %[.precision]verb.
struct Clause {
  char verb = 's';
  std::optional<std::int64_t> precision;
};

constexpr std::string_view kParseError = "could not parse formatting clause: ";

// The clause after a '%' (`rest` is not empty); `consumed` gets its length.
bool ParseClause(std::string_view rest, Clause& clause, std::size_t& consumed, std::string& error) {
  std::size_t i = 0;
  if (rest[0] == '.') {
    i = 1;
    while (true) {
      if (i >= rest.size()) {
        error = std::string(kParseError) + "error while parsing precision: could not find end of precision specifier";
        return false;
      }
      if (rest[i] < '0' || rest[i] > '9') break;
      ++i;
    }
    absl::StatusOr<std::int64_t> precision = api::GoAtoi(rest.substr(1, i - 1));
    if (!precision.ok()) {
      error = std::string(kParseError) + "error while parsing precision: error while converting precision to integer: " +
              std::string(precision.status().message());
      return false;
    }
    clause.precision = *precision;
  }
  const char verb = rest[i];
  switch (verb) {
    case 's':
    case 'd':
    case 'f':
    case 'e':
    case 'b':
    case 'x':
    case 'X':
    case 'o':
      clause.verb = verb;
      consumed = i + 1;
      return true;
    default: {
      // Upstream prints the byte as a rune: a UTF-8 lead byte 0xC3 shows as "Ã".
      const auto byte = static_cast<unsigned char>(verb);
      std::string shown;
      if (byte < 0x80) {
        shown.push_back(verb);
      } else {
        shown.push_back(static_cast<char>(0xC0 | (byte >> 6)));
        shown.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
      }
      error = std::string(kParseError) + "unrecognized formatting clause \"" + shown + "\"";
      return false;
    }
  }
}

// cel-go's parseFormatString. `format_clause(index, clause, out, error)` formats one argument.
// At runtime a missing argument is found before the end of the string (the argument is fetched
// first); the validator checks the end first. `used` counts the clauses reached.
template <typename FormatClause>
bool WalkFormat(std::string_view format, std::size_t argument_count, bool runtime, FormatClause&& format_clause,
                std::string& out, std::string& error, std::size_t& used) {
  std::size_t i = 0;
  std::size_t argument = 0;
  while (i < format.size()) {
    if (format[i] != '%') {
      out.push_back(format[i++]);
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out.push_back('%');
      i += 2;
      continue;
    }
    const std::string out_of_range = "index " + std::to_string(argument) + " out of range";
    if (runtime && argument >= argument_count) {
      error = out_of_range;
      return false;
    }
    ++used;
    if (i + 1 >= format.size()) {
      error = "unexpected end of string";
      return false;
    }
    if (argument >= argument_count) {
      error = out_of_range;
      return false;
    }
    Clause clause;
    std::size_t consumed = 0;
    if (!ParseClause(format.substr(i + 1), clause, consumed, error)) return false;
    std::string clause_error;
    if (!format_clause(argument, clause, out, clause_error)) {
      error = "error during formatting: " + clause_error;
      return false;
    }
    i += 1 + consumed;
    ++argument;
  }
  return true;
}

// --- runtime formatting ----------------------------------------------------------------------

bool IsValidUtf8(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t before = pos;
    if (DecodeUtf8(text, pos) == 0xFFFD && !(pos - before == 3 && text.substr(before, 3) == "\xEF\xBF\xBD")) {
      return false;
    }
  }
  return true;
}

constexpr std::string_view kInvalidUtf8 =
    "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string";

std::string StringClauseError(std::string_view type_name) {
  return "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
         "and timestamps, was given " +
         std::string(type_name);
}

// Go's fmt "%.6f" ("+Inf", "NaN", "-0.000000").
std::string GoFixed6(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buffer[400];
  std::snprintf(buffer, sizeof(buffer), "%.6f", d);
  return buffer;
}

bool FormatListText(const Value& list, std::string& out, std::string& error);
bool FormatMapText(const Value& map, std::string& out, std::string& error);

// A list element or map value as its literal (cel-go's clauseForType then quoteForCEL).
bool FormatElement(const Value& v, std::string& out, std::string& error) {
  switch (v.kind()) {
    case ValueKind::kInt: out += std::to_string(v.int_value()); return true;
    case ValueKind::kUint: out += std::to_string(v.uint_value()); return true;
    case ValueKind::kString: out += api::GoQuote(v.text()); return true;
    case ValueKind::kBytes:
      if (!IsValidUtf8(v.text())) {
        error = kInvalidUtf8;
        return false;
      }
      out += 'b';
      out += api::GoQuote(v.text());
      return true;
    case ValueKind::kBool: out += v.bool_value() ? "true" : "false"; return true;
    case ValueKind::kNull: out += "null"; return true;
    case ValueKind::kType: out += v.text(); return true;
    case ValueKind::kTimestamp:
      out += "timestamp(";
      out += api::GoQuote(FormatRfc3339Nano(v.timestamp()));
      out += ')';
      return true;
    case ValueKind::kDuration:
      out += "duration(";
      out += api::GoQuote(FormatDurationSeconds(v.duration_nanos()));
      out += ')';
      return true;
    case ValueKind::kList: return FormatListText(v, out, error);
    case ValueKind::kMap: return FormatMapText(v, out, error);
    case ValueKind::kDouble: {
      const double d = v.double_value();
      const std::string text = GoFixed6(d);
      out += std::isfinite(d) ? text : api::GoQuote(text);
      return true;
    }
    default:
      error = "no formatting function for " + std::string(TypeNameOf(v));
      return false;
  }
}

bool FormatListText(const Value& list, std::string& out, std::string& error) {
  out += '[';
  bool first = true;
  for (const Value& element : list.list().elements) {
    if (!first) out += ", ";
    first = false;
    if (!FormatElement(element, out, error)) return false;
  }
  out += ']';
  return true;
}

bool FormatMapText(const Value& map, std::string& out, std::string& error) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const Value& key : MapKeys(map)) {
    std::string key_text;
    switch (key.kind()) {
      case ValueKind::kString: key_text = api::GoQuote(key.text()); break;
      case ValueKind::kBool: key_text = key.bool_value() ? "true" : "false"; break;
      case ValueKind::kInt: key_text = std::to_string(key.int_value()); break;
      case ValueKind::kUint: key_text = std::to_string(key.uint_value()); break;
      default:
        error = "no formatting function for map key of type " + std::string(TypeNameOf(key));
        return false;
    }
    std::string value_text;
    if (!FormatElement(*MapFind(map, key), value_text, error)) return false;
    entries.emplace_back(std::move(key_text), std::move(value_text));
  }
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out += '{';
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += ", ";
    out += entries[i].first;
    out += ':';
    out += entries[i].second;
  }
  out += '}';
  return true;
}

// %s: cel-go's FormatString.
bool FormatStringClause(const Value& v, std::string& out, std::string& error) {
  switch (v.kind()) {
    case ValueKind::kList: return FormatListText(v, out, error);
    case ValueKind::kMap: return FormatMapText(v, out, error);
    case ValueKind::kInt: out += std::to_string(v.int_value()); return true;
    case ValueKind::kUint: out += std::to_string(v.uint_value()); return true;
    case ValueKind::kDouble: out += FormatDouble(v.double_value()); return true;
    case ValueKind::kBool: out += v.bool_value() ? "true" : "false"; return true;
    case ValueKind::kString:
    case ValueKind::kType: out += v.text(); return true;
    case ValueKind::kTimestamp: out += FormatRfc3339Nano(v.timestamp()); return true;
    case ValueKind::kDuration: out += FormatDurationSeconds(v.duration_nanos()); return true;
    case ValueKind::kBytes:
      if (!IsValidUtf8(v.text())) {
        error = kInvalidUtf8;
        return false;
      }
      out += v.text();
      return true;
    case ValueKind::kNull: out += "null"; return true;
    default:
      error = StringClauseError(TypeNameOf(v));
      return false;
  }
}

// golang.org/x/text's parser rejects a width or precision once a prefix of its digits exceeds
// 1e6 (the whole output is then "%!(NOVERB)").
bool PrinterRejects(std::int64_t number) { return number / 10 > 1000000; }

void GroupThousands(std::string_view digits, std::string& out) {
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
}

// The shortest digits that round-trip (Go's 'g', -1), written out in positional notation with
// zeros for the exponent ("1e+300" becomes "1000...0").
std::string ShortestFixed(double magnitude) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), magnitude, std::chars_format::scientific);
  const std::string_view scientific(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = scientific.find('e');
  std::string significant;
  for (char c : scientific.substr(0, e)) {
    if (c != '.') significant.push_back(c);
  }
  int exponent = 0;
  std::from_chars(scientific.data() + e + (scientific[e + 1] == '+' ? 2 : 1), scientific.data() + scientific.size(),
                  exponent);
  // The point sits after digit `exponent + 1` of the significant digits.
  const long point = static_cast<long>(exponent) + 1;
  std::string out;
  if (point <= 0) {
    out = "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += significant;
  } else if (static_cast<std::size_t>(point) >= significant.size()) {
    out = significant;
    out.append(static_cast<std::size_t>(point) - significant.size(), '0');
  } else {
    out = significant.substr(0, static_cast<std::size_t>(point));
    out += '.';
    out += significant.substr(static_cast<std::size_t>(point));
  }
  return out;
}

// x/text's en_US printer for "%.<precision>f": the digits rounded to int16(precision) places
// (shortest digits when that is negative), trailing zeros dropped down to uint8(precision)
// places, the integer part grouped by thousands.
std::string LocaleFixed(double d, std::int64_t precision) {
  if (PrinterRejects(precision)) return "%!(NOVERB)";
  if (std::isnan(d)) return "NaN";
  const std::string sign = d < 0 ? "-" : "";
  if (std::isinf(d)) return sign + "\xE2\x88\x9E";
  const auto max_fraction = static_cast<std::int16_t>(static_cast<std::uint16_t>(precision & 0xFFFF));
  const auto min_fraction = static_cast<std::size_t>(precision & 0xFF);
  const double magnitude = std::fabs(d);
  std::string digits;
  if (max_fraction >= 0) {
    const int length = std::snprintf(nullptr, 0, "%.*f", static_cast<int>(max_fraction), magnitude);
    digits.resize(static_cast<std::size_t>(length) + 1);
    std::snprintf(digits.data(), digits.size(), "%.*f", static_cast<int>(max_fraction), magnitude);
    digits.resize(static_cast<std::size_t>(length));
  } else {
    digits = ShortestFixed(magnitude);
  }
  const std::size_t point = digits.find('.');
  const std::string_view integer = std::string_view(digits).substr(0, point);
  std::string fraction = point == std::string::npos ? std::string() : digits.substr(point + 1);
  while (fraction.size() > min_fraction && !fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (fraction.size() < min_fraction) fraction.append(min_fraction - fraction.size(), '0');
  std::string out = sign;
  GroupThousands(integer, out);
  if (!fraction.empty()) {
    out += '.';
    out += fraction;
  }
  return out;
}

// x/text's en_US printer for "%<width>e": seven significant digits, "×10" and a superscript
// exponent of at least two digits, padded with spaces to uint16(width) characters.
std::string LocaleScientific(double d, std::int64_t width) {
  if (PrinterRejects(width)) return "%!(NOVERB)";
  std::string text;
  const std::string sign = d < 0 ? "-" : "";
  if (std::isnan(d)) {
    text = "NaN";
  } else if (std::isinf(d)) {
    text = sign + "\xE2\x88\x9E";
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.6e", std::fabs(d));
    const std::string_view scientific = buffer;
    const std::size_t e = scientific.find('e');
    text = sign + std::string(scientific.substr(0, e)) + "\xC3\x97" "10";
    static constexpr const char* kSuperscripts[] = {"\xE2\x81\xB0", "\xC2\xB9",     "\xC2\xB2",     "\xC2\xB3",
                                                    "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7",
                                                    "\xE2\x81\xB8", "\xE2\x81\xB9"};
    if (scientific[e + 1] == '-') text += "\xE2\x81\xBB";
    for (char c : scientific.substr(e + 2)) text += kSuperscripts[c - '0'];
  }
  const auto padded_width = static_cast<std::size_t>(width & 0xFFFF);
  const std::size_t runes = CodePointCount(text);
  if (runes >= padded_width) return text;
  std::string padded(padded_width - runes, ' ');
  padded += text;
  return padded;
}

// The double a %f or %e argument denotes: a double, or one of the strings String.ConvertToType
// parses to a special value.
bool FloatArgument(const Value& v, double& out) {
  if (v.kind() == ValueKind::kDouble) {
    out = v.double_value();
    return true;
  }
  if (v.kind() != ValueKind::kString) return false;
  if (v.text() == "NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
  } else if (v.text() == "Infinity") {
    out = std::numeric_limits<double>::infinity();
  } else if (v.text() == "-Infinity") {
    out = -std::numeric_limits<double>::infinity();
  } else {
    return false;
  }
  return true;
}

// Go's %b, %o, %x, %X of an integer: a '-' then the magnitude's digits.
std::string IntegerInBase(bool negative, std::uint64_t magnitude, unsigned base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string reversed;
  do {
    reversed.push_back(digits[magnitude % base]);
    magnitude /= base;
  } while (magnitude != 0);
  if (negative) reversed.push_back('-');
  return std::string(reversed.rbegin(), reversed.rend());
}

bool FormatIntegerInBase(const Value& v, unsigned base, bool upper, std::string& out) {
  if (v.kind() == ValueKind::kInt) {
    const std::int64_t i = v.int_value();
    const std::uint64_t magnitude = i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    out += IntegerInBase(i < 0, magnitude, base, upper);
    return true;
  }
  if (v.kind() == ValueKind::kUint) {
    out += IntegerInBase(false, v.uint_value(), base, upper);
    return true;
  }
  return false;
}

bool FormatClauseAtRuntime(const Value& v, const Clause& clause, std::string& out, std::string& error) {
  const std::string type_name(TypeNameOf(v));
  switch (clause.verb) {
    case 's':
      return FormatStringClause(v, out, error);
    case 'd':
      if (FormatIntegerInBase(v, 10, false, out)) return true;
      error = "decimal clause can only be used on integers, was given " + type_name;
      return false;
    case 'f':
    case 'e': {
      double d = 0;
      if (!FloatArgument(v, d)) {
        error = std::string(clause.verb == 'f' ? "fixed-point" : "scientific") +
                " clause can only be used on doubles, was given " + type_name;
        return false;
      }
      const std::int64_t precision = clause.precision.value_or(6);
      out += clause.verb == 'f' ? LocaleFixed(d, precision) : LocaleScientific(d, precision);
      return true;
    }
    case 'b':
      if (v.kind() == ValueKind::kBool) {
        out += v.bool_value() ? "1" : "0";
        return true;
      }
      if (FormatIntegerInBase(v, 2, false, out)) return true;
      error = "only integers and bools can be formatted as binary, was given " + type_name;
      return false;
    case 'o':
      if (FormatIntegerInBase(v, 8, false, out)) return true;
      error = "octal clause can only be used on integers, was given " + type_name;
      return false;
    default: {  // 'x', 'X'
      const bool upper = clause.verb == 'X';
      if (v.kind() == ValueKind::kString || v.kind() == ValueKind::kBytes) {
        const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
        for (unsigned char c : v.text()) {
          out += digits[c >> 4];
          out += digits[c & 0xF];
        }
        return true;
      }
      if (FormatIntegerInBase(v, 16, upper, out)) return true;
      error = "only integers, byte buffers, and strings can be formatted as hex, was given " + type_name;
      return false;
    }
  }
}

Value Format(CallContext& ctx, std::span<const Value> args) {
  const std::vector<Value>& arguments = args[1].list().elements;
  std::string out;
  std::string error;
  std::size_t used = 0;
  const bool ok = WalkFormat(
      args[0].text(), arguments.size(), true,
      [&](std::size_t index, const Clause& clause, std::string& text, std::string& clause_error) {
        return FormatClauseAtRuntime(arguments[index], clause, text, clause_error);
      },
      out, error, used);
  if (!ok) return Value::Error(error);
  return MakeString(ctx, std::move(out));
}

// --- the validator -----------------------------------------------------------------------------

bool KindIn(const Type& type, std::initializer_list<TypeKind> kinds) {
  if (type.kind == TypeKind::kDyn) return true;
  return std::find(kinds.begin(), kinds.end(), type.kind) != kinds.end();
}

// cel-go's verifyString: the element's type, and those of the literals nested in it; the first
// offending node, or null.
const Expr* UnformattableAsString(const Expr& e, const std::function<TypePtr(const Expr&)>& type_of) {
  if (!KindIn(*type_of(e), {TypeKind::kList, TypeKind::kMap, TypeKind::kInt, TypeKind::kUint, TypeKind::kDouble,
                            TypeKind::kBool, TypeKind::kString, TypeKind::kTimestamp, TypeKind::kBytes,
                            TypeKind::kDuration, TypeKind::kType, TypeKind::kNull})) {
    return &e;
  }
  if (e.kind == ExprKind::kList) {
    for (const ExprPtr& element : e.args) {
      if (const Expr* bad = UnformattableAsString(*element, type_of); bad != nullptr) return bad;
    }
  } else if (e.kind == ExprKind::kMap) {
    for (const MapEntry& entry : e.entries) {
      if (const Expr* bad = UnformattableAsString(*entry.key, type_of); bad != nullptr) return bad;
      if (const Expr* bad = UnformattableAsString(*entry.value, type_of); bad != nullptr) return bad;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<FormatIssue> ValidateFormatCall(std::string_view format, const Expr& arguments, std::int64_t call_id,
                                              const std::function<TypePtr(const Expr&)>& type_of) {
  std::int64_t error_id = call_id;
  auto check_clause = [&](std::size_t index, const Clause& clause, std::string&, std::string& error) {
    const Expr& argument = *arguments.args[index];
    const Type& type = *type_of(argument);
    const std::string type_name = type.TypeName();
    auto fail = [&](std::int64_t id, std::string message) {
      error_id = id;
      error = std::move(message);
      return false;
    };
    switch (clause.verb) {
      case 's':
        if (const Expr* bad = UnformattableAsString(argument, type_of); bad != nullptr) {
          return fail(bad->id, StringClauseError(type_of(*bad)->TypeName()));
        }
        return true;
      case 'd':
        if (KindIn(type, {TypeKind::kInt, TypeKind::kUint})) return true;
        return fail(argument.id, "decimal clause can only be used on integers, was given " + type_name);
      case 'f':
        if (KindIn(type, {TypeKind::kDouble, TypeKind::kString})) return true;
        return fail(argument.id, "fixed-point clause can only be used on doubles, was given " + type_name);
      case 'e':
        if (KindIn(type, {TypeKind::kDouble, TypeKind::kString})) return true;
        return fail(argument.id, "scientific clause can only be used on doubles, was given " + type_name);
      case 'b':
        if (KindIn(type, {TypeKind::kInt, TypeKind::kUint, TypeKind::kBool})) return true;
        return fail(argument.id, "only integers and bools can be formatted as binary, was given " + type_name);
      case 'o':
        if (KindIn(type, {TypeKind::kInt, TypeKind::kUint})) return true;
        return fail(argument.id, "octal clause can only be used on integers, was given " + type_name);
      default:
        if (KindIn(type, {TypeKind::kInt, TypeKind::kUint, TypeKind::kString, TypeKind::kBytes})) return true;
        return fail(argument.id,
                    "only integers, byte buffers, and strings can be formatted as hex, was given " + type_name);
    }
  };
  std::string ignored;
  std::string error;
  std::size_t used = 0;
  if (!WalkFormat(format, arguments.args.size(), false, check_clause, ignored, error, used)) {
    return FormatIssue{error_id, error};
  }
  if (arguments.args.size() > used) {
    return FormatIssue{call_id, "too many arguments supplied to string.format (expected " + std::to_string(used) +
                                    ", got " + std::to_string(arguments.args.size()) + ")"};
  }
  return std::nullopt;
}

void RegisterStringFormat(FunctionRegistry& r) {
  r.Member("format", "string_format", "string, list(dyn) -> string", Format);
}

}  // namespace ksched::plugins::dynamic_resources::cel
