#include "config/yaml_prescan.h"

#include <algorithm>

namespace ksched::config {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool EndsToken(std::string_view line, std::size_t j) { return j >= line.size() || IsBlank(line[j]) || line[j] == '\r'; }

}  // namespace

bool HasControlCharacters(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') return true;
    if (b == 0x7f) return true;
    if (b == 0xc2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f && next != 0x85) return true;
    }
  }
  return false;
}

std::optional<std::size_t> DeepFlowNestingLine(std::string_view text) {
  std::size_t depth = 0;
  std::size_t line = 1;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    switch (c) {
      case '"':
      case '\'':
        quote = c;
        break;
      case '#':
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        break;
      case '[':
      case '{':
        if (++depth > kMaxYamlDepth) return line;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> UnterminatedQuoteLine(std::string_view text) {
  // kPlain: inside a plain scalar; kDone: after a quoted scalar or a flow collection's end.
  enum class In { kNothing, kPlain, kDone, kDouble, kSingle };
  In in = In::kNothing;
  std::size_t quote_line = 0;
  int flow = 0;
  // Lines indented deeper than this (or blank) continue what the line before left open: a block
  // scalar's content, or a plain value folded over several lines.
  constexpr std::size_t kNone = std::string_view::npos;
  std::size_t continuation_indent = kNone;
  bool block_scalar = false;  // the continuation is a block scalar's (blank lines belong to it)
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const bool quoted = in == In::kDouble || in == In::kSingle;
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;

    if (!quoted) {
      if (blank) continue;
      if (continuation_indent != kNone && flow == 0) {
        if (indent > continuation_indent && (block_scalar || line[indent] != '#')) continue;
        continuation_indent = kNone;
      }
      in = In::kNothing;
    }

    bool scalar_start = !quoted;
    std::size_t key_column = indent;  // the column of this line's last mapping key
    std::size_t token_column = indent;
    std::size_t j = quoted ? 0 : indent;
    if (!quoted && j == 0 && flow == 0) {
      if (line[0] == '%') continue;  // a directive
      if ((line.substr(0, 3) == "---" || line.substr(0, 3) == "...") && EndsToken(line, 3)) j = 3;
    }
    for (; j < line.size(); ++j) {
      const char c = line[j];
      if (in == In::kDouble) {
        if (c == '\\') {
          ++j;
        } else if (c == '"') {
          in = In::kDone;
        }
        continue;
      }
      if (in == In::kSingle) {
        if (c == '\'') {
          if (j + 1 < line.size() && line[j + 1] == '\'') {
            ++j;
          } else {
            in = In::kDone;
          }
        }
        continue;
      }
      if (IsBlank(c) || c == '\r') continue;
      if (c == '#' && (j == 0 || IsBlank(line[j - 1]))) break;  // a comment
      if (c == ':' && (EndsToken(line, j + 1) || (flow > 0 && std::string_view(",[]{}").find(line[j + 1]) !=
                                                                     std::string_view::npos))) {
        key_column = token_column;
        in = In::kNothing;
        scalar_start = true;
        continue;
      }
      if (flow > 0 && (c == ',' || c == '[' || c == '{')) {
        if (c != ',') ++flow;
        in = In::kNothing;
        scalar_start = true;
        continue;
      }
      if (flow > 0 && (c == ']' || c == '}')) {
        --flow;
        in = In::kDone;
        scalar_start = false;
        continue;
      }
      if (!scalar_start) continue;  // inside a plain scalar or after a quoted one
      if ((c == '-' || c == '?') && EndsToken(line, j + 1)) continue;  // an entry or key indicator
      token_column = j;
      if (c == '"' || c == '\'') {
        in = c == '"' ? In::kDouble : In::kSingle;
        quote_line = line_number;
        scalar_start = false;
        continue;
      }
      if (c == '&' || c == '!') {  // an anchor or tag: the scalar comes after it
        while (j + 1 < line.size() && !IsBlank(line[j + 1])) ++j;
        continue;
      }
      if (c == '[' || c == '{') {
        ++flow;
        continue;
      }
      if ((c == '|' || c == '>') && flow == 0) {  // a block scalar: its content is skipped
        continuation_indent = key_column;
        block_scalar = true;
        break;
      }
      in = In::kPlain;
      scalar_start = false;
    }
    if (in == In::kPlain && flow == 0 && continuation_indent == kNone) {
      continuation_indent = key_column;
      block_scalar = false;
    }
  }
  if (in == In::kDouble || in == In::kSingle) return quote_line;
  return std::nullopt;
}

std::size_t EndOfStreamLine(std::string_view text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace ksched::config
