#include "scheduler/metrics/reset_baseline.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace ksched::scheduler::metrics {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricType;

bool SameValue(MetricType type, const ClientMetric& now, const ClientMetric& then) {
  switch (type) {
    case MetricType::Counter:
      return now.counter.value == then.counter.value;
    case MetricType::Gauge:
      return now.gauge.value == then.gauge.value;
    case MetricType::Histogram:
      return now.histogram.sample_count == then.histogram.sample_count &&
             now.histogram.sample_sum == then.histogram.sample_sum;
    case MetricType::Summary:
      return now.summary.sample_count == then.summary.sample_count &&
             now.summary.sample_sum == then.summary.sample_sum;
    case MetricType::Untyped:
      return now.untyped.value == then.untyped.value;
  }
  std::abort();
}

// `now` minus `then`: the value a child created at the reset would hold.
void Subtract(MetricType type, ClientMetric& now, const ClientMetric& then) {
  switch (type) {
    case MetricType::Counter:
      now.counter.value -= then.counter.value;
      return;
    case MetricType::Gauge:
      now.gauge.value -= then.gauge.value;
      return;
    case MetricType::Untyped:
      now.untyped.value -= then.untyped.value;
      return;
    case MetricType::Histogram: {
      now.histogram.sample_count -= then.histogram.sample_count;
      now.histogram.sample_sum -= then.histogram.sample_sum;
      // The buckets of one series never change; a mismatch would be a registry bug.
      if (now.histogram.bucket.size() != then.histogram.bucket.size()) std::abort();
      for (std::size_t i = 0; i < now.histogram.bucket.size(); ++i) {
        now.histogram.bucket[i].cumulative_count -= then.histogram.bucket[i].cumulative_count;
      }
      return;
    }
    case MetricType::Summary:
      // No summaries here; the quantiles of a window cannot be taken apart anyway.
      now.summary.sample_count -= then.summary.sample_count;
      now.summary.sample_sum -= then.summary.sample_sum;
      return;
  }
  std::abort();
}

}  // namespace

ResetBaseline::ResetBaseline(PolicyFor policy_for) : policy_for_(std::move(policy_for)) {}

void ResetBaseline::Reset(const std::vector<prometheus::MetricFamily>& families) {
  recorded_.clear();
  for (const prometheus::MetricFamily& family : families) {
    if (policy_for_(family.name) == Policy::kKeep) continue;
    for (const ClientMetric& series : family.metric) {
      recorded_.emplace(SeriesKey{family.name, series.label}, series);
    }
  }
}

void ResetBaseline::Apply(std::vector<prometheus::MetricFamily>& families) const {
  if (recorded_.empty()) return;
  SeriesKey key;
  for (prometheus::MetricFamily& family : families) {
    const Policy policy = policy_for_(family.name);
    if (policy == Policy::kKeep) continue;
    key.first = family.name;
    std::erase_if(family.metric, [&](ClientMetric& series) {
      key.second = series.label;
      const auto recorded = recorded_.find(key);
      if (recorded == recorded_.end()) return false;  // created after the reset: as is
      if (policy == Policy::kGone) return true;
      const ClientMetric& then = recorded->second;
      if (series.label.empty()) {
        // A plain metric: only component-base's Counter has Reset.
        if (family.type == MetricType::Counter) Subtract(family.type, series, then);
        return false;
      }
      if (SameValue(family.type, series, then)) return true;  // deleted, not recreated since
      if (policy == Policy::kReset) Subtract(family.type, series, then);
      return false;
    });
  }
}

}  // namespace ksched::scheduler::metrics
