#include "scheduler/metrics/duration_histograms.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ksched::scheduler::metrics {

// One label set: kStripes copies of (bucket counts..., sum in nanoseconds), each on cache lines of
// its own so that two threads observing at once do not share a line.
class DurationHistograms::Striped {
 public:
  Striped(prometheus::Histogram& histogram, const std::vector<double>& bounds)
      : histogram_(histogram),
        bounds_(bounds),
        lines_per_stripe_((bounds.size() + 2 + kPerLine - 1) / kPerLine),
        lines_(kStripes * lines_per_stripe_) {}

  void Observe(std::chrono::nanoseconds elapsed) {
    const double seconds = std::chrono::duration<double>(elapsed).count();
    // prometheus-cpp's rule: the first bucket whose upper bound is >= the value, else +Inf.
    const std::size_t bucket = static_cast<std::size_t>(
        std::find_if(bounds_.begin(), bounds_.end(), [seconds](double bound) { return bound >= seconds; }) -
        bounds_.begin());
    const std::size_t stripe = StripeOfThisThread();
    Counter(stripe, bucket).fetch_add(1, std::memory_order_relaxed);
    Counter(stripe, bounds_.size() + 1)
        .fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(elapsed.count(), 0)), std::memory_order_relaxed);
  }

  void Flush() {
    std::vector<double> increments(bounds_.size() + 1, 0.0);
    std::uint64_t count = 0;
    std::uint64_t sum_ns = 0;
    for (std::size_t stripe = 0; stripe < kStripes; ++stripe) {
      for (std::size_t bucket = 0; bucket <= bounds_.size(); ++bucket) {
        const std::uint64_t n = Counter(stripe, bucket).exchange(0, std::memory_order_relaxed);
        increments[bucket] += static_cast<double>(n);
        count += n;
      }
      sum_ns += Counter(stripe, bounds_.size() + 1).exchange(0, std::memory_order_relaxed);
    }
    if (count == 0 && sum_ns == 0) return;
    histogram_.ObserveMultiple(increments, static_cast<double>(sum_ns) / 1e9);
  }

 private:
  static constexpr std::size_t kStripes = 4;
  static constexpr std::size_t kPerLine = 8;
  struct alignas(64) Line {
    std::atomic<std::uint64_t> counters[kPerLine];
  };

  static std::size_t StripeOfThisThread() {
    static std::atomic<std::size_t> next{0};
    thread_local const std::size_t stripe = next.fetch_add(1, std::memory_order_relaxed) % kStripes;
    return stripe;
  }
  std::atomic<std::uint64_t>& Counter(std::size_t stripe, std::size_t slot) {
    return lines_[stripe * lines_per_stripe_ + slot / kPerLine].counters[slot % kPerLine];
  }

  prometheus::Histogram& histogram_;
  const std::vector<double>& bounds_;  // the owner's buckets_
  const std::size_t lines_per_stripe_;
  std::vector<Line> lines_;
};

DurationHistograms::DurationHistograms(prometheus::Family<prometheus::Histogram>& family,
                                       prometheus::Labels fixed_labels,
                                       const std::vector<double>& buckets)
    : family_(family),
      fixed_labels_(std::move(fixed_labels)),
      buckets_(buckets),
      children_(framework::kExtensionPointCount * framework::kCodeCount) {}

DurationHistograms::~DurationHistograms() = default;

void DurationHistograms::Observe(framework::ExtensionPoint point, framework::Code status,
                                 std::chrono::nanoseconds elapsed) {
  const std::size_t index = static_cast<std::size_t>(point) * framework::kCodeCount +
                            static_cast<std::size_t>(status);
  Striped& striped = children_.Get(index, [&]() -> Striped& {
    prometheus::Labels labels = fixed_labels_;
    labels["extension_point"] = std::string(framework::ExtensionPointName(point));
    labels["status"] = std::string(framework::CodeName(status));
    auto made = std::make_unique<Striped>(family_.Add(labels, buckets_), buckets_);
    base::MutexLock lock(&created_mu_);
    created_.push_back(std::move(made));
    return *created_.back();
  });
  striped.Observe(elapsed);
}

void DurationHistograms::Flush() {
  base::MutexLock lock(&created_mu_);
  for (const std::unique_ptr<Striped>& striped : created_) striped->Flush();
}

}  // namespace ksched::scheduler::metrics
