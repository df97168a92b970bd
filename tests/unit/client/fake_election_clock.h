// FakeElectionClock: an ElectionClock that moves only when the test says so (upstream's
// k8s.io/utils/clock/testing FakeClock with HasWaiters). A sleeper registers and blocks on its own
// condition variable; Step() moves time and wakes the sleepers whose deadline passed (taking the
// sleeper's mutex first, so a wake-up cannot fall between registering and waiting).
// WaitForSleepers lets a test wait, in real time, until the code under test is asleep again.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "base/mutex.h"
#include "client/election_clock.h"

namespace ksched::client::testing {

class FakeElectionClock final : public ElectionClock {
 public:
  // Wall time at the start: 2026-11-30T12:00:00Z.
  static api::Time WallStart() { return api::Time(std::chrono::seconds(1796040000)); }

  time_point Now() const override {
    base::MutexLock lock(&mu_);
    return now_;
  }
  api::Time WallNow() const override {
    base::MutexLock lock(&mu_);
    return WallStart() + std::chrono::duration_cast<std::chrono::nanoseconds>(now_ - Start());
  }
  void WaitUntil(base::CondVar& cv, base::Mutex* sleeper_mu, time_point deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(sleeper_mu) override {
    std::uint64_t id = 0;
    {
      base::MutexLock guard(&mu_);
      if (now_ >= deadline) return;
      id = ++next_id_;
      sleepers_.push_back({id, &cv, sleeper_mu, deadline});
      sleepers_changed_.NotifyAll();
    }
    cv.Wait(sleeper_mu);
    base::MutexLock guard(&mu_);
    std::erase_if(sleepers_, [id](const Sleeper& s) { return s.id == id; });
  }

  // Moves time forward and wakes the sleepers that are due.
  void Step(std::chrono::nanoseconds step) {
    std::vector<Sleeper> due;
    {
      base::MutexLock guard(&mu_);
      now_ += step;
      for (const Sleeper& s : sleepers_) {
        if (s.deadline <= now_) due.push_back(s);
      }
      std::erase_if(sleepers_, [this](const Sleeper& s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return s.deadline <= now_; });
    }
    for (const Sleeper& s : due) {
      base::MutexLock guard(s.mutex);
      s.cv->NotifyAll();
    }
  }
  // Blocks (real time, at most `timeout`) until `count` sleepers are waiting; false on timeout.
  bool WaitForSleepers(std::size_t count = 1, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    base::MutexLock lock(&mu_);
    return sleepers_changed_.WaitFor(&mu_, timeout,
                                     [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return sleepers_.size() >= count; });
  }
  // Time since the start.
  std::chrono::nanoseconds Elapsed() const { return Now() - Start(); }

 private:
  struct Sleeper {
    std::uint64_t id;
    base::CondVar* cv;
    base::Mutex* mutex;
    time_point deadline;
  };
  static time_point Start() { return time_point(std::chrono::hours(1)); }

  mutable base::Mutex mu_;
  base::CondVar sleepers_changed_;
  time_point now_ ABSL_GUARDED_BY(mu_) = Start();
  std::uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<Sleeper> sleepers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::client::testing
