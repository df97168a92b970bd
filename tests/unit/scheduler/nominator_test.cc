// Nominator (upstream backend/queue nominator and TestPriorityQueue_UpdateNominatedPodForNode /
// TestPriorityQueue_NominatedPodDeleted, v1.34).
#include "scheduler/nominator.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "queue_test_support.h"

namespace ksched::scheduler {
namespace {

using framework::NominatingInfo;
using framework::NominatingMode;
using testing::PodBuilder;

std::vector<std::string> Names(const std::vector<framework::PodInfoPtr>& pods) {
  std::vector<std::string> names;
  for (const framework::PodInfoPtr& pod : pods) names.push_back(pod->pod().metadata.name);
  return names;
}

TEST_CASE("Nominator: Noop takes status.nominatedNodeName, Override the given node",
          "[nominator]") {
  Nominator nominator;
  nominator.AddNominatedPod(PodBuilder("a").NominatedNode("node1").Info(), nullptr);
  nominator.AddNominatedPod(PodBuilder("b").Info(), nullptr);  // no node: not nominated
  const NominatingInfo override_node2{"node2", NominatingMode::kOverride};
  nominator.AddNominatedPod(PodBuilder("c").NominatedNode("node1").Info(), &override_node2);
  const NominatingInfo noop{"ignored", NominatingMode::kNoop};
  nominator.AddNominatedPod(PodBuilder("d").NominatedNode("node1").Info(), &noop);

  CHECK(Names(nominator.NominatedPodsForNode("node1")) == std::vector<std::string>{"a", "d"});
  CHECK(Names(nominator.NominatedPodsForNode("node2")) == std::vector<std::string>{"c"});
  CHECK(nominator.NominatedPodsForNode("ignored").empty());
  CHECK_FALSE(nominator.NominatedNodeOf("ns1-b-uid").has_value());
  CHECK(nominator.NodeCount() == 2);
}

TEST_CASE("Nominator: a pod is nominated to one node at a time", "[nominator]") {
  Nominator nominator;
  const framework::PodInfoPtr pod = PodBuilder("a").Info();
  const NominatingInfo node1{"node1", NominatingMode::kOverride};
  const NominatingInfo node2{"node2", NominatingMode::kOverride};
  nominator.AddNominatedPod(pod, &node1);
  nominator.AddNominatedPod(pod, &node1);
  CHECK(nominator.NominatedPodsForNode("node1").size() == 1);
  nominator.AddNominatedPod(pod, &node2);
  CHECK(nominator.NominatedPodsForNode("node1").empty());
  CHECK(nominator.NominatedNodeOf("ns1-a-uid") == "node2");
  // An empty Override clears the nomination.
  const NominatingInfo clear{"", NominatingMode::kOverride};
  nominator.AddNominatedPod(pod, &clear);
  CHECK(nominator.NodeCount() == 0);
  CHECK_FALSE(nominator.NominatedNodeOf("ns1-a-uid").has_value());
}

TEST_CASE("Nominator: an update keeps an in-memory nomination unless the field changes",
          "[nominator]") {
  struct Case {
    const char* name;
    PodBuilder old_pod;
    PodBuilder new_pod;
    std::map<std::string, std::vector<std::string>> want;  // node -> pods
  };
  const std::vector<Case> cases = {
      {"neither version carries the field: the in-memory node stays", PodBuilder("a"),
       PodBuilder("a").Label("v", "2"), {{"mem", {"a"}}}},
      {"the field is set: it wins", PodBuilder("a"), PodBuilder("a").NominatedNode("node9"),
       {{"node9", {"a"}}}},
      {"the field is removed: the nomination goes", PodBuilder("a").NominatedNode("mem"),
       PodBuilder("a"), {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Nominator nominator;
    const NominatingInfo in_memory{"mem", NominatingMode::kOverride};
    nominator.AddNominatedPod(c.old_pod.Info(), &in_memory);
    nominator.UpdateNominatedPod(c.old_pod.Obj(), c.new_pod.Info());
    std::map<std::string, std::vector<std::string>> got;
    for (const char* node : {"mem", "node9"}) {
      if (auto pods = Names(nominator.NominatedPodsForNode(node)); !pods.empty()) got[node] = pods;
    }
    CHECK(got == c.want);
  }
  // The stored PodInfo is the new version.
  Nominator nominator;
  nominator.AddNominatedPod(PodBuilder("a").NominatedNode("n").Info(), nullptr);
  nominator.UpdateNominatedPod(PodBuilder("a").NominatedNode("n").Obj(),
                               PodBuilder("a").NominatedNode("n").Label("v", "2").Info());
  REQUIRE(nominator.NominatedPodsForNode("n").size() == 1);
  CHECK(nominator.NominatedPodsForNode("n")[0]->pod().metadata.labels.Get("v") == "2");
}

TEST_CASE("Nominator: Delete removes by UID", "[nominator]") {
  Nominator nominator;
  nominator.AddNominatedPod(PodBuilder("a").NominatedNode("node1").Info(), nullptr);
  nominator.AddNominatedPod(PodBuilder("b").NominatedNode("node1").Info(), nullptr);
  nominator.DeleteNominatedPodIfExists(PodBuilder("a").Obj());
  nominator.DeleteNominatedPodIfExists(PodBuilder("unknown").Obj());
  CHECK(Names(nominator.NominatedPodsForNode("node1")) == std::vector<std::string>{"b"});
  nominator.DeleteNominatedPodIfExists(PodBuilder("b").Obj());
  CHECK(nominator.NodeCount() == 0);
}

TEST_CASE("Nominator: with a pod lister, gone or bound pods are not nominated", "[nominator]") {
  std::map<std::string, std::shared_ptr<const api::Pod>> informer;
  informer["ns1/alive"] = std::make_shared<const api::Pod>(PodBuilder("alive").Obj());
  informer["ns1/bound"] = std::make_shared<const api::Pod>(PodBuilder("bound").Node("n1").Obj());
  Nominator nominator([&informer](std::string_view ns, std::string_view name) {
    auto it = informer.find(fmt::format("{}/{}", ns, name));
    return it == informer.end() ? nullptr : it->second;
  });
  for (const char* name : {"alive", "bound", "gone"}) {
    nominator.AddNominatedPod(PodBuilder(name).NominatedNode("node1").Info(), nullptr);
  }
  CHECK(Names(nominator.NominatedPodsForNode("node1")) == std::vector<std::string>{"alive"});
}

}  // namespace
}  // namespace ksched::scheduler
