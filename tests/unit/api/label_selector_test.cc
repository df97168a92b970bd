// Labels, label requirements and label selectors. Tables are ported from upstream's
// k8s.io/apimachinery/pkg/labels/selector_test.go, pkg/util/validation/validation_test.go and
// pkg/apis/meta/v1/helpers_test.go (v0.34.4); expected error texts are what upstream returns.
#include "api/label_selector.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/labels.h"

namespace {

using ksched::api::CompiledLabelSelector;
using ksched::api::InternedString;
using ksched::api::LabelRequirement;
using ksched::api::Labels;
using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using Op = ksched::api::SelectionOperator;

// A requirement that must be valid.
LabelRequirement Req(std::string key, Op op, std::vector<std::string> values = {}) {
  auto requirement = LabelRequirement::Create(key, op, values);
  INFO("key " << key << ": " << requirement.status().ToString());
  REQUIRE(requirement.ok());
  return *requirement;
}

const std::string kQualifiedNameRegexError =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kLabelValueRegexError =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

}  // namespace

TEST_CASE("Labels is a sorted map with unique keys", "[api][labels]") {
  Labels labels{{"zone", "a"}, {"app", "web"}, {"zone", "b"}, {"empty", ""}};
  CHECK(labels.size() == 3);
  CHECK(labels.Get("zone") == std::optional<std::string_view>("b"));  // the last one wins
  CHECK(labels.Get("empty") == std::optional<std::string_view>(""));
  CHECK(labels.Has("empty"));
  CHECK_FALSE(labels.Get("missing").has_value());
  CHECK_FALSE(labels.Has("missing"));
  CHECK(labels.ToString() == "app=web,empty=,zone=b");

  labels.Set("beta", "1");
  labels.Set("app", "db");
  CHECK(labels.ToString() == "app=db,beta=1,empty=,zone=b");
  CHECK(labels.Erase("empty"));
  CHECK_FALSE(labels.Erase("empty"));

  std::vector<std::string> keys;
  for (const auto& [key, value] : labels) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"app", "beta", "zone"});

  CHECK(Labels{}.empty());
  CHECK(Labels{}.ToString().empty());
  CHECK(Labels{{"a", "1"}, {"b", "2"}} == Labels{{"b", "2"}, {"a", "1"}});
  CHECK_FALSE(Labels{{"a", "1"}} == Labels{{"a", "2"}});
}

TEST_CASE("Labels lookups agree below and above the linear-scan size", "[api][labels]") {
  // Keys of equal length and shared prefixes, for sizes on both sides of the linear-scan limit
  // (Labels::kLinearScanMax, 8): Find scans small label sets and binary-searches big ones.
  auto key = [](std::size_t i) {
    std::string out = "kubernetes.io/k";
    out += std::to_string(10 + i);
    return out;
  };
  auto value = [](std::size_t i) {
    std::string out = "v";
    out += std::to_string(i);
    return out;
  };
  for (std::size_t n = 0; n <= 20; ++n) {
    Labels labels;
    for (std::size_t i = 0; i < n; ++i) labels.Set(key(i), value(i));
    CAPTURE(n);
    REQUIRE(labels.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(labels.Get(key(i)) == std::optional<std::string_view>(value(i)));
      // By pointer: the same answer.
      CHECK(labels.Get(InternedString(key(i))) == std::optional<std::string_view>(value(i)));
    }
    for (const char* absent : {"kubernetes.io/k99",    // same length, absent
                               "kubernetes.io/k1",     // a prefix of present keys
                               "kubernetes.io/k100",   // longer
                               ""}) {
      CAPTURE(absent);
      CHECK_FALSE(labels.Has(absent));
      CHECK_FALSE(labels.Has(InternedString(absent)));
      CHECK_FALSE(labels.Get(InternedString(absent)).has_value());
    }
  }
}

TEST_CASE("Labels keep one shared copy of each key", "[api][labels]") {
  // The point of interning keys: every object's "topology.kubernetes.io/zone" is one pool entry,
  // and an entry is a pointer plus the value.
  static_assert(sizeof(Labels::value_type) == sizeof(void*) + sizeof(std::string));
  Labels a{{"topology.kubernetes.io/zone", "a"}};
  Labels b;
  b.Set(std::string("topology.kubernetes.io/") + "zone", "b");
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a.begin()->first.data() == b.begin()->first.data());
  CHECK(a.begin()->first == b.begin()->first);

  // An empty key is a key like any other (annotations may carry one through decoding).
  Labels with_empty{{"", "x"}, {"a", "1"}};
  CHECK(with_empty.Get("") == std::optional<std::string_view>("x"));
  CHECK(with_empty.Get(InternedString()) == std::optional<std::string_view>("x"));
  CHECK(with_empty.ToString() == "=x,a=1");
}

TEST_CASE("label keys are validated as upstream's IsQualifiedName", "[api][labels]") {
  const std::string a63(63, 'a');
  const std::string a253(253, 'a');
  // TestIsQualifiedName: valid names.
  for (const std::string& key : std::vector<std::string>{
           "simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
           "now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple",
           "now-with.dashes-and.dots/simple", "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678",
           "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo", a63,
           a253 + "/" + a63}) {
    INFO(key);
    CHECK(ksched::api::IsQualifiedName(key).empty());
  }
  // TestIsQualifiedName: invalid names.
  for (const std::string& key : std::vector<std::string>{
           "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
           "Example.com/abc", "example_com/abc", "example.com/", "/simple", a63 + "a",
           a253 + "a/abc", ""}) {
    INFO(key);
    CHECK_FALSE(ksched::api::IsQualifiedName(key).empty());
  }
}

TEST_CASE("label values are validated as upstream's IsValidLabelValue", "[api][labels]") {
  for (const std::string& value : std::vector<std::string>{
           "simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234",
           std::string(63, 'a'), "", "Uppercase_Is_OK_123", "a.b_c-d"}) {
    INFO(value);
    CHECK(ksched::api::IsValidLabelValue(value).empty());
  }
  for (const std::string& value : std::vector<std::string>{
           "nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad",
           "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.",
           std::string(64, 'a')}) {
    INFO(value);
    CHECK_FALSE(ksched::api::IsValidLabelValue(value).empty());
  }
  CHECK(ksched::api::IsValidLabelValue(std::string(64, 'a')) ==
        std::vector<std::string>{"must be no more than 63 characters"});
  CHECK(ksched::api::IsValidLabelValue("-a") == std::vector<std::string>{kLabelValueRegexError});
}

TEST_CASE("LabelRequirement::Create validates like labels.NewRequirement", "[api][labels]") {
  const std::string a254(254, 'a');
  struct Case {
    std::string key;
    Op op;
    std::vector<std::string> values;
    std::string want_error;  // empty: valid
  };
  // TestRequirementConstructor, with upstream's full messages (an empty list renders as null).
  const std::vector<Case> cases = {
      {"x1", Op::kIn, {},
       "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
      {"x2", Op::kNotIn, {},
       "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
      {"x3", Op::kIn, {"foo"}, ""},
      {"x4", Op::kNotIn, {"foo"}, ""},
      {"x5", Op::kEquals, {"bar", "foo"},
       R"(values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value)"},
      {"x6", Op::kExists, {}, ""},
      {"x7", Op::kDoesNotExist, {}, ""},
      {"x8", Op::kExists, {"foo"},
       R"(values: Invalid value: ["foo"]: values set must be empty for exists and does not exist)"},
      {"x9", Op::kIn, {"bar"}, ""},
      {"x10", Op::kIn, {"bar"}, ""},
      {"x11", Op::kGreaterThan, {"1"}, ""},
      {"x12", Op::kLessThan, {"6"}, ""},
      {"x13", Op::kGreaterThan, {},
       "values: Invalid value: null: for 'Gt', 'Lt' operators, exactly one value is required"},
      {"x14", Op::kGreaterThan, {"bar"},
       R"(values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer)"},
      {"x15", Op::kLessThan, {"bar"},
       R"(values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer)"},
      {a254, Op::kExists, {},
       "key: Invalid value: \"" + a254 + "\": name part must be no more than 63 characters"},
      {"x16", Op::kEquals, {a254},
       "values[0][x16]: Invalid value: \"" + a254 + "\": must be no more than 63 characters"},
      {"x17", Op::kEquals, {"a b"},
       "values[0][x17]: Invalid value: \"a b\": " + kLabelValueRegexError},
      // Beyond upstream's table, still upstream's answers.
      {"x", Op::kGreaterThan, {"-1"}, "values[0][x]: Invalid value: \"-1\": " + kLabelValueRegexError},
      {"x", Op::kGreaterThan, {"+5"}, "values[0][x]: Invalid value: \"+5\": " + kLabelValueRegexError},
      {"x", Op::kGreaterThan, {"1", "2"},
       R"(values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required)"},
      {"x", Op::kLessThan, {"99999999999999999999"},
       R"(values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer)"},
      {"x", Op::kLessThan, {"9223372036854775807"}, ""},
      {"a/b/c", Op::kExists, {},
       "key: Invalid value: \"a/b/c\": a qualified name " + kQualifiedNameRegexError +
           " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
      {"/a", Op::kExists, {}, R"(key: Invalid value: "/a": prefix part must be non-empty)"},
      {"Foo.com/a", Op::kExists, {},
       R"(key: Invalid value: "Foo.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))"},
      {"", Op::kExists, {},
       "key: Invalid value: \"\": name part must be non-empty; name part " +
           kQualifiedNameRegexError},
      {"a/", Op::kExists, {},
       "key: Invalid value: \"a/\": name part must be non-empty; name part " +
           kQualifiedNameRegexError},
      {a254 + "/b", Op::kExists, {},
       "key: Invalid value: \"" + a254 + "/b\": prefix part must be no more than 253 characters"},
      {"k", Op::kIn, {"\xC3\xA9\"\t\x01\x7f\xff<&>\xC2\xA0\xE2\x80\xA8"},
       "values[0][k]: Invalid value: \"\xC3\xA9\\\"\\t\\x01\\x7f\\xff<&>\\u00a0\\u2028\": " +
           kLabelValueRegexError},
      {"a b", Op::kIn, {"x y", "x y"},
       "[key: Invalid value: \"a b\": name part " + kQualifiedNameRegexError +
           ", values[0][a b]: Invalid value: \"x y\": " + kLabelValueRegexError +
           ", values[1][a b]: Invalid value: \"x y\": " + kLabelValueRegexError + "]"},
  };
  for (const Case& c : cases) {
    INFO("key " << c.key << " op " << ksched::api::SelectionOperatorName(c.op));
    auto requirement = LabelRequirement::Create(c.key, c.op, c.values);
    if (c.want_error.empty()) {
      CHECK(requirement.ok());
    } else {
      REQUIRE_FALSE(requirement.ok());
      CHECK(requirement.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK(requirement.status().message() == c.want_error);
    }
  }
}

TEST_CASE("requirement errors are relative to the given path", "[api][labels]") {
  const ksched::api::FieldPath path =
      ksched::api::FieldPath("spec").Child("selector").Child("matchExpressions").Index(2);
  auto requirement = LabelRequirement::Create("k", Op::kIn, {});
  auto with_path = LabelRequirement::Create("k", Op::kIn, {}, path);
  REQUIRE_FALSE(with_path.ok());
  CHECK(with_path.status().message() ==
        "spec.selector.matchExpressions[2].values: Invalid value: null: for 'in', 'notin' "
        "operators, values set can't be empty");
  CHECK(requirement.status().message().substr(0, 7) == "values:");
}

TEST_CASE("requirements print as upstream's Requirement.String", "[api][labels]") {
  // TestToString.
  struct Case {
    std::vector<LabelRequirement> requirements;
    std::string want;
  };
  const std::vector<Case> cases = {
      {{Req("x", Op::kIn, {"abc", "def"}), Req("y", Op::kNotIn, {"jkl"}), Req("z", Op::kExists)},
       "x in (abc,def),y notin (jkl),z"},
      {{Req("x", Op::kNotIn, {"abc", "def"}), Req("y", Op::kNotEquals, {"jkl"}),
        Req("z", Op::kDoesNotExist)},
       "x notin (abc,def),y!=jkl,!z"},
      {{Req("x", Op::kNotIn, {"abc"}), Req("y", Op::kIn, {"jkl", "mno"}),
        Req("z", Op::kNotIn, {""})},
       "x notin (abc),y in (jkl,mno),z notin ()"},
      {{Req("x", Op::kEquals, {"abc"}), Req("y", Op::kDoubleEquals, {"jkl"}),
        Req("z", Op::kNotEquals, {"a"}), Req("z", Op::kExists)},
       "x=abc,y==jkl,z!=a,z"},
      {{Req("x", Op::kGreaterThan, {"2"}), Req("y", Op::kLessThan, {"8"}), Req("z", Op::kExists)},
       "x>2,y<8,z"},
      // Values are sorted on output only; keys are sorted by the selector (stably).
      {{Req("z", Op::kIn, {"c", "b", "a"}), Req("a", Op::kExists), Req("m", Op::kDoesNotExist)},
       "a,!m,z in (a,b,c)"},
  };
  for (const Case& c : cases) {
    CHECK(CompiledLabelSelector::FromRequirements(c.requirements).ToString() == c.want);
  }
  CHECK(Req("z", Op::kIn, {"c", "b", "a"}).values() == std::vector<std::string>{"c", "b", "a"});
}

TEST_CASE("requirements match as upstream's Requirement.Matches", "[api][labels]") {
  // TestRequirementSelectorMatching (the invalid zero Requirement case has no equivalent: an
  // invalid requirement cannot be built here).
  struct Case {
    Labels labels;
    std::vector<LabelRequirement> requirements;
    bool want;
  };
  const std::vector<Case> cases = {
      {{{"x", "foo"}, {"y", "baz"}},
       {Req("x", Op::kIn, {"foo"}), Req("y", Op::kNotIn, {"alpha"})},
       true},
      {{{"x", "foo"}, {"y", "baz"}},
       {Req("x", Op::kIn, {"foo"}), Req("y", Op::kIn, {"alpha"})},
       false},
      {{{"y", ""}}, {Req("x", Op::kNotIn, {""}), Req("y", Op::kExists)}, true},
      {{{"y", ""}}, {Req("x", Op::kDoesNotExist), Req("y", Op::kExists)}, true},
      {{{"y", ""}}, {Req("x", Op::kNotIn, {""}), Req("y", Op::kDoesNotExist)}, false},
      {{{"y", "baz"}}, {Req("x", Op::kIn, {""})}, false},
      {{{"z", "2"}}, {Req("z", Op::kGreaterThan, {"1"})}, true},
      {{{"z", "v2"}}, {Req("z", Op::kGreaterThan, {"1"})}, false},
      // TestSelectorMatches, its selector strings written as requirements.
      {{{"x", "y"}}, {}, true},
      {{{"x", "y"}}, {Req("x", Op::kEquals, {"y"})}, true},
      {{{"x", "y"}, {"z", "w"}}, {Req("x", Op::kEquals, {"y"}), Req("z", Op::kEquals, {"w"})}, true},
      {{{"x", "z"}, {"z", "a"}},
       {Req("x", Op::kNotEquals, {"y"}), Req("z", Op::kNotEquals, {"w"})},
       true},
      {{{"notin", "in"}}, {Req("notin", Op::kEquals, {"in"})}, true},
      {{{"x", "z"}}, {Req("x", Op::kExists)}, true},
      {{{"y", "z"}}, {Req("x", Op::kDoesNotExist)}, true},
      {{{"x", "2"}}, {Req("x", Op::kGreaterThan, {"1"})}, true},
      {{{"x", "0"}}, {Req("x", Op::kLessThan, {"1"})}, true},
      {{}, {Req("x", Op::kEquals, {"z"})}, false},
      {{{"x", "z"}}, {Req("x", Op::kEquals, {"y"})}, false},
      {{{"x", "w"}, {"z", "w"}}, {Req("x", Op::kEquals, {"y"}), Req("z", Op::kEquals, {"w"})}, false},
      {{{"x", "z"}, {"z", "w"}},
       {Req("x", Op::kNotEquals, {"y"}), Req("z", Op::kNotEquals, {"w"})},
       false},
      {{{"y", "z"}}, {Req("x", Op::kExists)}, false},
      {{{"x", "z"}}, {Req("x", Op::kDoesNotExist)}, false},
      {{{"x", "0"}}, {Req("x", Op::kGreaterThan, {"1"})}, false},
      {{{"x", "2"}}, {Req("x", Op::kLessThan, {"1"})}, false},
      {{{"foo", "bar"}, {"baz", "blah"}}, {Req("foo", Op::kEquals, {"bar"})}, true},
      {{{"foo", "bar"}, {"baz", "blah"}}, {Req("baz", Op::kEquals, {"blah"})}, true},
      {{{"foo", "bar"}, {"baz", "blah"}},
       {Req("foo", Op::kEquals, {"bar"}), Req("baz", Op::kEquals, {"blah"})},
       true},
      {{{"foo", "bar"}, {"baz", "blah"}}, {Req("foo", Op::kEquals, {"blah"})}, false},
      {{{"foo", "bar"}, {"baz", "blah"}}, {Req("baz", Op::kEquals, {"bar"})}, false},
      {{{"foo", "bar"}, {"baz", "blah"}},
       {Req("foo", Op::kEquals, {"bar"}), Req("foobar", Op::kEquals, {"bar"}),
        Req("baz", Op::kEquals, {"blah"})},
       false},
      // Conflicting requirements match nothing, but are not MatchesNothing().
      {{{"a", "b"}}, {Req("a", Op::kExists), Req("a", Op::kDoesNotExist)}, false},
      {{}, {Req("a", Op::kExists), Req("a", Op::kDoesNotExist)}, false},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": labels " << cases[i].labels.ToString());
    const auto selector = CompiledLabelSelector::FromRequirements(cases[i].requirements);
    INFO("selector " << selector.ToString());
    CHECK(selector.Matches(cases[i].labels) == cases[i].want);
    CHECK_FALSE(selector.MatchesNothing());
  }
}

TEST_CASE("Gt and Lt compare labels parsed as Go's ParseInt(s, 10, 64)", "[api][labels]") {
  struct Case {
    std::string label;
    bool gt_five;  // label > 5
    bool lt_five;  // label < 5
  };
  const std::vector<Case> cases = {
      {"6", true, false},
      {"5", false, false},
      {"4", false, true},
      {"0206", true, false},  // leading zeros are decimal, not octal
      {"+6", true, false},    // ParseInt accepts a sign
      {"-6", false, true},
      {"9223372036854775807", true, false},
      {"-9223372036854775808", false, true},
      {"9223372036854775808", false, false},  // out of range: not an integer
      {"-9223372036854775809", false, false},
      {"", false, false},
      {"+", false, false},
      {"-", false, false},
      {" 6", false, false},
      {"6 ", false, false},
      {"0x10", false, false},
      {"1_000", false, false},
      {"6.0", false, false},
      {"v6", false, false},
  };
  const auto gt = Req("n", Op::kGreaterThan, {"5"});
  const auto lt = Req("n", Op::kLessThan, {"5"});
  for (const Case& c : cases) {
    INFO("label n=" << c.label);
    const Labels labels{{"n", c.label}};
    CHECK(gt.Matches(labels) == c.gt_five);
    CHECK(lt.Matches(labels) == c.lt_five);
  }
  CHECK_FALSE(gt.Matches(Labels{}));
  CHECK_FALSE(lt.Matches(Labels{}));
  CHECK(Req("n", Op::kLessThan, {"9223372036854775807"}).Matches(Labels{{"n", "1"}}));
  CHECK(Req("n", Op::kGreaterThan, {"0"}).Matches(Labels{{"n", "1"}}));
}

TEST_CASE("LabelSelector compiles as metav1.LabelSelectorAsSelector", "[api][labels]") {
  // TestLabelSelectorAsSelector, plus further cases checked against upstream.
  const Labels match_labels{{"foo", "bar"}};
  const std::vector<LabelSelectorRequirement> match_expressions = {
      {"baz", "In", {"qux", "norf"}}};
  struct Case {
    std::string name;
    std::optional<LabelSelector> in;
    std::string want_string;
    bool want_empty;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      {"nil", std::nullopt, "", false, ""},
      {"empty", LabelSelector{}, "", true, ""},
      {"matchLabels", LabelSelector{match_labels, {}}, "foo=bar", false, ""},
      {"matchExpressions", LabelSelector{{}, match_expressions}, "baz in (norf,qux)", false, ""},
      {"both", LabelSelector{match_labels, match_expressions}, "baz in (norf,qux),foo=bar", false,
       ""},
      {"exists with values", LabelSelector{{}, {{"baz", "Exists", {"qux", "norf"}}}}, "", false,
       R"(values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist)"},
      {"Gt is not a label selector operator", LabelSelector{{}, {{"baz", "Gt", {"1"}}}}, "", false,
       R"("Gt" is not a valid label selector operator)"},
      {"In without values", LabelSelector{{}, {{"baz", "In", {}}}}, "", false,
       "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
      {"bad matchLabels value", LabelSelector{Labels{{"foo", "b r"}}, {}}, "", false,
       "values[0][foo]: Invalid value: \"b r\": " + kLabelValueRegexError},
      {"bad matchLabels key", LabelSelector{Labels{{"f o", "bar"}}, {}}, "", false,
       "key: Invalid value: \"f o\": name part " + kQualifiedNameRegexError},
      {"many", LabelSelector{Labels{{"z", "1"}, {"a", "2"}},
                             {{"m", "DoesNotExist", {}}, {"b", "NotIn", {"y", "x"}},
                              {"a", "Exists", {}}}},
       "a=2,a,b notin (x,y),!m,z=1", false, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const LabelSelector before = c.in.value_or(LabelSelector{});
    auto compiled = CompiledLabelSelector::Compile(c.in ? &*c.in : nullptr);
    if (c.in) CHECK(*c.in == before);  // the input is not modified
    if (!c.want_error.empty()) {
      REQUIRE_FALSE(compiled.ok());
      CHECK(compiled.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK(compiled.status().message() == c.want_error);
      continue;
    }
    REQUIRE(compiled.ok());
    CHECK(compiled->ToString() == c.want_string);
    CHECK(compiled->Empty() == c.want_empty);
    CHECK(compiled->MatchesNothing() == !c.in.has_value());
  }
}

TEST_CASE("a nil selector matches nothing, an empty one everything", "[api][labels]") {
  const std::vector<Labels> label_sets = {Labels{}, Labels{{"x", "y"}}};
  auto nothing = CompiledLabelSelector::Compile(nullptr);
  auto everything = CompiledLabelSelector::Compile(LabelSelector{});
  REQUIRE(nothing.ok());
  REQUIRE(everything.ok());
  for (const Labels& labels : label_sets) {
    CHECK_FALSE(nothing->Matches(labels));
    CHECK(everything->Matches(labels));
    CHECK_FALSE(CompiledLabelSelector::Nothing().Matches(labels));
    CHECK(CompiledLabelSelector::Everything().Matches(labels));
    CHECK(CompiledLabelSelector().Matches(labels));
  }
  // TestEverything, TestMatchesNothing, TestSetIsEmpty.
  CHECK(CompiledLabelSelector::Everything().Empty());
  CHECK_FALSE(CompiledLabelSelector::Everything().MatchesNothing());
  CHECK_FALSE(CompiledLabelSelector::Nothing().Empty());
  CHECK(CompiledLabelSelector::Nothing().MatchesNothing());
  CHECK(CompiledLabelSelector::Nothing().ToString().empty());
  CHECK(CompiledLabelSelector::FromSet(Labels{}).Empty());
  CHECK_FALSE(CompiledLabelSelector::FromSet(Labels{{"key", "value"}}).MatchesNothing());
}

TEST_CASE("matchLabels and matchExpressions are ANDed", "[api][labels]") {
  auto selector = CompiledLabelSelector::Compile(LabelSelector{
      Labels{{"app", "web"}},
      {{"tier", "In", {"frontend", "edge"}}, {"canary", "DoesNotExist", {}},
       {"zone", "NotIn", {"z1"}}, {"team", "Exists", {}}}});
  REQUIRE(selector.ok());
  struct Case {
    Labels labels;
    bool want;
  };
  const std::vector<Case> cases = {
      {{{"app", "web"}, {"tier", "edge"}, {"team", "a"}}, true},
      {{{"app", "web"}, {"tier", "edge"}, {"team", "a"}, {"zone", "z2"}}, true},
      {{{"app", "web"}, {"tier", "edge"}, {"team", "a"}, {"zone", "z1"}}, false},
      {{{"app", "web"}, {"tier", "edge"}, {"team", "a"}, {"canary", ""}}, false},
      {{{"app", "web"}, {"tier", "backend"}, {"team", "a"}}, false},
      {{{"app", "db"}, {"tier", "edge"}, {"team", "a"}}, false},
      {{{"app", "web"}, {"tier", "edge"}}, false},
      {{{"tier", "edge"}, {"team", "a"}}, false},
  };
  for (const Case& c : cases) {
    INFO(c.labels.ToString());
    CHECK(selector->Matches(c.labels) == c.want);
  }
}

TEST_CASE("selectors from sets match as labels.SelectorFromSet", "[api][labels]") {
  // TestSetMatches.
  const Labels labels{{"foo", "bar"}, {"baz", "blah"}};
  CHECK(CompiledLabelSelector::FromSet(Labels{}).Matches(labels));
  CHECK(CompiledLabelSelector::FromSet(Labels{{"foo", "bar"}}).Matches(labels));
  CHECK(CompiledLabelSelector::FromSet(Labels{{"baz", "blah"}}).Matches(labels));
  CHECK(CompiledLabelSelector::FromSet(Labels{{"foo", "bar"}, {"baz", "blah"}}).Matches(labels));
  CHECK_FALSE(CompiledLabelSelector::FromSet(Labels{{"foo", "=blah"}}).Matches(labels));
  CHECK_FALSE(CompiledLabelSelector::FromSet(Labels{{"foo", "bar"}, {"foobar", "bar"}})
                  .Matches(labels));
  CHECK(CompiledLabelSelector::FromSet(Labels{{"b", "2"}, {"a", "1"}}).ToString() == "a=1,b=2");
  // SelectorFromSet does not validate; ValidatedSelectorFromSet does (TestValidatedSelectorFromSet).
  CHECK(CompiledLabelSelector::FromSet(Labels{{"a b", "c d"}}).Matches(Labels{{"a b", "c d"}}));
  auto validated = CompiledLabelSelector::ValidatedFromSet(Labels{{"key", "val"}});
  REQUIRE(validated.ok());
  CHECK(validated->ToString() == "key=val");
  auto invalid = CompiledLabelSelector::ValidatedFromSet(Labels{{"key", "a b"}});
  REQUIRE_FALSE(invalid.ok());
  CHECK(invalid.status().message() ==
        "values[0][key]: Invalid value: \"a b\": " + kLabelValueRegexError);
}

TEST_CASE("selection operators have upstream's names", "[api][labels]") {
  CHECK(ksched::api::SelectionOperatorName(Op::kIn) == "in");
  CHECK(ksched::api::SelectionOperatorName(Op::kNotIn) == "notin");
  CHECK(ksched::api::SelectionOperatorName(Op::kEquals) == "=");
  CHECK(ksched::api::SelectionOperatorName(Op::kDoubleEquals) == "==");
  CHECK(ksched::api::SelectionOperatorName(Op::kNotEquals) == "!=");
  CHECK(ksched::api::SelectionOperatorName(Op::kExists) == "exists");
  CHECK(ksched::api::SelectionOperatorName(Op::kDoesNotExist) == "!");
  CHECK(ksched::api::SelectionOperatorName(Op::kGreaterThan) == "gt");
  CHECK(ksched::api::SelectionOperatorName(Op::kLessThan) == "lt");
}
