// RunningGoroutines: how many workers are busy with each kind of concurrent scheduler work, for
// upstream kube-scheduler's scheduler_goroutines{operation} gauge (pkg/scheduler/metrics, v1.34).
// Upstream counts goroutines; here the same units of work are counted whatever runs them:
//   binding                a binding cycle in progress (upstream: schedule_one.go's binding
//                          goroutine), from its start to the end of its error handling
//   prioritizing_extender  an interested extender's Prioritize call (one goroutine each upstream)
//   Filter, Score          Parallelizer::Until runs of the scheduling cycle's Filter and Score
//   InterPodAffinity, PodTopologySpread, DefaultPreemption
//                          Parallelizer::Until runs of these plugins (upstream labels them with
//                          the plugin's name)
// A Parallelizer run counts upstream's worker count for its size (numWorkersForChunkSize), added
// when the run starts and taken back when it ends, however many OS threads actually join it.
//
// An operation's series exists once it was first counted (Add with any delta, 0 included), as a
// client_golang vector child exists once WithLabelValues was called; idle, every value is 0.
//
// Cost: Add is one relaxed atomic add and one relaxed flag store; no lock, no allocation.
// Ownership: the metrics (scheduler/metrics/metrics.h) own one; the Parallelizer and the
// Scheduler hold a pointer to it. Thread-safety: every method is safe from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ksched::framework {

enum class GoroutineOperation : std::uint8_t {
  kBinding,
  kPrioritizingExtender,
  kFilter,
  kScore,
  kInterPodAffinity,
  kPodTopologySpread,
  kDefaultPreemption,
};
inline constexpr std::size_t kGoroutineOperationCount = 7;

// The operation label value, upstream's spelling ("binding", "prioritizing_extender", "Filter",
// "Score", "InterPodAffinity", "PodTopologySpread", "DefaultPreemption").
std::string_view GoroutineOperationLabel(GoroutineOperation operation);

class RunningGoroutines {
 public:
  void Add(GoroutineOperation operation, std::int64_t delta) {
    const auto index = static_cast<std::size_t>(operation);
    used_[index].store(true, std::memory_order_relaxed);
    running_[index].fetch_add(delta, std::memory_order_relaxed);
  }
  // The operation's current count, nullopt when it was never counted.
  std::optional<std::int64_t> Running(GoroutineOperation operation) const {
    const auto index = static_cast<std::size_t>(operation);
    if (!used_[index].load(std::memory_order_relaxed)) return std::nullopt;
    return running_[index].load(std::memory_order_relaxed);
  }

 private:
  std::array<std::atomic<std::int64_t>, kGoroutineOperationCount> running_{};
  std::array<std::atomic<bool>, kGoroutineOperationCount> used_{};
};

// Counts `workers` of `operation` for its lifetime; a null counter counts nothing. Moving hands
// the count over (the moved-from object counts nothing any more).
class CountedGoroutines {
 public:
  CountedGoroutines(RunningGoroutines* counter, GoroutineOperation operation,
                    std::int64_t workers = 1)
      : counter_(counter), operation_(operation), workers_(workers) {
    if (counter_ != nullptr) counter_->Add(operation_, workers_);
  }
  ~CountedGoroutines() {
    if (counter_ != nullptr) counter_->Add(operation_, -workers_);
  }
  CountedGoroutines(CountedGoroutines&& other) noexcept
      : counter_(std::exchange(other.counter_, nullptr)),
        operation_(other.operation_),
        workers_(other.workers_) {}
  CountedGoroutines(const CountedGoroutines&) = delete;
  CountedGoroutines& operator=(const CountedGoroutines&) = delete;
  CountedGoroutines& operator=(CountedGoroutines&&) = delete;

 private:
  RunningGoroutines* counter_;
  const GoroutineOperation operation_;
  const std::int64_t workers_;
};

}  // namespace ksched::framework
