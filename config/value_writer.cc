#include "config/value_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <regex>
#include <string_view>
#include <vector>

#include "api/field_errors.h"
#include "api/utf8.h"

namespace ksched::config {
namespace {

// std::to_chars in the given format with the shortest round-trip digits.
std::string ShortestChars(double value, std::chars_format format) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value, format);
  (void)ec;  // 64 bytes always suffice for a double
  return std::string(buffer, end);
}

// ---------------------------------------------------------------------------------------------
// JSON

void AppendJson(const Value& value, std::string& out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out += "null";
      return;
    case Value::Kind::kBool:
      out += value.as_bool() ? "true" : "false";
      return;
    case Value::Kind::kInt:
      out += std::to_string(value.as_int());
      return;
    case Value::Kind::kUint:
      out += std::to_string(value.as_uint());
      return;
    case Value::Kind::kFloat:
      out += GoFloat(value.as_float());
      return;
    case Value::Kind::kString:
      out += api::JsonQuote(value.as_string());
      return;
    case Value::Kind::kList: {
      out += '[';
      bool first = true;
      for (const Value& item : value.as_list()) {
        if (!first) out += ',';
        first = false;
        AppendJson(item, out);
      }
      out += ']';
      return;
    }
    case Value::Kind::kMap: {
      out += '{';
      bool first = true;
      for (const MapEntry& entry : value.as_map()) {
        if (!first) out += ',';
        first = false;
        out += api::JsonQuote(entry.key);
        out += ':';
        AppendJson(entry.value, out);
      }
      out += '}';
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// YAML scalars

// strconv.FormatFloat(f, 'g', -1, 64).
std::string GoFormatG(double value) {
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  const std::string sci = ShortestChars(value, std::chars_format::scientific);
  const std::size_t e = sci.find('e');
  const int exponent = std::stoi(sci.substr(e + 1));
  if (exponent < -4 || exponent >= 6) return sci;  // shortest %g decides with precision 6
  return ShortestChars(value, std::chars_format::fixed);
}

bool IsLetter(char32_t r) {
  // ASCII letters and, roughly, every non-ASCII code point above Latin-1 punctuation: key order
  // only needs this for the unusual non-ASCII key.
  return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r >= 0xC0;
}

bool IsDigit(char32_t r) { return r >= '0' && r <= '9'; }

constexpr char32_t kInvalidByte = 0x110000;

std::vector<char32_t> Runes(std::string_view s) {
  std::vector<char32_t> runes;
  while (!s.empty()) {
    const api::DecodedRune d = api::DecodeRune(s);
    // An invalid byte becomes a value no printable check accepts.
    runes.push_back(d.rune == api::kRuneError && d.width == 1 ? kInvalidByte : d.rune);
    s.remove_prefix(d.width);
  }
  return runes;
}

// go-yaml v2's keyList.Less for two string keys (letters after other characters, digit runs
// compared as numbers).
bool GoYamlKeyLess(const std::string& a_text, const std::string& b_text) {
  const std::vector<char32_t> ar = Runes(a_text);
  const std::vector<char32_t> br = Runes(b_text);
  for (std::size_t i = 0; i < ar.size() && i < br.size(); ++i) {
    if (ar[i] == br[i]) continue;
    const bool al = IsLetter(ar[i]);
    const bool bl = IsLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    std::int64_t an = 0;
    std::int64_t bn = 0;
    if (ar[i] == '0' || br[i] == '0') {
      for (std::size_t j = i; j-- > 0 && IsDigit(ar[j]);) {
        if (ar[j] != '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    std::size_t ai = i;
    std::size_t bi = i;
    for (; ai < ar.size() && IsDigit(ar[ai]); ++ai) an = an * 10 + (ar[ai] - '0');
    for (; bi < br.size() && IsDigit(br[bi]); ++bi) bn = bn * 10 + (br[bi] - '0');
    if (an != bn) return an < bn;
    if (ai != bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.size() < br.size();
}

bool IsTimestamp(const std::string& s) {
  // go-yaml's timestamp formats: a date, then optionally a time with 'T' and a zone, or with a
  // space and no zone.
  static const std::regex kTimestamp(
      "^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
      "(([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2}))"
      "|( [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]+)?))?$");
  std::smatch match;
  if (!std::regex_match(s, match, kTimestamp)) return false;
  const int month = std::stoi(match[2].str());
  const int day = std::stoi(match[3].str());
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// Whether go-yaml v2's resolve("", s) gives anything but a string (or s is a base-60 float):
// such text must be double-quoted to read back as a string.
bool ResolvesToNonString(const std::string& s) {
  if (s.empty()) return true;
  static constexpr std::string_view kWords[] = {
      "y",    "Y",    "yes",  "Yes",  "YES",  "true", "True",  "TRUE",  "on",    "On",
      "ON",   "n",    "N",    "no",   "No",   "NO",   "false", "False", "FALSE", "off",
      "Off",  "OFF",  "~",    "null", "Null", "NULL", ".nan",  ".NaN",  ".NAN",  ".inf",
      ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<"};
  const char first = s[0];
  const bool hinted = first == '+' || first == '-' || first == '.' || IsDigit(first) ||
                      std::string_view("yYnNtTfFoO~").find(first) != std::string_view::npos;
  if (!hinted) return false;
  for (std::string_view word : kWords) {
    if (s == word) return true;
  }
  static const std::regex kFloat(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  static const std::regex kBase60(R"(^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$)");
  static const std::regex kInteger(
      R"(^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$)");
  if (first == '.') return std::regex_match(s, kFloat);
  if (first == '+' || first == '-' || IsDigit(first)) {
    if (IsTimestamp(s)) return true;
    std::string plain;
    for (char c : s) {
      if (c != '_') plain.push_back(c);
    }
    if (std::regex_match(plain, kInteger) || std::regex_match(plain, kFloat)) return true;
    return std::regex_match(s, kBase60);
  }
  return false;
}

// libyaml's IS_PRINTABLE.
bool IsPrintable(char32_t r) {
  return r == 0x0A || (r >= 0x20 && r <= 0x7E) || r == 0x85 || (r >= 0xA0 && r <= 0xD7FF) ||
         (r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF) || (r >= 0x10000 && r <= 0x10FFFF);
}

bool IsBreak(char32_t r) {
  return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029;
}
bool IsBlankOrEnd(const std::vector<char32_t>& runes, std::size_t i) {
  return i >= runes.size() || runes[i] == ' ' || runes[i] == '\t' || IsBreak(runes[i]);
}

struct ScalarAnalysis {
  bool block_plain_allowed = true;
  bool single_quoted_allowed = true;
  bool multiline = false;
};

// A reduction of libyaml's yaml_emitter_analyze_scalar to what block context needs.
ScalarAnalysis Analyze(const std::string& s) {
  ScalarAnalysis result;
  const std::vector<char32_t> runes = Runes(s);
  bool block_indicators = false;
  bool special = false;
  bool leading_space = false;
  bool trailing_space = false;
  bool leading_break = false;
  bool trailing_break = false;
  bool break_space = false;
  bool space_break = false;
  bool previous_space = false;
  bool previous_break = false;
  if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0) block_indicators = true;
  bool preceded_by_whitespace = true;
  for (std::size_t i = 0; i < runes.size(); ++i) {
    const char32_t r = runes[i];
    const bool followed_by_whitespace = IsBlankOrEnd(runes, i + 1);
    if (i == 0) {
      if (std::u32string_view(U"#,[]{}&*!|>'\"%@`").find(r) != std::u32string_view::npos) {
        block_indicators = true;
      }
      if ((r == '?' || r == ':') && followed_by_whitespace) block_indicators = true;
      if (r == '-' && followed_by_whitespace) block_indicators = true;
    } else {
      if (r == ':' && followed_by_whitespace) block_indicators = true;
      if (r == '#' && preceded_by_whitespace) block_indicators = true;
    }
    if (!IsPrintable(r)) special = true;
    if (IsBreak(r)) result.multiline = true;
    if (r == ' ') {
      if (i == 0) leading_space = true;
      if (i + 1 == runes.size()) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (IsBreak(r)) {
      if (i == 0) leading_break = true;
      if (i + 1 == runes.size()) trailing_break = true;
      if (previous_space) space_break = true;
      previous_break = true;
      previous_space = false;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = r == ' ' || r == '\t' || IsBreak(r);
  }
  if (leading_space || leading_break || trailing_space || trailing_break) {
    result.block_plain_allowed = false;
  }
  if (break_space) {
    result.block_plain_allowed = false;
    result.single_quoted_allowed = false;
  }
  if (space_break || special) {
    result.block_plain_allowed = false;
    result.single_quoted_allowed = false;
  }
  if (result.multiline) result.block_plain_allowed = false;
  if (block_indicators) result.block_plain_allowed = false;
  return result;
}

std::string SingleQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

// libyaml's double-quoted writer (no line folding).
std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  while (!s.empty()) {
    const api::DecodedRune d = api::DecodeRune(s);
    const char32_t r = d.rune;
    std::string_view bytes = s.substr(0, d.width);
    s.remove_prefix(d.width);
    switch (r) {
      case 0: out += "\\0"; continue;
      case 0x07: out += "\\a"; continue;
      case 0x08: out += "\\b"; continue;
      case 0x09: out += "\\t"; continue;
      case 0x0A: out += "\\n"; continue;
      case 0x0B: out += "\\v"; continue;
      case 0x0C: out += "\\f"; continue;
      case 0x0D: out += "\\r"; continue;
      case 0x1B: out += "\\e"; continue;
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case 0x85: out += "\\N"; continue;
      case 0xA0: out += "\\_"; continue;
      case 0x2028: out += "\\L"; continue;
      case 0x2029: out += "\\P"; continue;
      default:
        break;
    }
    if (IsPrintable(r) && !(r == api::kRuneError && d.width == 1)) {
      out.append(bytes);
      continue;
    }
    static constexpr char kHex[] = "0123456789ABCDEF";
    const int digits = r <= 0xFF ? 2 : r <= 0xFFFF ? 4 : 8;
    out += digits == 2 ? "\\x" : digits == 4 ? "\\u" : "\\U";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out += kHex[(static_cast<std::uint32_t>(r) >> shift) & 0xF];
    }
  }
  out += '"';
  return out;
}

std::string Indent(int n) { return std::string(static_cast<std::size_t>(n), ' '); }

// A string scalar in block context; multi-line text becomes a literal block whose lines are
// indented by `block_indent`.
std::string StringScalar(const std::string& s, int block_indent, bool is_key) {
  if (ResolvesToNonString(s)) return DoubleQuoted(s);
  const ScalarAnalysis analysis = Analyze(s);
  if (analysis.multiline && !is_key && analysis.single_quoted_allowed && s[0] != ' ') {
    std::string out = "|";
    std::size_t trailing = 0;
    while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
    out += trailing == 0 ? "-" : trailing == 1 ? "" : "+";
    std::string_view body(s);
    if (trailing > 0) body.remove_suffix(1);
    std::size_t start = 0;
    while (true) {
      const std::size_t end = body.find('\n', start);
      const std::string_view line =
          body.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
      out += '\n';
      if (!line.empty()) out += Indent(block_indent);
      out.append(line);
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
    return out;
  }
  if (analysis.block_plain_allowed) return s;
  if (analysis.single_quoted_allowed && !analysis.multiline) return SingleQuoted(s);
  return DoubleQuoted(s);
}

std::string NumberScalar(const Value& value) {
  if (value.kind() == Value::Kind::kInt) return std::to_string(value.as_int());
  if (value.kind() == Value::Kind::kUint) return std::to_string(value.as_uint());
  // The JSON text is read back by YAML: an integral literal is an integer when it fits.
  const std::string json = GoFloat(value.as_float());
  if (json.find_first_of(".eE") == std::string::npos) {
    const bool negative = json[0] == '-';
    std::uint64_t magnitude = 0;
    const char* begin = json.data() + (negative ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, json.data() + json.size(), magnitude);
    if (ec == std::errc() && end == json.data() + json.size()) {
      if (!negative) return std::to_string(magnitude);
      if (magnitude == 0) return "0";
      if (magnitude <= static_cast<std::uint64_t>(INT64_MAX) + 1) return json;
    }
  }
  return GoFormatG(value.as_float());
}

std::string Scalar(const Value& value, int block_indent) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBool:
      return value.as_bool() ? "true" : "false";
    case Value::Kind::kInt:
    case Value::Kind::kUint:
    case Value::Kind::kFloat:
      return NumberScalar(value);
    case Value::Kind::kString:
      return StringScalar(value.as_string(), block_indent, false);
    case Value::Kind::kList:
      return "[]";
    case Value::Kind::kMap:
      return "{}";
  }
  return "null";
}

bool IsBlock(const Value& value) {
  return (value.is_map() && !value.as_map().empty()) ||
         (value.is_list() && !value.as_list().empty());
}

void AppendYaml(const Value& value, int indent, std::string& out);

// The entries of a non-empty map, the first one written where the cursor is (after "- " for a
// list item), the others at `indent`.
void AppendMapEntries(const Value::Map& map, int indent, bool first_inline, std::string& out) {
  std::vector<const MapEntry*> entries;
  for (const MapEntry& entry : map) entries.push_back(&entry);
  std::stable_sort(entries.begin(), entries.end(), [](const MapEntry* a, const MapEntry* b) {
    return GoYamlKeyLess(a->key, b->key);
  });
  bool first = true;
  for (const MapEntry* entry : entries) {
    if (!(first && first_inline)) out += Indent(indent);
    first = false;
    out += StringScalar(entry->key, indent + 2, true);
    out += ':';
    const Value& child = entry->value;
    if (child.is_map() && IsBlock(child)) {
      out += '\n';
      AppendMapEntries(child.as_map(), indent + 2, false, out);
    } else if (child.is_list() && IsBlock(child)) {
      out += '\n';
      AppendYaml(child, indent, out);
    } else {
      out += ' ';
      out += Scalar(child, indent + 2);
      out += '\n';
    }
  }
}

// A non-empty list at `indent` ("- item" lines); an item that is itself a block starts on the
// dash's line.
void AppendListItems(const Value::List& list, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const Value& item : list) {
    if (!(first && first_inline)) out += Indent(indent);
    first = false;
    out += "- ";
    if (item.is_map() && IsBlock(item)) {
      AppendMapEntries(item.as_map(), indent + 2, true, out);
    } else if (item.is_list() && IsBlock(item)) {
      AppendListItems(item.as_list(), indent + 2, true, out);
    } else {
      out += Scalar(item, indent + 2);
      out += '\n';
    }
  }
}

void AppendYaml(const Value& value, int indent, std::string& out) {
  if (value.is_map() && IsBlock(value)) {
    AppendMapEntries(value.as_map(), indent, false, out);
  } else if (value.is_list() && IsBlock(value)) {
    AppendListItems(value.as_list(), indent, false, out);
  } else {
    out += Indent(indent);
    out += Scalar(value, indent + 2);
    out += '\n';
  }
}

}  // namespace

std::string GoFloat(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21)) {
    std::string text = ShortestChars(value, std::chars_format::scientific);
    // encoding/json cleans up e-09 to e-9.
    const std::size_t n = text.size();
    if (n >= 4 && text[n - 4] == 'e' && text[n - 3] == '-' && text[n - 2] == '0') {
      text.erase(n - 2, 1);
    }
    return text;
  }
  return ShortestChars(value, std::chars_format::fixed);
}

std::string ToJson(const Value& value) {
  std::string out;
  AppendJson(value, out);
  return out;
}

std::string ToYaml(const Value& value) {
  std::string out;
  AppendYaml(value, 0, out);
  return out;
}

}  // namespace ksched::config
