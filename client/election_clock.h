// ElectionClock: the time source of LeaderElector (upstream k8s.io/utils/clock), so that unit tests
// drive leader election by hand.
//
// Two readings: Now() is monotonic and measures everything the elector decides on (when it last
// saw the record change, lease expiry, renew deadline, retry waits); WallNow() is the UTC time
// written into the Lease (acquireTime, renewTime) and into events. Upstream's time.Now() carries
// both readings in one value.
//
// WaitUntil is how the elector sleeps: it blocks on the elector's own condition variable until
// `deadline` (by this clock), a notification, or spuriously; callers loop on their own predicate.
// A fake clock (tests/unit/client/fake_election_clock.h) wakes the sleeper when moved past its
// deadline instead.
//
// Ownership: shared by whoever reads it. Thread-safety: every method is safe from any thread.
#pragma once

#include <chrono>

#include "api/time.h"
#include "base/mutex.h"

namespace ksched::client {

class ElectionClock {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  virtual ~ElectionClock() = default;
  virtual time_point Now() const = 0;
  virtual api::Time WallNow() const = 0;
  // The caller holds `mu`, the mutex `cv` is used with; it is released while waiting, as
  // CondVar::Wait does.
  virtual void WaitUntil(base::CondVar& cv, base::Mutex* mu, time_point deadline) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) = 0;
};

class RealElectionClock final : public ElectionClock {
 public:
  time_point Now() const override { return std::chrono::steady_clock::now(); }
  api::Time WallNow() const override {
    return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  }
  void WaitUntil(base::CondVar& cv, base::Mutex* mu, time_point deadline) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) override {
    cv.WaitUntil(mu, deadline);
  }
};

}  // namespace ksched::client
