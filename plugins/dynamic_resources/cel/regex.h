// Regular expressions for matches(), find() and findAll(): RE2 (the syntax Go's regexp
// implements), with Go's error text ("error parsing regexp: missing closing ): `(`") and Go's
// match semantics (leftmost-first; FindAllString's rule that an empty match right after a
// previous match is skipped).
//
// Thread-safety: a compiled RE2 may be shared by threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace re2 {
class RE2;
}

namespace ksched::plugins::dynamic_resources::cel {

// The compiled pattern, or InvalidArgument with Go's message.
absl::StatusOr<std::shared_ptr<const re2::RE2>> CompileRegex(std::string_view pattern);

// regexp.MatchString: whether the pattern matches anywhere in `text`.
bool RegexMatches(const re2::RE2& re, std::string_view text);
// Regexp.FindString: the leftmost match, "" when none.
std::string_view RegexFind(const re2::RE2& re, std::string_view text);
// Regexp.FindAllString(text, n): up to n matches (all when n < 0, none when n == 0).
std::vector<std::string_view> RegexFindAll(const re2::RE2& re, std::string_view text, std::int64_t n);

}  // namespace ksched::plugins::dynamic_resources::cel
