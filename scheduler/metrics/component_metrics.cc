#include "scheduler/metrics/component_metrics.h"

#include <string>
#include <string_view>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>

#include "api/build_info.h"
#include "scheduler/metrics/buckets.h"

namespace ksched::scheduler::metrics {

void AddComponentMetrics(prometheus::Registry& registry, RegisteredFamilies& families,
                         const std::string& emulation_version, const std::string& min_compatibility_version) {
  const api::BuildInfo& info = api::GetBuildInfo();
  const std::string release(info.kubernetes_version);  // "1.37.2"
  const std::string major = release.substr(0, release.find('.'));
  const std::string major_minor = release.substr(0, release.rfind('.'));  // "1.37"
  const std::string minor = major_minor.substr(major_minor.find('.') + 1);
  prometheus::BuildGauge()
      .Name("kubernetes_build_info")
      .Help(families.Help("kubernetes_build_info", Stability::kBeta,
                          "A metric with a constant '1' value labeled by major, minor, git version, git commit, "
                          "git tree state, build date, Go version, and compiler from which Kubernetes was built, "
                          "and platform on which it is running."))
      .Register(registry)
      .Add({{"major", major},
            {"minor", minor},
            {"git_version", "v" + release},
            {"git_commit", std::string(info.git_commit)},
            {"git_tree_state", std::string(info.git_tree_state)},
            {"build_date", std::string(info.commit_date)},
            {"go_version", ""},
            {"compiler", std::string(info.compiler)},
            {"platform", std::string(info.platform)}})
      .Set(1);
  // The minimum compatibility version is one minor below the binary's, as component-base derives it.
  const std::string emulation = emulation_version.empty() ? major_minor : emulation_version;
  const std::string min_compat = !min_compatibility_version.empty()
                                     ? min_compatibility_version
                                     : major + "." + std::to_string(std::stoi(minor) - 1);
  prometheus::BuildGauge()
      .Name("version_info")
      .Help(families.Help("version_info", Stability::kAlpha,
                          "Provides the compatibility version info of the component. The component label is the "
                          "name of the component, usually kube, but is relevant for aggregated-apiservers."))
      .Register(registry)
      .Add({{"component", "kube"}, {"binary", release}, {"emulation", emulation}, {"min_compat", min_compat}})
      .Set(1);
  prometheus::BuildCounter()
      .Name("cardinality_enforcement_unexpected_categorizations_total")
      .Help(families.Help("cardinality_enforcement_unexpected_categorizations_total", Stability::kAlpha,
                          "The count of unexpected categorizations during cardinality enforcement."))
      .Register(registry)
      .Add({});
}

}  // namespace ksched::scheduler::metrics
