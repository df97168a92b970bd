// Query-string and path helpers with Go's net/url semantics where the server relies on them:
// '+' is a space in query values, %XX is decoded, a key without '=' has the empty value
// ("?verbose" has key "verbose").
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::serving {

// Percent-decodes `text` ('+' becomes ' ' when plus_is_space). nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space);

// The values of `key` in `query`, in order (empty when the key is absent). Malformed pairs are
// skipped, as Go's url.ParseQuery drops them.
std::vector<std::string> QueryValues(std::string_view query, std::string_view key);

// Whether `key` occurs in `query` at all ("?verbose", "?verbose=false" and "?verbose=" all count).
bool HasQueryKey(std::string_view query, std::string_view key);

}  // namespace ksched::serving
