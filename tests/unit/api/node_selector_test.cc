// Node selectors and preferred scheduling terms. Tables are ported from upstream's
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go (v0.34.4);
// expected error texts are what upstream returns for the same input.
#include "api/node_selector.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/labels.h"

namespace {

using ksched::api::CompiledLabelSelector;
using ksched::api::CompiledNodeSelector;
using ksched::api::CompiledPreferredSchedulingTerms;
using ksched::api::Labels;
using ksched::api::LazyErrorNodeSelector;
using ksched::api::NodeSelector;
using ksched::api::NodeSelectorRequirement;
using ksched::api::NodeSelectorTerm;
using ksched::api::PreferredSchedulingTerm;

NodeSelectorTerm Expressions(std::vector<NodeSelectorRequirement> expressions) {
  return NodeSelectorTerm{std::move(expressions), {}};
}
NodeSelectorTerm Fields(std::vector<NodeSelectorRequirement> fields) {
  return NodeSelectorTerm{{}, std::move(fields)};
}

const std::string kInvalidKeyError =
    R"(key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))";

// The upstream test's selector with two invalid terms around a valid one.
std::vector<NodeSelectorTerm> InvalidTerms() {
  return {
      Fields({{"metadata.name", "In", {"host_1", "host_2"}}}),
      NodeSelectorTerm{{{"label_1", "In", {"label_1_val"}}}, {{"metadata.name", "In", {"host_1"}}}},
      Expressions({{"invalid key", "In", {"label_value"}}}),
  };
}

}  // namespace

TEST_CASE("NodeSelector: construction errors and matching", "[api][node_selector]") {
  // TestNodeSelectorMatch (its "nil node" case has no equivalent: a node is its labels and name).
  struct Case {
    std::string name;
    NodeSelector selector;
    Labels labels;
    std::string node_name;
    std::string want_error;
    bool want_match;
  };
  const std::vector<Case> cases = {
      {"invalid field selector and label selector",
       NodeSelector{InvalidTerms()},
       {},
       "",
       R"([nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["host_1","host_2"]: must have one element, nodeSelectorTerms[2].matchExpressions[0].)" +
           kInvalidKeyError + "]",
       false},
      {"node matches field selector, but not labels",
       NodeSelector{{NodeSelectorTerm{{{"label_1", "In", {"label_1_val"}}},
                                      {{"metadata.name", "In", {"host_1"}}}}}},
       {},
       "host_1",
       "",
       false},
      {"node matches field selector and label selector",
       NodeSelector{{NodeSelectorTerm{{{"label_1", "In", {"label_1_val"}}},
                                      {{"metadata.name", "In", {"host_1"}}}}}},
       {{"label_1", "label_1_val"}},
       "host_1",
       "",
       true},
      {"second term matches",
       NodeSelector{{Expressions({{"label_1", "In", {"label_1_val"}}}),
                     Fields({{"metadata.name", "In", {"host_1"}}})}},
       {},
       "host_1",
       "",
       true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto selector = CompiledNodeSelector::Compile(c.selector);
    if (!c.want_error.empty()) {
      REQUIRE_FALSE(selector.ok());
      CHECK(selector.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK(selector.status().message() == c.want_error);
      continue;
    }
    REQUIRE(selector.ok());
    CHECK(selector->Matches(c.labels, c.node_name) == c.want_match);
  }
}

TEST_CASE("NodeSelector: every invalid requirement is reported", "[api][node_selector]") {
  const std::string supported =
      R"(supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")";
  struct Case {
    std::string name;
    NodeSelector selector;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      {"operators and value counts",
       NodeSelector{{
           NodeSelectorTerm{{{"k", "Foo", {}}, {"g", "Gt", {"abc"}}, {"l", "Lt", {}}},
                            {{"metadata.name", "Exists", {}}, {"metadata.name", "NotIn", {}}}},
           NodeSelectorTerm{},  // empty: skipped, not an error
           Expressions({{"k", "Exists", {"v"}}, {"k2", "In", {}}}),
       }},
       "[nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Foo\": " +
           supported +
           ", nodeSelectorTerms[0].matchExpressions[1].values[0]: Invalid value: \"abc\": for "
           "'Gt', 'Lt' operators, the value must be an integer"
           ", nodeSelectorTerms[0].matchExpressions[2].values: Invalid value: null: for 'Gt', "
           "'Lt' operators, exactly one value is required"
           ", nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: \"Exists\": "
           "supported values: \"In\", \"NotIn\""
           ", nodeSelectorTerms[0].matchFields[1].values: Invalid value: null: must have one "
           "element"
           R"(, nodeSelectorTerms[2].matchExpressions[0].values: Invalid value: ["v"]: values set must be empty for exists and does not exist)"
           ", nodeSelectorTerms[2].matchExpressions[1].values: Invalid value: null: for 'in', "
           "'notin' operators, values set can't be empty]"},
      {"same problem at two paths",
       NodeSelector{{Expressions({{"k", "Foo", {}}, {"k", "Foo", {}}})}},
       "[nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Foo\": " +
           supported + ", nodeSelectorTerms[0].matchExpressions[1].operator: Unsupported value: " +
           "\"Foo\": " + supported + "]"},
      {"one problem is reported bare",
       NodeSelector{{Expressions({{"k", "Gt", {"1", "2"}}})}},
       R"(nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required)"},
      {"operators are rendered as JSON",
       NodeSelector{{Fields({{"metadata.name", "<In>", {"a"}}})}},
       R"(nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: "\u003cIn\u003e": supported values: "In", "NotIn")"},
      {"operators are case-sensitive",
       NodeSelector{{Expressions({{"k", "in", {"a"}}})}},
       "nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"in\": " +
           supported},
      {"label values are validated",
       NodeSelector{{Expressions({{"foo", "NotIn", {"invalid value: ___@#$%^"}}})}},
       R"(nodeSelectorTerms[0].matchExpressions[0].values[0][foo]: Invalid value: "invalid value: ___@#$%^": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto selector = CompiledNodeSelector::Compile(c.selector);
    REQUIRE_FALSE(selector.ok());
    CHECK(selector.status().message() == c.want_error);
    // The lazy selector reports the same errors, when nothing valid matches.
    const auto lazy = LazyErrorNodeSelector::Compile(c.selector);
    CHECK(lazy.parse_errors().message() == c.want_error);
    const auto match = lazy.Match(Labels{}, "node");
    REQUIRE_FALSE(match.ok());
    CHECK(match.status().message() == c.want_error);
  }
  // A path prefix, as upstream's field.WithPath option.
  auto prefixed = CompiledNodeSelector::Compile(
      NodeSelector{{Expressions({{"k", "Gt", {"x"}}})}},
      ksched::api::FieldPath("spec").Child("affinity").Child("nodeAffinity"));
  REQUIRE_FALSE(prefixed.ok());
  CHECK(prefixed.status().message() ==
        "spec.affinity.nodeAffinity.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid "
        "value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer");
}

TEST_CASE("NodeSelector: terms are ORed, requirements within a term ANDed",
          "[api][node_selector]") {
  // TestNodeSelectorRequirementsAsSelector, through a compiled term's requirements.
  auto compiled = CompiledNodeSelector::Compile(NodeSelector{{
      Expressions({{"foo", "In", {"bar", "baz"}}}),
      Expressions({{"foo", "Gt", {"1"}}}),
      Expressions({{"bar", "Lt", {"7"}}}),
      Expressions({{"z", "Exists", {}}, {"a", "DoesNotExist", {}}, {"m", "NotIn", {"x"}}}),
  }});
  REQUIRE(compiled.ok());
  REQUIRE(compiled->terms().size() == 4);
  std::vector<std::string> printed;
  for (const auto& term : compiled->terms()) {
    std::vector<ksched::api::LabelRequirement> requirements(term.label_requirements().begin(),
                                                            term.label_requirements().end());
    printed.push_back(CompiledLabelSelector::FromRequirements(requirements).ToString());
  }
  CHECK(printed == std::vector<std::string>{"foo in (bar,baz)", "foo>1", "bar<7", "!a,m notin (x),z"});

  struct Case {
    Labels labels;
    bool want;
  };
  const std::vector<Case> cases = {
      {{{"foo", "bar"}}, true},
      {{{"foo", "2"}}, true},
      {{{"foo", "1"}}, false},
      {{{"bar", "6"}}, true},
      {{{"bar", "7"}}, false},
      {{{"bar", "x"}}, false},
      {{{"z", ""}}, true},
      {{{"z", ""}, {"a", ""}}, false},
      {{{"z", ""}, {"m", "x"}}, false},
      {{{"z", ""}, {"m", "y"}}, true},
      {{}, false},
  };
  for (const Case& c : cases) {
    INFO(c.labels.ToString());
    CHECK(compiled->Matches(c.labels, "node") == c.want);
  }
}

TEST_CASE("NodeSelector: terms without requirements match nothing", "[api][node_selector]") {
  const Labels labels{{"foo", "bar"}};
  for (const NodeSelector& selector :
       {NodeSelector{}, NodeSelector{{NodeSelectorTerm{}}},
        NodeSelector{{NodeSelectorTerm{}, NodeSelectorTerm{}}}}) {
    auto compiled = CompiledNodeSelector::Compile(selector);
    REQUIRE(compiled.ok());
    CHECK(compiled->terms().empty());
    CHECK_FALSE(compiled->Matches(labels, "node"));
    const auto lazy = LazyErrorNodeSelector::Compile(selector);
    CHECK(lazy.parse_errors().ok());
    const auto match = lazy.Match(labels, "node");
    REQUIRE(match.ok());
    CHECK_FALSE(*match);
  }
  CHECK_FALSE(CompiledNodeSelector().Matches(labels, "node"));
}

TEST_CASE("NodeSelector: matchFields compare the node name", "[api][node_selector]") {
  struct Case {
    std::string name;
    NodeSelectorTerm term;
    std::string node_name;
    bool want;
  };
  const std::vector<Case> cases = {
      {"In matches the name", Fields({{"metadata.name", "In", {"n1"}}}), "n1", true},
      {"In with another name", Fields({{"metadata.name", "In", {"n1"}}}), "n2", false},
      {"NotIn with the name", Fields({{"metadata.name", "NotIn", {"n1"}}}), "n1", false},
      {"NotIn with another name", Fields({{"metadata.name", "NotIn", {"n1"}}}), "n2", true},
      {"fields are ANDed",
       Fields({{"metadata.name", "In", {"n1"}}, {"metadata.name", "NotIn", {"n1"}}}), "n1", false},
      // As upstream: a node without a name has no fields, and matchFields are not checked.
      {"empty node name skips matchFields", Fields({{"metadata.name", "In", {"n1"}}}), "", true},
      // As upstream's nodeaffinity (the API server rejects such keys): any other field reads "".
      {"unknown field reads empty: In \"\"", Fields({{"spec.foo", "In", {""}}}), "n1", true},
      {"unknown field reads empty: In x", Fields({{"spec.foo", "In", {"x"}}}), "n1", false},
      {"unknown field reads empty: NotIn x", Fields({{"spec.foo", "NotIn", {"x"}}}), "n1", true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto compiled = CompiledNodeSelector::Compile(NodeSelector{{c.term}});
    REQUIRE(compiled.ok());
    CHECK(compiled->Matches(Labels{}, c.node_name) == c.want);
  }
}

TEST_CASE("LazyErrorNodeSelector reports errors only when no valid term matches",
          "[api][node_selector]") {
  const NodeSelector selector{{
      Expressions({{"k", "Foo", {}}}),
      Expressions({{"zone", "In", {"a"}}}),
  }};
  const std::string error =
      R"(nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")";
  REQUIRE_FALSE(CompiledNodeSelector::Compile(selector).ok());
  const auto lazy = LazyErrorNodeSelector::Compile(selector);
  CHECK(lazy.valid_terms().size() == 1);
  CHECK(lazy.parse_errors().message() == error);

  const auto matching = lazy.Match(Labels{{"zone", "a"}}, "n");
  REQUIRE(matching.ok());
  CHECK(*matching);

  const auto not_matching = lazy.Match(Labels{{"zone", "b"}}, "n");
  REQUIRE_FALSE(not_matching.ok());
  CHECK(not_matching.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(not_matching.status().message() == error);

  const auto valid = LazyErrorNodeSelector::Compile(NodeSelector{{Expressions({{"zone", "In", {"a"}}})}});
  const auto valid_miss = valid.Match(Labels{{"zone", "b"}}, "n");
  REQUIRE(valid_miss.ok());
  CHECK_FALSE(*valid_miss);
}

TEST_CASE("required node affinity as kube-scheduler evaluates it", "[api][node_selector]") {
  // TestPodMatchesNodeSelectorAndAffinityTerms: GetRequiredNodeAffinity(pod).Match(node) is the
  // pod's spec.nodeSelector (labels.SelectorFromSet, when not empty) AND its required node
  // affinity (a LazyErrorNodeSelector, when present; an error counts as no match).
  struct Case {
    std::string name;
    Labels node_selector;
    std::optional<NodeSelector> affinity;
    Labels labels;
    std::string node_name;
    bool want;
  };
  const std::vector<Case> cases = {
      {"no selector", {}, std::nullopt, {}, "", true},
      {"missing labels", {{"foo", "bar"}}, std::nullopt, {}, "", false},
      {"same labels", {{"foo", "bar"}}, std::nullopt, {{"foo", "bar"}}, "", true},
      {"node labels are superset", {{"foo", "bar"}}, std::nullopt,
       {{"foo", "bar"}, {"baz", "blah"}}, "", true},
      {"node labels are subset", {{"foo", "bar"}, {"baz", "blah"}}, std::nullopt,
       {{"foo", "bar"}}, "", false},
      {"matchExpressions using In operator that matches the existing node", {},
       NodeSelector{{Expressions({{"foo", "In", {"bar", "value2"}}})}}, {{"foo", "bar"}}, "",
       true},
      {"matchExpressions using Gt operator that matches the existing node", {},
       NodeSelector{{Expressions({{"kernel-version", "Gt", {"0204"}}})}},
       {{"kernel-version", "0206"}}, "", true},
      {"matchExpressions using NotIn operator that matches the existing node", {},
       NodeSelector{{Expressions({{"mem-type", "NotIn", {"DDR", "DDR2"}}})}},
       {{"mem-type", "DDR3"}}, "", true},
      {"matchExpressions using Exists operator that matches the existing node", {},
       NodeSelector{{Expressions({{"GPU", "Exists", {}}})}}, {{"GPU", "NVIDIA-GRID-K1"}}, "",
       true},
      {"affinity that don't match node's labels won't schedule onto the node", {},
       NodeSelector{{Expressions({{"foo", "In", {"value1", "value2"}}})}}, {{"foo", "bar"}}, "",
       false},
      {"an empty []NodeSelectorTerm in affinity won't schedule onto the node", {},
       NodeSelector{}, {{"foo", "bar"}}, "", false},
      {"empty MatchExpressions will match no objects", {}, NodeSelector{{NodeSelectorTerm{}}},
       {{"foo", "bar"}}, "", false},
      {"no Affinity will schedule onto a node", {}, std::nullopt, {{"foo", "bar"}}, "", true},
      {"multiple matchExpressions ANDed that matches the existing node", {},
       NodeSelector{{Expressions({{"GPU", "Exists", {}}, {"GPU", "NotIn", {"AMD", "INTER"}}})}},
       {{"GPU", "NVIDIA-GRID-K1"}}, "", true},
      {"multiple matchExpressions ANDed that doesn't match the existing node", {},
       NodeSelector{{Expressions({{"GPU", "Exists", {}}, {"GPU", "In", {"AMD", "INTER"}}})}},
       {{"GPU", "NVIDIA-GRID-K1"}}, "", false},
      {"multiple NodeSelectorTerms ORed in affinity, matches the node's labels", {},
       NodeSelector{{Expressions({{"foo", "In", {"bar", "value2"}}}),
                     Expressions({{"diffkey", "In", {"wrong", "value2"}}})}},
       {{"foo", "bar"}}, "", true},
      {"an Affinity and a PodSpec.NodeSelector both satisfied", {{"foo", "bar"}},
       NodeSelector{{Expressions({{"foo", "Exists", {}}})}}, {{"foo", "bar"}}, "", true},
      {"an Affinity matches but the PodSpec.NodeSelector is not satisfied", {{"foo", "bar"}},
       NodeSelector{{Expressions({{"foo", "Exists", {}}})}}, {{"foo", "barrrrrr"}}, "", false},
      {"an invalid value in Affinity term won't be scheduled onto the node", {},
       NodeSelector{{Expressions({{"foo", "NotIn", {"invalid value: ___@#$%^"}}})}},
       {{"foo", "bar"}}, "", false},
      {"matchFields using In operator that matches the existing node", {},
       NodeSelector{{Fields({{"metadata.name", "In", {"node_1"}}})}}, {}, "node_1", true},
      {"matchFields using In operator that does not match the existing node", {},
       NodeSelector{{Fields({{"metadata.name", "In", {"node_1"}}})}}, {}, "node_2", false},
      {"two terms: matchFields does not match, but matchExpressions matches", {},
       NodeSelector{{Fields({{"metadata.name", "In", {"node_1"}}}),
                     Expressions({{"foo", "In", {"bar"}}})}},
       {{"foo", "bar"}}, "node_2", true},
      {"one term: matchFields does not match, but matchExpressions matches", {},
       NodeSelector{{NodeSelectorTerm{{{"foo", "In", {"bar"}}},
                                      {{"metadata.name", "In", {"node_1"}}}}}},
       {{"foo", "bar"}}, "node_2", false},
      {"one term: both matchFields and matchExpressions match", {},
       NodeSelector{{NodeSelectorTerm{{{"foo", "In", {"bar"}}},
                                      {{"metadata.name", "In", {"node_1"}}}}}},
       {{"foo", "bar"}}, "node_1", true},
      {"two terms: both matchFields and matchExpressions do not match", {},
       NodeSelector{{Fields({{"metadata.name", "In", {"node_1"}}}),
                     Expressions({{"foo", "In", {"not-match-to-bar"}}})}},
       {{"foo", "bar"}}, "node_2", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    bool got = true;
    if (!c.node_selector.empty()) {
      got = CompiledLabelSelector::FromSet(c.node_selector).Matches(c.labels);
    }
    if (got && c.affinity) {
      got = LazyErrorNodeSelector::Compile(*c.affinity).Match(c.labels, c.node_name).value_or(false);
    }
    CHECK(got == c.want);
  }
}

TEST_CASE("PreferredSchedulingTerms: errors and scores", "[api][node_selector]") {
  // TestPreferredSchedulingTermsScore.
  struct Case {
    std::string name;
    std::vector<PreferredSchedulingTerm> terms;
    Labels labels;
    std::string node_name;
    std::string want_error;
    std::int64_t want_score;
  };
  std::vector<PreferredSchedulingTerm> invalid;
  for (NodeSelectorTerm& term : InvalidTerms()) invalid.push_back({1, std::move(term)});
  const std::vector<Case> cases = {
      {"invalid field selector and label selector", invalid, {}, "",
       R"([[0].matchFields[0].values: Invalid value: ["host_1","host_2"]: must have one element, [2].matchExpressions[0].)" +
           kInvalidKeyError + "]",
       0},
      {"invalid field selector but no weight, error not reported",
       {{0, Fields({{"metadata.name", "In", {"host_1", "host_2"}}})}}, {}, "host_1", "", 0},
      {"first and third term match",
       {{5, Fields({{"metadata.name", "In", {"host_1"}}})},
        {7, Expressions({{"unknown_label", "In", {"unknown_label_val"}}})},
        {11, Expressions({{"label_1", "In", {"label_1_val"}}})}},
       {{"label_1", "label_1_val"}}, "host_1", "", 16},
      {"empty preference is skipped", {{3, NodeSelectorTerm{}}}, {{"a", "b"}}, "host_1", "", 0},
      {"all match",
       {{100, Expressions({{"a", "Exists", {}}})}, {1, Fields({{"metadata.name", "NotIn", {"x"}}})}},
       {{"a", "b"}}, "host_1", "", 101},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto terms = CompiledPreferredSchedulingTerms::Compile(c.terms);
    if (!c.want_error.empty()) {
      REQUIRE_FALSE(terms.ok());
      CHECK(terms.status().message() == c.want_error);
      continue;
    }
    REQUIRE(terms.ok());
    CHECK(terms->Score(c.labels, c.node_name) == c.want_score);
  }
  CHECK(CompiledPreferredSchedulingTerms().Score(Labels{{"a", "b"}}, "n") == 0);
}
