// NodeTree: zone keys, add/remove/update and the round-robin list (upstream node_tree_test.go).
#include "scheduler/node_tree.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

namespace ksched::scheduler {
namespace {

using ZoneMap = std::map<std::string, std::vector<std::string>>;

api::Node MakeNode(std::string name, api::Labels labels = {}) {
  api::Node node;
  node.metadata.name = std::move(name);
  node.metadata.labels = std::move(labels);
  return node;
}

// The key upstream builds for region/zone: region + ":\0:" + zone.
std::string Key(std::string_view region, std::string_view zone) {
  std::string key(region);
  key.append(":\0:", 3);
  key.append(zone);
  return key;
}

// upstream node_tree_test.go allNodes: v1.LabelZoneRegion/LabelZoneFailureDomain are the
// deprecated failure-domain.beta labels.
std::vector<api::Node> AllNodes() {
  const std::string region(kLabelFailureDomainBetaRegion);
  const std::string zone(kLabelFailureDomainBetaZone);
  return {
      MakeNode("node-0"),
      MakeNode("node-1", {{region, "region-1"}}),
      MakeNode("node-2", {{zone, "zone-2"}}),
      MakeNode("node-3", {{region, "region-1"}, {zone, "zone-2"}}),
      MakeNode("node-4", {{region, "region-1"}, {zone, "zone-2"}}),
      MakeNode("node-5", {{region, "region-1"}, {zone, "zone-3"}}),
      MakeNode("node-6", {{region, "region-2"}, {zone, "zone-2"}}),
      MakeNode("node-7", {{region, "region-2"}, {zone, "zone-2"}}),
      MakeNode("node-8", {{region, "region-2"}, {zone, "zone-2"}}),
      MakeNode("node-9", {{std::string(kLabelTopologyRegion), "region-2"},
                          {std::string(kLabelTopologyZone), "zone-2"},
                          {region, "region-2"},
                          {zone, "zone-2"}}),
      MakeNode("node-10", {{region, "region-2"}, {zone, "zone-3"}}),
  };
}

std::vector<api::Node> Slice(const std::vector<api::Node>& nodes, std::size_t begin,
                             std::size_t end) {
  return {nodes.begin() + static_cast<std::ptrdiff_t>(begin),
          nodes.begin() + static_cast<std::ptrdiff_t>(end)};
}

NodeTree TreeOf(const std::vector<api::Node>& nodes) {
  NodeTree tree;
  for (const api::Node& node : nodes) tree.AddNode(node);
  return tree;
}

void VerifyTree(const NodeTree& tree, const ZoneMap& expected) {
  std::size_t expected_nodes = 0;
  for (const auto& [zone, names] : expected) expected_nodes += names.size();
  CHECK(tree.num_nodes() == expected_nodes);
  ZoneMap actual;
  for (const std::string& zone : tree.Zones()) actual[zone] = tree.NodesInZone(zone);
  CHECK(actual == expected);
  CHECK(tree.Zones().size() == expected.size());
}

TEST_CASE("ZoneKey reads region and zone, deprecated beta labels first", "[node_tree]") {
  const std::string beta_region(kLabelFailureDomainBetaRegion);
  const std::string beta_zone(kLabelFailureDomainBetaZone);
  const std::string region(kLabelTopologyRegion);
  const std::string zone(kLabelTopologyZone);
  struct Case {
    const char* name;
    api::Labels labels;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"no labels", {}, ""},
      {"unrelated labels", {{"foo", "bar"}}, ""},
      {"stable labels", {{region, "r"}, {zone, "z"}}, Key("r", "z")},
      {"beta labels", {{beta_region, "r"}, {beta_zone, "z"}}, Key("r", "z")},
      {"beta wins over stable",
       {{beta_region, "br"}, {region, "r"}, {beta_zone, "bz"}, {zone, "z"}},
       Key("br", "bz")},
      {"empty beta value still wins (present key)", {{beta_zone, ""}, {zone, "z"}, {region, "r"}},
       Key("r", "")},
      {"zone only", {{zone, "z"}}, Key("", "z")},
      {"region only", {{region, "r"}}, Key("r", "")},
      {"empty values", {{region, ""}, {zone, ""}}, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(ZoneKey(MakeNode("n", c.labels)) == c.want);
  }
}

TEST_CASE("NodeTree AddNode groups nodes by zone", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  struct Case {
    const char* name;
    std::vector<api::Node> nodes;
    ZoneMap expected;
  };
  const std::vector<Case> cases = {
      {"single node no labels", Slice(all, 0, 1), {{"", {"node-0"}}}},
      {"mix of nodes with and without proper labels",
       Slice(all, 0, 4),
       {{"", {"node-0"}},
        {Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3"}}}},
      {"mix of nodes with and without proper labels and some zones with multiple nodes",
       Slice(all, 0, 7),
       {{"", {"node-0"}},
        {Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"nodes also using deprecated zone/region label",
       Slice(all, 9, 11),
       {{Key("region-2", "zone-2"), {"node-9"}}, {Key("region-2", "zone-3"), {"node-10"}}}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    VerifyTree(TreeOf(c.nodes), c.expected);
  }
}

TEST_CASE("NodeTree AddNode ignores a node already in its zone", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  NodeTree tree;
  CHECK(tree.AddNode(all[3]));
  CHECK_FALSE(tree.AddNode(all[3]));
  VerifyTree(tree, {{Key("region-1", "zone-2"), {"node-3"}}});
}

TEST_CASE("NodeTree RemoveNode", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  struct Case {
    const char* name;
    std::vector<api::Node> existing;
    std::vector<api::Node> to_remove;
    ZoneMap expected;
    bool expect_error;
  };
  const std::vector<Case> cases = {
      {"remove a single node with no labels",
       Slice(all, 0, 7),
       Slice(all, 0, 1),
       {{Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}},
       false},
      {"remove a few nodes including one from a zone with multiple nodes",
       Slice(all, 0, 7),
       Slice(all, 1, 4),
       {{"", {"node-0"}},
        {Key("region-1", "zone-2"), {"node-4"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}},
       false},
      {"remove all nodes", Slice(all, 0, 7), Slice(all, 0, 7), {}, false},
      {"remove non-existing node", {}, Slice(all, 0, 5), {}, true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodeTree tree = TreeOf(c.existing);
    for (const api::Node& node : c.to_remove) {
      const absl::Status status = tree.RemoveNode(node);
      CHECK(status.ok() != c.expect_error);
      if (!status.ok()) CHECK(absl::IsNotFound(status));
    }
    VerifyTree(tree, c.expected);
  }
}

TEST_CASE("NodeTree RemoveNode error names the node and the group", "[node_tree]") {
  NodeTree tree;
  const absl::Status status = tree.RemoveNode(AllNodes()[3]);
  CHECK(std::string(status.message()) ==
        "node \"node-3\" in group \"region-1:\\x00:zone-2\" was not found");
}

TEST_CASE("NodeTree UpdateNode moves a node whose zone changed", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  const api::Labels region1_zone2 = {{std::string(kLabelFailureDomainBetaRegion), "region-1"},
                                     {std::string(kLabelFailureDomainBetaZone), "zone-2"}};
  struct Case {
    const char* name;
    std::vector<api::Node> existing;
    api::Node update;
    ZoneMap expected;
  };
  const std::vector<Case> cases = {
      {"update a node without label",
       Slice(all, 0, 7),
       MakeNode("node-0", region1_zone2),
       {{Key("region-1", ""), {"node-1"}},
        {Key("", "zone-2"), {"node-2"}},
        {Key("region-1", "zone-2"), {"node-3", "node-4", "node-0"}},
        {Key("region-1", "zone-3"), {"node-5"}},
        {Key("region-2", "zone-2"), {"node-6"}}}},
      {"update the only existing node",
       Slice(all, 0, 1),
       MakeNode("node-0", region1_zone2),
       {{Key("region-1", "zone-2"), {"node-0"}}}},
      {"update non-existing node",
       Slice(all, 0, 1),
       MakeNode("node-new", region1_zone2),
       {{"", {"node-0"}}, {Key("region-1", "zone-2"), {"node-new"}}}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodeTree tree = TreeOf(c.existing);
    api::Node old_node = MakeNode("nonexisting-node");
    for (const api::Node& node : all) {
      if (node.metadata.name == c.update.metadata.name) old_node = node;
    }
    CHECK(tree.UpdateNode(&old_node, c.update));
    VerifyTree(tree, c.expected);
  }
}

TEST_CASE("NodeTree UpdateNode without a zone change changes nothing", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  NodeTree tree = TreeOf(Slice(all, 3, 6));
  api::Node relabeled = all[4];
  relabeled.metadata.labels.Set("unrelated", "x");
  CHECK_FALSE(tree.UpdateNode(&all[4], relabeled));
  CHECK(tree.List() == std::vector<std::string>{"node-3", "node-5", "node-4"});
  // A null old node reads as zone "": a node without zone labels stays put.
  NodeTree unlabeled = TreeOf(Slice(all, 0, 1));
  CHECK_FALSE(unlabeled.UpdateNode(nullptr, all[0]));
  CHECK(unlabeled.num_nodes() == 1);
}

TEST_CASE("NodeTree List interleaves zones round-robin", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  struct Case {
    const char* name;
    std::vector<api::Node> nodes;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"empty tree", {}, {}},
      {"one node", Slice(all, 0, 1), {"node-0"}},
      {"four nodes", Slice(all, 0, 4), {"node-0", "node-1", "node-2", "node-3"}},
      {"all nodes",
       Slice(all, 0, 9),
       {"node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4", "node-7", "node-8"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(TreeOf(c.nodes).List() == c.expected);
  }
}

TEST_CASE("NodeTree multiple operations", "[node_tree]") {
  const std::vector<api::Node> all = AllNodes();
  auto concat = [](std::vector<api::Node> a, const std::vector<api::Node>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  struct Case {
    const char* name;
    std::vector<api::Node> to_add;
    std::vector<api::Node> to_remove;
    std::string operations;  // 'a' add the next node, 'r' remove the next node
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"add and remove all nodes", Slice(all, 2, 9), Slice(all, 2, 9), "aaarrr", {}},
      {"add and remove some nodes",
       Slice(all, 2, 9),
       Slice(all, 2, 9),
       "aaar",
       {"node-3", "node-4"}},
      {"remove three nodes", Slice(all, 2, 9), Slice(all, 2, 9), "aaarrra", {"node-5"}},
      {"add more nodes to an exhausted zone",
       concat(Slice(all, 4, 9), Slice(all, 3, 4)),
       {},
       "aaaaaa",
       {"node-4", "node-5", "node-6", "node-3", "node-7", "node-8"}},
      {"remove zone and add new",
       concat(Slice(all, 3, 5), Slice(all, 6, 8)),
       Slice(all, 3, 5),
       "aaraar",
       {"node-6", "node-7"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodeTree tree;
    std::size_t added = 0;
    std::size_t removed = 0;
    for (char op : c.operations) {
      if (op == 'a') {
        REQUIRE(added < c.to_add.size());
        tree.AddNode(c.to_add[added++]);
      } else {
        REQUIRE(removed < c.to_remove.size());
        (void)tree.RemoveNode(c.to_remove[removed++]);
      }
    }
    CHECK(tree.List() == c.expected);
    CHECK(tree.num_nodes() == c.expected.size());
  }
}

}  // namespace
}  // namespace ksched::scheduler
