// BackoffPolicy (upstream backoff_queue_test.go TestBackoffQueue_calculateBackoffDuration /
// getBackoffTime, v1.34).
#include "scheduler/backoff_policy.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <limits>
#include <vector>

namespace ksched::scheduler {
namespace {

using namespace std::chrono_literals;
using time_point = BackoffPolicy::time_point;

TEST_CASE("BackoffPolicy: initial * 2^(count-1), capped at max", "[backoff_policy]") {
  struct Case {
    std::chrono::milliseconds initial, max;
    int count;
    std::chrono::milliseconds want;
  };
  const std::vector<Case> cases = {
      {1s, 10s, 0, 0s},   {1s, 10s, 1, 1s},    {1s, 10s, 2, 2s},      {1s, 10s, 3, 4s},
      {1s, 10s, 4, 8s},   {1s, 10s, 5, 10s},   {1s, 10s, 6, 10s},     {1s, 32s, 6, 32s},
      {1s, 10s, 100, 10s}, {1s, 10s, std::numeric_limits<int>::max(), 10s},
      {3s, 10s, 2, 6s},   {3s, 10s, 3, 10s},   {10s, 10s, 1, 10s},
  };
  for (const Case& c : cases) {
    const BackoffPolicy policy(c.initial, c.max, 0s);
    INFO("initial " << c.initial.count() << "ms max " << c.max.count() << "ms count " << c.count);
    CHECK(policy.BackoffDuration(c.count) == c.want);
  }
}

TEST_CASE("BackoffPolicy: errors take precedence over rejections while they last",
          "[backoff_policy]") {
  const BackoffPolicy policy(1s, 10s, 0s);
  const time_point t0(1h);
  framework::QueuedPodInfo pod;
  pod.timestamp = t0;
  CHECK_FALSE(policy.BackoffExpiration(pod).has_value());  // never failed: no backoff
  CHECK_FALSE(policy.IsBackingOff(pod, t0));

  pod.unschedulable_count = 3;
  CHECK(policy.BackoffExpiration(pod) == t0 + 4s);
  pod.consecutive_errors = 1;
  CHECK(BackoffPolicy::BackoffCount(pod) == 1);
  CHECK(policy.BackoffExpiration(pod) == t0 + 1s);
}

TEST_CASE("BackoffPolicy: without windows, backing off until strictly after the expiry",
          "[backoff_policy]") {
  const BackoffPolicy policy(1s, 10s, 0s);
  const time_point t0 = time_point(1h) + 300ms;
  framework::QueuedPodInfo pod;
  pod.timestamp = t0;
  pod.unschedulable_count = 1;
  CHECK(policy.IsBackingOff(pod, t0 + 999ms));
  CHECK(policy.IsBackingOff(pod, t0 + 1s));
  CHECK_FALSE(policy.IsBackingOff(pod, t0 + 1s + 1ns));
}

TEST_CASE("BackoffPolicy: with windows, expiries align down and complete with their window",
          "[backoff_policy]") {
  const BackoffPolicy policy(1s, 10s, 1s);
  const time_point t0 = time_point(1h) + 300ms;
  framework::QueuedPodInfo pod;
  pod.timestamp = t0;
  pod.unschedulable_count = 1;
  // t0 + 1s = 1h + 1.3s, aligned to 1h + 1s.
  CHECK(policy.BackoffExpiration(pod) == time_point(1h) + 1s);
  CHECK(policy.IsBackingOff(pod, time_point(1h) + 1s + 999ms));  // same window
  CHECK_FALSE(policy.IsBackingOff(pod, time_point(1h) + 2s));
  CHECK(policy.AlignToWindow(time_point(1h) + 1500ms) == time_point(1h) + 1s);
}

TEST_CASE("BackoffPolicy: ordering by expiry, pods without backoff first", "[backoff_policy]") {
  const BackoffPolicy policy(1s, 10s, 1s);
  framework::QueuedPodInfo fresh, early, late, late_same_window;
  early.timestamp = time_point(1h);
  early.unschedulable_count = 1;
  late.timestamp = time_point(1h);
  late.unschedulable_count = 2;
  late_same_window.timestamp = time_point(1h) + 400ms;
  late_same_window.unschedulable_count = 2;
  CHECK(policy.ExpiresBefore(fresh, early));
  CHECK_FALSE(policy.ExpiresBefore(early, fresh));
  CHECK_FALSE(policy.ExpiresBefore(fresh, fresh));
  CHECK(policy.ExpiresBefore(early, late));
  CHECK_FALSE(policy.ExpiresBefore(late, early));
  CHECK(policy.ExpiresTogether(late, late_same_window));
  CHECK_FALSE(policy.ExpiresTogether(early, late));
}

}  // namespace
}  // namespace ksched::scheduler
