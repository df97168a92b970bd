// BackoffPolicy: how long a pod waits in the backoff queue after a failed attempt (upstream
// backoffQueue.getBackoffTime / calculateBackoffDuration / isPodBackingoff, v1.34).
//
//   count    = consecutive_errors when the last attempts ended in errors, else unschedulable_count
//   duration = 0 when count is 0, else initial * 2^(count-1) capped at max
//   expiry   = the pod's last failure time (QueuedPodInfo::timestamp) + duration, truncated to the
//              ordering window when windows are on (SchedulerPopFromBackoffQ)
//   a pod is backing off while expiry >= now (now truncated to the window when windows are on):
//   with 1 s windows a pod completes backoff only once its expiry's window is over.
//
// Counting errors and rejections apart (k/k #128748) keeps a burst of API errors from inflating a
// later rejection's backoff, and the reverse.
//
// Thread-safety: immutable after construction; const methods are safe from any thread.
#pragma once

#include <chrono>
#include <optional>

#include "framework/pod_info.h"

namespace ksched::scheduler {

class BackoffPolicy {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using duration = std::chrono::steady_clock::duration;

  // `ordering_window`: zero for no alignment, else the backoffQ ordering window (1 s upstream).
  BackoffPolicy(duration initial, duration max, duration ordering_window);

  // initial * 2^(count-1) capped at max; zero for count <= 0.
  duration BackoffDuration(int count) const;
  // The count the backoff is computed from (errors take precedence while they last).
  static int BackoffCount(const framework::QueuedPodInfo& pod);
  // When the pod completes backoff; nullopt when it owes no backoff (count 0).
  std::optional<time_point> BackoffExpiration(const framework::QueuedPodInfo& pod) const;
  bool IsBackingOff(const framework::QueuedPodInfo& pod, time_point now) const;
  // Truncates to the start of the ordering window (identity without windows).
  time_point AlignToWindow(time_point t) const;
  // Orders by expiration (no backoff first).
  bool ExpiresBefore(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const;
  // Whether both expire at the same instant (same window when windows are on).
  bool ExpiresTogether(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const;

  duration initial() const { return initial_; }
  duration max() const { return max_; }
  duration ordering_window() const { return window_; }

 private:
  duration initial_;
  duration max_;
  duration window_;
};

}  // namespace ksched::scheduler
