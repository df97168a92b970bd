// cel-go's ext.Strings at version 2 (charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
// replace, split, substring, trim, join, strings.quote; not format) and the Kubernetes regex
// library (find, findAll). Indexes count code points, as upstream.
#include <string>
#include <vector>

#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/regex.h"
#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

std::vector<char32_t> Runes(std::string_view s) {
  std::vector<char32_t> runes;
  runes.reserve(s.size());
  for (std::size_t pos = 0; pos < s.size();) runes.push_back(DecodeUtf8(s, pos));
  return runes;
}

std::string FromRunes(const std::vector<char32_t>& runes, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) AppendUtf8(out, runes[i]);
  return out;
}

Value OutOfRange(std::int64_t index) { return Value::Error("index out of range: " + std::to_string(index)); }

Value CharAt(CallContext& ctx, std::span<const Value> args) {
  const std::vector<char32_t> runes = Runes(args[0].text());
  const std::int64_t i = args[1].int_value();
  if (i < 0 || i > static_cast<std::int64_t>(runes.size())) return OutOfRange(i);
  if (i == static_cast<std::int64_t>(runes.size())) return Value::BorrowedString("");
  return MakeString(ctx, FromRunes(runes, static_cast<std::size_t>(i), static_cast<std::size_t>(i) + 1));
}

bool RunesAt(const std::vector<char32_t>& runes, const std::vector<char32_t>& sub, std::size_t at) {
  for (std::size_t j = 0; j < sub.size(); ++j) {
    if (runes[at + j] != sub[j]) return false;
  }
  return true;
}

Value IndexOfOffset(std::string_view s, std::string_view sub, std::int64_t offset) {
  if (sub.empty()) return Value::Int(offset);
  const std::vector<char32_t> runes = Runes(s);
  const std::vector<char32_t> subrunes = Runes(sub);
  if (offset < 0) return OutOfRange(offset);
  const auto n = static_cast<std::int64_t>(runes.size());
  const auto m = static_cast<std::int64_t>(subrunes.size());
  if (offset >= n) return Value::Int(-1);
  for (std::int64_t i = offset; i < n - (m - 1); ++i) {
    if (RunesAt(runes, subrunes, static_cast<std::size_t>(i))) return Value::Int(i);
  }
  return Value::Int(-1);
}

Value LastIndexOfOffset(std::string_view s, std::string_view sub, std::int64_t offset) {
  if (sub.empty()) return Value::Int(offset);
  const std::vector<char32_t> runes = Runes(s);
  const std::vector<char32_t> subrunes = Runes(sub);
  if (offset < 0) return OutOfRange(offset);
  const auto n = static_cast<std::int64_t>(runes.size());
  const auto m = static_cast<std::int64_t>(subrunes.size());
  if (offset >= n) return Value::Int(-1);
  if (offset > n - m) offset = n - m;
  for (std::int64_t i = offset; i >= 0; --i) {
    if (RunesAt(runes, subrunes, static_cast<std::size_t>(i))) return Value::Int(i);
  }
  return Value::Int(-1);
}

Value IndexOf(CallContext&, std::span<const Value> args) {
  return IndexOfOffset(args[0].text(), args[1].text(), args.size() > 2 ? args[2].int_value() : 0);
}

Value LastIndexOf(CallContext&, std::span<const Value> args) {
  const std::string_view s = args[0].text();
  const std::string_view sub = args[1].text();
  if (args.size() > 2) return LastIndexOfOffset(s, sub, args[2].int_value());
  const auto n = static_cast<std::int64_t>(CodePointCount(s));
  if (sub.empty()) return Value::Int(n);
  if (s.size() < sub.size()) return Value::Int(-1);
  return LastIndexOfOffset(s, sub, n - 1);
}

template <bool kUpper>
Value ChangeCaseAscii(CallContext& ctx, std::span<const Value> args) {
  std::string out(args[0].text());
  for (char& c : out) {
    if (kUpper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!kUpper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return MakeString(ctx, std::move(out));
}

// strings.Replace(s, old, new, n): n < 0 replaces all; an empty `old` matches before each code
// point and at the end.
std::string Replace(std::string_view s, std::string_view old, std::string_view replacement, std::int64_t n) {
  if (n == 0 || (old == replacement)) return std::string(s);
  std::string out;
  std::int64_t done = 0;
  if (old.empty()) {
    std::size_t pos = 0;
    while (pos <= s.size()) {
      if (n >= 0 && done >= n) {
        out.append(s.substr(pos));
        return out;
      }
      out.append(replacement);
      ++done;
      if (pos == s.size()) break;
      const std::size_t before = pos;
      DecodeUtf8(s, pos);
      out.append(s.substr(before, pos - before));
    }
    return out;
  }
  std::size_t pos = 0;
  for (;;) {
    const std::size_t found = (n >= 0 && done >= n) ? std::string_view::npos : s.find(old, pos);
    if (found == std::string_view::npos) {
      out.append(s.substr(pos));
      return out;
    }
    out.append(s.substr(pos, found - pos));
    out.append(replacement);
    pos = found + old.size();
    ++done;
  }
}

Value ReplaceFn(CallContext& ctx, std::span<const Value> args) {
  return MakeString(ctx, Replace(args[0].text(), args[1].text(), args[2].text(),
                                 args.size() > 3 ? args[3].int_value() : -1));
}

// strings.SplitN (n < 0: all; n == 0: none; an empty separator splits into code points).
std::vector<std::string_view> Split(std::string_view s, std::string_view sep, std::int64_t n) {
  std::vector<std::string_view> parts;
  if (n == 0) return parts;
  if (sep.empty()) {
    std::size_t pos = 0;
    while (pos < s.size()) {
      if (n > 0 && static_cast<std::int64_t>(parts.size()) == n - 1) {
        parts.push_back(s.substr(pos));
        return parts;
      }
      const std::size_t before = pos;
      DecodeUtf8(s, pos);
      parts.push_back(s.substr(before, pos - before));
    }
    return parts;
  }
  std::size_t pos = 0;
  while (n < 0 || static_cast<std::int64_t>(parts.size()) < n - 1) {
    const std::size_t found = s.find(sep, pos);
    if (found == std::string_view::npos) break;
    parts.push_back(s.substr(pos, found - pos));
    pos = found + sep.size();
  }
  parts.push_back(s.substr(pos));
  return parts;
}

Value SplitFn(CallContext& ctx, std::span<const Value> args) {
  std::vector<Value> out;
  for (std::string_view part : Split(args[0].text(), args[1].text(), args.size() > 2 ? args[2].int_value() : -1)) {
    out.push_back(Value::String(std::string(part)));
  }
  return MakeList(ctx, std::move(out));
}

Value Substring(CallContext& ctx, std::span<const Value> args) {
  const std::vector<char32_t> runes = Runes(args[0].text());
  const auto n = static_cast<std::int64_t>(runes.size());
  const std::int64_t start = args[1].int_value();
  if (args.size() == 2) {
    if (start < 0 || start > n) return OutOfRange(start);
    return MakeString(ctx, FromRunes(runes, static_cast<std::size_t>(start), runes.size()));
  }
  const std::int64_t end = args[2].int_value();
  if (start > end) {
    return Value::Error("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
  }
  if (start < 0 || start > n) return OutOfRange(start);
  if (end < 0 || end > n) return OutOfRange(end);
  return MakeString(ctx, FromRunes(runes, static_cast<std::size_t>(start), static_cast<std::size_t>(end)));
}

// unicode.IsSpace.
bool IsSpace(char32_t c) {
  switch (c) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

Value Trim(CallContext& ctx, std::span<const Value> args) {
  const std::string_view s = args[0].text();
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t next = begin;
    if (!IsSpace(DecodeUtf8(s, next))) break;
    begin = next;
  }
  std::size_t end = s.size();
  while (end > begin) {
    // Step back over one code point.
    std::size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    std::size_t next = start;
    const char32_t c = DecodeUtf8(s, next);
    if (next != end || !IsSpace(c)) break;
    end = start;
  }
  if (begin == 0 && end == s.size()) return args[0];
  return MakeString(ctx, std::string(s.substr(begin, end - begin)));
}

Value Join(CallContext& ctx, std::span<const Value> args) {
  const std::string_view separator = args.size() > 1 ? args[1].text() : std::string_view();
  std::string out;
  const auto& elements = args[0].list().elements;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].kind() != ValueKind::kString) {
      return Value::Error("join: invalid input: " + FormatValue(elements[i]));
    }
    if (i > 0) out.append(separator);
    out.append(elements[i].text());
  }
  return MakeString(ctx, std::move(out));
}

Value Quote(CallContext& ctx, std::span<const Value> args) {
  const std::string_view s = args[0].text();
  std::string out = "\"";
  for (std::size_t pos = 0; pos < s.size();) {
    const char32_t c = DecodeUtf8(s, pos);
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default: AppendUtf8(out, c); break;
    }
  }
  out += "\"";
  return MakeString(ctx, std::move(out));
}

// The Kubernetes regex library. An invalid pattern: "Illegal regex: <Go's message>".
const re2::RE2* PatternOf(CallContext& ctx, const Value& pattern, std::shared_ptr<const re2::RE2>& holder,
                          Value& error) {
  if (ctx.regex != nullptr) return ctx.regex;
  absl::StatusOr<std::shared_ptr<const re2::RE2>> re = CompileRegex(pattern.text());
  if (!re.ok()) {
    error = Value::Error("Illegal regex: " + std::string(re.status().message()));
    return nullptr;
  }
  holder = *std::move(re);
  return holder.get();
}

Value Find(CallContext& ctx, std::span<const Value> args) {
  std::shared_ptr<const re2::RE2> holder;
  Value error;
  const re2::RE2* re = PatternOf(ctx, args[1], holder, error);
  if (re == nullptr) return error;
  return MakeString(ctx, std::string(RegexFind(*re, args[0].text())));
}

Value FindAll(CallContext& ctx, std::span<const Value> args) {
  std::shared_ptr<const re2::RE2> holder;
  Value error;
  const re2::RE2* re = PatternOf(ctx, args[1], holder, error);
  if (re == nullptr) return error;
  std::vector<Value> out;
  for (std::string_view match : RegexFindAll(*re, args[0].text(), args.size() > 2 ? args[2].int_value() : -1)) {
    out.push_back(Value::String(std::string(match)));
  }
  return MakeList(ctx, std::move(out));
}

}  // namespace

void RegisterStringsLibrary(FunctionRegistry& r) {
  r.Member("charAt", "string_char_at_int", "string, int -> string", CharAt);
  r.Member("indexOf", "string_index_of_string", "string, string -> int", IndexOf);
  r.Member("indexOf", "string_index_of_string_int", "string, string, int -> int", IndexOf);
  r.Member("lastIndexOf", "string_last_index_of_string", "string, string -> int", LastIndexOf);
  r.Member("lastIndexOf", "string_last_index_of_string_int", "string, string, int -> int", LastIndexOf);
  r.Member("lowerAscii", "string_lower_ascii", "string -> string", ChangeCaseAscii<false>);
  r.Member("replace", "string_replace_string_string", "string, string, string -> string", ReplaceFn);
  r.Member("replace", "string_replace_string_string_int", "string, string, string, int -> string", ReplaceFn);
  r.Member("split", "string_split_string", "string, string -> list(string)", SplitFn);
  r.Member("split", "string_split_string_int", "string, string, int -> list(string)", SplitFn);
  r.Member("substring", "string_substring_int", "string, int -> string", Substring);
  r.Member("substring", "string_substring_int_int", "string, int, int -> string", Substring);
  r.Member("trim", "string_trim", "string -> string", Trim);
  r.Member("upperAscii", "string_upper_ascii", "string -> string", ChangeCaseAscii<true>);
  r.Global("strings.quote", "strings_quote", "string -> string", Quote);
  r.Member("join", "list_join", "list(string) -> string", Join);
  r.Member("join", "list_join_string", "list(string), string -> string", Join);

  r.Member("find", "string_find_string", "string, string -> string", Find);
  r.Member("findAll", "string_find_all_string", "string, string -> list(string)", FindAll);
  r.Member("findAll", "string_find_all_string_int", "string, string, int -> list(string)", FindAll);
}

}  // namespace ksched::plugins::dynamic_resources::cel
