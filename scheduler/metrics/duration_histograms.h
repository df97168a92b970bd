// DurationHistograms: the framework's DurationSink over one prometheus-cpp histogram family with
// some labels fixed (profile=..., or plugin=...) and the other two (extension_point, status)
// chosen per observation from a lazily filled table of children (scheduler/metrics/lazy_children.h).
//
// Ownership: the family belongs to the Registry that outlives this object.
// Thread-safety: Observe is safe from any thread; after a label set's first use it takes no lock
// but the histogram's own.
#pragma once

#include <chrono>
#include <vector>

#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/labels.h>

#include "framework/metrics_recorder.h"
#include "scheduler/metrics/lazy_children.h"

namespace ksched::scheduler::metrics {

class DurationHistograms final : public framework::DurationSink {
 public:
  DurationHistograms(prometheus::Family<prometheus::Histogram>& family,
                     prometheus::Labels fixed_labels, const std::vector<double>& buckets);

  void Observe(framework::ExtensionPoint point, framework::Code status,
               std::chrono::nanoseconds elapsed) override;

 private:
  prometheus::Family<prometheus::Histogram>& family_;
  const prometheus::Labels fixed_labels_;
  const std::vector<double> buckets_;
  LazyChildren<prometheus::Histogram> children_;  // [point][code]
};

}  // namespace ksched::scheduler::metrics
