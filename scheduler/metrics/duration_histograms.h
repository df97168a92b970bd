// DurationHistograms: the framework's DurationSink over one prometheus-cpp histogram family with
// some labels fixed (profile=..., or plugin=...) and the other two (extension_point, status)
// chosen per observation from a lazily filled table of children (scheduler/metrics/lazy_children.h).
//
// Observations are counted in per-thread stripes of atomic bucket counters and moved into the
// prometheus-cpp histograms by Flush(), which Metrics::Collect calls before every exposition (so a
// scrape sees every observation made before it). Why: in a sampled cycle every Filter and Score
// plugin is timed on every node (upstream's runFilterPlugin), hundreds of observations per pod
// from two threads at once, and prometheus-cpp's Histogram::Observe takes a mutex and two
// compare-and-swap loops on shared lines per call: 3 % of the daemon's CPU on the GPU workload.
// Upstream records these asynchronously too (ObservePluginDurationAsync, flushed every second).
//
// Ownership: the family belongs to the Registry that outlives this object.
// Thread-safety: Observe and Flush are safe from any thread, concurrently. After a label set's
// first use Observe takes no lock: two relaxed atomic adds on its thread's stripe. An observation
// racing a Flush may have its count and its sum land in consecutive flushes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/labels.h>

#include "base/mutex.h"
#include "framework/metrics_recorder.h"
#include "scheduler/metrics/lazy_children.h"

namespace ksched::scheduler::metrics {

class DurationHistograms final : public framework::DurationSink {
 public:
  DurationHistograms(prometheus::Family<prometheus::Histogram>& family,
                     prometheus::Labels fixed_labels, const std::vector<double>& buckets);
  ~DurationHistograms() override;

  void Observe(framework::ExtensionPoint point, framework::Code status,
               std::chrono::nanoseconds elapsed) override;

  // Moves what was observed since the last call into the prometheus-cpp histograms.
  void Flush();

 private:
  class Striped;  // one label set's counters

  prometheus::Family<prometheus::Histogram>& family_;
  const prometheus::Labels fixed_labels_;
  const std::vector<double> buckets_;
  LazyChildren<Striped> children_;  // [point][code]

  base::Mutex created_mu_;
  std::vector<std::unique_ptr<Striped>> created_ ABSL_GUARDED_BY(created_mu_);
};

}  // namespace ksched::scheduler::metrics
