#include "plugins/dynamic_resources/cel/regex.h"

#include <re2/re2.h>

#include "absl/status/status.h"
#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// Go's regexp/syntax ErrorCode text for RE2's codes.
std::string_view GoErrorCode(re2::RE2::ErrorCode code) {
  switch (code) {
    case re2::RE2::ErrorBadEscape: return "invalid escape sequence";
    case re2::RE2::ErrorBadCharClass: return "invalid character class";
    case re2::RE2::ErrorBadCharRange: return "invalid character class range";
    case re2::RE2::ErrorMissingBracket: return "missing closing ]";
    case re2::RE2::ErrorMissingParen: return "missing closing )";
    case re2::RE2::ErrorUnexpectedParen: return "unexpected )";
    case re2::RE2::ErrorTrailingBackslash: return "trailing backslash at end of expression";
    case re2::RE2::ErrorRepeatArgument: return "missing argument to repetition operator";
    case re2::RE2::ErrorRepeatSize: return "invalid repeat count";
    case re2::RE2::ErrorRepeatOp: return "invalid nested repetition operator";
    case re2::RE2::ErrorBadPerlOp: return "invalid or unsupported Perl syntax";
    case re2::RE2::ErrorBadUTF8: return "invalid UTF-8";
    case re2::RE2::ErrorBadNamedCapture: return "invalid named capture";
    case re2::RE2::ErrorPatternTooLarge: return "expression too large";
    default: return "regexp/syntax: internal error";
  }
}

// The leftmost match starting the search at `pos` (the text before it is context for ^ and \b).
bool MatchAt(const re2::RE2& re, std::string_view text, std::size_t pos, re2::StringPiece& match) {
  return re.Match(re2::StringPiece(text.data(), text.size()), pos, text.size(), re2::RE2::UNANCHORED, &match, 1);
}

}  // namespace

absl::StatusOr<std::shared_ptr<const re2::RE2>> CompileRegex(std::string_view pattern) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    return absl::InvalidArgumentError("error parsing regexp: " + std::string(GoErrorCode(re->error_code())) + ": `" +
                                      re->error_arg() + "`");
  }
  return re;
}

bool RegexMatches(const re2::RE2& re, std::string_view text) {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re);
}

std::string_view RegexFind(const re2::RE2& re, std::string_view text) {
  re2::StringPiece match;
  if (!MatchAt(re, text, 0, match)) return {};
  return std::string_view(match.data(), match.size());
}

std::vector<std::string_view> RegexFindAll(const re2::RE2& re, std::string_view text, std::int64_t n) {
  std::vector<std::string_view> out;
  if (n == 0) return out;
  std::size_t pos = 0;
  std::ptrdiff_t previous_end = -1;
  while ((n < 0 || static_cast<std::int64_t>(out.size()) < n) && pos <= text.size()) {
    re2::StringPiece match;
    if (!MatchAt(re, text, pos, match)) break;
    const auto begin = static_cast<std::size_t>(match.data() - text.data());
    const std::size_t end = begin + match.size();
    bool accept = true;
    if (end == pos) {
      // An empty match: not allowed right after the previous match; step over one code point.
      if (static_cast<std::ptrdiff_t>(begin) == previous_end) accept = false;
      if (pos >= text.size()) {
        pos = text.size() + 1;
      } else {
        std::size_t next = pos;
        DecodeUtf8(text, next);
        pos = next;
      }
    } else {
      pos = end;
    }
    previous_end = static_cast<std::ptrdiff_t>(end);
    if (accept) out.push_back(text.substr(begin, match.size()));
  }
  return out;
}

}  // namespace ksched::plugins::dynamic_resources::cel
