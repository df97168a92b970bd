// Snapshot (framework/snapshot.h): FromObjects as upstream's cache.NewSnapshot (pods by
// spec.nodeName, image states with the number of nodes having each image), and the cache-side
// maintenance calls.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "framework/snapshot.h"
#include "test_objects.h"

namespace {

using ksched::framework::NodeInfo;
using ksched::framework::PodInfoPtr;
using ksched::framework::Snapshot;
using ksched::framework::testing::MakeNode;
using ksched::framework::testing::MakePod;
using ksched::framework::testing::NodeFromJson;
using ksched::framework::testing::PodInfoFromJson;

std::vector<std::string> Names(const std::vector<NodeInfo*>& nodes) {
  std::vector<std::string> names;
  for (const NodeInfo* node : nodes) names.push_back(node->name());
  return names;
}

PodInfoPtr AntiAffinityPod(const std::string& name, const std::string& node) {
  return PodInfoFromJson(R"({"metadata": {"name": ")" + name + R"(", "uid": ")" + name +
                         R"("}, "spec": {"nodeName": ")" + node + R"(", "affinity": {
      "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {}, "topologyKey": "zone"}]}}}})");
}

PodInfoPtr PreferredAffinityPod(const std::string& name, const std::string& node) {
  return PodInfoFromJson(R"({"metadata": {"name": ")" + name + R"(", "uid": ")" + name +
                         R"("}, "spec": {"nodeName": ")" + node + R"(", "affinity": {
      "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}}]}}}})");
}

TEST_CASE("FromObjects keeps the nodes' order and places pods by nodeName",
          "[framework][snapshot]") {
  auto snapshot = Snapshot::FromObjects(
      {MakeNode("c", R"("cpu": "1")"), MakeNode("a", R"("cpu": "2")"), MakeNode("b")},
      {MakePod("p1", "a", R"("cpu": "100m")"), MakePod("p2", "a", R"("cpu": "200m")"),
       MakePod("p3", "c"), MakePod("pending", ""), MakePod("lost", "no-such-node")});
  CHECK(Names(snapshot->nodes()) == std::vector<std::string>{"c", "a", "b"});
  CHECK(snapshot->size() == 3);
  CHECK(snapshot->generation() == 0);
  const NodeInfo* a = snapshot->Get("a");
  REQUIRE(a != nullptr);
  CHECK(a->pods().size() == 2);
  CHECK(a->requested().milli_cpu == 300);
  CHECK(a->allocatable().milli_cpu == 2000);
  CHECK(snapshot->Get("c")->pods().size() == 1);
  CHECK(snapshot->Get("b")->pods().empty());
  CHECK(snapshot->Get("no-such-node") == nullptr);
  CHECK(snapshot->Get("") == nullptr);
  CHECK(snapshot->have_pods_with_affinity().empty());
  CHECK(snapshot->have_pods_with_required_anti_affinity().empty());
}

TEST_CASE("FromObjects lists the nodes holding pods with (anti-)affinity", "[framework][snapshot]") {
  auto snapshot = Snapshot::FromObjects(
      {MakeNode("n1"), MakeNode("n2"), MakeNode("n3")},
      {AntiAffinityPod("anti", "n3"), PreferredAffinityPod("aff", "n2"), MakePod("x", "n1")});
  CHECK(Names(snapshot->have_pods_with_affinity()) == std::vector<std::string>{"n2", "n3"});
  CHECK(Names(snapshot->have_pods_with_required_anti_affinity()) ==
        std::vector<std::string>{"n3"});
}

TEST_CASE("FromObjects fills image states with how many nodes have each image",
          "[framework][snapshot]") {
  auto with_images = [](const std::string& name, const std::string& images) {
    return NodeFromJson(R"({"metadata": {"name": ")" + name + R"("}, "status": {"images": [)" +
                        images + "]}}");
  };
  auto snapshot = Snapshot::FromObjects(
      {with_images("n1", R"({"names": ["gcr.io/10:v1", "gcr.io/10@sha256:aa"], "sizeBytes": 10},
                            {"names": ["gcr.io/200:v1"], "sizeBytes": 200})"),
       with_images("n2", R"({"names": ["gcr.io/10:v1"], "sizeBytes": 10})"), MakeNode("n3")},
      {});
  const auto& n1 = snapshot->Get("n1")->image_states();
  REQUIRE(n1.size() == 3);
  CHECK(n1.at("gcr.io/10:v1").size_bytes == 10);
  CHECK(n1.at("gcr.io/10:v1").num_nodes == 2);
  CHECK(n1.at("gcr.io/10@sha256:aa").num_nodes == 1);
  CHECK(n1.at("gcr.io/200:v1").num_nodes == 1);
  CHECK(n1.at("gcr.io/200:v1").size_bytes == 200);
  CHECK(snapshot->Get("n2")->image_states().at("gcr.io/10:v1").num_nodes == 2);
  CHECK(snapshot->Get("n3")->image_states().empty());
}

TEST_CASE("cache-side maintenance: GetOrCreate, Erase, RebuildLists", "[framework][snapshot]") {
  Snapshot snapshot;
  CHECK(snapshot.stored() == 0);
  NodeInfo* x = snapshot.GetOrCreate("x");
  x->SetNode(MakeNode("x"));
  CHECK(snapshot.GetOrCreate("x") == x);  // the same NodeInfo, not a new one
  NodeInfo* y = snapshot.GetOrCreate("y");
  y->SetNode(MakeNode("y"));
  snapshot.GetOrCreate("pods-only");  // a NodeInfo with no node yet
  CHECK(snapshot.stored() == 3);
  CHECK(snapshot.nodes().empty());  // lists are built only on request

  snapshot.RebuildLists({"y", "unknown", "pods-only", "x"});
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"y", "x"});
  CHECK(snapshot.GetMutable("x") == x);
  CHECK(snapshot.GetMutable("nope") == nullptr);

  y->AddPod(AntiAffinityPod("anti", "y"));
  CHECK(snapshot.have_pods_with_required_anti_affinity().empty());
  snapshot.RebuildAffinityLists();
  CHECK(Names(snapshot.have_pods_with_required_anti_affinity()) ==
        std::vector<std::string>{"y"});
  CHECK(Names(snapshot.have_pods_with_affinity()) == std::vector<std::string>{"y"});

  snapshot.Erase("y");
  snapshot.RebuildLists({"y", "x"});
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"x"});
  CHECK(snapshot.have_pods_with_affinity().empty());
  std::vector<std::string> stored = snapshot.StoredNames();
  std::sort(stored.begin(), stored.end());
  CHECK(stored == std::vector<std::string>{"pods-only", "x"});

  snapshot.set_generation(42);
  CHECK(snapshot.generation() == 42);
}

}  // namespace
