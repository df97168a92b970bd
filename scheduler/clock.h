// Clock: the time source of the scheduler's timers (queue backoff, unschedulable timeout), so that
// tests drive time by hand (upstream k8s.io/utils/clock and its testing.FakeClock).
//
// Time is std::chrono::steady_clock: backoff and timeouts measure intervals, never wall time.
//
// Ownership: a Clock is borrowed by whoever reads it and must outlive them.
// Thread-safety: every method of RealClock and FakeClock is safe from any thread.
#pragma once

#include <chrono>

#include "base/mutex.h"

namespace ksched::scheduler {

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using duration = std::chrono::steady_clock::duration;

  virtual ~Clock() = default;
  virtual time_point Now() const = 0;
};

class RealClock final : public Clock {
 public:
  time_point Now() const override { return std::chrono::steady_clock::now(); }
};

// A clock that moves only when told to. Starts at one hour past the steady clock's epoch, on a
// whole second (the scheduling queue aligns backoff to whole seconds; tests rely on the start).
class FakeClock final : public Clock {
 public:
  FakeClock() = default;
  explicit FakeClock(time_point start) : now_(start) {}

  time_point Now() const override {
    base::MutexLock lock(&mu_);
    return now_;
  }
  // Moves the clock forward (or backward, for a negative step).
  void Step(duration step) {
    base::MutexLock lock(&mu_);
    now_ += step;
  }
  void SetTime(time_point t) {
    base::MutexLock lock(&mu_);
    now_ = t;
  }

 private:
  mutable base::Mutex mu_;
  time_point now_ ABSL_GUARDED_BY(mu_){std::chrono::hours(1)};
};

}  // namespace ksched::scheduler
