// EvaluationCounters: a fixed number of event counters bumped from many threads at once, for the
// framework's per-plugin call counts (upstream's scheduler_plugin_evaluation_total, which counts
// every Filter and Score call, so once per node and plugin in the hot loops).
//
// Each thread adds to its own stripe of cache lines (16 stripes, assigned round-robin to threads
// when they first count), so the two Parallelizer workers never write the same line; a reader
// sums the stripes. Adding is a relaxed atomic increment, no lock and no allocation.
//
// Ownership: owns its counters. Thread-safety: Add and Total are safe from any thread; a Total
// racing Adds sees some of them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ksched::framework {

class EvaluationCounters {
 public:
  explicit EvaluationCounters(std::size_t slots);

  void Add(std::size_t slot) noexcept {
    Line& line = lines_[StripeOfThisThread() * lines_per_stripe_ + slot / kPerLine];
    line.counts[slot % kPerLine].fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t Total(std::size_t slot) const noexcept;
  std::size_t slots() const noexcept { return slots_; }

 private:
  static constexpr std::size_t kStripes = 16;
  static constexpr std::size_t kPerLine = 8;
  struct alignas(64) Line {
    std::atomic<std::uint64_t> counts[kPerLine];
  };
  static std::size_t StripeOfThisThread() noexcept {
    thread_local const std::size_t stripe = NextStripe();
    return stripe;
  }
  static std::size_t NextStripe() noexcept;

  const std::size_t slots_;
  const std::size_t lines_per_stripe_;
  std::unique_ptr<Line[]> lines_;
};

}  // namespace ksched::framework
