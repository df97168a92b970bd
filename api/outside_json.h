// ParseOutsideJson: RapidJSON parsing of JSON that comes from outside the process (the API server's
// answers read as plain documents, extenders, Prometheus, exec credential plugins, review
// responses, plugin args) without any input being able to exhaust the stack: nesting deeper than
// Go encoding/json's limit (10,000 levels) is refused with its words, "exceeded max depth", and
// the parse itself is iterative (RapidJSON's default parser recurses once per level; ~150,000
// levels overflowed the stack). Callers walking the document recursively are then bounded too.
//
// Errors (InvalidArgument): "exceeded max depth", or RapidJSON's message with the offset
// ("Missing a comma or '}' after an object member. (at offset 12)"); `document` then holds no
// value. Thread-safety: reentrant.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace ksched::api {

// Go's encoding/json maxNestingDepth.
inline constexpr std::size_t kMaxJsonNestingDepth = 10000;

// Whether `text` opens more than `max_depth` objects and arrays inside one another (brackets in
// strings do not count). A linear scan, without allocation.
[[nodiscard]] bool ExceedsJsonNestingDepth(std::string_view text, std::size_t max_depth = kMaxJsonNestingDepth);

template <unsigned kExtraFlags = 0>
[[nodiscard]] absl::Status ParseOutsideJson(std::string_view text, rapidjson::Document& document) {
  if (ExceedsJsonNestingDepth(text)) {
    document.SetNull();
    return absl::InvalidArgumentError("exceeded max depth");
  }
  document.Parse<rapidjson::kParseIterativeFlag | kExtraFlags>(text.data(), text.size());
  if (!document.HasParseError()) return absl::OkStatus();
  return absl::InvalidArgumentError(std::string(rapidjson::GetParseError_En(document.GetParseError())) +
                                    " (at offset " + std::to_string(document.GetErrorOffset()) + ")");
}

}  // namespace ksched::api
