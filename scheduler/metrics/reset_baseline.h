// ResetBaseline: what component-base's KubeRegistry.Reset (DELETE /metrics, HandlerWithReset)
// does to a registry, applied to the registry's collected families at exposition time instead of
// to the live metrics. The live children cannot be removed: the hot paths hold pointers to them
// (LazyChildren, DurationHistograms) without a lock.
//
// Reset(families) records the families as they are now; Apply(families) then shows each later
// collection as upstream's registry would look after its Reset, family by family by `Policy`:
//   kReset (the default: every metric of component-base's types):
//     - a series with labels (a child of a *Vec): hidden while it equals its recorded value (the
//       child was deleted and not recreated); once it has moved, its value since the reset
//       (counter and gauge values minus the recorded one, histogram buckets, count and sum too).
//       For a gauge moved by Inc/Dec this is what upstream shows too: its new child starts at 0;
//     - a series without labels: a counter counts again from 0 (Counter.Reset) and stays shown;
//       a histogram or gauge keeps its value (component-base's Histogram and Gauge have no Reset).
//   kKeep: not reset (a gauge upstream sets every second, e.g. scheduler_cache_size; collectors
//     outside component-base's types).
//   kSetOnChange: a gauge upstream sets only when its value changes (leader_election_master_status):
//     hidden while equal to the recorded value, then its value as is.
//   kGone: series upstream updates through children it holds (scheduler_pending_pods: the queue's
//     recorders keep the child they were made with, detached by the reset): never shown again.
// A series that did not exist at the reset is shown as is. A family left without series is for the
// exposition to drop (GatheredText does).
//
// Known difference: a series that moves and comes back to its recorded value stays hidden, where
// upstream shows it (e.g. a gauge incremented then decremented: 0).
//
// Thread-safety: none; the owner locks (Metrics::Reset and SerializeText share a mutex).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace ksched::scheduler::metrics {

class ResetBaseline {
 public:
  enum class Policy { kReset, kKeep, kSetOnChange, kGone };
  using PolicyFor = std::function<Policy(std::string_view family)>;

  explicit ResetBaseline(PolicyFor policy_for);

  // Records `families` (a Collect() of the registry now) as the point every later Apply counts from.
  // A second Reset replaces the first.
  void Reset(const std::vector<prometheus::MetricFamily>& families);

  // Rewrites `families`, a later Collect(), as upstream's registry would expose it. No-op before
  // the first Reset.
  void Apply(std::vector<prometheus::MetricFamily>& families) const;

  bool active() const { return !recorded_.empty(); }

 private:
  // Family name, then the series' labels in the order the registry gives them.
  using SeriesKey = std::pair<std::string, std::vector<prometheus::ClientMetric::Label>>;

  PolicyFor policy_for_;
  std::map<SeriesKey, prometheus::ClientMetric> recorded_;
};

}  // namespace ksched::scheduler::metrics
