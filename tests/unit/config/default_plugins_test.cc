// The default plugin sets per apiVersion and upstream's merge (v1/default_plugins_test.go
// TestMergePlugins, every case).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "config/default_plugins.h"

namespace {

using ksched::config::DefaultPlugins;
using ksched::config::DefaultPluginsFor;
using ksched::config::MergePlugins;
using ksched::framework::PluginRef;
using ksched::framework::PluginsConfig;
using ksched::framework::PluginSet;

PluginSet Set(std::vector<PluginRef> enabled, std::vector<std::string> disabled = {}) {
  return PluginSet{std::move(enabled), std::move(disabled)};
}

TEST_CASE("default plugins: v1, and v1beta3 and older as they were", "[config][defaults]") {
  // v1.37.2: NodeName before NodeUnschedulable, DynamicResources weighted 2, NodeDeclaredFeatures
  // appended (upstream TestApplyFeatureGates under the default gates).
  const std::vector<PluginRef> v1 = {
      {"SchedulingGates", 0},   {"PrioritySort", 0},     {"NodeName", 0},
      {"NodeUnschedulable", 0}, {"TaintToleration", 3},  {"NodeAffinity", 2},
      {"NodePorts", 0},         {"NodeResourcesFit", 1}, {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},  {"VolumeBinding", 0},    {"VolumeZone", 0},
      {"PodTopologySpread", 2}, {"InterPodAffinity", 2}, {"DynamicResources", 2},
      {"DefaultPreemption", 0}, {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},     {"DefaultBinder", 0},    {"NodeDeclaredFeatures", 0}};
  CHECK(DefaultPlugins().multi_point.enabled == v1);
  CHECK(DefaultPluginsFor("kubescheduler.config.k8s.io/v1") == DefaultPlugins());

  const std::vector<PluginRef> v1beta3 = {
      {"PrioritySort", 0},      {"NodeUnschedulable", 0},  {"NodeName", 0},
      {"TaintToleration", 3},   {"NodeAffinity", 2},       {"NodePorts", 0},
      {"NodeResourcesFit", 1},  {"VolumeRestrictions", 0}, {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},     {"VolumeZone", 0},         {"PodTopologySpread", 2},
      {"InterPodAffinity", 2},  {"DefaultPreemption", 0},  {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},     {"DefaultBinder", 0},      {"SchedulingGates", 0}};
  CHECK(DefaultPluginsFor("kubescheduler.config.k8s.io/v1beta3").multi_point.enabled == v1beta3);

  std::vector<PluginRef> v1beta2 = v1beta3;
  for (PluginRef& plugin : v1beta2) {
    if (plugin.name == "TaintToleration" || plugin.name == "NodeAffinity" ||
        plugin.name == "InterPodAffinity") {
      plugin.weight = 1;
    }
  }
  CHECK(DefaultPluginsFor("kubescheduler.config.k8s.io/v1beta2").multi_point.enabled == v1beta2);
  CHECK(DefaultPluginsFor("kubescheduler.config.k8s.io/v1beta1").multi_point.enabled == v1beta2);
}

TEST_CASE("default plugins: upstream's TestApplyFeatureGates", "[config][defaults]") {
  using ksched::config::ConfigFeatureGates;
  const std::vector<PluginRef> base = {
      {"SchedulingGates", 0},   {"PrioritySort", 0},     {"NodeName", 0},
      {"NodeUnschedulable", 0}, {"TaintToleration", 3},  {"NodeAffinity", 2},
      {"NodePorts", 0},         {"NodeResourcesFit", 1}, {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},  {"VolumeBinding", 0},    {"VolumeZone", 0},
      {"PodTopologySpread", 2}, {"InterPodAffinity", 2}, {"DefaultPreemption", 0},
      {"NodeResourcesBalancedAllocation", 1},            {"ImageLocality", 1},
      {"DefaultBinder", 0}};
  auto with_dra = [&] {
    std::vector<PluginRef> plugins = base;
    plugins.insert(plugins.begin() + 14, PluginRef{"DynamicResources", 2});
    return plugins;
  };
  SECTION("DynamicResourceAllocation and NodeDeclaredFeatures disabled (emulating 1.34)") {
    ConfigFeatureGates gates;
    gates.dynamic_resource_allocation = false;
    gates.node_declared_features = false;
    CHECK(DefaultPlugins(gates).multi_point.enabled == base);
  }
  SECTION("NodeDeclaredFeatures disabled") {
    ConfigFeatureGates gates;
    gates.node_declared_features = false;
    CHECK(DefaultPlugins(gates).multi_point.enabled == with_dra());
  }
  SECTION("GenericWorkload enabled") {
    ConfigFeatureGates gates;
    gates.generic_workload = true;
    std::vector<PluginRef> want = with_dra();
    want.push_back({"NodeDeclaredFeatures", 0});
    want.push_back({"GangScheduling", 0});
    CHECK(DefaultPlugins(gates).multi_point.enabled == want);
  }
  SECTION("TopologyAwareWorkloadScheduling enabled") {
    ConfigFeatureGates gates;
    gates.generic_workload = true;
    gates.topology_aware_workload_scheduling = true;
    std::vector<PluginRef> want = with_dra();
    want.push_back({"NodeDeclaredFeatures", 0});
    want.push_back({"GangScheduling", 0});
    want.push_back({"TopologyPlacementGenerator", 0});
    want.push_back({"PodGroupPodsCount", 1});
    CHECK(DefaultPlugins(gates).multi_point.enabled == want);
  }
  SECTION("InPlacePodVerticalScalingSchedulerPreemption: DeferredPodScheduling before "
          "NodeResourcesFit") {
    ConfigFeatureGates gates;
    gates.in_place_pod_vertical_scaling_scheduler_preemption = true;
    const std::vector<PluginRef> got = DefaultPlugins(gates).multi_point.enabled;
    REQUIRE(got.size() == base.size() + 3);
    CHECK(got[7] == PluginRef{"DeferredPodScheduling", 0});
    CHECK(got[8] == PluginRef{"NodeResourcesFit", 1});
  }
}

TEST_CASE("merge: upstream's TestMergePlugins", "[config][defaults][merge]") {
  struct Case {
    const char* name;
    PluginsConfig custom;
    PluginsConfig defaults;
    PluginsConfig want;
  };
  std::vector<Case> cases;
  {
    Case c{"AppendCustomPlugin", {}, {}, {}};
    c.custom.filter = Set({{"CustomPlugin", 0}});
    c.defaults.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}});
    cases.push_back(c);
  }
  {
    Case c{"InsertAfterDefaultPlugins2", {}, {}, {}};
    c.custom.filter = Set({{"CustomPlugin", 0}, {"DefaultPlugin2", 0}}, {"DefaultPlugin2"});
    c.defaults.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Set({{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"DefaultPlugin2", 0}},
                        {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    Case c{"InsertBeforeAllPlugins", {}, {}, {}};
    c.custom.filter =
        Set({{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {"*"});
    c.defaults.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Set({{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {"*"});
    cases.push_back(c);
  }
  {
    Case c{"ReorderDefaultPlugins", {}, {}, {}};
    c.custom.filter = Set({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {"*"});
    c.defaults.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Set({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {"*"});
    cases.push_back(c);
  }
  {
    // upstream's ApplyNilCustomPlugin: an absent plugins section merges as an empty one.
    Case c{"ApplyNilCustomPlugin", {}, {}, {}};
    c.defaults.filter = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = c.defaults.filter;
    cases.push_back(c);
  }
  {
    Case c{"CustomPluginOverrideDefaultPlugin", {}, {}, {}};
    c.custom.filter = Set({{"Plugin1", 2}, {"Plugin3", 3}});
    c.defaults.filter = Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Set({{"Plugin1", 2}, {"Plugin2", 0}, {"Plugin3", 3}});
    cases.push_back(c);
  }
  {
    Case c{"OrderPreserveAfterOverride", {}, {}, {}};
    c.custom.filter = Set({{"Plugin2", 2}, {"Plugin1", 1}});
    c.defaults.filter = Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Set({{"Plugin1", 1}, {"Plugin2", 2}, {"Plugin3", 0}});
    cases.push_back(c);
  }
  {
    Case c{"RepeatedCustomPlugin", {}, {}, {}};
    c.custom.filter = Set({{"Plugin1", 0}, {"Plugin2", 2}, {"Plugin3", 0}, {"Plugin2", 4}});
    c.defaults.filter = Set({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Set({{"Plugin1", 0}, {"Plugin2", 4}, {"Plugin3", 0}, {"Plugin2", 2}});
    cases.push_back(c);
  }
  {
    Case c{"Append custom MultiPoint plugin", {}, {}, {}};
    c.custom.multi_point = Set({{"CustomPlugin", 0}});
    c.defaults.multi_point = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.multi_point =
        Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}});
    cases.push_back(c);
  }
  {
    Case c{"Append disabled Multipoint plugins", {}, {}, {}};
    c.custom.multi_point = Set({{"CustomPlugin", 0}, {"CustomPlugin2", 0}}, {"DefaultPlugin2"});
    c.custom.score = Set({}, {"CustomPlugin2"});
    c.defaults.multi_point = Set({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.multi_point = Set({{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"CustomPlugin2", 0}},
                             {"DefaultPlugin2"});
    c.want.score = Set({}, {"CustomPlugin2"});
    cases.push_back(c);
  }
  {
    Case c{"override default MultiPoint plugins with custom value", {}, {}, {}};
    c.custom.multi_point = Set({{"DefaultPlugin", 5}});
    c.defaults.multi_point = Set({{"DefaultPlugin", 0}});
    c.want.multi_point = Set({{"DefaultPlugin", 5}});
    cases.push_back(c);
  }
  {
    Case c{"disabled MultiPoint plugin in default set", {}, {}, {}};
    c.defaults.multi_point = Set({{"DefaultPlugin", 0}}, {"DefaultPlugin2"});
    c.custom.multi_point = Set({{"CustomPlugin", 0}});
    c.want.multi_point = Set({{"DefaultPlugin", 0}, {"CustomPlugin", 0}}, {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    Case c{"disabled MultiPoint plugin in default set for specific extension point", {}, {}, {}};
    c.defaults.multi_point = Set({{"DefaultPlugin", 0}});
    c.defaults.score = Set({}, {"DefaultPlugin2"});
    c.custom.multi_point = Set({{"CustomPlugin", 0}});
    c.want.multi_point = Set({{"DefaultPlugin", 0}, {"CustomPlugin", 0}});
    c.want.score = Set({}, {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    Case c{"multipoint with only disabled gets merged", {}, {}, {}};
    c.defaults.multi_point = Set({{"DefaultPlugin", 0}});
    c.custom.multi_point = Set({}, {"DefaultPlugin"});
    c.want.multi_point = Set({}, {"DefaultPlugin"});
    cases.push_back(c);
  }
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(MergePlugins(c.defaults, c.custom) == c.want);
  }
}

TEST_CASE("merge: the pod-group extension points are merged as the others (v1.37)",
          "[config][defaults][merge]") {
  PluginsConfig custom;
  custom.placement_generate = Set({{"Generator", 0}});
  custom.placement_score = Set({{"PodGroupPodsCount", 4}}, {"Foo"});
  custom.pod_group_post_filter = Set({{"GangScheduling", 0}});
  PluginsConfig defaults;
  defaults.placement_score = Set({{"Foo", 1}, {"PodGroupPodsCount", 1}});
  const PluginsConfig merged = MergePlugins(defaults, custom);
  CHECK(merged.placement_generate == Set({{"Generator", 0}}));
  CHECK(merged.placement_score == Set({{"PodGroupPodsCount", 4}}, {"Foo"}));
  CHECK(merged.pod_group_post_filter == Set({{"GangScheduling", 0}}));
}

}  // namespace
