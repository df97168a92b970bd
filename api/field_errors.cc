#include "api/field_errors.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

#include "api/utf8.h"

namespace ksched::api {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void AppendHex(std::string& out, std::uint32_t value, int digits) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    out += kHexDigits[(value >> shift) & 0xF];
  }
}

// Go's unicode.IsPrint for non-ASCII runes, minus the unassigned code points (see GoQuote).
bool IsPrintNonAscii(char32_t r) {
  struct Range {
    char32_t lo, hi;
  };
  // Categories Cc, Cf, Co, Zs, Zl, Zp and the non-characters: the runes Go's IsPrint rejects.
  static constexpr Range kNonPrintable[] = {
      {0x0080, 0x00A0},   {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},
      {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},
      {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
      {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},   {0xE000, 0xF8FF},
      {0xFDD0, 0xFDEF},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
      {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
      {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF},
  };
  if ((r & 0xFFFE) == 0xFFFE) return false;  // U+xFFFE and U+xFFFF in every plane
  return std::none_of(std::begin(kNonPrintable), std::end(kNonPrintable),
                      [r](const Range& range) { return r >= range.lo && r <= range.hi; });
}

}  // namespace

FieldPath FieldPath::Child(std::string_view name) const {
  FieldPath out;
  out.text_.reserve(text_.size() + 1 + name.size());
  out.text_ = text_;
  if (!out.text_.empty() && !name.empty()) out.text_ += '.';
  out.text_ += name;
  return out;
}

FieldPath FieldPath::Index(std::size_t index) const { return Key(std::to_string(index)); }

FieldPath FieldPath::Key(std::string_view key) const {
  FieldPath out;
  out.text_.reserve(text_.size() + key.size() + 2);
  out.text_ = text_;
  out.text_ += '[';
  out.text_ += key;
  out.text_ += ']';
  return out;
}

std::string GoQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  while (!s.empty()) {
    const DecodedRune d = DecodeRune(s);
    if (d.rune == kRuneError && d.width == 1) {
      out += "\\x";
      AppendHex(out, static_cast<unsigned char>(s[0]), 2);
    } else if (d.rune == '"' || d.rune == '\\') {
      out += '\\';
      out += static_cast<char>(d.rune);
    } else if (d.rune < 0x80) {
      switch (d.rune) {
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (d.rune < 0x20 || d.rune == 0x7F) {
            out += "\\x";
            AppendHex(out, d.rune, 2);
          } else {
            out += static_cast<char>(d.rune);
          }
      }
    } else if (IsPrintNonAscii(d.rune)) {
      out.append(s.substr(0, d.width));
    } else if (d.rune < 0x10000) {
      out += "\\u";
      AppendHex(out, d.rune, 4);
    } else {
      out += "\\U";
      AppendHex(out, d.rune, 8);
    }
    s.remove_prefix(d.width);
  }
  out += '"';
  return out;
}

std::string JsonQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  while (!s.empty()) {
    const auto b = static_cast<unsigned char>(s[0]);
    if (b < 0x80) {
      switch (b) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (b < 0x20 || b == '<' || b == '>' || b == '&') {
            out += "\\u00";
            AppendHex(out, b, 2);
          } else {
            out += static_cast<char>(b);
          }
      }
      s.remove_prefix(1);
      continue;
    }
    const DecodedRune d = DecodeRune(s);
    if (d.rune == kRuneError && d.width == 1) {
      out += "\\ufffd";
    } else if (d.rune == 0x2028 || d.rune == 0x2029) {
      out += "\\u";
      AppendHex(out, d.rune, 4);
    } else {
      out.append(s.substr(0, d.width));
    }
    s.remove_prefix(d.width);
  }
  out += '"';
  return out;
}

std::string JsonStringList(std::span<const std::string> values) {
  if (values.empty()) return "null";
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonQuote(values[i]);
  }
  out += ']';
  return out;
}

std::string InvalidValueError(const FieldPath& path, std::string_view rendered_value,
                              std::string_view detail) {
  std::string out = path.String();
  out += ": Invalid value: ";
  out += rendered_value;
  if (!detail.empty()) {
    out += ": ";
    out += detail;
  }
  return out;
}

std::string UnsupportedValueError(const FieldPath& path, std::string_view rendered_value,
                                  std::span<const std::string_view> supported) {
  std::string out = path.String();
  out += ": Unsupported value: ";
  out += rendered_value;
  for (std::size_t i = 0; i < supported.size(); ++i) {
    out += i == 0 ? ": supported values: " : ", ";
    out += GoQuote(supported[i]);
  }
  return out;
}

void FieldErrorList::Append(const FieldErrorList& other) {
  messages_.insert(messages_.end(), other.messages_.begin(), other.messages_.end());
}

std::string FieldErrorList::Message() const {
  std::vector<const std::string*> unique;
  for (const std::string& message : messages_) {
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const std::string* seen) { return *seen == message; })) {
      unique.push_back(&message);
    }
  }
  if (unique.empty()) return {};
  if (unique.size() == 1) return *unique.front();
  std::string out = "[";
  for (std::size_t i = 0; i < unique.size(); ++i) {
    if (i > 0) out += ", ";
    out += *unique[i];
  }
  out += ']';
  return out;
}

absl::Status FieldErrorList::ToStatus() const {
  if (messages_.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(Message());
}

}  // namespace ksched::api
