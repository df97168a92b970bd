// SchedulerApp against the real kube-apiserver: two profiles in one process, picked by
// spec.schedulerName. "default-scheduler" (upstream's defaults, LeastAllocated) spreads its pods;
// "packer" (NodeResourcesFit with MostAllocated, BalancedAllocation disabled) fills one node
// before the next. A pod naming neither profile is left alone. Each profile gets its own node set
// (nodeSelector), so the placements are deterministic whatever the tie-breaks.
#include "scheduler/scheduler_app.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "api/json_decode.h"
#include "client/resource_path.h"
#include "config/default_plugins.h"
#include "controlplane_env.h"
#include "plugins/in_tree_registry.h"
#include "plugins/node_resources/args.h"

using ksched::client::ResourcePath;
using ksched::testing::AdminRestClient;
using ksched::testing::ControlPlane;

namespace {

constexpr int kNodesPerSet = 4;
constexpr int kPodsPerProfile = 8;

std::string NodeJson(const std::string& name, const std::string& set) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name + R"(","app-test-set":")" + set +
         R"("}},"status":{"capacity":{"cpu":"4","memory":"32Gi","pods":"110"},)"
         R"("allocatable":{"cpu":"4","memory":"32Gi","pods":"110"},)"
         R"("conditions":[{"type":"Ready","status":"True"}]}})";
}

std::string PodJson(const std::string& name, const std::string& scheduler, const std::string& set) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"app-test":"yes"}},"spec":{"schedulerName":")" +
         scheduler + R"(","terminationGracePeriodSeconds":0,"nodeSelector":{"app-test-set":")" + set +
         R"("},"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10",)"
         R"("resources":{"requests":{"cpu":"500m","memory":"500Mi"}}}]}})";
}

// Node name of every pod labelled app-test=yes, by pod name ("" when unbound).
std::map<std::string, std::string> Placements(ksched::client::RestClient& client) {
  ksched::client::ListOptions options;
  options.label_selector = "app-test=yes";
  auto listed = client.List(ResourcePath().Namespace("default").Resource("pods").String(), options);
  REQUIRE(listed.ok());
  auto pods = ksched::api::DecodeList<ksched::api::Pod>(std::string_view(*listed));
  REQUIRE(pods.ok());
  std::map<std::string, std::string> out;
  for (const auto& pod : pods->items) out[pod.metadata.name] = pod.spec.node_name;
  return out;
}

}  // namespace

TEST_CASE("two profiles in one process, picked by schedulerName", "[scheduler-app]") {
  auto admin = AdminRestClient();
  const std::string nodes = ResourcePath().Resource("nodes").String();
  for (const std::string set : {"spread", "pack"}) {
    for (int i = 0; i < kNodesPerSet; ++i) {
      auto created = admin->Create(nodes, NodeJson(set + "-node-" + std::to_string(i), set));
      INFO(created.status().ToString());
      REQUIRE(created.ok());
    }
  }

  const ksched::framework::Registry registry = ksched::plugins::NewInTreeRegistry();
  ksched::scheduler::SchedulerAppOptions options;
  options.rest_config = ControlPlane::Get().AdminCertConfig();
  options.hostname = "app-test";
  options.seed = 7;
  options.profiles.push_back(ksched::config::DefaultProfile("default-scheduler", registry));
  ksched::framework::PluginsConfig packer_plugins;
  packer_plugins.multi_point.disabled = {"NodeResourcesBalancedAllocation"};
  ksched::framework::ProfileConfig packer =
      ksched::config::DefaultProfile("packer", registry, packer_plugins);
  auto most_allocated = std::make_shared<ksched::plugins::node_resources::NodeResourcesFitArgs>();
  most_allocated->scoring_strategy.type = std::string(ksched::plugins::node_resources::kMostAllocated);
  packer.plugin_args["NodeResourcesFit"] = most_allocated;
  options.profiles.push_back(std::move(packer));

  auto app = ksched::scheduler::SchedulerApp::Create(std::move(options), registry);
  INFO(app.status().ToString());
  REQUIRE(app.ok());
  REQUIRE((*app)->Start(std::chrono::seconds(60)).ok());

  const std::string pods = ResourcePath().Namespace("default").Resource("pods").String();
  for (int i = 0; i < kPodsPerProfile; ++i) {
    REQUIRE(admin->Create(pods, PodJson("spread-" + std::to_string(i), "default-scheduler", "spread")).ok());
    REQUIRE(admin->Create(pods, PodJson("pack-" + std::to_string(i), "packer", "pack")).ok());
  }
  REQUIRE(admin->Create(pods, PodJson("stranger", "someone-else", "spread")).ok());

  std::map<std::string, std::string> placed;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    placed = Placements(*admin);
    int bound = 0;
    for (const auto& [name, node] : placed) bound += node.empty() ? 0 : 1;
    if (bound == 2 * kPodsPerProfile) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the stranger must still be unbound
  placed = Placements(*admin);

  std::map<std::string, int> per_node;
  for (int i = 0; i < kPodsPerProfile; ++i) {
    const std::string spread_node = placed["spread-" + std::to_string(i)];
    const std::string pack_node = placed["pack-" + std::to_string(i)];
    INFO("spread-" << i << " on '" << spread_node << "', pack-" << i << " on '" << pack_node << "'");
    CHECK(spread_node.rfind("spread-node-", 0) == 0);
    CHECK(pack_node.rfind("pack-node-", 0) == 0);
    ++per_node[spread_node];
    ++per_node[pack_node];
  }
  // LeastAllocated: 8 pods over 4 equal nodes land 2 per node.
  for (int i = 0; i < kNodesPerSet; ++i) CHECK(per_node["spread-node-" + std::to_string(i)] == 2);
  // MostAllocated: 8 pods of 500m fill one 4-cpu node exactly.
  int packed_nodes = 0;
  for (int i = 0; i < kNodesPerSet; ++i) packed_nodes += per_node["pack-node-" + std::to_string(i)] > 0 ? 1 : 0;
  CHECK(packed_nodes == 1);
  CHECK(placed["stranger"].empty());

  (*app)->Stop();
  const auto& stats = (*app)->scheduler().stats();
  CHECK(stats.scheduled.load() == 2 * kPodsPerProfile);
  CHECK(stats.errors.load() == 0);

  for (const std::string set : {"spread", "pack"}) {
    for (int i = 0; i < kNodesPerSet; ++i) {
      (void)admin->Delete(ResourcePath().Resource("nodes").Name(set + "-node-" + std::to_string(i)).String());
    }
  }
  for (const auto& [name, node] : placed) {
    (void)admin->Delete(ResourcePath().Namespace("default").Resource("pods").Name(name).String());
  }
}
