// ParseOutsideJson: Go encoding/json's nesting limit, and no stack exhaustion whatever the input
// (issue #44: ~150,000 levels from an extender, Prometheus or an exec plugin crashed the daemon).
#include "api/outside_json.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using ksched::api::ExceedsJsonNestingDepth;
using ksched::api::kMaxJsonNestingDepth;
using ksched::api::ParseOutsideJson;

std::string Nested(std::size_t levels, char open = '[', char close = ']') {
  return std::string(levels, open) + std::string(levels, close);
}

TEST_CASE("ExceedsJsonNestingDepth counts objects and arrays, not brackets in strings", "[api][json]") {
  CHECK_FALSE(ExceedsJsonNestingDepth(Nested(kMaxJsonNestingDepth)));
  CHECK(ExceedsJsonNestingDepth(Nested(kMaxJsonNestingDepth + 1)));
  CHECK_FALSE(ExceedsJsonNestingDepth(R"({"a": "[[[[[[", "b": "\"{{{{"})", 2));
  CHECK(ExceedsJsonNestingDepth(R"({"a": [{"b": 1}]})", 2));
  CHECK_FALSE(ExceedsJsonNestingDepth(R"([1], [2], [3])", 1));  // depth, not count
}

TEST_CASE("ParseOutsideJson refuses Go's max depth and survives any depth", "[api][json]") {
  rapidjson::Document document;
  CHECK(ParseOutsideJson(R"({"status": "success"})", document).ok());
  CHECK(document.IsObject());
  // Deeper than the stack could hold with a recursive parse, and the limit's own edge.
  for (std::size_t levels : {std::size_t{150000}, kMaxJsonNestingDepth + 1}) {
    const absl::Status status = ParseOutsideJson(Nested(levels), document);
    CHECK(status.message() == "exceeded max depth");
    CHECK(document.IsNull());
  }
  // Within the limit: parsed iteratively.
  CHECK(ParseOutsideJson(Nested(kMaxJsonNestingDepth, '[', ']'), document).ok());
  // A broken document: RapidJSON's words and the offset.
  const absl::Status broken = ParseOutsideJson(R"({"a" 1})", document);
  CHECK(broken.message() == "Missing a colon after a name of object member. (at offset 5)");
  // An unterminated string hides no bracket from the scan.
  CHECK_FALSE(ParseOutsideJson("[\"]]]]", document).ok());
}

}  // namespace
