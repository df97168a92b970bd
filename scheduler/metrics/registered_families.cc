#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

std::string RegisteredFamilies::Help(std::string_view name, Stability stability, std::string_view help) {
  std::lock_guard lock(mu_);
  families_.insert_or_assign(std::string(name), stability);
  return WithStability(stability, help);
}

std::string RegisteredFamilies::HelpWithoutLevel(std::string_view name, std::string_view help) {
  std::lock_guard lock(mu_);
  families_.insert_or_assign(std::string(name), Stability::kAlpha);
  return std::string(help);
}

std::map<std::string, Stability, std::less<>> RegisteredFamilies::Families() const {
  std::lock_guard lock(mu_);
  return families_;
}

}  // namespace ksched::scheduler::metrics
