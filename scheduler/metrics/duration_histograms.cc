#include "scheduler/metrics/duration_histograms.h"

#include <string>
#include <utility>

namespace ksched::scheduler::metrics {

DurationHistograms::DurationHistograms(prometheus::Family<prometheus::Histogram>& family,
                                       prometheus::Labels fixed_labels,
                                       const std::vector<double>& buckets)
    : family_(family),
      fixed_labels_(std::move(fixed_labels)),
      buckets_(buckets),
      children_(framework::kExtensionPointCount * framework::kCodeCount) {}

void DurationHistograms::Observe(framework::ExtensionPoint point, framework::Code status,
                                 std::chrono::nanoseconds elapsed) {
  const std::size_t index = static_cast<std::size_t>(point) * framework::kCodeCount +
                            static_cast<std::size_t>(status);
  prometheus::Histogram& histogram = children_.Get(index, [&]() -> prometheus::Histogram& {
    prometheus::Labels labels = fixed_labels_;
    labels["extension_point"] = std::string(framework::ExtensionPointName(point));
    labels["status"] = std::string(framework::CodeName(status));
    return family_.Add(labels, buckets_);
  });
  histogram.Observe(std::chrono::duration<double>(elapsed).count());
}

}  // namespace ksched::scheduler::metrics
