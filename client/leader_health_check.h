// LeaderHealthCheck: the leader-election check of /healthz and /readyz, as client-go's
// leaderelection.HealthzAdaptor: named "leaderElection", healthy until an elector is attached, then
// LeaderElector::Check(tolerance) (kube-scheduler: tolerance 20 s, kSchedulerLeaderHealthTolerance).
// It exists before the elector does, so the serving endpoints can be set up first.
//
// Ownership: borrows the elector; detach it (SetLeaderElector(nullptr)) before destroying it.
// Thread-safety: every method is safe from any thread; mu_ guards the elector pointer.
#pragma once

#include <chrono>
#include <string>

#include "absl/status/status.h"
#include "base/mutex.h"
#include "client/leader_elector.h"

namespace ksched::client {

class LeaderHealthCheck {
 public:
  explicit LeaderHealthCheck(std::chrono::nanoseconds tolerance = kSchedulerLeaderHealthTolerance)
      : tolerance_(tolerance) {}

  static constexpr const char* Name() { return "leaderElection"; }
  absl::Status Check() const;
  void SetLeaderElector(const LeaderElector* elector);

 private:
  const std::chrono::nanoseconds tolerance_;
  mutable base::Mutex mu_;
  const LeaderElector* elector_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace ksched::client
