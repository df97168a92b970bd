// The text of a CEL expression and cel-go's way of pointing into it: compile errors read
//   ERROR: <input>:1:8: undeclared reference to 'foo' (in container '')
//    | device.foo == 1
//    | .......^
// with a 1-based line, a 1-based column counted in code points, the line as a snippet and a
// caret under the column (wide characters are marked with U+FF0E / U+FF3E, as cel-go does). An
// issue without a location prints "-1:0" and no snippet (cel-go's NoLocation).
//
// Thread-safety: immutable after construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::plugins::dynamic_resources::cel {

// A compile issue: a message at a byte offset of the source (kNoLocation: none).
struct Issue {
  static constexpr std::int32_t kNoLocation = -1;
  std::int32_t offset = kNoLocation;
  std::string message;
};

class Source {
 public:
  explicit Source(std::string_view text);

  std::string_view text() const { return text_; }
  // Number of code points (cel-go's expression size limit counts these).
  std::size_t CodePointCount() const { return code_points_; }

  // 1-based line and 0-based code-point column of a byte offset.
  struct Location {
    int line = -1;
    int column = -1;
  };
  Location LocationOf(std::int32_t offset) const;

  // cel-go's Errors.ToDisplayString: the issues sorted (stably) by line and column, each
  // formatted as above, joined by newlines; at most 100, then "<n> more errors were truncated".
  std::string FormatIssues(std::vector<Issue> issues) const;

 private:
  std::string FormatIssue(const Issue& issue) const;

  std::string text_;
  std::vector<std::size_t> line_starts_;  // byte offset of each line's first character
  std::size_t code_points_ = 0;
};

// Decodes one UTF-8 code point at `pos` (advancing it); invalid bytes decode as U+FFFD, one byte
// each, as Go does.
char32_t DecodeUtf8(std::string_view text, std::size_t& pos);
// Appends the UTF-8 encoding of `c` (U+FFFD for invalid code points).
void AppendUtf8(std::string& out, char32_t c);
// Number of code points of a UTF-8 string (invalid bytes count one each).
std::size_t CodePointCount(std::string_view text);

}  // namespace ksched::plugins::dynamic_resources::cel
