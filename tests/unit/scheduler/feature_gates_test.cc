// --feature-gates, --emulated-version and --min-compatibility-version as component-base parses and
// validates them, over v1.37.2's versioned gates, and the gates this scheduler refuses to run with
// at a value it does not implement.
#include "scheduler/feature_gates.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <prometheus/registry.h>
#include <map>
#include <set>
#include <sstream>

#include "scheduler/metrics/feature_metrics.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler {
namespace {

absl::StatusOr<FeatureGates> Parse(std::vector<std::string> values, std::vector<std::string>* notices = nullptr,
                                   CompatibilityVersions versions = {}) {
  std::vector<std::string> ignored;
  return FeatureGates::Parse(values, versions, notices != nullptr ? notices : &ignored);
}

std::string ErrorOf(std::vector<std::string> values, CompatibilityVersions versions = {}) {
  absl::StatusOr<FeatureGates> gates = Parse(std::move(values), nullptr, versions);
  return gates.ok() ? "ok" : std::string(gates.status().message());
}

CompatibilityVersions Versions(std::vector<std::string> emulated, std::vector<std::string> min_compat = {}) {
  absl::StatusOr<CompatibilityVersions> versions = ParseCompatibilityVersions(emulated, min_compat);
  REQUIRE(versions.ok());
  return *versions;
}

std::string VersionsError(std::vector<std::string> emulated, std::vector<std::string> min_compat = {}) {
  absl::StatusOr<CompatibilityVersions> versions = ParseCompatibilityVersions(emulated, min_compat);
  return versions.ok() ? "ok" : std::string(versions.status().message());
}

std::string Implemented(std::vector<std::string> values, CompatibilityVersions versions = {}) {
  absl::StatusOr<FeatureGates> gates = Parse(std::move(values), nullptr, versions);
  REQUIRE(gates.ok());
  absl::Status status = CheckImplementedGates(*gates);
  return status.ok() ? std::string("ok") : std::string(status.message());
}

TEST_CASE("the v1.37.2 gate table: sorted, versioned, with the scheduler's gates as upstream has them", "[feature_gates]") {
  const auto rows = VersionedFeatures();
  CHECK(std::is_sorted(rows.begin(), rows.end(),
                       [](const VersionedFeatureSpec& a, const VersionedFeatureSpec& b) { return a.name < b.name; }));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].name == rows[i - 1].name) CHECK(rows[i - 1].version <= rows[i].version);
  }
  FeatureGates defaults;
  CHECK(defaults.versions().emulation == MajorMinor{1, 37});
  CHECK(defaults.versions().min_compatibility == MajorMinor{1, 36});
  CHECK(defaults.Enabled("SchedulerPopFromBackoffQ"));
  CHECK(defaults.Enabled("SchedulerAsyncPreemption"));
  CHECK_FALSE(defaults.Enabled("SchedulerAsyncAPICalls"));
  CHECK(defaults.Enabled("StorageCapacityScoring"));          // beta on in 1.37
  CHECK(defaults.Enabled("NominatedNodeNameForExpectation"));  // beta on in 1.35
  CHECK(defaults.Enabled("DRADeviceTaints"));                  // GA in 1.37
  CHECK_FALSE(defaults.Enabled("DRAFractionalCapacityRange"));  // on only with min compatibility 1.37
  CHECK(defaults.Enabled("ContextualLogging"));                // the logging gates are registered too
  CHECK(defaults.Spec("DynamicResourceAllocation").locked);
  CHECK(defaults.Spec("StorageCapacityScoring").stage == FeatureStage::kBeta);
  CHECK(CheckImplementedGates(defaults).ok());
  // Removed since v1.34: no longer known.
  CHECK(ErrorOf({"SchedulerQueueingHints=true"}) == "unrecognized feature gate: SchedulerQueueingHints");
  CHECK(ErrorOf({"SidecarContainers=true"}) == "unrecognized feature gate: SidecarContainers");
}

TEST_CASE("feature gates: --feature-gates syntax and errors as component-base's", "[feature_gates]") {
  CHECK(ErrorOf({"Foo=true"}) == "unrecognized feature gate: Foo");
  CHECK(ErrorOf({"=true"}) == "unrecognized feature gate: ");
  CHECK(ErrorOf({"SchedulerAsyncPreemption"}) == "missing bool value for SchedulerAsyncPreemption");
  CHECK(ErrorOf({"SchedulerAsyncPreemption=maybe"}) ==
        "invalid value of SchedulerAsyncPreemption=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
  CHECK(ErrorOf({"SchedulerAsyncPreemption=false=true"}) ==
        "invalid value of SchedulerAsyncPreemption=false=true, err: strconv.ParseBool: parsing \"false=true\": invalid syntax");
  CHECK(ErrorOf({"foo:SchedulerAsyncPreemption=false"}) == "component not registered: foo");
  CHECK(ErrorOf({"DynamicResourceAllocation=false"}) ==
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true");
  CHECK(ErrorOf({"DynamicResourceAllocation=false", "VolumeAttributesClass=0"}) ==
        "[cannot set feature gate DynamicResourceAllocation to false, feature is locked to true, "
        "cannot set feature gate VolumeAttributesClass to false, feature is locked to true]");
  CHECK(ErrorOf({"kube:SchedulerPopFromBackoffQ=false", "SchedulerAsyncAPICalls=true"}) ==
        "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use");
  // A later item overrides an earlier one; components, spaces, empty items and Go's bool words.
  absl::StatusOr<FeatureGates> gates =
      Parse({" kube : SchedulerPopFromBackoffQ = F ,,", "kube:SchedulerAsyncAPICalls=TRUE,kube:SchedulerAsyncAPICalls=t"});
  REQUIRE(gates.ok());
  CHECK_FALSE(gates->Enabled("SchedulerPopFromBackoffQ"));
  CHECK(gates->Enabled("SchedulerAsyncAPICalls"));
  CHECK(gates->ExplicitlySet("SchedulerAsyncAPICalls"));
  CHECK_FALSE(gates->ExplicitlySet("SchedulerAsyncPreemption"));
  CHECK(ErrorOf({"DynamicResourceAllocation=false,DynamicResourceAllocation=true"}) == "ok");
}

TEST_CASE("feature gates: dependencies are validated at start-up (#133697)", "[feature_gates]") {
  CHECK(ErrorOf({"GenericWorkload=false,TopologyAwareWorkloadScheduling=true"}) ==
        "TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload]");
  CHECK(ErrorOf({"DRADeviceTaints=false"}) ==
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
  CHECK(ErrorOf({"DRADeviceTaints=false,DRADeviceTaintRules=false"}) == "ok");
  CHECK(ErrorOf({"GenericWorkload=true,TopologyAwareWorkloadScheduling=true"}) == "ok");
}

TEST_CASE("feature gates: notices, AllAlpha and AllBeta", "[feature_gates]") {
  std::vector<std::string> notices;
  REQUIRE(Parse({"KMSv1=true,DRADeviceTaints=true"}, &notices).ok());
  CHECK(notices == std::vector<std::string>{
                       "\"Warning: setting deprecated feature gate. It will be removed in a future release.\" "
                       "featureGate=\"KMSv1\" value=true",
                       "\"Warning: setting GA feature gate. It will be removed in a future release.\" "
                       "featureGate=\"DRADeviceTaints\" value=true"});
  notices.clear();
  // Alone, AllAlpha=true enables alpha gates whose beta dependency is off, as upstream refuses.
  CHECK(ErrorOf({"AllAlpha=true"}) ==
        "[CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload], "
        "PodGroupPreemptionPolicy is enabled, but depends on features that are disabled: [GenericWorkload], "
        "TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload], "
        "WorkloadWithJob is enabled, but depends on features that are disabled: [GenericWorkload]]");
  absl::StatusOr<FeatureGates> alpha = Parse({"AllAlpha=true,GenericWorkload=true,CompositePodGroup=false"}, &notices);
  REQUIRE(alpha.ok());
  CHECK(alpha->Enabled("SchedulerPreQueueingHints"));
  CHECK(alpha->SetBy("SchedulerPreQueueingHints") == "AllAlpha=true");
  CHECK_FALSE(alpha->Enabled("CompositePodGroup"));  // named explicitly: AllAlpha does not reach it
  CHECK(alpha->SetBy("CompositePodGroup").empty());
  CHECK(alpha->Enabled("SchedulerAsyncPreemption"));  // beta: untouched
  CHECK(notices.empty());
  const std::string warning = alpha->AlphaWarning();
  CHECK(warning.starts_with("component has alpha features enabled in emulated version, this is unsupported: features=["));
  CHECK(warning.find(" SchedulerPreQueueingHints ") != std::string::npos);
  CHECK(warning.find(" AllAlpha ") != std::string::npos);  // upstream lists the AllAlpha gate itself too
  CHECK(warning.find("CompositePodGroup") == std::string::npos);
  CHECK(FeatureGates().AlphaWarning().empty());
  absl::StatusOr<FeatureGates> beta = Parse({"AllBeta=false,VolumeLimitScaling=true"});
  REQUIRE(beta.ok());
  CHECK_FALSE(beta->Enabled("SchedulerPopFromBackoffQ"));
  CHECK(beta->Enabled("VolumeLimitScaling"));
  CHECK(beta->Enabled("NodeDeclaredFeatures"));  // GA: untouched
}

TEST_CASE("emulated-version and min-compatibility-version flags as the compatibility registry reads them",
          "[feature_gates]") {
  CHECK(Versions({"1.35"}).emulation == MajorMinor{1, 35});
  CHECK(Versions({"1.35"}).min_compatibility == MajorMinor{1, 34});
  CHECK(Versions({"kube=1.34"}).min_compatibility == MajorMinor{1, 34});  // not below the floor
  CHECK(Versions({" kube = v1.36 "}).emulation == MajorMinor{1, 36});
  CHECK(Versions({"1.36.0"}).emulation == MajorMinor{1, 36});
  CHECK(Versions({}, {"1.37"}).min_compatibility == MajorMinor{1, 37});
  CHECK(Versions({"1.36"}, {"1.35"}).min_compatibility == MajorMinor{1, 35});
  CHECK(VersionsError({"wardle=1.2"}) == "component not registered: wardle");
  CHECK(VersionsError({}, {"wardle=1.2"}) == "component not registered: wardle");
  CHECK(VersionsError({"1.36.1"}) == "patch version not allowed, got: kube=1.36.1");
  CHECK(VersionsError({"kube=1.35", "kube=1.36"}) == "duplicate version flag, kube=1.35 and kube=1.36");
  CHECK(VersionsError({"abc"}) == "could not parse \"abc\" as version");
  CHECK(VersionsError({""}) == "could not parse \"\" as version");
  CHECK(VersionsError({"1"}) == "illegal version string \"1\"");
  CHECK(VersionsError({"01.36"}) == "illegal zero-prefixed version component \"01\" in \"01.36\"");
  CHECK(VersionsError({"1.99999999999999999999"}) ==
        "illegal non-numeric version component \"99999999999999999999\" in \"1.99999999999999999999\": "
        "strconv.ParseUint: parsing \"99999999999999999999\": value out of range");

  CHECK(ValidateCompatibilityVersions({}).empty());
  CHECK(ValidateCompatibilityVersions(Versions({"1.34"})).empty());
  CHECK(ValidateCompatibilityVersions(Versions({"1.38"})) ==
        std::vector<std::string>{"emulation version 1.38 is not between [1.34, 1.37.0]"});
  CHECK(ValidateCompatibilityVersions(Versions({"1.33"})) ==
        std::vector<std::string>{"emulation version 1.33 is not between [1.34, 1.37.0]",
                                 "minCompatibilityVersion version 1.34 is not between [1.34, 1.33]"});
  CHECK(ValidateCompatibilityVersions(Versions({"1.35"}, {"1.36"})) ==
        std::vector<std::string>{"minCompatibilityVersion version 1.36 is not between [1.34, 1.35]"});
  CHECK(ValidateCompatibilityVersions(Versions({}, {"1.33"})) ==
        std::vector<std::string>{"minCompatibilityVersion version 1.33 is not between [1.34, 1.37]"});
  CHECK(AllowedVersionRange(true) == "kube=1.34..1.37(default:1.37)");
  CHECK(AllowedVersionRange(false) == "kube=1.34..1.37(default:1.36)");
}

TEST_CASE("gates at an emulated version: defaults, stages, locks and pre-alpha gates", "[feature_gates]") {
  const CompatibilityVersions v134 = Versions({"1.34"});
  absl::StatusOr<FeatureGates> gates = Parse({}, nullptr, v134);
  REQUIRE(gates.ok());
  CHECK_FALSE(gates->Enabled("StorageCapacityScoring"));  // alpha until 1.37
  CHECK(gates->Spec("StorageCapacityScoring").stage == FeatureStage::kAlpha);
  CHECK_FALSE(gates->Spec("DynamicResourceAllocation").locked);  // locked from 1.35
  CHECK(ErrorOf({"DynamicResourceAllocation=false"}, v134) ==
        "[DRAAdminAccess is enabled, but depends on features that are disabled: [DynamicResourceAllocation], "
        "DRAPrioritizedList is enabled, but depends on features that are disabled: [DynamicResourceAllocation], "
        "DRASchedulerFilterTimeout is enabled, but depends on features that are disabled: [DynamicResourceAllocation]]");
  CHECK(ErrorOf({"DynamicResourceAllocation=false,DRAAdminAccess=false,DRAPrioritizedList=false,"
                 "DRASchedulerFilterTimeout=false"},
                v134) == "ok");
  // Introduced after 1.34: pre-alpha there, not settable and not listed.
  CHECK(gates->Spec("TopologyAwareWorkloadScheduling").stage == FeatureStage::kPreAlpha);
  CHECK(ErrorOf({"TopologyAwareWorkloadScheduling=true"}, v134) ==
        "cannot set feature gate TopologyAwareWorkloadScheduling to true, feature is PreAlpha at emulated version "
        "1.34, min compatibility version 1.34");
  const std::vector<FeatureSpec> specs = gates->Specs();
  CHECK(std::none_of(specs.begin(), specs.end(),
                     [](const FeatureSpec& s) { return s.name == "TopologyAwareWorkloadScheduling"; }));
  // A default that depends on the minimum compatibility version.
  absl::StatusOr<FeatureGates> compat = Parse({}, nullptr, Versions({}, {"1.37"}));
  REQUIRE(compat.ok());
  CHECK(compat->Enabled("DRAFractionalCapacityRange"));
  // An alpha gate on at an emulated version older than the binary: the registry's warning.
  absl::StatusOr<FeatureGates> alpha = Parse({"SchedulerPreQueueingHints=true"}, nullptr, Versions({"1.36"}));
  REQUIRE_FALSE(alpha.ok());  // introduced in 1.37
}

TEST_CASE("gates kube-scheduler reads are refused at values not implemented here", "[feature_gates]") {
  CHECK(Implemented({"SchedulerAsyncPreemption=false"}) ==
        "feature gate SchedulerAsyncPreemption=false is not supported by kube-scheduler-cpp: it implements "
        "SchedulerAsyncPreemption=true only");
  CHECK(Implemented({"GenericWorkload=true"}) ==
        "feature gate GenericWorkload=true is not supported by kube-scheduler-cpp: it implements GenericWorkload=false only");
  CHECK(Implemented({"GenericWorkload=true,TopologyAwareWorkloadScheduling=true"}) ==
        "feature gate GenericWorkload=true is not supported by kube-scheduler-cpp: it implements GenericWorkload=false only");
  // Implemented both ways (their defaults of 1.34 to 1.36).
  CHECK(Implemented({"NominatedNodeNameForExpectation=false,StorageCapacityScoring=false"}) == "ok");
  CHECK(Implemented({"VolumeLimitScaling=false,ComponentFlagz=false,ComponentStatusz=false"}) == "ok");
  CHECK(Implemented({"InPlacePodLevelResourcesVerticalScaling=false"}) == "ok");
  // The DRA allocator is v1.34's (issue #45): these gates off is what runs, on is their default.
  CHECK(Implemented({"DRAConsumableCapacity=false,DRAFractionalCapacityRange=false"}) == "ok");
  CHECK(Implemented({"DRADeviceTaints=false,DRADeviceTaintRules=false"}) == "ok");
  CHECK(Implemented({"DRAPartitionableDevices=false,DRADeviceBindingConditions=false"}) == "ok");
  CHECK(Implemented({"DRADeviceCompatibilityGroups=true"}).starts_with(
      "feature gate DRADeviceCompatibilityGroups=true is not supported"));
  CHECK(Implemented({"ClientsAllowCBOR=true"}).starts_with("feature gate ClientsAllowCBOR=true is not supported"));
  CHECK(Implemented({"AllBeta=false"}) ==
        "feature gate AllowParsingUserUIDFromCertAuth=false (set by AllBeta=false) is not supported by "
        "kube-scheduler-cpp: it implements AllowParsingUserUIDFromCertAuth=true only");
  CHECK(Implemented({"AllAlpha=true,GenericWorkload=true"}) ==
        "feature gate ClientsAllowCBOR=true (set by AllAlpha=true) is not supported by kube-scheduler-cpp: it "
        "implements ClientsAllowCBOR=false only");
  // Every version kube-scheduler v1.37 emulates runs with its defaults.
  CHECK(Implemented({}, Versions({"1.36"})) == "ok");
  CHECK(Implemented({}, Versions({"1.35"})) == "ok");
  CHECK(Implemented({}, Versions({"1.34"})) == "ok");
  // A default that a minimum compatibility version changes.
  CHECK(Implemented({}, Versions({}, {"1.37"})) ==
        "feature gate DRAFractionalCapacityRange=true (its default at emulated version 1.37, min compatibility "
        "version 1.37) is not supported by kube-scheduler-cpp: it implements DRAFractionalCapacityRange=false only");
  CHECK(Implemented({"SchedulerPopFromBackoffQ=false"}) == "ok");  // implemented both ways
  CHECK(Implemented({"OpportunisticBatching=false"}) == "ok");     // no batching here (#48)
  CHECK(Implemented({"OpportunisticBatching=true"}) == "ok");
  CHECK(Implemented({"WatchListClient=false,InformerResourceVersion=false"}) == "ok");  // client-go internals
  CHECK(Implemented({"CPUManagerPolicyBetaOptions=false,KMSv1=true"}) == "ok");        // not read by a scheduler
  CHECK(Implemented({"ContextualLogging=false,LoggingAlphaOptions=true"}) == "ok");    // no effect on these logs
}

TEST_CASE("the gates the configuration and the framework read follow the emulated version", "[feature_gates]") {
  struct Row {
    std::string version;
    bool storage_capacity_scoring, volume_limit_scaling, node_declared_features, pod_level_resize,
        binding_conditions, nominated_node_name;
  };
  for (const Row& row : {Row{"1.37", true, true, true, true, true, true},
                         Row{"1.36", false, false, true, true, true, true},
                         Row{"1.35", false, false, false, false, false, true},
                         Row{"1.34", false, false, false, false, false, false}}) {
    CAPTURE(row.version);
    absl::StatusOr<FeatureGates> gates = Parse({}, nullptr, Versions({row.version}));
    REQUIRE(gates.ok());
    const config::ConfigFeatureGates config_gates = ConfigGatesOf(*gates);
    CHECK(config_gates.storage_capacity_scoring == row.storage_capacity_scoring);
    CHECK(config_gates.node_declared_features == row.node_declared_features);
    CHECK(config_gates.dra_device_binding_conditions == row.binding_conditions);
    CHECK(config_gates.dra_scheduler_filter_timeout);
    CHECK(config_gates.dynamic_resource_allocation);
    const framework::Features features = FrameworkFeaturesOf(*gates);
    CHECK(features.storage_capacity_scoring == row.storage_capacity_scoring);
    CHECK(features.volume_limit_scaling == row.volume_limit_scaling);
    CHECK(features.node_declared_features == row.node_declared_features);
    CHECK(features.in_place_pod_level_resources_vertical_scaling == row.pod_level_resize);
    CHECK(gates->Enabled("NominatedNodeNameForExpectation") == row.nominated_node_name);
  }
  // A gate set explicitly wins over the emulated version's default.
  absl::StatusOr<FeatureGates> set = Parse({"StorageCapacityScoring=true"}, nullptr, Versions({"1.36"}));
  REQUIRE(set.ok());
  CHECK(ConfigGatesOf(*set).storage_capacity_scoring);
  CHECK(FrameworkFeaturesOf(*set).storage_capacity_scoring);
}

TEST_CASE("kubernetes_feature_enabled: one series per gate known at the emulated version", "[feature_gates]") {
  absl::StatusOr<FeatureGates> gates = Parse({"SchedulerPopFromBackoffQ=false"});
  REQUIRE(gates.ok());
  prometheus::Registry registry;
  metrics::RegisteredFamilies families;
  metrics::AddFeatureMetrics(registry, *gates, families);
  CHECK(families.Families() ==
        std::map<std::string, metrics::Stability, std::less<>>{{"kubernetes_feature_enabled", metrics::Stability::kBeta}});
  std::ostringstream out;
  metrics::WriteTextFormat(out, registry.Collect());
  const std::string text = out.str();
  CHECK(text.starts_with("# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and "
                         "enablement of a k8s feature.\n# TYPE kubernetes_feature_enabled gauge\n"));
  CHECK(text.find("kubernetes_feature_enabled{name=\"SchedulerPopFromBackoffQ\",stage=\"BETA\"} 0\n") != std::string::npos);
  CHECK(text.find("kubernetes_feature_enabled{name=\"DynamicResourceAllocation\",stage=\"\"} 1\n") != std::string::npos);
  CHECK(text.find("kubernetes_feature_enabled{name=\"KMSv1\",stage=\"DEPRECATED\"} 0\n") != std::string::npos);
  std::set<std::string_view> names;
  for (const VersionedFeatureSpec& row : VersionedFeatures()) names.insert(row.name);
  CHECK(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) == 2 + gates->Specs().size());
  CHECK(gates->Specs().size() <= names.size());
}

}  // namespace
}  // namespace ksched::scheduler
