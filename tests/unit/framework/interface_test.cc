// PreFilterResult::Merge and NodeToStatus (framework/interface.h), as upstream's
// PreFilterResult.Merge (TestPreFilterResultMerge) and NodeToStatus.Get / NodesForStatusCode.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "framework/interface.h"
#include "framework/snapshot.h"
#include "test_objects.h"

namespace {

using ksched::framework::Code;
using ksched::framework::NodeInfo;
using ksched::framework::NodeToStatus;
using ksched::framework::PreFilterResult;
using ksched::framework::Snapshot;
using ksched::framework::Status;
using ksched::framework::testing::MakeNode;

using NameSet = std::set<std::string, std::less<>>;

PreFilterResult All() { return PreFilterResult{}; }
PreFilterResult Only(NameSet names) { return PreFilterResult{std::move(names)}; }

TEST_CASE("PreFilterResult::Merge intersects, with 'all nodes' as identity (TestPreFilterResultMerge)",
          "[framework][interface]") {
  struct Case {
    const char* name;
    PreFilterResult receiver;
    PreFilterResult in;
    std::optional<NameSet> want;
  };
  const Case cases[] = {
      {"all nil", All(), All(), std::nullopt},
      {"nil receiver empty input", All(), Only({}), NameSet{}},
      {"empty receiver nil input", Only({}), All(), NameSet{}},
      {"empty receiver empty input", Only({}), Only({}), NameSet{}},
      {"nil receiver populated input", All(), Only({"node1"}), NameSet{"node1"}},
      {"empty receiver populated input", Only({}), Only({"node1"}), NameSet{}},
      {"populated receiver nil input", Only({"node1"}), All(), NameSet{"node1"}},
      {"populated receiver empty input", Only({"node1"}), Only({}), NameSet{}},
      {"populated receiver and input", Only({"node1", "node2"}), Only({"node2", "node3"}),
       NameSet{"node2"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    PreFilterResult merged = PreFilterResult::Merge(c.receiver, c.in);
    CHECK(merged.node_names == c.want);
    CHECK(merged.AllNodes() == !c.want.has_value());
  }
}

TEST_CASE("NodeToStatus returns the absent status for unlisted nodes", "[framework][interface]") {
  NodeToStatus statuses;
  CHECK(statuses.Get("any").code() == Code::kUnschedulableAndUnresolvable);
  statuses.Set("n1", Status(Code::kUnschedulable, {"Insufficient cpu"}));
  CHECK(statuses.Get("n1").Message() == "Insufficient cpu");
  CHECK(statuses.size() == 1);
  statuses.set_absent_status(Status(Code::kUnschedulable, {"not checked"}));
  CHECK(statuses.Get("n2").Message() == "not checked");
  CHECK(statuses.absent_status().code() == Code::kUnschedulable);
}

std::vector<std::string> Names(const std::vector<const NodeInfo*>& nodes) {
  std::vector<std::string> names;
  for (const NodeInfo* node : nodes) names.push_back(node->name());
  return names;
}

TEST_CASE("NodesWithCode picks the nodes whose status has the code, in the given order",
          "[framework][interface]") {
  auto snapshot = Snapshot::FromObjects(
      {MakeNode("n1"), MakeNode("n2"), MakeNode("n3"), MakeNode("n4")}, {});
  const std::vector<NodeInfo*>& nodes = snapshot->nodes();

  NodeToStatus statuses;  // absent: UnschedulableAndUnresolvable
  statuses.Set("n3", Status(Code::kUnschedulable, {"Insufficient cpu"}));
  statuses.Set("n1", Status(Code::kUnschedulable, {"Insufficient memory"}));
  statuses.Set("n2", Status(Code::kUnschedulableAndUnresolvable, {"node(s) didn't match"}));
  statuses.Set("gone", Status(Code::kUnschedulable));  // not in the node list: ignored
  CHECK(Names(statuses.NodesWithCode(nodes, Code::kUnschedulable)) ==
        std::vector<std::string>{"n1", "n3"});
  CHECK(Names(statuses.NodesWithCode(nodes, Code::kUnschedulableAndUnresolvable)) ==
        std::vector<std::string>{"n2", "n4"});
  CHECK(statuses.NodesWithCode(nodes, Code::kError).empty());

  NodeToStatus all_absent;
  all_absent.set_absent_status(Status(Code::kUnschedulable));
  CHECK(Names(all_absent.NodesWithCode(nodes, Code::kUnschedulable)) ==
        std::vector<std::string>{"n1", "n2", "n3", "n4"});
  CHECK(all_absent.NodesWithCode(nodes, Code::kUnschedulableAndUnresolvable).empty());

  // A listed Success status (e.g. a node that passed) has code Success.
  NodeToStatus with_success;
  with_success.Set("n2", Status());
  CHECK(Names(with_success.NodesWithCode(nodes, Code::kSuccess)) ==
        std::vector<std::string>{"n2"});
}

}  // namespace
