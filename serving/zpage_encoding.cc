#include "serving/zpage_encoding.h"

#include <algorithm>
#include <cstdio>
#include <regex>

namespace ksched::serving {

ZValue ZValue::String(std::string value) {
  ZValue v;
  v.kind = Kind::kString;
  v.text = std::move(value);
  return v;
}

ZValue ZValue::Int(std::int64_t value) {
  ZValue v;
  v.kind = Kind::kInt;
  v.number = value;
  return v;
}

ZValue ZValue::Strings(std::vector<std::string> values) {
  ZValue v;
  v.kind = Kind::kStrings;
  v.strings = std::move(values);
  return v;
}

ZValue ZValue::Null() { return ZValue{}; }

ZValue ZValue::Object() {
  ZValue v;
  v.kind = Kind::kObject;
  return v;
}

ZValue& ZValue::Add(std::string key, ZValue value) {
  fields.push_back(ZField{std::move(key), std::move(value)});
  return *this;
}

std::string GoJsonQuote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    // Go escapes <, > and & for HTML, control characters, and U+2028 / U+2029.
    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      continue;
    }
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
      continue;
    }
    out += static_cast<char>(c);
  }
  out += '"';
  return out;
}

namespace {

void WriteJson(const ZValue& value, bool pretty, int depth, std::string& out) {
  auto newline = [&](int level) {
    if (!pretty) return;
    out += '\n';
    out.append(static_cast<std::size_t>(level) * 2, ' ');
  };
  switch (value.kind) {
    case ZValue::Kind::kString:
      out += GoJsonQuote(value.text);
      return;
    case ZValue::Kind::kInt:
      out += std::to_string(value.number);
      return;
    case ZValue::Kind::kNull:
      out += "null";
      return;
    case ZValue::Kind::kStrings:
      if (value.strings.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      for (std::size_t i = 0; i < value.strings.size(); ++i) {
        if (i > 0) out += ',';
        newline(depth + 1);
        out += GoJsonQuote(value.strings[i]);
      }
      newline(depth);
      out += ']';
      return;
    case ZValue::Kind::kObject:
      if (value.fields.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (std::size_t i = 0; i < value.fields.size(); ++i) {
        if (i > 0) out += ',';
        newline(depth + 1);
        out += GoJsonQuote(value.fields[i].first);
        out += pretty ? ": " : ":";
        WriteJson(value.fields[i].second, pretty, depth + 1, out);
      }
      newline(depth);
      out += '}';
      return;
  }
}

// --- YAML (goyaml.v2's emitter, for the scalars these documents hold) ---------------------------

constexpr int kBestWidth = 80;

// What goyaml.v2's resolve() reads a plain scalar as, when that is not a string: such a string is
// written double-quoted.
bool ResolvesToNonString(const std::string& s) {
  static const char* const kWords[] = {"",     "~",     "null",  "Null",  "NULL",  "y",     "Y",     "yes",
                                       "Yes",  "YES",   "n",     "N",     "no",    "No",    "NO",    "true",
                                       "True", "TRUE",  "false", "False", "FALSE", "on",    "On",    "ON",
                                       "off",  "Off",   "OFF",   ".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf",
                                       "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",  ".NaN",  ".NAN",  "<<"};
  for (const char* word : kWords) {
    if (s == word) return true;
  }
  static const std::regex kFloat(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  static const std::regex kInt(R"(^[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9_]+)$)");
  static const std::regex kBase60(R"(^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$)");
  // parseTimestamp's layouts: 2006-1-2T15:4:5.999999999Z07:00 (t or T, or a space without zone), 2006-1-2.
  static const std::regex kTimestamp(
      R"(^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2}))|( [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?))?$)");
  return std::regex_match(s, kFloat) || std::regex_match(s, kInt) || std::regex_match(s, kBase60) ||
         std::regex_match(s, kTimestamp);
}

bool IsBlank(const std::string& s, std::size_t i) { return i >= s.size() || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'; }

enum class Style { kPlain, kSingle, kDouble };

// yaml_emitter_analyze_scalar + select_scalar_style for a block-context value.
Style ChooseStyle(const std::string& s) {
  if (ResolvesToNonString(s)) return Style::kDouble;
  bool special = false, block_indicators = false, leading_space = false, trailing_space = false;
  if (s.size() >= 3 && (s.compare(0, 3, "---") == 0 || s.compare(0, 3, "...") == 0)) block_indicators = true;
  bool preceded_by_whitespace = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool followed_by_whitespace = IsBlank(s, i + 1);
    if (i == 0) {
      switch (c) {
        case '#': case ',': case '[': case ']': case '{': case '}': case '&': case '*': case '!':
        case '|': case '>': case '\'': case '"': case '%': case '@': case '`':
          block_indicators = true;
          break;
        case '?': case ':': case '-':
          if (followed_by_whitespace) block_indicators = true;
          break;
        default:
          break;
      }
    } else {
      if (c == ':' && followed_by_whitespace) block_indicators = true;
      if (c == '#' && preceded_by_whitespace) block_indicators = true;
    }
    if (c < 0x20 || c == 0x7F) special = true;  // tabs, breaks, controls: not printable plain
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (i + 1 == s.size()) trailing_space = true;
    }
    preceded_by_whitespace = IsBlank(s, i);
  }
  if (special) return Style::kDouble;
  if (leading_space || trailing_space || block_indicators) return Style::kSingle;
  return Style::kPlain;
}

class YamlWriter {
 public:
  std::string Take() { return std::move(out_); }

  void Raw(std::string_view text) {
    for (char c : text) Put(c);
  }
  void Break() {
    out_ += '\n';
    column_ = 0;
  }
  void Indent(int indent) {
    while (column_ < indent) Put(' ');
  }

  // A scalar value after "key:" (or "- "), continuation lines at `indent`.
  void Scalar(const std::string& s, int indent) {
    Put(' ');
    switch (ChooseStyle(s)) {
      case Style::kPlain: {
        bool spaces = false;
        for (std::size_t i = 0; i < s.size(); ++i) {
          if (s[i] == ' ') {
            if (!spaces && column_ > kBestWidth && !(i + 1 < s.size() && s[i + 1] == ' ')) {
              Break();
              Indent(indent);
            } else {
              Put(' ');
            }
            spaces = true;
          } else {
            Put(s[i]);
            spaces = false;
          }
        }
        return;
      }
      case Style::kSingle: {
        Put('\'');
        bool spaces = false;
        for (std::size_t i = 0; i < s.size(); ++i) {
          if (s[i] == ' ') {
            if (!spaces && column_ > kBestWidth && i > 0 && i + 1 < s.size() && s[i + 1] != ' ') {
              Break();
              Indent(indent);
            } else {
              Put(' ');
            }
            spaces = true;
          } else {
            if (s[i] == '\'') Put('\'');
            Put(s[i]);
            spaces = false;
          }
        }
        Put('\'');
        return;
      }
      case Style::kDouble: {
        std::string quoted = "\"";
        for (char c : s) {
          const auto u = static_cast<unsigned char>(c);
          if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
          } else if (u < 0x20 || u == 0x7F) {
            char buffer[8];
            std::snprintf(buffer, sizeof(buffer), "\\x%02X", u);
            quoted += buffer;
          } else {
            quoted += c;
          }
        }
        quoted += '"';
        Raw(quoted);
        return;
      }
    }
  }

 private:
  void Put(char c) {
    out_ += c;
    // Columns count characters: UTF-8 continuation bytes do not move the column.
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column_;
  }

  std::string out_;
  int column_ = 0;
};

void WriteYamlMapping(const ZValue& object, int indent, YamlWriter& w);

// "key:" then the value; `indent` is the key's column.
void WriteYamlEntry(const std::string& key, const ZValue& value, int indent, YamlWriter& w) {
  w.Indent(indent);
  w.Raw(key);
  w.Raw(":");
  switch (value.kind) {
    case ZValue::Kind::kString:
      w.Scalar(value.text, indent + 2);
      w.Break();
      return;
    case ZValue::Kind::kInt:
      w.Raw(" ");
      w.Raw(std::to_string(value.number));
      w.Break();
      return;
    case ZValue::Kind::kNull:
      w.Raw(" null");
      w.Break();
      return;
    case ZValue::Kind::kStrings:
      if (value.strings.empty()) {
        w.Raw(" []");
        w.Break();
        return;
      }
      w.Break();
      // goyaml.v2 writes a mapping's sequence without indenting it.
      for (const std::string& item : value.strings) {
        w.Indent(indent);
        w.Raw("-");
        w.Scalar(item, indent + 2);
        w.Break();
      }
      return;
    case ZValue::Kind::kObject:
      if (value.fields.empty()) {
        w.Raw(" {}");
        w.Break();
        return;
      }
      w.Break();
      WriteYamlMapping(value, indent + 2, w);
      return;
  }
}

void WriteYamlMapping(const ZValue& object, int indent, YamlWriter& w) {
  std::vector<const ZField*> sorted;
  sorted.reserve(object.fields.size());
  for (const auto& field : object.fields) sorted.push_back(&field);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* field : sorted) WriteYamlEntry(field->first, field->second, indent, w);
}

}  // namespace

std::string EncodeJson(const ZValue& value) {
  std::string out;
  WriteJson(value, false, 0, out);
  out += '\n';
  return out;
}

std::string EncodeJsonPretty(const ZValue& value) {
  std::string out;
  WriteJson(value, true, 0, out);
  return out;
}

std::string EncodeYaml(const ZValue& value) {
  YamlWriter w;
  if (value.kind == ZValue::Kind::kObject && !value.fields.empty()) {
    WriteYamlMapping(value, 0, w);
  } else if (value.kind == ZValue::Kind::kObject) {
    w.Raw("{}");
    w.Break();
  }
  return w.Take();
}

}  // namespace ksched::serving
