// ToProfileConfigs: profiles, merged plugins and args as the runtime takes them.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "config/default_plugins.h"
#include "config/load.h"
#include "config/profile_configs.h"
#include "framework/raw_plugin_args.h"
#include "plugins/in_tree_registry.h"
#include "plugins/node_resources/args.h"

namespace {

using ksched::config::DecodeConfig;
using ksched::config::KubeSchedulerConfiguration;
using ksched::config::ToProfileConfigs;
using ksched::framework::ProfileConfig;
using ksched::framework::RawPluginArgs;

KubeSchedulerConfiguration Decode(const std::string& body) {
  auto config = DecodeConfig(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + body);
  REQUIRE(config.ok());
  return *config;
}

TEST_CASE("profile configs: names, percentages, plugins and args", "[config][profiles]") {
  const KubeSchedulerConfiguration config = Decode(R"(profiles:
- schedulerName: a
  percentageOfNodesToScore: 30
  plugins:
    score:
      enabled:
      - name: Metrics
        weight: 4
  pluginConfig:
  - name: Metrics
    args:
      zeta: 1
      alpha: {b: true, a: "x"}
  - name: NoArgs
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated}
- schedulerName: b
)");
  const std::vector<ProfileConfig> profiles = ToProfileConfigs(config);
  REQUIRE(profiles.size() == 2);
  const ProfileConfig& a = profiles[0];
  CHECK(a.scheduler_name == "a");
  CHECK(a.percentage_of_nodes_to_score == 30);
  CHECK(a.plugins == config.profiles[0].plugins);
  CHECK(a.plugins.score.enabled == std::vector<ksched::framework::PluginRef>{{"Metrics", 4}});
  // Typed args are shared as they are.
  REQUIRE(a.plugin_args.contains("NodeResourcesFit"));
  CHECK(a.plugin_args.at("NodeResourcesFit") == config.profiles[0].plugin_config[2].args);
  const auto* fit = dynamic_cast<const ksched::plugins::node_resources::NodeResourcesFitArgs*>(
      a.plugin_args.at("NodeResourcesFit").get());
  REQUIRE(fit != nullptr);
  CHECK(fit->scoring_strategy.type == "MostAllocated");
  // Args kept as written reach the plugin as JSON with sorted keys.
  const auto* raw = dynamic_cast<const RawPluginArgs*>(a.plugin_args.at("Metrics").get());
  REQUIRE(raw != nullptr);
  CHECK(raw->json == R"({"alpha":{"a":"x","b":true},"zeta":1})");
  // In-tree args kinds still decoded generically also arrive as JSON, defaults filled in.
  const auto* preemption =
      dynamic_cast<const RawPluginArgs*>(a.plugin_args.at("DefaultPreemption").get());
  REQUIRE(preemption != nullptr);
  CHECK(preemption->json == R"({"minCandidateNodesAbsolute":100,"minCandidateNodesPercentage":10})");
  // An entry without args passes none.
  CHECK_FALSE(a.plugin_args.contains("NoArgs"));

  CHECK(profiles[1].scheduler_name == "b");
  CHECK_FALSE(profiles[1].percentage_of_nodes_to_score.has_value());
  CHECK(profiles[1].plugins == ksched::config::DefaultPlugins());
}

TEST_CASE("profile configs: default plugins the registry lacks are left out and named",
          "[config][profiles]") {
  const KubeSchedulerConfiguration config = Decode(R"(profiles:
- schedulerName: a
  plugins:
    score:
      enabled:
      - name: Binpack
- schedulerName: b
)");
  const ksched::framework::Registry registry = ksched::plugins::NewInTreeRegistry();
  std::vector<std::string> want_left_out;
  for (const auto& plugin : ksched::config::DefaultPlugins().multi_point.enabled) {
    if (registry.Find(plugin.name) == nullptr) want_left_out.push_back(plugin.name);
  }
  std::vector<std::string> left_out;
  const std::vector<ProfileConfig> profiles = ToProfileConfigs(config, registry, &left_out);
  // Named once, though both profiles lost them.
  CHECK(left_out == want_left_out);
  for (const ProfileConfig& profile : profiles) {
    for (const auto& plugin : profile.plugins.multi_point.enabled) {
      CHECK(registry.Find(plugin.name) != nullptr);
    }
    for (const std::string& name : want_left_out) CHECK_FALSE(profile.plugin_args.contains(name));
  }
  // A plugin the file names itself stays, for the runtime to reject.
  CHECK(profiles[0].plugins.score.enabled == std::vector<ksched::framework::PluginRef>{{"Binpack", 0}});
}

}  // namespace
