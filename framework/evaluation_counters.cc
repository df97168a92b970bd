#include "framework/evaluation_counters.h"

namespace ksched::framework {

EvaluationCounters::EvaluationCounters(std::size_t slots)
    : slots_(slots),
      lines_per_stripe_((slots + kPerLine - 1) / kPerLine),
      lines_(std::make_unique<Line[]>(kStripes * lines_per_stripe_)) {
  for (std::size_t i = 0; i < kStripes * lines_per_stripe_; ++i) {
    for (std::atomic<std::uint64_t>& count : lines_[i].counts) count.store(0, std::memory_order_relaxed);
  }
}

std::uint64_t EvaluationCounters::Total(std::size_t slot) const noexcept {
  std::uint64_t total = 0;
  for (std::size_t stripe = 0; stripe < kStripes; ++stripe) {
    total += lines_[stripe * lines_per_stripe_ + slot / kPerLine].counts[slot % kPerLine].load(
        std::memory_order_relaxed);
  }
  return total;
}

std::size_t EvaluationCounters::NextStripe() noexcept {
  static std::atomic<std::size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) % kStripes;
}

}  // namespace ksched::framework
