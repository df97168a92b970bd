// The configurations of the two seed articles (/work/shared/seeds/) load unchanged: a v1beta3 file
// enabling an out-of-tree "Binpack" score plugin, and a v1beta1 file replacing every default
// score plugin with four Prometheus-metric plugins ("cputraffic", ...) that take args. The
// article of the second one was scraped in lower case; the keys are restored to their real case
// (apiVersion, schedulerName, pluginConfig ...), the plugin names and args are as printed.
//
// As upstream, naming a plugin that is not compiled in is not a configuration error: the args are
// kept, and the profile fails only when its framework is built ("plugin "cputraffic" does not
// exist"); with the plugin registered, it builds and the plugin receives its args. Binpack is
// compiled in (issue #6), so the first file builds with the in-tree registry.
#include <catch2/catch.hpp>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "config/load.h"
#include "config/profile_configs.h"
#include "config/value.h"
#include "framework/framework.h"
#include "framework/parallelizer.h"
#include "framework/raw_plugin_args.h"
#include "plugins/in_tree_registry.h"

namespace {

using ksched::config::KubeSchedulerConfiguration;
using ksched::config::LoadConfig;
using ksched::config::ToProfileConfigs;
using ksched::config::Value;
namespace framework = ksched::framework;

constexpr const char* kBinpackSeed = R"(apiVersion: kubescheduler.config.k8s.io/v1beta3
kind: KubeSchedulerConfiguration
leaderElection:
  # (Optional) Change true to false if you are not running a HA control-plane.
  leaderElect: false
clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: Binpack
)";

constexpr const char* kTrafficSeed = R"(apiVersion: kubescheduler.config.k8s.io/v1beta1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
profiles:
- schedulerName: custom-scheduler
  plugins:
    score:
      enabled:
      - name: "cputraffic"
        weight: 3
      - name: "memorytraffic"
        weight: 4
      - name: "diskspacetraffic"
        weight: 3
      - name: "networktraffic"
        weight: 2
      disabled:
      - name: "*"
  pluginConfig:
  - name: "networktraffic"
    args:
      ip: "http://172.19.32.140:9090"
      devicename: "eth0"
      timerange: 60
  - name: "cputraffic"
    args:
      ip: "http://172.19.32.140:9090"
      devicename: "eth0"
      timerange: 0
  - name: "memorytraffic"
    args:
      ip: "http://172.19.32.140:9090"
      devicename: "eth0"
      timerange: 0
  - name: "diskspacetraffic"
    args:
      ip: "http://172.19.32.140:9090"
      devicename: "eth0"
      timerange: 0
)";

class NullClusterApi final : public framework::ClusterApi {
 public:
  framework::Status BindPod(const ksched::api::Pod&, const std::string&) override { return {}; }
  framework::Status EvictVictim(const ksched::api::Pod&, const std::string&) override { return {}; }
  framework::Status ClearNominatedNodeName(const ksched::api::Pod&) override { return {}; }
};

class NullRecorder final : public framework::EventRecorder {
 public:
  void Eventf(const ksched::api::Pod&, const ksched::api::Pod*, std::string_view, std::string_view,
              std::string_view, std::string) override {}
};

// A score plugin standing in for an out-of-tree one; remembers the args JSON it was given.
class FakeScorePlugin final : public framework::ScorePlugin {
 public:
  explicit FakeScorePlugin(std::string name) : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState&,
                                                   const ksched::api::Pod&,
                                                   const framework::NodeInfo&) override {
    return {0, framework::Status()};
  }

 private:
  std::string name_;
};

struct Runtime {
  framework::Parallelizer parallelizer{1};
  NullClusterApi cluster_api;
  NullRecorder recorder;

  absl::StatusOr<std::unique_ptr<framework::Framework>> Build(
      const framework::Registry& registry, const framework::ProfileConfig& profile) {
    framework::FrameworkServices services;
    services.parallelizer = &parallelizer;
    services.cluster_api = &cluster_api;
    services.event_recorder = &recorder;
    return framework::Framework::Create(registry, profile, services);
  }
};

void RegisterFake(framework::Registry& registry, const std::string& name,
                  std::vector<std::string>* received_args) {
  const absl::Status status = registry.Register(
      name, [name, received_args](const framework::PluginArgs* args, framework::Handle&)
                -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
        if (const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args)) {
          received_args->push_back(name + " " + raw->json);
        }
        return std::make_unique<FakeScorePlugin>(name);
      });
  REQUIRE(status.ok());
}

TEST_CASE("seeds: the Binpack article's v1beta3 configuration", "[config][seeds]") {
  std::vector<std::string> warnings;
  auto config = LoadConfig(kBinpackSeed, "sched-cc.yaml", &warnings);
  INFO((config.ok() ? "" : std::string(config.status().message())));
  REQUIRE(config.ok());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind("sched-cc.yaml: kubescheduler.config.k8s.io/v1beta3 is no longer", 0) == 0);
  CHECK_FALSE(config->leader_election.leader_elect);
  CHECK(config->client_connection.kubeconfig == "/etc/kubernetes/scheduler.conf");
  REQUIRE(config->profiles.size() == 1);
  const auto& profile = config->profiles[0];
  CHECK(profile.scheduler_name == "default-scheduler");
  CHECK(profile.plugins.score.enabled == std::vector<framework::PluginRef>{{"Binpack", 0}});
  CHECK(profile.plugins.score.disabled.empty());

  // Binpack is compiled in (plugins/binpack/, issue #6): the profile builds with the in-tree
  // registry, Binpack scoring beside the default score plugins. As upstream, `score.enabled`
  // enables the Score point only: Binpack runs without its PreScore (and supports that).
  const framework::Registry in_tree = ksched::plugins::NewInTreeRegistry();
  std::vector<std::string> left_out;
  const std::vector<framework::ProfileConfig> profiles = ToProfileConfigs(*config, in_tree, &left_out);
  Runtime runtime;
  auto built = runtime.Build(in_tree, profiles[0]);
  INFO((built.ok() ? "" : std::string(built.status().message())));
  REQUIRE(built.ok());
  const auto listed = (*built)->ListPlugins();
  const auto has = [&](const char* point) {
    const std::vector<std::string>& names = listed.at(point);
    return std::find(names.begin(), names.end(), "Binpack") != names.end();
  };
  CHECK(has("ScorePlugin"));
  CHECK_FALSE(has("PreScorePlugin"));
}

TEST_CASE("seeds: the Prometheus-metrics article's v1beta1 configuration", "[config][seeds]") {
  std::vector<std::string> warnings;
  auto config = LoadConfig(kTrafficSeed, "scheduler.yaml", &warnings);
  INFO((config.ok() ? "" : std::string(config.status().message())));
  REQUIRE(config.ok());
  CHECK(config->leader_election.leader_elect);  // defaulted, resourceLock "leases"
  CHECK(config->leader_election.resource_lock == "leases");
  REQUIRE(config->profiles.size() == 1);
  const auto& profile = config->profiles[0];
  CHECK(profile.scheduler_name == "custom-scheduler");
  CHECK(profile.plugins.score.enabled ==
        std::vector<framework::PluginRef>{
            {"cputraffic", 3}, {"memorytraffic", 4}, {"diskspacetraffic", 3}, {"networktraffic", 2}});
  CHECK(profile.plugins.score.disabled == std::vector<std::string>{"*"});
  // The metric plugins' args, as written; the in-tree defaults follow.
  REQUIRE(profile.plugin_config.size() >= 4);
  CHECK(profile.plugin_config[0].name == "networktraffic");
  REQUIRE(profile.plugin_config[0].raw.has_value());
  CHECK(profile.plugin_config[0].raw->Find("timerange")->as_int() == 60);
  CHECK(profile.plugin_config[0].raw->Find("ip")->as_string() == "http://172.19.32.140:9090");

  const framework::Registry in_tree = ksched::plugins::NewInTreeRegistry();
  const std::vector<framework::ProfileConfig> profiles = ToProfileConfigs(*config, in_tree, nullptr);
  Runtime runtime;
  // The metric plugins are compiled in (issue #6): the article's profile builds as written.
  auto compiled_in = runtime.Build(in_tree, profiles[0]);
  INFO((compiled_in.ok() ? "" : std::string(compiled_in.status().message())));
  REQUIRE(compiled_in.ok());
  CHECK((*compiled_in)->ListPlugins().at("ScorePlugin") ==
        std::vector<std::string>{"cputraffic", "memorytraffic", "diskspacetraffic", "networktraffic"});

  // What the factories receive: the args as JSON, keys sorted (fakes in place of the real ones).
  framework::Registry with_metrics;
  for (const std::string& name : in_tree.Names()) {
    if (name.find("traffic") == std::string::npos) REQUIRE(with_metrics.Register(name, *in_tree.Find(name)).ok());
  }
  std::vector<std::string> received;
  for (const char* name : {"cputraffic", "memorytraffic", "diskspacetraffic", "networktraffic"}) {
    RegisterFake(with_metrics, name, &received);
  }
  auto built = runtime.Build(with_metrics, profiles[0]);
  INFO((built.ok() ? "" : std::string(built.status().message())));
  REQUIRE(built.ok());
  // Plugins are instantiated in name order.
  CHECK(received ==
        std::vector<std::string>{
            R"(cputraffic {"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":0})",
            R"(diskspacetraffic {"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":0})",
            R"(memorytraffic {"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":0})",
            R"(networktraffic {"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":60})"});
}

}  // namespace
