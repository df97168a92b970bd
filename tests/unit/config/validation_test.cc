// ValidateConfig: upstream's TestValidateKubeSchedulerConfigurationV1 scenarios, with the full
// messages upstream renders for them.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "config/load.h"
#include "config/validation.h"
#include "config/value.h"

namespace {

using ksched::config::DecodeConfig;
using ksched::config::Extender;
using ksched::config::ExtenderManagedResource;
using ksched::config::KubeSchedulerConfiguration;
using ksched::config::PluginConfig;
using ksched::config::ValidateConfig;
using ksched::config::ValidationErrors;
using ksched::config::Value;
using ksched::framework::PluginRef;

// upstream's validConfig, decoded (so defaults and the merge are applied as in a real load).
KubeSchedulerConfiguration ValidConfig() {
  auto config = DecodeConfig(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 8
clientConnection:
  acceptContentTypes: application/json
  contentType: application/json
  qps: 10
  burst: 10
leaderElection:
  resourceLock: leases
  leaderElect: true
  leaseDuration: 30s
  renewDeadline: 15s
  retryPeriod: 5s
  resourceNamespace: name
  resourceName: name
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 1
profiles:
- schedulerName: me
  percentageOfNodesToScore: 35
  plugins:
    queueSort:
      enabled:
      - name: CustomSort
    score:
      disabled:
      - name: "*"
  pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 10
      minCandidateNodesAbsolute: 100
- schedulerName: other
  percentageOfNodesToScore: 35
  plugins:
    queueSort:
      enabled:
      - name: CustomSort
    bind:
      enabled:
      - name: CustomBind
extenders:
- prioritizeVerb: prioritize
  weight: 1
)");
  REQUIRE(config.ok());
  return *config;
}

std::vector<std::string> Errors(const KubeSchedulerConfiguration& config) {
  return ValidationErrors(config);
}

using Strings = std::vector<std::string>;

TEST_CASE("validation: upstream's scenarios", "[config][validation]") {
  KubeSchedulerConfiguration config = ValidConfig();

  SECTION("good") {
    CHECK(Errors(config).empty());
    CHECK(ValidateConfig(config).ok());
  }
  SECTION("bad-parallelism-invalid-value") {
    config.parallelism = 0;
    CHECK(Errors(config) ==
          Strings{"parallelism: Invalid value: 0: should be an integer value greater than zero"});
  }
  SECTION("bad-resource-name-not-set") {
    config.leader_election.resource_name.clear();
    CHECK(Errors(config) == Strings{"leaderElection.resourceName: Required value"});
  }
  SECTION("bad-resource-namespace-not-set") {
    config.leader_election.resource_namespace.clear();
    CHECK(Errors(config) == Strings{"leaderElection.resourceNamespace: Required value"});
  }
  SECTION("bad-resource-lock-not-leases") {
    config.leader_election.resource_lock = "configmap";
    CHECK(Errors(config) == Strings{"leaderElection.resourceLock: Invalid value: \"configmap\": "
                                    "resourceLock value must be \"leases\""});
  }
  SECTION("leader election off: its fields are not checked") {
    config.leader_election.leader_elect = false;
    config.leader_election.resource_lock = "configmap";
    config.leader_election.lease_duration = std::chrono::seconds(-1);
    CHECK(Errors(config).empty());
  }
  SECTION("enable contention profiling without profiling is fine") {
    config.enable_profiling = false;
    config.enable_contention_profiling = true;
    CHECK(Errors(config).empty());
  }
  SECTION("bad-percentage-of-nodes-to-score") {
    config.percentage_of_nodes_to_score = 101;
    CHECK(Errors(config) ==
          Strings{"percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"});
  }
  SECTION("negative-percentage-of-nodes-to-score") {
    config.percentage_of_nodes_to_score = -1;
    CHECK(Errors(config) ==
          Strings{"percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"});
  }
  SECTION("scheduler-name-not-set") {
    config.profiles[1].scheduler_name.clear();
    CHECK(Errors(config) == Strings{"profiles[1].schedulerName: Required value"});
  }
  SECTION("repeated-scheduler-name") {
    config.profiles[0].scheduler_name = "other";
    CHECK(Errors(config) == Strings{"profiles[1].schedulerName: Duplicate value: {}"});
  }
  SECTION("greater-than-100-profile-percentage-of-nodes-to-score") {
    config.profiles[1].percentage_of_nodes_to_score = 101;
    CHECK(Errors(config) == Strings{"profiles[1].percentageOfNodesToScore: Invalid value: 101: "
                                    "not in valid range [0-100]"});
  }
  SECTION("negative-profile-percentage-of-nodes-to-score") {
    config.profiles[1].percentage_of_nodes_to_score = -1;
    CHECK(Errors(config) == Strings{"profiles[1].percentageOfNodesToScore: Invalid value: -1: "
                                    "not in valid range [0-100]"});
  }
  SECTION("different-queue-sort") {
    config.profiles[1].plugins.queue_sort.enabled[0].name = "AnotherSort";
    CHECK(Errors(config) ==
          Strings{"profiles[1].plugins.queueSort: Invalid value: "
                  "{\"Enabled\":[{\"Name\":\"AnotherSort\",\"Weight\":0}],\"Disabled\":null}: "
                  "must be the same for all profiles"});
  }
  SECTION("one-empty-queue-sort") {
    config.profiles[0].plugins.queue_sort = {};
    CHECK(Errors(config) ==
          Strings{"profiles[1].plugins.queueSort: Invalid value: "
                  "{\"Enabled\":[{\"Name\":\"CustomSort\",\"Weight\":0}],\"Disabled\":null}: "
                  "must be the same for all profiles"});
  }
  SECTION("extender-negative-weight") {
    config.extenders[0].weight = -1;
    CHECK(Errors(config) == Strings{"extenders[0].weight: Invalid value: -1: must have a positive "
                                    "weight applied to it"});
  }
  SECTION("extender-duplicate-managed-resources") {
    config.extenders[0].managed_resources = {ExtenderManagedResource{"example.com/foo", false},
                                             ExtenderManagedResource{"example.com/foo", false}};
    CHECK(Errors(config) == Strings{"extenders[0].managedResources[1].name: Invalid value: "
                                    "\"example.com/foo\": duplicate extender managed resource name"});
  }
  SECTION("extender-duplicate-bind") {
    config.extenders[0].bind_verb = "foo";
    Extender second;
    second.prioritize_verb = "prioritize";
    second.bind_verb = "bar";
    second.weight = 1;
    config.extenders.push_back(second);
    CHECK(Errors(config) == Strings{"extenders: Invalid value: \"found 2 extenders implementing "
                                    "bind\": only one extender can implement bind"});
  }
  SECTION("invalid-node-percentage") {
    PluginConfig entry;
    entry.name = "DefaultPreemption";
    Value args;
    args.Set("minCandidateNodesPercentage", Value::Int(200));
    args.Set("minCandidateNodesAbsolute", Value::Int(100));
    entry.raw = args;
    config.profiles[0].plugin_config = {entry};
    CHECK(Errors(config) ==
          Strings{"profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: "
                  "200: not in valid range [0, 100]"});
  }
  SECTION("duplicated-plugin-config") {
    PluginConfig entry;
    entry.name = "config";
    config.profiles[0].plugin_config = {entry, entry};
    CHECK(Errors(config) == Strings{"profiles[0].pluginConfig[1]: Duplicate value: \"config\""});
  }
  SECTION("mismatch-queue-sort") {
    config.profiles[0].plugins.queue_sort.enabled = {PluginRef{"PrioritySort", 0}};
    config.profiles[0].plugin_config = {PluginConfig{"PrioritySort", nullptr, std::nullopt}};
    config.profiles[1].plugins.queue_sort.enabled = {PluginRef{"CustomSort", 0}};
    config.profiles[1].plugin_config = {PluginConfig{"CustomSort", nullptr, std::nullopt}};
    CHECK(Errors(config) ==
          Strings{"profiles[1].plugins.queueSort: Invalid value: "
                  "{\"Enabled\":[{\"Name\":\"CustomSort\",\"Weight\":0}],\"Disabled\":null}: "
                  "must be the same for all profiles"});
  }
  SECTION("invalid-plugins") {
    auto& score = config.profiles[0].plugins.score.enabled;
    for (const char* name : {"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"}) {
      score.push_back(PluginRef{name, 0});
    }
    const std::string suffix =
        "was invalid in version \"v1\" (KubeSchedulerConfiguration is version "
        "\"kubescheduler.config.k8s.io/v1\")";
    CHECK(Errors(config) ==
          Strings{"profiles[0].plugins.score.enabled[0]: Invalid value: \"AzureDiskLimits\": " + suffix,
                  "profiles[0].plugins.score.enabled[1]: Invalid value: \"CinderLimits\": " + suffix,
                  "profiles[0].plugins.score.enabled[2]: Invalid value: \"EBSLimits\": " + suffix,
                  "profiles[0].plugins.score.enabled[3]: Invalid value: \"GCEPDLimits\": " + suffix});
  }
  SECTION("valid-plugins") {
    config.profiles[0].plugins.score.enabled.push_back(PluginRef{"PodTopologySpread", 2});
    CHECK(Errors(config).empty());
  }
  SECTION("no profiles") {
    config.profiles.clear();
    CHECK(Errors(config) == Strings{"profiles: Required value"});
  }
}

TEST_CASE("validation: the aggregate reads as upstream's", "[config][validation]") {
  KubeSchedulerConfiguration config = ValidConfig();
  config.parallelism = -1;
  config.pod_initial_backoff_seconds = 0;
  config.pod_max_backoff_seconds = 0;
  config.client_connection.burst = -3;
  config.profiles[0].scheduler_name = "other";
  config.profiles[1].scheduler_name = "other";
  const absl::Status status = ValidateConfig(config);
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(status.message()) ==
        "[clientConnection.burst: Invalid value: -3: must be non-negative, "
        "parallelism: Invalid value: -1: should be an integer value greater than zero, "
        "profiles[1].schedulerName: Duplicate value: {}, "
        "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0]");
}

TEST_CASE("validation: v1beta3 files name their version in removed-plugin errors",
          "[config][validation]") {
  auto config = ksched::config::LoadConfig(R"(apiVersion: kubescheduler.config.k8s.io/v1beta3
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    filter:
      enabled:
      - name: EBSLimits
)",
                                           "old.yaml");
  REQUIRE_FALSE(config.ok());
  CHECK(std::string(config.status().message()) ==
        "profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": was invalid in "
        "version \"v1\" (KubeSchedulerConfiguration is version "
        "\"kubescheduler.config.k8s.io/v1beta3\")");
}

}  // namespace
