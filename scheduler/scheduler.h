// Scheduler: the scheduling loop (upstream schedule_one.go): pop a pod, pick its profile by
// spec.schedulerName, run the scheduling cycle on this thread (snapshot update, PreFilter ...
// Score, assume in the cache, Reserve, Permit), hand the binding cycle (WaitOnPermit, PreBind,
// Bind, PostBind) to the binding pool, and take the next pod at once.
//
// Failures, as upstream's handleSchedulingFailure: the pod goes back to the queue
// (AddUnschedulableIfNotPresent, which picks backoff or the unschedulable pool from the rejecting
// plugins) unless the informer already shows it bound or gone; a Warning FailedScheduling event
// with the FitError message (truncated to 1024 bytes); the PodScheduled=False condition
// (reason Unschedulable or SchedulerError) patched on pods/status when it changed. A failure after
// assume (Reserve, Permit, WaitOnPermit, PreBind, Bind) also runs Unreserve, forgets the assumed
// pod and raises an AssignedPodDelete event so that pods waiting on the freed room retry.
//
// Ownership: borrows the cache, queue, profiles and services, which must outlive it.
// Thread-safety: ScheduleOne/Run from one scheduling thread; binding cycles on the pool's threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/pod.h"
#include "framework/framework.h"
#include "framework/snapshot.h"
#include "scheduler/worker_pool.h"
#include "scheduler/cache.h"
#include "scheduler/schedule_algorithm.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler {

namespace metrics {
class Metrics;
class ProfileAttemptMetrics;
enum class AttemptResult;
}  // namespace metrics

// Writes the PodScheduled condition (and nominatedNodeName) to pods/status; asynchronous, so
// the scheduling thread never waits on the API server. Implemented over the REST client.
class PodStatusWriter {
 public:
  virtual ~PodStatusWriter() = default;
  // `nominating`: kOverride sets status.nominatedNodeName to its node ("" clears it).
  virtual void UpdatePodScheduledCondition(std::shared_ptr<const api::Pod> pod,
                                           api::PodCondition condition,
                                           std::optional<framework::NominatingInfo> nominating) = 0;
};

struct SchedulerOptions {
  std::int32_t percentage_of_nodes_to_score = 0;  // global; 0 = adaptive
  int binding_threads = 32;
  std::optional<std::uint64_t> seed;  // tie-break randomness; nullopt = random
  // Optional: scheduler_schedule_attempts_total, scheduling_attempt/algorithm durations, the SLI
  // and attempts of bound pods; also picks the cycles whose plugins are timed. Must outlive the
  // Scheduler.
  metrics::Metrics* metrics = nullptr;
  // The queue's clock, against which the SLI measures a pod's initial attempt time; nullptr:
  // steady_clock (the RealClock the daemon uses).
  const Clock* clock = nullptr;
};

// Counters of the loop (monotonic).
struct SchedulerStats {
  std::atomic<std::uint64_t> attempts{0};
  std::atomic<std::uint64_t> scheduled{0};      // bound
  std::atomic<std::uint64_t> unschedulable{0};  // attempts ending in a rejection
  std::atomic<std::uint64_t> errors{0};         // attempts ending in an error
  std::atomic<std::uint64_t> skipped{0};        // deleting or already assumed pods
};

class Scheduler {
 public:
  using PodLookup =
      std::function<std::shared_ptr<const api::Pod>(std::string_view ns, std::string_view name)>;

  Scheduler(SchedulerOptions options, Cache& cache, SchedulingQueue& queue,
            std::map<std::string, framework::Framework*, std::less<>> profiles,
            PodLookup informer_pod, PodStatusWriter& status_writer);
  ~Scheduler();

  // The profile for a pod's spec.schedulerName, nullptr when none.
  framework::Framework* FrameworkForPod(const api::Pod& pod) const;
  bool Responsible(const api::Pod& pod) const { return FrameworkForPod(pod) != nullptr; }

  // Pops one pod (blocking) and runs its scheduling cycle; false when the queue was closed.
  bool ScheduleOne();
  // ScheduleOne until the queue is closed.
  void Run();
  // Waits for the binding cycles in flight (tests, shutdown).
  void DrainBindings();

  const SchedulerStats& stats() const { return stats_; }

 private:
  struct CycleResult;
  // Scheduling cycle: returns the result and, on failure, the status to report.
  // `start`: when the attempt began (after the pop), for the attempt and algorithm durations.
  using TimePoint = std::chrono::steady_clock::time_point;
  framework::Status SchedulingCycle(framework::Framework& framework, framework::CycleState& state,
                                    framework::QueuedPodInfo& pod_info, ScheduleResult& result,
                                    framework::PodInfoPtr& assumed, TimePoint start);
  framework::Status BindingCycle(framework::Framework& framework, framework::CycleState& state,
                                 const ScheduleResult& result, const framework::QueuedPodInfo& pod_info,
                                 const framework::PodInfoPtr& assumed, TimePoint start);
  void HandleBindingCycleError(framework::Framework& framework, framework::CycleState& state,
                               framework::QueuedPodInfoPtr pod_info, const ScheduleResult& result,
                               const framework::PodInfoPtr& assumed, const framework::Status& status,
                               TimePoint start);
  void HandleSchedulingFailure(framework::Framework& framework, framework::QueuedPodInfoPtr pod_info,
                               const framework::Status& status, const std::optional<FitError>& fit_error,
                               const std::optional<framework::NominatingInfo>& nominating,
                               TimePoint start);
  // Metrics (no-ops without SchedulerOptions::metrics).
  void ObserveAttempt(const framework::Framework& framework, metrics::AttemptResult result,
                      TimePoint start);
  void ObservePodScheduled(const framework::QueuedPodInfo& pod_info);
  bool SkipPodSchedule(framework::Framework& framework, const api::Pod& pod);

  SchedulerOptions options_;
  Cache& cache_;
  SchedulingQueue& queue_;
  std::map<std::string, framework::Framework*, std::less<>> profiles_;
  PodLookup informer_pod_;
  PodStatusWriter& status_writer_;

  framework::Snapshot snapshot_;  // scheduling thread only
  ScheduleAlgorithm algorithm_;   // scheduling thread only
  std::minstd_rand sample_random_;  // scheduling thread only; picks the timed cycles
  // The attempt series of each profile, resolved at construction (read-only afterwards).
  std::unordered_map<const framework::Framework*, metrics::ProfileAttemptMetrics*> profile_metrics_;
  SchedulerStats stats_;
  WorkerPool binding_pool_;  // last: joined first on destruction
};

}  // namespace ksched::scheduler
