#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

std::string RegisteredFamilies::Help(std::string_view name, Stability stability, std::string_view help) {
  base::MutexLock lock(&mu_);
  families_.insert_or_assign(std::string(name), stability);
  return WithStability(stability, help);
}

std::string RegisteredFamilies::HelpWithoutLevel(std::string_view name, std::string_view help) {
  base::MutexLock lock(&mu_);
  families_.insert_or_assign(std::string(name), Stability::kAlpha);
  return std::string(help);
}

std::string RegisteredFamilies::HelpDeprecated(std::string_view name, Stability stability,
                                               std::string_view deprecated_version, std::string_view help) {
  base::MutexLock lock(&mu_);
  families_.insert_or_assign(std::string(name), stability);
  deprecated_versions_.insert_or_assign(std::string(name), std::string(deprecated_version));
  return WithStability(stability, "(Deprecated since " + std::string(deprecated_version) + ") " + std::string(help));
}

std::map<std::string, std::string, std::less<>> RegisteredFamilies::DeprecatedVersions() const {
  base::MutexLock lock(&mu_);
  return deprecated_versions_;
}

std::map<std::string, Stability, std::less<>> RegisteredFamilies::Families() const {
  base::MutexLock lock(&mu_);
  return families_;
}

}  // namespace ksched::scheduler::metrics
