// NodeAffinity: ported from upstream nodeaffinity/node_affinity_test.go (v1.34.4), plus the args
// validation of apis/config/validation (ValidateNodeAffinityArgs).
#include "plugins/node_affinity/node_affinity.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/field_errors.h"
#include "fake_handle.h"
#include "plugins/node_affinity/args.h"
#include "test_objects.h"

namespace {

using ksched::api::Labels;
using ksched::api::Node;
using ksched::api::NodeSelector;
using ksched::api::NodeSelectorRequirement;
using ksched::api::NodeSelectorTerm;
using ksched::api::Pod;
using ksched::api::PreferredSchedulingTerm;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::NodeInfo;
using ksched::framework::NodeScore;
using ksched::framework::PluginArgs;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace node_affinity = ksched::plugins::node_affinity;
using ksched::plugins::node_affinity::NodeAffinity;
using ksched::plugins::node_affinity::NodeAffinityArgs;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

using NameSet = std::set<std::string, std::less<>>;

NodeSelectorTerm Expressions(std::vector<NodeSelectorRequirement> expressions) {
  return NodeSelectorTerm{std::move(expressions), {}};
}
NodeSelectorTerm Fields(std::vector<NodeSelectorRequirement> fields) {
  return NodeSelectorTerm{{}, std::move(fields)};
}
NodeSelectorRequirement NameIn(std::string name) {
  return NodeSelectorRequirement{"metadata.name", "In", {std::move(name)}};
}

Pod PodRequiring(std::vector<NodeSelectorTerm> terms, Labels node_selector = {}) {
  Pod pod = MakePod("p");
  pod.spec.affinity.node_affinity.required = NodeSelector{std::move(terms)};
  pod.spec.node_selector = std::move(node_selector);
  return pod;
}
Pod PodWithNodeSelector(Labels node_selector) {
  Pod pod = MakePod("p");
  pod.spec.node_selector = std::move(node_selector);
  return pod;
}
Pod PodPreferring(std::vector<PreferredSchedulingTerm> terms) {
  Pod pod = MakePod("p");
  pod.spec.affinity.node_affinity.preferred = std::move(terms);
  return pod;
}

NodeAffinityArgs AddedRequired(std::vector<NodeSelectorTerm> terms) {
  NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required = NodeSelector{std::move(terms)};
  return args;
}
NodeAffinityArgs AddedPreferred(std::vector<PreferredSchedulingTerm> terms) {
  NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->preferred = std::move(terms);
  return args;
}

ksched::plugins::testing::BuiltPlugin<NodeAffinity> BuildPlugin(FakeHandle& handle,
                                                                const NodeAffinityArgs& args) {
  return Build<NodeAffinity>(node_affinity::New, static_cast<const PluginArgs*>(&args), handle);
}

const Status kRejectedPod(Code::kUnschedulableAndUnresolvable,
                          {"node(s) didn't match Pod's node affinity/selector"});
const Status kRejectedEnforced(Code::kUnschedulableAndUnresolvable,
                               {"node(s) didn't match scheduler-enforced node affinity"});

// One PreFilter + Filter case; the setters state what differs from "fits, PreFilter succeeds
// without narrowing".
struct FilterCase {
  FilterCase(std::string name_, Pod pod_, std::string node_name_, Labels labels_)
      : name(std::move(name_)), pod(std::move(pod_)), node_name(std::move(node_name_)),
        labels(std::move(labels_)) {}
  FilterCase& Rejected(Status status) {
    fits = false;
    want_filter = std::move(status);
    return *this;
  }
  FilterCase& PreFilterCode(Code code) {
    want_pre_filter = code;
    return *this;
  }
  FilterCase& Narrowed(NameSet names) {
    want_node_names = std::move(names);
    return *this;
  }
  FilterCase& WithArgs(NodeAffinityArgs value) {
    args = std::move(value);
    return *this;
  }
  FilterCase& WithoutPreFilter() {
    run_pre_filter = false;
    return *this;
  }

  std::string name;
  Pod pod;
  std::string node_name;
  Labels labels;
  bool fits = true;
  Status want_filter;
  Code want_pre_filter = Code::kSuccess;
  std::optional<NameSet> want_node_names;
  NodeAffinityArgs args;
  bool run_pre_filter = true;
};

TEST_CASE("NodeAffinity PreFilter and Filter", "[plugins][node_affinity]") {
  using Row = FilterCase;
  std::vector<Row> rows;
  auto add = [&rows](const Row& row) { rows.push_back(row); };

  add(Row("missing labels", PodWithNodeSelector({{"foo", "bar"}}), "", {}).Rejected(kRejectedPod));
  add(Row("same labels", PodWithNodeSelector({{"foo", "bar"}}), "", {{"foo", "bar"}}));
  add(Row("node labels are superset", PodWithNodeSelector({{"foo", "bar"}}), "",
          {{"foo", "bar"}, {"baz", "blah"}}));
  add(Row("node labels are subset", PodWithNodeSelector({{"foo", "bar"}, {"baz", "blah"}}), "",
          {{"foo", "bar"}})
          .Rejected(kRejectedPod));
  add(Row("matchExpressions In matches",
          PodRequiring({Expressions({{"foo", "In", {"bar", "value2"}}})}), "", {{"foo", "bar"}}));
  add(Row("matchExpressions Gt matches",
          PodRequiring({Expressions({{"kernel-version", "Gt", {"0204"}}})}), "",
          {{"kernel-version", "0206"}}));
  add(Row("matchExpressions NotIn matches",
          PodRequiring({Expressions({{"mem-type", "NotIn", {"DDR", "DDR2"}}})}), "",
          {{"mem-type", "DDR3"}}));
  add(Row("matchExpressions Exists matches", PodRequiring({Expressions({{"GPU", "Exists", {}}})}),
          "", {{"GPU", "NVIDIA-GRID-K1"}}));
  add(Row("affinity that doesn't match the node's labels",
          PodRequiring({Expressions({{"foo", "In", {"value1", "value2"}}})}), "", {{"foo", "bar"}})
          .Rejected(kRejectedPod));
  add(Row("an empty term matches no node", PodRequiring({Expressions({})}), "", {{"foo", "bar"}})
          .Rejected(kRejectedPod));
  add(Row("no affinity: Skip", MakePod("p"), "", {{"foo", "bar"}}).PreFilterCode(Code::kSkip));
  add(Row("affinity without required terms: Skip",
          PodPreferring({{1, Expressions({{"foo", "In", {"bar"}}})}}), "", {{"foo", "bar"}})
          .PreFilterCode(Code::kSkip));
  add(Row("multiple matchExpressions ANDed that match",
          PodRequiring({Expressions({{"GPU", "Exists", {}}, {"GPU", "NotIn", {"AMD", "INTER"}}})}),
          "", {{"GPU", "NVIDIA-GRID-K1"}}));
  add(Row("multiple matchExpressions ANDed that don't match",
          PodRequiring({Expressions({{"GPU", "Exists", {}}, {"GPU", "In", {"AMD", "INTER"}}})}), "",
          {{"GPU", "NVIDIA-GRID-K1"}})
          .Rejected(kRejectedPod));
  add(Row("multiple terms ORed, one matches",
          PodRequiring({Expressions({{"foo", "In", {"bar", "value2"}}}),
                        Expressions({{"diffkey", "In", {"wrong", "value2"}}})}),
          "", {{"foo", "bar"}}));
  add(Row("affinity and nodeSelector both satisfied",
          PodRequiring({Expressions({{"foo", "Exists", {}}})}, {{"foo", "bar"}}), "",
          {{"foo", "bar"}}));
  add(Row("affinity satisfied, nodeSelector not",
          PodRequiring({Expressions({{"foo", "Exists", {}}})}, {{"foo", "bar"}}), "",
          {{"foo", "barrrrrr"}})
          .Rejected(kRejectedPod));
  add(Row("an invalid value in the only term matches nothing",
          PodRequiring({Expressions({{"foo", "NotIn", {"invalid value: ___@#$%^"}}})}), "",
          {{"foo", "bar"}})
          .Rejected(kRejectedPod));
  add(Row("matchFields In matches the node", PodRequiring({Fields({NameIn("node1")})}), "node1", {})
          .Narrowed({"node1"}));
  add(Row("matchFields In does not match the node", PodRequiring({Fields({NameIn("node1")})}),
          "node2", {})
          .Rejected(kRejectedPod)
          .Narrowed({"node1"}));
  add(Row("two terms: matchFields does not match, but matchExpressions matches",
          PodRequiring({Fields({NameIn("node1"), NameIn("node2")}),
                        Expressions({{"foo", "In", {"bar"}}})}),
          "node2", {{"foo", "bar"}}));
  {
    NodeSelectorTerm both = Fields({NameIn("node1")});
    both.match_expressions = {{"foo", "In", {"bar"}}};
    add(Row("one term: matchFields does not match, but matchExpressions matches",
            PodRequiring({both}), "node2", {{"foo", "bar"}})
            .Rejected(kRejectedPod)
            .Narrowed({"node1"}));
    add(Row("one term: both matchFields and matchExpressions match", PodRequiring({both}), "node1",
            {{"foo", "bar"}})
            .Narrowed({"node1"}));
  }
  add(Row("two terms: neither matches",
          PodRequiring(
              {Fields({NameIn("node1")}), Expressions({{"foo", "In", {"not-match-to-bar"}}})}),
          "node2", {{"foo", "bar"}})
          .Rejected(kRejectedPod));
  add(Row("two terms of node name affinity",
          PodRequiring({Fields({NameIn("node1")}), Fields({NameIn("node2")})}), "node2", {})
          .Narrowed({"node1", "node2"}));
  add(Row("two conflicting matchFields requirements",
          PodRequiring({Fields({NameIn("node1"), NameIn("node2")})}), "node2", {{"foo", "bar"}})
          .Rejected(kRejectedPod)
          .PreFilterCode(Code::kUnschedulableAndUnresolvable));
  add(Row("a NotIn name requirement does not narrow",
          PodRequiring({Fields({{"metadata.name", "NotIn", {"node1"}}})}), "node2", {}));
  add(Row("matches added affinity and the pod's affinity",
          PodRequiring({Expressions({{"zone", "In", {"foo"}}})}), "node2", {{"zone", "foo"}})
          .WithArgs(AddedRequired({Fields({NameIn("node2")})})));
  add(Row("matches added affinity but not the pod's affinity",
          PodRequiring({Expressions({{"zone", "In", {"bar"}}})}), "node2", {{"zone", "foo"}})
          .Rejected(kRejectedPod)
          .WithArgs(AddedRequired({Fields({NameIn("node2")})})));
  add(Row("doesn't match added affinity", MakePod("p"), "node2", {{"zone", "foo"}})
          .Rejected(kRejectedEnforced)
          .WithArgs(AddedRequired({Expressions({{"zone", "In", {"bar"}}})})));
  add(Row("matches nodeSelector even if PreFilter is not called",
          PodWithNodeSelector({{"foo", "bar"}}), "", {{"foo", "bar"}, {"baz", "blah"}})
          .WithoutPreFilter());
  add(Row("matches node affinity even if PreFilter is not called",
          PodRequiring({Expressions({{"GPU", "Exists", {}}, {"GPU", "NotIn", {"AMD", "INTER"}}})}),
          "", {{"GPU", "NVIDIA-GRID-K1"}})
          .WithoutPreFilter());
  add(Row("rejects on node affinity even if PreFilter is not called",
          PodRequiring({Expressions({{"GPU", "In", {"AMD"}}})}), "", {{"GPU", "NVIDIA-GRID-K1"}})
          .Rejected(kRejectedPod)
          .WithoutPreFilter());

  for (const Row& row : rows) {
    CAPTURE(row.name);
    FakeHandle handle;
    auto plugin = BuildPlugin(handle, row.args);
    CycleState state;
    if (row.run_pre_filter) {
      auto [result, status] = plugin->PreFilter(state, row.pod, {});
      CHECK(status.code() == row.want_pre_filter);
      if (row.want_pre_filter == Code::kUnschedulableAndUnresolvable) {
        CHECK(status.Message() == "pod affinity terms conflict");
      }
      CHECK(result.node_names == row.want_node_names);
    }
    const Status status =
        plugin->Filter(state, row.pod, MakeNodeInfo(MakeNode(row.node_name, row.labels)));
    if (row.fits) {
      CHECK(status.IsSuccess());
    } else {
      CHECK(status == row.want_filter);
    }
  }
}

TEST_CASE("NodeAffinity Filter reads the compiled PreFilter state, also from a clone",
          "[plugins][node_affinity]") {
  FakeHandle handle;
  auto plugin = BuildPlugin(handle, {});
  const Pod pod = PodWithNodeSelector({{"foo", "bar"}});
  CycleState state;
  REQUIRE(plugin->PreFilter(state, pod, {}).second.IsSuccess());
  auto clone = state.Clone();
  // The state, not the pod passed to Filter, decides: it was compiled from `pod`.
  const Pod other = MakePod("q");
  CHECK(plugin->Filter(*clone, other, MakeNodeInfo(MakeNode("n", {{"foo", "bar"}}))).IsSuccess());
  CHECK(plugin->Filter(*clone, other, MakeNodeInfo(MakeNode("n", {{"foo", "baz"}}))) ==
        kRejectedPod);
  CHECK(plugin->Filter(state, pod, NodeInfo()).code() == Code::kError);
}

std::vector<std::int64_t> Scores(const Pod& pod, const std::vector<std::shared_ptr<Node>>& nodes,
                                 const NodeAffinityArgs& args, bool run_pre_score) {
  FakeHandle handle;
  auto plugin = BuildPlugin(handle, args);
  std::vector<NodeInfo> infos;
  for (const auto& node : nodes) infos.push_back(MakeNodeInfo(node));
  std::vector<const NodeInfo*> feasible;
  for (const NodeInfo& info : infos) feasible.push_back(&info);
  CycleState state;
  if (run_pre_score) REQUIRE(plugin->PreScore(state, pod, feasible).IsSuccess());
  std::vector<NodeScore> scores;
  for (const NodeInfo* info : feasible) {
    auto [score, status] = plugin->Score(state, pod, *info);
    REQUIRE(status.IsSuccess());
    scores.push_back(NodeScore{info, score});
  }
  REQUIRE(plugin->GetScoreExtensions()->NormalizeScore(state, pod, scores).IsSuccess());
  std::vector<std::int64_t> out;
  for (const NodeScore& score : scores) out.push_back(score.score);
  return out;
}

TEST_CASE("NodeAffinity scores the weights of matching preferred terms", "[plugins][node_affinity]") {
  using V = std::vector<std::int64_t>;
  const Labels label1{{"foo", "bar"}};
  const Labels label2{{"key", "value"}};
  const Labels label3{{"az", "az1"}};
  const Labels label4{{"abc", "az11"}, {"def", "az22"}};
  const Labels label5{{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};
  const std::vector<PreferredSchedulingTerm> affinity1 = {
      {2, Expressions({{"foo", "In", {"bar"}}})}};
  const std::vector<PreferredSchedulingTerm> affinity2 = {
      {2, Expressions({{"foo", "In", {"bar"}}})},
      {4, Expressions({{"key", "In", {"value"}}})},
      {5, Expressions({{"foo", "In", {"bar"}}, {"key", "In", {"value"}}, {"az", "In", {"az1"}}})},
  };

  SECTION("all nodes are the same priority when the pod has no node affinity") {
    CHECK(Scores(MakePod("p"),
                 {MakeNode("node1", label1), MakeNode("node2", label2), MakeNode("node3", label3)},
                 {}, false) == V{0, 0, 0});
  }
  SECTION("no node matches the preferred terms") {
    CHECK(Scores(PodPreferring(affinity1),
                 {MakeNode("node1", label4), MakeNode("node2", label2), MakeNode("node3", label3)},
                 {}, true) == V{0, 0, 0});
  }
  SECTION("only node1 matches") {
    CHECK(Scores(PodPreferring(affinity1),
                 {MakeNode("node1", label1), MakeNode("node2", label2), MakeNode("node3", label3)},
                 {}, true) == V{100, 0, 0});
  }
  SECTION("all nodes match with different priorities") {
    CHECK(Scores(PodPreferring(affinity2),
                 {MakeNode("node1", label1), MakeNode("node5", label5), MakeNode("node2", label2)},
                 {}, true) == V{18, 100, 36});
  }
  SECTION("added affinity") {
    CHECK(Scores(MakePod("p"), {MakeNode("node1", label1), MakeNode("node2", label2)},
                 AddedPreferred(affinity1), true) == V{100, 0});
  }
  SECTION("added affinity and the pod's affinity") {
    CHECK(Scores(PodPreferring(affinity1),
                 {MakeNode("node1", label1), MakeNode("node2", label2), MakeNode("node3", label5)},
                 AddedPreferred({{3, Expressions({{"key", "In", {"value"}}})}}), true) ==
          V{40, 60, 100});
  }
  SECTION("priorities are right even if PreScore is not called") {
    CHECK(Scores(PodPreferring(affinity2),
                 {MakeNode("node1", label1), MakeNode("node5", label5), MakeNode("node2", label2)},
                 {}, false) == V{18, 100, 36});
  }
}

TEST_CASE("NodeAffinity PreScore skips pods without preferences and rejects invalid terms",
          "[plugins][node_affinity]") {
  FakeHandle handle;
  auto plugin = BuildPlugin(handle, {});
  CycleState state;
  CHECK(plugin->PreScore(state, MakePod("p"), {}).code() == Code::kSkip);

  const Pod broken = PodPreferring({{2, Expressions({{"invalid key", "In", {"bar"}}})}});
  const Status status = plugin->PreScore(state, broken, {});
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() ==
        R"([0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))");

  // With added preferred terms the plugin scores every pod.
  FakeHandle other_handle;
  auto added = BuildPlugin(other_handle, AddedPreferred({{1, Expressions({{"a", "Exists", {}}})}}));
  CHECK(added->PreScore(state, MakePod("p"), {}).IsSuccess());
}

TEST_CASE("NodeAffinity registers node adds and label updates", "[plugins][node_affinity]") {
  FakeHandle handle;
  auto plugin = BuildPlugin(handle, {});
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == EventResource::kNode);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdateNodeLabel));
  REQUIRE(events[0].hint != nullptr);
  // The registered hint is the plugin's (it sees the added affinity).
  const Pod pod = PodRequiring({Expressions({{"foo", "In", {"bar"}}})});
  const auto node = MakeNode("n", {{"foo", "bar"}});
  auto hint = events[0].hint(pod, EventObjects{nullptr, nullptr, nullptr, node.get()});
  REQUIRE(hint.ok());
  CHECK(*hint == QueueingHint::kQueue);
}

TEST_CASE("NodeAffinity node hint queues nodes that start matching", "[plugins][node_affinity]") {
  const Pod pod = PodRequiring({Expressions({{"foo", "In", {"bar"}}})});
  const auto plain = MakeNode("n");
  auto plain_with_capacity = MakeNode("n");
  plain_with_capacity->status.capacity = ksched::api::ResourceList();
  const auto matching = MakeNode("n", {{"foo", "bar"}});
  const auto unrelated_label = MakeNode("n", {{"k", "v"}});
  const NodeAffinityArgs enforced = AddedRequired({Expressions({{"foo", "In", {"bar"}}})});

  struct Row {
    const char* name;
    NodeAffinityArgs args;
    const Node* old_node;
    const Node* new_node;
    QueueingHint want;
  };
  const std::vector<Row> rows = {
      {"skip a node added without the label", {}, nullptr, plain.get(), QueueingHint::kQueueSkip},
      {"queue a node added with the label", {}, nullptr, matching.get(), QueueingHint::kQueue},
      {"skip unrelated changes", {}, plain.get(), plain_with_capacity.get(),
       QueueingHint::kQueueSkip},
      {"skip unrelated label changes", {}, plain.get(), unrelated_label.get(),
       QueueingHint::kQueueSkip},
      {"skip a node going from suitable to unsuitable", {}, matching.get(), unrelated_label.get(),
       QueueingHint::kQueueSkip},
      {"queue a label change that makes the pod schedulable", {}, plain.get(), matching.get(),
       QueueingHint::kQueue},
      {"skip a change that keeps the node matching", {}, matching.get(), matching.get(),
       QueueingHint::kQueueSkip},
      {"skip a node added that misses the enforced affinity", enforced, nullptr, plain.get(),
       QueueingHint::kQueueSkip},
      {"queue a node added that matches the enforced affinity", enforced, nullptr, matching.get(),
       QueueingHint::kQueue},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    FakeHandle handle;
    auto plugin = BuildPlugin(handle, row.args);
    auto hint = plugin->IsSchedulableAfterNodeChange(
        pod, EventObjects{nullptr, nullptr, row.old_node, row.new_node});
    REQUIRE(hint.ok());
    CHECK(*hint == row.want);
  }

  FakeHandle handle;
  auto plugin = BuildPlugin(handle, {});
  CHECK_FALSE(plugin->IsSchedulableAfterNodeChange(pod, EventObjects{}).ok());
  // A pod whose only required term is invalid reports the parse error (which queues).
  const Pod invalid = PodRequiring({Expressions({{"foo", "In", {"a b"}}})});
  CHECK_FALSE(
      plugin->IsSchedulableAfterNodeChange(invalid, EventObjects{nullptr, nullptr, nullptr, plain.get()})
          .ok());
}

TEST_CASE("NodeAffinityArgs validation reports every invalid added term with its path",
          "[plugins][node_affinity]") {
  CHECK(node_affinity::ValidateNodeAffinityArgs(ksched::api::FieldPath(), {}).ok());

  NodeAffinityArgs args = AddedRequired({Fields({{"metadata.name", "In", {"a", "b"}}})});
  args.added_affinity->preferred = {{1, Expressions({{"invalid key", "In", {"x"}}})},
                                    {0, Expressions({{"also invalid", "In", {"x"}}})}};
  const absl::Status status =
      node_affinity::ValidateNodeAffinityArgs(ksched::api::FieldPath("args"), args);
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(status.message()) ==
        R"([args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["a","b"]: must have one element, args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')])");

  // The factory validates with the empty path.
  FakeHandle handle;
  auto built = node_affinity::New(&args, handle);
  REQUIRE_FALSE(built.ok());
  CHECK(std::string(built.status().message()).rfind(
            "[addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]", 0) ==
        0);
}

TEST_CASE("NodeAffinity factory takes no args as defaults and refuses foreign args",
          "[plugins][node_affinity]") {
  FakeHandle handle;
  auto defaults = node_affinity::New(nullptr, handle);
  REQUIRE(defaults.ok());
  CHECK((*defaults)->Name() == "NodeAffinity");

  struct OtherArgs final : PluginArgs {};
  const OtherArgs other;
  CHECK_FALSE(node_affinity::New(&other, handle).ok());
}

}  // namespace
