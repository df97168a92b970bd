#include "client/leader_health_check.h"

namespace ksched::client {

absl::Status LeaderHealthCheck::Check() const {
  base::MutexLock lock(&mu_);
  if (elector_ == nullptr) return absl::OkStatus();
  return elector_->Check(tolerance_);
}

void LeaderHealthCheck::SetLeaderElector(const LeaderElector* elector) {
  base::MutexLock lock(&mu_);
  elector_ = elector;
}

}  // namespace ksched::client
