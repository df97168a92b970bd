#include "scheduler/backoff_policy.h"

namespace ksched::scheduler {

BackoffPolicy::BackoffPolicy(duration initial, duration max, duration ordering_window)
    : initial_(initial), max_(max), window_(ordering_window) {}

BackoffPolicy::duration BackoffPolicy::BackoffDuration(int count) const {
  if (count <= 0) return duration::zero();
  const int shift = count - 1;
  // Compare against max shifted right rather than shifting initial left: no overflow.
  if (shift >= 62 || initial_.count() > (max_.count() >> shift)) return max_;
  return duration(initial_.count() << shift);
}

int BackoffPolicy::BackoffCount(const framework::QueuedPodInfo& pod) {
  return pod.consecutive_errors > 0 ? pod.consecutive_errors : pod.unschedulable_count;
}

std::optional<BackoffPolicy::time_point> BackoffPolicy::BackoffExpiration(
    const framework::QueuedPodInfo& pod) const {
  const int count = BackoffCount(pod);
  if (count == 0) return std::nullopt;
  return AlignToWindow(pod.timestamp + BackoffDuration(count));
}

bool BackoffPolicy::IsBackingOff(const framework::QueuedPodInfo& pod, time_point now) const {
  const std::optional<time_point> expiration = BackoffExpiration(pod);
  return expiration.has_value() && !(*expiration < AlignToWindow(now));
}

BackoffPolicy::time_point BackoffPolicy::AlignToWindow(time_point t) const {
  if (window_ <= duration::zero()) return t;
  return t - (t.time_since_epoch() % window_);
}

bool BackoffPolicy::ExpiresBefore(const framework::QueuedPodInfo& a,
                                  const framework::QueuedPodInfo& b) const {
  const std::optional<time_point> ea = BackoffExpiration(a);
  const std::optional<time_point> eb = BackoffExpiration(b);
  if (!eb.has_value()) return false;
  return !ea.has_value() || *ea < *eb;
}

bool BackoffPolicy::ExpiresTogether(const framework::QueuedPodInfo& a,
                                    const framework::QueuedPodInfo& b) const {
  return BackoffExpiration(a) == BackoffExpiration(b);
}

}  // namespace ksched::scheduler
