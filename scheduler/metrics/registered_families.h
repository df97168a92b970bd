// RegisteredFamilies: the families registered in one /metrics registry, by name and stability
// level, for component-base's registered_metrics_total and hidden_metrics_total. prometheus-cpp
// cannot list a registry's families (its Collect leaves out those without series), so the code that
// registers a family describes it here: Help() records the family and returns its help text with
// component-base's stability prefix ("[ALPHA] ..."), to be given to the builder.
//
//   BuildCounter().Name("scheduler_x").Help(families.Help("scheduler_x", Stability::kAlpha, "...")).Register(r)
//
// HelpWithoutLevel is for this scheduler's own families, which print no prefix (they count as
// ALPHA, component-base's default). HelpDeprecated is for a family deprecated in this release (not
// yet hidden): "[ALPHA] (Deprecated since 1.37.0) ...", counted under that deprecated_version.
//
// Thread-safety: every method is locked; registrations happen at start, reads at scrapes.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/mutex.h"
#include "scheduler/metrics/buckets.h"

namespace ksched::scheduler::metrics {

class RegisteredFamilies {
 public:
  std::string Help(std::string_view name, Stability stability, std::string_view help);
  std::string HelpWithoutLevel(std::string_view name, std::string_view help);
  std::string HelpDeprecated(std::string_view name, Stability stability, std::string_view deprecated_version,
                             std::string_view help);

  // Every family described so far, name -> stability.
  std::map<std::string, Stability, std::less<>> Families() const;
  // The deprecated ones among them, name -> the version that deprecated it ("1.37.0").
  std::map<std::string, std::string, std::less<>> DeprecatedVersions() const;

 private:
  mutable base::Mutex mu_;
  std::map<std::string, Stability, std::less<>> families_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string, std::less<>> deprecated_versions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler::metrics
