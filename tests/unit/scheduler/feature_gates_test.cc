// --feature-gates as component-base parses and validates it, over v1.34.4's gates, and the gates
// this scheduler refuses to run with at a value it does not implement.
#include "scheduler/feature_gates.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <prometheus/registry.h>
#include <map>
#include <sstream>

#include "scheduler/metrics/feature_metrics.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler {
namespace {

absl::StatusOr<FeatureGates> Parse(std::vector<std::string> values, std::vector<std::string>* warnings = nullptr) {
  std::vector<std::string> ignored;
  return FeatureGates::Parse(values, warnings != nullptr ? warnings : &ignored);
}

std::string ErrorOf(std::vector<std::string> values) {
  absl::StatusOr<FeatureGates> gates = Parse(std::move(values));
  return gates.ok() ? "ok" : std::string(gates.status().message());
}

TEST_CASE("the v1.34.4 gate table: sorted, with the scheduler's gates as upstream has them", "[feature_gates]") {
  const auto known = KnownFeatures();
  CHECK(known.size() == 208);
  CHECK(std::is_sorted(known.begin(), known.end(), [](const FeatureSpec& a, const FeatureSpec& b) { return a.name < b.name; }));
  FeatureGates defaults;
  CHECK(defaults.Enabled("SchedulerQueueingHints"));
  CHECK(defaults.Enabled("SchedulerPopFromBackoffQ"));
  CHECK(defaults.Enabled("SchedulerAsyncPreemption"));
  CHECK_FALSE(defaults.Enabled("SchedulerAsyncAPICalls"));
  CHECK_FALSE(defaults.Enabled("DRADeviceTaints"));
  CHECK(defaults.Enabled("ContextualLogging"));  // the logging gates are registered too
  CHECK(CheckImplementedGates(defaults).ok());
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
  CHECK(ErrorOf({"SchedulerQueueingHints=false"}) ==
        "cannot set feature gate SchedulerQueueingHints to false, feature is locked to true");
  CHECK(ErrorOf({"SchedulerQueueingHints=false", "SidecarContainers=0"}) ==
        "[cannot set feature gate SchedulerQueueingHints to false, feature is locked to true, "
        "cannot set feature gate SidecarContainers to false, feature is locked to true]");
  // A later item overrides an earlier one; components, spaces, empty items and Go's bool words.
  absl::StatusOr<FeatureGates> gates =
      Parse({" kube : SchedulerPopFromBackoffQ = F ,,", "SchedulerAsyncAPICalls=TRUE,SchedulerAsyncAPICalls=t"});
  REQUIRE(gates.ok());
  CHECK_FALSE(gates->Enabled("SchedulerPopFromBackoffQ"));
  CHECK(gates->Enabled("SchedulerAsyncAPICalls"));
  CHECK(ErrorOf({"SchedulerQueueingHints=false,SchedulerQueueingHints=true"}) == "ok");
}

TEST_CASE("feature gates: warnings, AllAlpha and AllBeta", "[feature_gates]") {
  std::vector<std::string> warnings;
  REQUIRE(Parse({"KMSv1=true,SchedulerQueueingHints=true"}, &warnings).ok());
  CHECK(warnings == std::vector<std::string>{
                        "Setting deprecated feature gate KMSv1=true. It will be removed in a future release.",
                        "Setting GA feature gate SchedulerQueueingHints=true. It will be removed in a future release."});
  warnings.clear();
  absl::StatusOr<FeatureGates> alpha = Parse({"AllAlpha=true,DRADeviceTaints=false"}, &warnings);
  REQUIRE(alpha.ok());
  CHECK(alpha->Enabled("StorageCapacityScoring"));
  CHECK(alpha->SetBy("StorageCapacityScoring") == "AllAlpha=true");
  CHECK_FALSE(alpha->Enabled("DRADeviceTaints"));  // named explicitly: AllAlpha does not reach it
  CHECK(alpha->SetBy("DRADeviceTaints").empty());
  CHECK(alpha->Enabled("SchedulerAsyncPreemption"));  // beta: untouched
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].starts_with("\"component has alpha features enabled in emulated version, this is unsupported\" features=["));
  CHECK(warnings[0].find(" StorageCapacityScoring ") != std::string::npos);
  CHECK(warnings[0].find("DRADeviceTaints") == std::string::npos);
  absl::StatusOr<FeatureGates> beta = Parse({"AllBeta=false"});
  REQUIRE(beta.ok());
  CHECK_FALSE(beta->Enabled("SchedulerPopFromBackoffQ"));
  CHECK(beta->Enabled("SchedulerQueueingHints"));  // GA: untouched
}

TEST_CASE("gates kube-scheduler reads are refused at values not implemented here", "[feature_gates]") {
  auto check = [](std::vector<std::string> values) {
    absl::StatusOr<FeatureGates> gates = Parse(std::move(values));
    REQUIRE(gates.ok());
    absl::Status status = CheckImplementedGates(*gates);
    return status.ok() ? std::string("ok") : std::string(status.message());
  };
  CHECK(check({"SchedulerAsyncPreemption=false"}) ==
        "feature gate SchedulerAsyncPreemption=false is not supported by kube-scheduler-cpp: it implements "
        "SchedulerAsyncPreemption=true only");
  CHECK(check({"DRADeviceTaints=true"}) ==
        "feature gate DRADeviceTaints=true is not supported by kube-scheduler-cpp: it implements DRADeviceTaints=false only");
  CHECK(check({"WatchListClient=true"}).starts_with("feature gate WatchListClient=true is not supported"));
  CHECK(check({"AllBeta=false"}) ==
        "feature gate AllowParsingUserUIDFromCertAuth=false (set by AllBeta=false) is not supported by "
        "kube-scheduler-cpp: it implements AllowParsingUserUIDFromCertAuth=true only");
  CHECK(check({"AllBeta=false,AllowParsingUserUIDFromCertAuth=true"}) ==
        "feature gate DRAAdminAccess=false (set by AllBeta=false) is not supported by kube-scheduler-cpp: it "
        "implements DRAAdminAccess=true only");
  CHECK(check({"AllowParsingUserUIDFromCertAuth=false"}) ==
        "feature gate AllowParsingUserUIDFromCertAuth=false is not supported by kube-scheduler-cpp: it implements "
        "AllowParsingUserUIDFromCertAuth=true only");
  CHECK(check({"SchedulerPopFromBackoffQ=false"}) == "ok");                   // implemented both ways
  CHECK(check({"CPUManagerPolicyBetaOptions=false,KMSv1=true"}) == "ok");          // not read by a scheduler
  CHECK(check({"ContextualLogging=false,LoggingAlphaOptions=true"}) == "ok");  // no effect on these logs
}

TEST_CASE("kubernetes_feature_enabled: one series per gate", "[feature_gates]") {
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
  CHECK(text.find("kubernetes_feature_enabled{name=\"SchedulerQueueingHints\",stage=\"\"} 1\n") != std::string::npos);
  CHECK(text.find("kubernetes_feature_enabled{name=\"KMSv1\",stage=\"DEPRECATED\"} 0\n") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 2 + 208);
}

}  // namespace
}  // namespace ksched::scheduler
