// Defaults applied while decoding (upstream v1/defaults_test.go TestSchedulerDefaults and
// TestPluginArgsDefaults, scheme_test.go TestCodecsDecodePluginConfig), and the older apiVersions.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "config/default_plugins.h"
#include "config/load.h"
#include "config/validation.h"
#include "config/value.h"
#include "plugins/inter_pod_affinity/args.h"
#include "plugins/node_affinity/args.h"
#include "plugins/node_resources/args.h"
#include "plugins/pod_topology_spread/args.h"

namespace {

using ksched::config::DecodeConfig;
using ksched::config::KubeSchedulerConfiguration;
using ksched::config::PluginConfig;
using ksched::config::Value;
using ksched::plugins::inter_pod_affinity::InterPodAffinityArgs;
using ksched::plugins::node_affinity::NodeAffinityArgs;
using ksched::plugins::pod_topology_spread::PodTopologySpreadArgs;
using ksched::plugins::node_resources::NodeResourcesBalancedAllocationArgs;
using ksched::plugins::node_resources::NodeResourcesFitArgs;
using ksched::plugins::node_resources::ResourceSpec;
using std::chrono::seconds;

constexpr const char* kV1 =
    "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

KubeSchedulerConfiguration Decode(const std::string& body, const char* header = kV1) {
  auto config = DecodeConfig(std::string(header) + body);
  INFO((config.ok() ? std::string("ok") : std::string(config.status().message())));
  REQUIRE(config.ok());
  return *config;
}

std::vector<std::string> ConfigNames(const KubeSchedulerConfiguration& config,
                                     std::size_t profile = 0) {
  std::vector<std::string> names;
  for (const PluginConfig& entry : config.profiles.at(profile).plugin_config) {
    names.push_back(entry.name);
  }
  return names;
}

const PluginConfig& Entry(const KubeSchedulerConfiguration& config, const std::string& name,
                          std::size_t profile = 0) {
  for (const PluginConfig& entry : config.profiles.at(profile).plugin_config) {
    if (entry.name == name) return entry;
  }
  FAIL("no pluginConfig entry " << name);
  std::abort();
}

template <typename T>
const T& Typed(const KubeSchedulerConfiguration& config, const std::string& name) {
  const auto* args = dynamic_cast<const T*>(Entry(config, name).args.get());
  REQUIRE(args != nullptr);
  return *args;
}

std::int64_t RawInt(const KubeSchedulerConfiguration& config, const std::string& plugin,
                    const std::string& field) {
  const PluginConfig& entry = Entry(config, plugin);
  REQUIRE(entry.raw.has_value());
  const Value* value = entry.raw->Find(field);
  REQUIRE(value != nullptr);
  return value->as_int();
}

const std::vector<std::string> kDefaultArgsV1 = {
    "DefaultPreemption", "DynamicResources",  "InterPodAffinity", "NodeAffinity",
    "NodeResourcesBalancedAllocation", "NodeResourcesFit", "PodTopologySpread", "VolumeBinding"};

TEST_CASE("defaults: an empty v1 file", "[config][defaults]") {
  const KubeSchedulerConfiguration config = Decode("");
  CHECK(config.api_version == "kubescheduler.config.k8s.io/v1");
  CHECK(config.parallelism == 16);
  CHECK(config.leader_election.leader_elect);
  CHECK(config.leader_election.lease_duration == seconds(15));
  CHECK(config.leader_election.renew_deadline == seconds(10));
  CHECK(config.leader_election.retry_period == seconds(2));
  CHECK(config.leader_election.resource_lock == "leases");
  CHECK(config.leader_election.resource_name == "kube-scheduler");
  CHECK(config.leader_election.resource_namespace == "kube-system");
  CHECK(config.client_connection.kubeconfig.empty());
  CHECK(config.client_connection.content_type == "application/vnd.kubernetes.protobuf");
  CHECK(config.client_connection.qps == 50);
  CHECK(config.client_connection.burst == 100);
  CHECK(config.enable_profiling);
  CHECK(config.enable_contention_profiling);
  CHECK(config.percentage_of_nodes_to_score == 0);
  CHECK(config.pod_initial_backoff_seconds == 1);
  CHECK(config.pod_max_backoff_seconds == 10);
  CHECK(config.extenders.empty());
  CHECK_FALSE(config.delay_cache_until_active);
  REQUIRE(config.profiles.size() == 1);
  CHECK(config.profiles[0].scheduler_name == "default-scheduler");
  CHECK_FALSE(config.profiles[0].percentage_of_nodes_to_score.has_value());
  CHECK(config.profiles[0].plugins == ksched::config::DefaultPlugins());
  // Args for every enabled plugin that has an args kind, in name order.
  CHECK(ConfigNames(config) == kDefaultArgsV1);
  CHECK(Typed<NodeResourcesFitArgs>(config, "NodeResourcesFit").scoring_strategy.resources ==
        std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
  CHECK(Typed<NodeResourcesBalancedAllocationArgs>(config, "NodeResourcesBalancedAllocation")
            .resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
  CHECK_FALSE(Typed<NodeAffinityArgs>(config, "NodeAffinity").added_affinity.has_value());
  CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesPercentage") == 10);
  CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesAbsolute") == 100);
  CHECK(Typed<InterPodAffinityArgs>(config, "InterPodAffinity").hard_pod_affinity_weight == 1);
  CHECK_FALSE(Typed<InterPodAffinityArgs>(config, "InterPodAffinity")
                  .ignore_preferred_terms_of_existing_pods);
  CHECK(RawInt(config, "VolumeBinding", "bindTimeoutSeconds") == 600);
  CHECK(Typed<PodTopologySpreadArgs>(config, "PodTopologySpread").defaulting_type == "System");
  CHECK(Typed<PodTopologySpreadArgs>(config, "PodTopologySpread").default_constraints.empty());
  CHECK(Entry(config, "DynamicResources").raw->Find("filterTimeout")->as_string() == "10s");
  // v1.37: bindingTimeout 10m (DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on),
  // shape [{0,10},{100,0}] (StorageCapacityScoring on).
  CHECK(Entry(config, "DynamicResources").raw->Find("bindingTimeout")->as_string() == "10m0s");
  const Value* shape = Entry(config, "VolumeBinding").raw->Find("shape");
  REQUIRE(shape != nullptr);
  REQUIRE(shape->as_list().size() == 2);
  CHECK(shape->as_list()[0].Find("utilization")->as_int() == 0);
  CHECK(shape->as_list()[0].Find("score")->as_int() == 10);
  CHECK(shape->as_list()[1].Find("utilization")->as_int() == 100);
  CHECK(shape->as_list()[1].Find("score")->as_int() == 0);
}

TEST_CASE("defaults: v1.37's new args fields, and the pod-group extension points",
          "[config][defaults]") {
  SECTION("an empty or absent shape is defaulted, a given one kept with both fields") {
    const auto config = Decode(R"(profiles:
- schedulerName: a
  pluginConfig:
  - name: VolumeBinding
    args:
      shape: []
- schedulerName: b
  pluginConfig:
  - name: VolumeBinding
    args:
      shape:
      - utilization: 20
)");
    CHECK(Entry(config, "VolumeBinding").raw->Find("shape")->as_list().size() == 2);
    const PluginConfig* b = nullptr;
    for (const PluginConfig& entry : config.profiles[1].plugin_config) {
      if (entry.name == "VolumeBinding") b = &entry;
    }
    REQUIRE(b != nullptr);
    const Value::List& points = b->raw->Find("shape")->as_list();
    REQUIRE(points.size() == 1);
    CHECK(points[0].Find("utilization")->as_int() == 20);
    CHECK(points[0].Find("score")->as_int() == 0);
  }
  SECTION("a given bindingTimeout is kept, in Go's duration form") {
    const auto config =
        Decode("profiles:\n- pluginConfig:\n  - name: DynamicResources\n    args:\n"
               "      bindingTimeout: 90s\n");
    CHECK(Entry(config, "DynamicResources").raw->Find("bindingTimeout")->as_string() == "1m30s");
  }
  SECTION("placementGenerate, placementScore and podGroupPostFilter are read and merged") {
    const auto config = Decode(R"(profiles:
- plugins:
    placementScore:
      enabled:
      - name: PodGroupPodsCount
        weight: 3
    podGroupPostFilter:
      disabled:
      - name: "*"
)");
    const auto& plugins = config.profiles[0].plugins;
    CHECK(plugins.placement_score.enabled == std::vector<ksched::framework::PluginRef>{
                                                 {"PodGroupPodsCount", 3}});
    CHECK(plugins.pod_group_post_filter.disabled == std::vector<std::string>{"*"});
    CHECK(plugins.placement_generate.enabled.empty());
  }
}

TEST_CASE("defaults and validation follow the feature gates (--emulated-version 1.36 and 1.35)",
          "[config][defaults]") {
  // upstream v1.37.2 with --emulated-version=1.36: StorageCapacityScoring off, so no shape; 1.35
  // also without NodeDeclaredFeatures and DRADeviceBindingConditions.
  ksched::config::ConfigFeatureGates at_136;
  at_136.storage_capacity_scoring = false;
  ksched::config::ConfigFeatureGates at_135 = at_136;
  at_135.node_declared_features = false;
  at_135.dra_device_binding_conditions = false;

  const auto v136 = DecodeConfig(kV1, nullptr, at_136);
  REQUIRE(v136.ok());
  CHECK(Entry(*v136, "VolumeBinding").raw->Find("shape") == nullptr);
  CHECK(Entry(*v136, "DynamicResources").raw->Find("bindingTimeout")->as_string() == "10m0s");
  CHECK(v136->profiles[0].plugins == ksched::config::DefaultPlugins(at_136));
  CHECK(v136->profiles[0].plugins.multi_point.enabled.back().name == "NodeDeclaredFeatures");

  const auto v135 = DecodeConfig(kV1, nullptr, at_135);
  REQUIRE(v135.ok());
  CHECK(Entry(*v135, "DynamicResources").raw->Find("bindingTimeout") == nullptr);
  CHECK(Entry(*v135, "DynamicResources").raw->Find("filterTimeout")->as_string() == "10s");
  for (const ksched::framework::PluginRef& plugin : v135->profiles[0].plugins.multi_point.enabled) {
    CHECK(plugin.name != "NodeDeclaredFeatures");
  }

  // A shape or bindingTimeout given where its gate is off: upstream's errors.
  const std::string body = std::string(kV1) + R"(profiles:
- pluginConfig:
  - name: VolumeBinding
    args:
      shape:
      - utilization: 0
        score: 0
  - name: DynamicResources
    args:
      bindingTimeout: 20s
)";
  const auto given = DecodeConfig(body, nullptr, at_135);
  REQUIRE(given.ok());
  CHECK(ksched::config::ValidationErrors(*given, at_135) ==
        std::vector<std::string>{
            "profiles[0].pluginConfig[0].args.shape: Invalid value: [{\"Utilization\":0,\"Score\":0}]: "
            "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
            "profiles[0].pluginConfig[1].args.bindingTimeout: Forbidden: DRADeviceBindingConditions or "
            "DRAResourceClaimDeviceStatus feature gate is disabled"});
  CHECK(ksched::config::ValidationErrors(*given).empty());  // v1.37.2's gates allow both
}

TEST_CASE("defaults: scheduler names, profiles and top-level values", "[config][defaults]") {
  SECTION("one profile without a name is the default scheduler") {
    const auto config = Decode("profiles:\n- percentageOfNodesToScore: 20\n");
    CHECK(config.profiles[0].scheduler_name == "default-scheduler");
    CHECK(config.profiles[0].percentage_of_nodes_to_score == 20);
  }
  SECTION("two profiles: no name is defaulted, each gets the defaults") {
    const auto config = Decode("profiles:\n- {}\n- schedulerName: b\n");
    REQUIRE(config.profiles.size() == 2);
    CHECK(config.profiles[0].scheduler_name.empty());
    CHECK(config.profiles[1].scheduler_name == "b");
    CHECK(ConfigNames(config, 1) == kDefaultArgsV1);
    CHECK(config.profiles[1].plugins == ksched::config::DefaultPlugins());
  }
  SECTION("an explicitly empty profile list gets the default profile") {
    const auto config = Decode("profiles: []\n");
    REQUIRE(config.profiles.size() == 1);
    CHECK(config.profiles[0].scheduler_name == "default-scheduler");
  }
  SECTION("values set in the file stay") {
    const auto config = Decode(
        "parallelism: 8\npercentageOfNodesToScore: 10\ndelayCacheUntilActive: true\n"
        "podInitialBackoffSeconds: 2\npodMaxBackoffSeconds: 30\n"
        "clientConnection: {qps: 5.5, burst: 7, contentType: application/json}\n"
        "leaderElection: {leaderElect: false, leaseDuration: 1m, resourceName: x}\n");
    CHECK(config.parallelism == 8);
    CHECK(config.percentage_of_nodes_to_score == 10);
    CHECK(config.delay_cache_until_active);
    CHECK(config.pod_initial_backoff_seconds == 2);
    CHECK(config.pod_max_backoff_seconds == 30);
    CHECK(config.client_connection.qps == 5.5f);
    CHECK(config.client_connection.burst == 7);
    CHECK(config.client_connection.content_type == "application/json");
    CHECK_FALSE(config.leader_election.leader_elect);
    CHECK(config.leader_election.lease_duration == seconds(60));
    CHECK(config.leader_election.renew_deadline == seconds(10));
    CHECK(config.leader_election.resource_name == "x");
  }
  SECTION("contention profiling follows profiling unless set") {
    CHECK_FALSE(Decode("enableProfiling: false\n").enable_contention_profiling);
    CHECK_FALSE(Decode("enableContentionProfiling: false\n").enable_contention_profiling);
    CHECK(Decode("enableProfiling: false\nenableContentionProfiling: true\n")
              .enable_contention_profiling);
  }
}

TEST_CASE("defaults: plugin args as written, defaulted, others appended", "[config][defaults]") {
  SECTION("upstream's 'v1 all plugin args in default profile'") {
    const auto config = Decode(R"(profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 50
      minCandidateNodesAbsolute: 500
  - name: DynamicResources
    args:
      filterTimeout: 10s
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 5
  - name: NodeResourcesFit
    args:
      ignoredResources: ["foo"]
  - name: PodTopologySpread
    args:
      defaultConstraints:
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: ScheduleAnyway
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 300
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: foo
              operator: In
              values: ["bar"]
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
        - name: cpu       # default weight(1) will be set.
        - name: memory    # weight 0 will be replaced by 1.
          weight: 0
        - name: scalar0
          weight: 1
        - name: scalar1   # default weight(1) will be set for scalar1
        - name: scalar2   # weight 0 will be replaced by 1.
          weight: 0
        - name: scalar3
          weight: 2
)");
    CHECK(ConfigNames(config) ==
          std::vector<std::string>{"DefaultPreemption", "DynamicResources", "InterPodAffinity",
                                   "NodeResourcesFit", "PodTopologySpread", "VolumeBinding",
                                   "NodeAffinity", "NodeResourcesBalancedAllocation"});
    CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesPercentage") == 50);
    CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesAbsolute") == 500);
    CHECK(Typed<InterPodAffinityArgs>(config, "InterPodAffinity").hard_pod_affinity_weight == 5);
    CHECK(RawInt(config, "VolumeBinding", "bindTimeoutSeconds") == 300);
    const auto& spread = Typed<PodTopologySpreadArgs>(config, "PodTopologySpread");
    CHECK(spread.defaulting_type == "System");
    REQUIRE(spread.default_constraints.size() == 1);
    CHECK(spread.default_constraints[0].max_skew == 1);
    CHECK(spread.default_constraints[0].topology_key == "zone");
    CHECK(spread.default_constraints[0].when_unsatisfiable == "ScheduleAnyway");
    const auto& fit = Typed<NodeResourcesFitArgs>(config, "NodeResourcesFit");
    CHECK(fit.ignored_resources == std::vector<std::string>{"foo"});
    CHECK(fit.scoring_strategy.type == "LeastAllocated");
    CHECK(fit.scoring_strategy.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
    const auto& affinity = Typed<NodeAffinityArgs>(config, "NodeAffinity");
    REQUIRE(affinity.added_affinity.has_value());
    REQUIRE(affinity.added_affinity->required.has_value());
    const auto& term = affinity.added_affinity->required->node_selector_terms.at(0);
    CHECK(term.match_expressions.at(0).key == "foo");
    CHECK(term.match_expressions.at(0).op == "In");
    CHECK(term.match_expressions.at(0).values == std::vector<std::string>{"bar"});
    CHECK(Typed<NodeResourcesBalancedAllocationArgs>(config, "NodeResourcesBalancedAllocation")
              .resources == std::vector<ResourceSpec>{{"cpu", 1},     {"memory", 1},
                                                      {"scalar0", 1}, {"scalar1", 1},
                                                      {"scalar2", 1}, {"scalar3", 2}});
  }
  SECTION("upstream's 'empty and no plugin args': order kept, out-of-tree entry without args") {
    const auto config = Decode(R"(profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
  - name: DynamicResources
    args:
  - name: InterPodAffinity
    args:
  - name: NodeResourcesFit
  - name: OutOfTreePlugin
    args:
  - name: VolumeBinding
    args:
  - name: PodTopologySpread
  - name: NodeAffinity
  - name: NodeResourcesBalancedAllocation
)");
    CHECK(ConfigNames(config) ==
          std::vector<std::string>{"DefaultPreemption", "DynamicResources", "InterPodAffinity",
                                   "NodeResourcesFit", "OutOfTreePlugin", "VolumeBinding",
                                   "PodTopologySpread", "NodeAffinity",
                                   "NodeResourcesBalancedAllocation"});
    CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesAbsolute") == 100);
    const PluginConfig& oot = Entry(config, "OutOfTreePlugin");
    CHECK(oot.args == nullptr);
    CHECK_FALSE(oot.raw.has_value());
    CHECK(Typed<NodeResourcesFitArgs>(config, "NodeResourcesFit").scoring_strategy.type ==
          "LeastAllocated");
  }
  SECTION("out-of-tree args are kept as written, before the appended defaults") {
    const auto config = Decode(
        "profiles:\n- pluginConfig:\n  - name: OutOfTreePlugin\n    args:\n      foo: bar\n");
    CHECK(ConfigNames(config).front() == "OutOfTreePlugin");
    CHECK(ConfigNames(config).size() == 1 + kDefaultArgsV1.size());
    Value want;
    want.Set("foo", Value::String("bar"));
    CHECK(Entry(config, "OutOfTreePlugin").raw == want);
  }
  SECTION("TestPluginArgsDefaults: explicit values win, zeros stay where upstream keeps them") {
    const auto config = Decode(R"(profiles:
- pluginConfig:
  - name: InterPodAffinity
    args: {hardPodAffinityWeight: 0, ignorePreferredTermsOfExistingPods: true}
  - name: PodTopologySpread
    args: {defaultingType: List}
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu}, {name: example.com/gpu, weight: 3}]}}
  - name: DefaultPreemption
    args: {minCandidateNodesPercentage: 50}
)");
    const auto& affinity = Typed<InterPodAffinityArgs>(config, "InterPodAffinity");
    CHECK(affinity.hard_pod_affinity_weight == 0);
    CHECK(affinity.ignore_preferred_terms_of_existing_pods);
    CHECK(Typed<PodTopologySpreadArgs>(config, "PodTopologySpread").defaulting_type == "List");
    const auto& fit = Typed<NodeResourcesFitArgs>(config, "NodeResourcesFit");
    CHECK(fit.scoring_strategy.type == "MostAllocated");
    CHECK(fit.scoring_strategy.resources ==
          std::vector<ResourceSpec>{{"cpu", 1}, {"example.com/gpu", 3}});
    CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesPercentage") == 50);
    CHECK(RawInt(config, "DefaultPreemption", "minCandidateNodesAbsolute") == 100);
  }
  SECTION("a present scoringStrategy without a type keeps it empty (the plugin rejects it)") {
    const auto config = Decode(
        "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {}}\n");
    const auto& fit = Typed<NodeResourcesFitArgs>(config, "NodeResourcesFit");
    CHECK(fit.scoring_strategy.type.empty());
    CHECK(fit.scoring_strategy.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
  }
  SECTION("args are appended only for enabled plugins") {
    const auto config = Decode(
        "profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: '*'\n"
        "      enabled:\n      - name: PrioritySort\n      - name: NodeAffinity\n"
        "      - name: DefaultBinder\n");
    CHECK(ConfigNames(config) == std::vector<std::string>{"NodeAffinity"});
  }
}

TEST_CASE("defaults: v1beta3 and older read with their own plugin sets", "[config][defaults]") {
  SECTION("v1beta3") {
    std::vector<std::string> warnings;
    auto config = DecodeConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
        &warnings);
    REQUIRE(config.ok());
    CHECK(config->api_version == "kubescheduler.config.k8s.io/v1beta3");
    CHECK(config->profiles[0].plugins ==
          ksched::config::DefaultPluginsFor("kubescheduler.config.k8s.io/v1beta3"));
    // No DynamicResources in the v1beta3 set, so no args for it.
    CHECK(ConfigNames(*config) ==
          std::vector<std::string>{"DefaultPreemption", "InterPodAffinity", "NodeAffinity",
                                   "NodeResourcesBalancedAllocation", "NodeResourcesFit",
                                   "PodTopologySpread", "VolumeBinding"});
    CHECK(config->leader_election.resource_lock == "leases");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("kubescheduler.config.k8s.io/v1beta3 is no longer served") == 0);
  }
  SECTION("v1beta3 lacks v1's newer fields") {
    auto top = DecodeConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
        "delayCacheUntilActive: true\nprofiles:\n- percentageOfNodesToScore: 5\n");
    REQUIRE_FALSE(top.ok());
    CHECK(std::string(top.status().message()) ==
          "strict decoding error: unknown field \"delayCacheUntilActive\", unknown field "
          "\"profiles[0].percentageOfNodesToScore\"");
  }
  SECTION("v1beta3 type errors name v1beta3 types") {
    auto config = DecodeConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
        "profiles: 1\n");
    REQUIRE_FALSE(config.ok());
    CHECK(std::string(config.status().message()) ==
          "json: cannot unmarshal number into Go struct field KubeSchedulerConfiguration.profiles "
          "of type []v1beta3.KubeSchedulerProfile");
  }
  SECTION("v1beta3 stops at the first plugin args with strict errors") {
    auto config = DecodeConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
        "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args: {a: 1}\n"
        "  - name: NodeResourcesFit\n    args: {b: 1}\n");
    REQUIRE_FALSE(config.ok());
    CHECK(std::string(config.status().message()) ==
          "strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: "
          "decoding args for plugin NodeAffinity: strict decoding error: unknown field \"a\"");
  }
  SECTION("v1beta2: the old weights, and its bind addresses accepted and ignored") {
    std::vector<std::string> warnings;
    auto config = DecodeConfig(
        "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n"
        "healthzBindAddress: 0.0.0.0:10251\nmetricsBindAddress: 0.0.0.0:10251\n",
        &warnings);
    REQUIRE(config.ok());
    CHECK(config->profiles[0].plugins.multi_point.enabled.at(3) ==
          ksched::framework::PluginRef{"TaintToleration", 1});
    CHECK(warnings.size() == 3);
  }
  SECTION("v1 rejects the bind addresses") {
    auto config = DecodeConfig(std::string(kV1) + "healthzBindAddress: 0.0.0.0:10251\n");
    REQUIRE_FALSE(config.ok());
    CHECK(std::string(config.status().message()) ==
          "strict decoding error: unknown field \"healthzBindAddress\"");
  }
  SECTION("DefaultConfig is the empty v1 file") {
    const KubeSchedulerConfiguration config = ksched::config::DefaultConfig();
    CHECK(config.parallelism == 16);
    CHECK(config.profiles.size() == 1);
    CHECK(ConfigNames(config) == kDefaultArgsV1);
  }
}

}  // namespace
