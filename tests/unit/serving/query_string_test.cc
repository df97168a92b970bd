#include "serving/query_string.h"

#include <catch2/catch.hpp>

namespace ksched::serving {
namespace {

TEST_CASE("PercentDecode decodes escapes and rejects malformed ones", "[serving]") {
  struct Case {
    std::string in;
    bool plus_is_space;
    std::optional<std::string> want;
  };
  const std::vector<Case> cases = {
      {"/healthz", false, "/healthz"},
      {"/a%2Fb", false, "/a/b"},
      {"a+b", true, "a b"},
      {"a+b", false, "a+b"},
      {"%41%6a", false, "Aj"},
      {"%", false, std::nullopt},
      {"%4", false, std::nullopt},
      {"%zz", false, std::nullopt},
  };
  for (const Case& c : cases) {
    INFO(c.in);
    CHECK(PercentDecode(c.in, c.plus_is_space) == c.want);
  }
}

TEST_CASE("QueryValues and HasQueryKey follow url.ParseQuery", "[serving]") {
  CHECK(QueryValues("exclude=a&exclude=b&verbose", "exclude") == std::vector<std::string>{"a", "b"});
  CHECK(QueryValues("exclude=a%20b", "exclude") == std::vector<std::string>{"a b"});
  CHECK(QueryValues("x=1", "exclude").empty());
  CHECK(QueryValues("exclude=a;b&exclude=c", "exclude") == std::vector<std::string>{"c"});
  CHECK(HasQueryKey("verbose", "verbose"));
  CHECK(HasQueryKey("a=1&verbose=", "verbose"));
  CHECK(HasQueryKey("verbose=false", "verbose"));
  CHECK_FALSE(HasQueryKey("verbosee", "verbose"));
  CHECK_FALSE(HasQueryKey("", "verbose"));
}

}  // namespace
}  // namespace ksched::serving
