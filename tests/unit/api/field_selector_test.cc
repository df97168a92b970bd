// Field selectors. Tables are ported from upstream's k8s.io/apimachinery/pkg/fields
// selector_test.go (v0.34.4); expected strings and errors are what upstream returns.
#include "api/field_selector.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/labels.h"

namespace {

using ksched::api::FieldOperator;
using ksched::api::FieldRequirement;
using ksched::api::FieldSelector;
using ksched::api::Labels;

FieldSelector MustParse(std::string_view selector) {
  auto parsed = FieldSelector::Parse(selector);
  INFO(selector << ": " << parsed.status().ToString());
  REQUIRE(parsed.ok());
  return *parsed;
}

}  // namespace

TEST_CASE("field selectors parse and print as upstream's", "[api][field_selector]") {
  struct Case {
    std::string in;
    std::string want_string;  // Selector.String() after ParseSelector
    bool want_empty;
  };
  const std::vector<Case> cases = {
      // TestSelectorParse: good strings print back unchanged.
      {"x=a,y=b,z=c", "x=a,y=b,z=c", false},
      {"", "", true},
      {"x!=a,y=b", "x!=a,y=b", false},
      {R"(x=a||y\=b)", R"(x=a||y\=b)", false},
      {R"(x=a\=\=b)", R"(x=a\=\=b)", false},
      // TestDeterministicParse and more, checked against upstream.
      {"x=a,a=x", "a=x,x=a", false},
      {"a=x,x=a", "a=x,x=a", false},
      {"status.phase!=Succeeded,status.phase!=Failed",
       "status.phase!=Failed,status.phase!=Succeeded", false},
      {"spec.nodeName=", "spec.nodeName=", false},
      {"metadata.name==foo", "metadata.name=foo", false},
      {"=", "", true},
      {"!=", "", true},
      {",,a=b,", "a=b", false},
      {"=,a=b", "a=b", false},
      {"a!b=c", "a!b=c", false},
      {"==x", "=x", false},
      {R"(k=\,,k2=v2)", R"(k2=v2,k=\,)", false},
      {"\xED\x95\xA8=\xEC\x88\x98,\xEB\xAA\xA9=\xEB\xA1\x9D",
       "\xEB\xAA\xA9=\xEB\xA1\x9D,\xED\x95\xA8=\xEC\x88\x98", false},
      {"z=1,a=2,a!=3", "a!=3,a=2,z=1", false},
      {"a=b\xff,", "a=b\xff", false},           // no special character: kept as is
      {"b=\xff\\,", "b=\xEF\xBF\xBD\\,", false},  // unescaped rune by rune: U+FFFD
  };
  for (const Case& c : cases) {
    INFO(c.in);
    const FieldSelector selector = MustParse(c.in);
    CHECK(selector.ToString() == c.want_string);
    CHECK(selector.Empty() == c.want_empty);
    CHECK_FALSE(selector.MatchesNothing());
  }
}

TEST_CASE("bad field selectors fail with upstream's errors", "[api][field_selector]") {
  struct Case {
    std::string in;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      // TestSelectorParse: bad strings.
      {"x=a||y=b", "invalid field selector: unescaped character in value: 61"},
      {"x==a==b", "invalid field selector: unescaped character in value: 61"},
      {"x=a,b", "invalid selector: 'x=a,b'; can't understand 'b'"},
      {"x in (a)", "invalid selector: 'x in (a)'; can't understand 'x in (a)'"},
      {"x in (a,b,c)", "invalid selector: 'x in (a,b,c)'; can't understand 'b'"},
      {"x", "invalid selector: 'x'; can't understand 'x'"},
      // Escapes, checked against upstream.
      {"a=\\", "invalid field selector: invalid escape sequence: \\"},
      {R"(a=\a)", R"(invalid field selector: invalid escape sequence: \a)"},
      {"a=\\\xff", "invalid field selector: invalid escape sequence: \\\xEF\xBF\xBD"},
      {"a=\\\xC3\xA9", "invalid field selector: invalid escape sequence: \\\xC3\xA9"},
      {"a=b=c", "invalid field selector: unescaped character in value: 61"},
  };
  for (const Case& c : cases) {
    INFO(c.in);
    auto selector = FieldSelector::Parse(c.in);
    REQUIRE_FALSE(selector.ok());
    CHECK(selector.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(selector.status().message() == c.want_error);
  }
}

TEST_CASE("field selector values escape and unescape", "[api][field_selector]") {
  // TestEscapeValue.
  const std::map<std::string, std::string> cases = {
      {"", ""}, {"a", "a"}, {"=", R"(\=)"}, {",", R"(\,)"}, {R"(\)", R"(\\)"},
      {R"(\=\,\)", R"(\\\=\\\,\\)"},
  };
  for (const auto& [unescaped, escaped] : cases) {
    INFO(unescaped);
    CHECK(ksched::api::EscapeFieldSelectorValue(unescaped) == escaped);
    auto back = ksched::api::UnescapeFieldSelectorValue(escaped);
    REQUIRE(back.ok());
    CHECK(*back == unescaped);
  }
  for (const std::string& invalid : {std::string(R"(\)"), std::string(R"(\\\)"),
                                     std::string(R"(\a)")}) {
    INFO(invalid);
    auto result = ksched::api::UnescapeFieldSelectorValue(invalid);
    REQUIRE_FALSE(result.ok());
    CHECK(std::string(result.status().message())
              .starts_with("invalid field selector: invalid escape sequence: "));
  }
}

TEST_CASE("field selectors match field sets", "[api][field_selector]") {
  // TestSelectorMatches.
  const Labels fieldset{{"foo", "bar"}, {"baz", "blah"}, {"complex", R"(=value\,\)"}};
  struct Case {
    std::string selector;
    Labels fields;
    bool want;
  };
  const std::vector<Case> cases = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"foo=bar", fieldset, true},
      {"baz=blah", fieldset, true},
      {"foo=bar,baz=blah", fieldset, true},
      {R"(foo=bar,baz=blah,complex=\=value\\\,\\)", fieldset, true},
      {"foo=blah", fieldset, false},
      {"baz=bar", fieldset, false},
      {"foo=bar,foobar=bar,baz=blah", fieldset, false},
      // An absent field reads as "".
      {"spec.nodeName=", {}, true},
      {"spec.nodeName=", {{"spec.nodeName", "n1"}}, false},
      {"spec.nodeName!=", {{"spec.nodeName", "n1"}}, true},
      {"status.phase!=Succeeded,status.phase!=Failed", {{"status.phase", "Running"}}, true},
      {"status.phase!=Succeeded,status.phase!=Failed", {{"status.phase", "Failed"}}, false},
  };
  for (const Case& c : cases) {
    INFO(c.selector << " against " << c.fields.ToString());
    CHECK(MustParse(c.selector).Matches(c.fields) == c.want);
  }
}

TEST_CASE("field selectors match through a getter", "[api][field_selector]") {
  struct Pod {
    std::string name;
    std::string node_name;
    std::string phase;
  };
  const Pod pod{"web-1", "", "Pending"};
  const auto getter = [&pod](std::string_view field) -> std::string_view {
    if (field == "metadata.name") return pod.name;
    if (field == "spec.nodeName") return pod.node_name;
    if (field == "status.phase") return pod.phase;
    return {};
  };
  const auto unassigned = MustParse("spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed");
  CHECK(unassigned.Matches(getter));
  CHECK(MustParse("metadata.name=web-1").Matches(getter));
  CHECK_FALSE(MustParse("metadata.name!=web-1").Matches(getter));
  CHECK_FALSE(MustParse("metadata.name=foo").Matches(getter));

  // A getter may also return a reference to a string it owns.
  const std::map<std::string, std::string, std::less<>> fields = {{"a", "b"}};
  const std::string empty;
  const auto by_ref = [&](std::string_view field) -> const std::string& {
    auto it = fields.find(field);
    return it == fields.end() ? empty : it->second;
  };
  CHECK(MustParse("a=b").Matches(by_ref));
  CHECK_FALSE(MustParse("a=c").Matches(by_ref));
}

TEST_CASE("Everything, Nothing and one-term selectors", "[api][field_selector]") {
  // TestEverything, TestOneTermEqualSelector, TestSetIsEmpty.
  CHECK(FieldSelector::Everything().Matches(Labels{{"x", "y"}}));
  CHECK(FieldSelector::Everything().Empty());
  CHECK(FieldSelector().Empty());
  CHECK_FALSE(FieldSelector::Nothing().Matches(Labels{{"x", "y"}}));
  CHECK_FALSE(FieldSelector::Nothing().Matches(Labels{}));
  CHECK_FALSE(FieldSelector::Nothing().Empty());
  CHECK(FieldSelector::Nothing().MatchesNothing());
  CHECK(FieldSelector::Nothing().ToString().empty());

  CHECK(FieldSelector::OneTermEqual("x", "y").Matches(Labels{{"x", "y"}}));
  CHECK_FALSE(FieldSelector::OneTermEqual("x", "y").Matches(Labels{{"x", "z"}}));
  CHECK_FALSE(FieldSelector::OneTermEqual("x", "y").Empty());
  CHECK_FALSE(FieldSelector::OneTermNotEqual("x", "y").Empty());
  CHECK(FieldSelector::OneTermNotEqual("x", "y").Matches(Labels{{"x", "z"}}));
  CHECK(FieldSelector::OneTermEqual("metadata.name", "a,b=c").ToString() ==
        R"(metadata.name=a\,b\=c)");
  CHECK(FieldSelector::OneTermNotEqual("spec.nodeName", "").ToString() == "spec.nodeName!=");

  // The canonical string parses back to an equal selector.
  const auto built = FieldSelector::FromRequirements({
      {"a", FieldOperator::kEquals, R"(x\y)"},
      {"b", FieldOperator::kNotEquals, "p,q"},
  });
  CHECK(built.ToString() == R"(a=x\\y,b!=p\,q)");
  const auto reparsed = MustParse(built.ToString());
  CHECK(std::vector<FieldRequirement>(reparsed.requirements().begin(),
                                      reparsed.requirements().end()) ==
        std::vector<FieldRequirement>(built.requirements().begin(), built.requirements().end()));
}

TEST_CASE("RequiresExactMatch finds an equality term", "[api][field_selector]") {
  // TestRequiresExactMatch.
  struct Case {
    FieldSelector selector;
    std::string field;
    std::optional<std::string_view> want;
  };
  const std::vector<Case> cases = {
      {FieldSelector::OneTermEqual("foo", "bar"), "foo", "bar"},
      {FieldSelector::OneTermEqual("foo", "bar"), "baz", std::nullopt},
      {FieldSelector::OneTermNotEqual("foo", "bar"), "foo", std::nullopt},
      {FieldSelector::FromRequirements({{"foo", FieldOperator::kEquals, "bar"}}), "foo", "bar"},
      {FieldSelector::Everything(), "foo", std::nullopt},
      {FieldSelector::Nothing(), "foo", std::nullopt},
      {MustParse("a!=x,a=y"), "a", "y"},
      {MustParse("spec.nodeName="), "spec.nodeName", ""},
  };
  for (const Case& c : cases) {
    INFO(c.selector.ToString() << " field " << c.field);
    CHECK(c.selector.RequiresExactMatch(c.field) == c.want);
  }
}
