// Scheduler: the scheduling loop (upstream schedule_one.go): pop a pod, pick its profile by
// spec.schedulerName, run the scheduling cycle on this thread (snapshot update, PreFilter ...
// Score, assume in the cache, Reserve, Permit), start the binding cycle, and take the next pod at
// once. The binding cycle runs one of two ways:
//   - without a thread: when the profile binds without blocking (Framework::BindsWithoutBlocking:
//     no PostBind plugins, PreBind plugins only with a PreFlight, DefaultBinder over
//     RestClusterApi), the pod does not wait at Permit and no PreBind PreFlight has work for it
//     (VolumeBinding: every claim already bound), the scheduling thread starts the Bind plugins' asynchronous POST and the REST
//     client's callback finishes the cycle (the Scheduled event, metrics) on the
//     transport's thread. At most `binding_threads` such bindings are in flight (BindingWindow),
//     as with the pool; a failure's handling (Unreserve, requeue, status write) goes to the pool.
//   - on the binding pool (the nominatedNodeName write, WaitOnPermit, PreBind, Bind, PostBind, each
//     blocking), otherwise.
// Upstream runs every binding cycle in a goroutine of its own; both ways keep its order of steps.
// The PreBind PreFlights run on the scheduling thread after Permit (upstream: first thing in the
// binding goroutine); a PreFlight error fails the binding cycle. With NominatedNodeNameForExpectation
// (see SchedulerOptions), a pod that waits at Permit or whose PreBind has work gets
// status.nominatedNodeName = its node before either; while in PreBind it can be preempted in memory
// (Framework::CancelPodInPreBind), which fails its binding cycle instead of binding it.
//
// Failures, as upstream's handleSchedulingFailure (v1.37): the pod goes back to the queue
// (AddUnschedulableIfNotPresent, which picks backoff or the unschedulable pool from the rejecting
// plugins) unless the informer already shows it bound or gone; a Warning FailedScheduling event
// with the FitError message (truncated to 1024 bytes); the PodScheduled=False condition
// (reason Unschedulable or SchedulerError) patched on pods/status when it changed, against the
// informer's copy of the pod, and with status.nominatedNodeName cleared unless preemption
// nominated a node. A pod the informer shows recreated (another UID) is neither requeued nor
// written to. A failure after assume (Reserve, Permit, WaitOnPermit, PreBind, Bind) also runs
// Unreserve, forgets the assumed pod and raises an AssignedPodDelete event so that pods waiting on
// the freed room retry.
//
// Ownership: borrows the cache, queue, profiles and services, which must outlive it (the REST
// client too: the destructor waits for the asynchronous bindings in flight).
// Thread-safety: ScheduleOne/Run from one scheduling thread; binding cycles on the pool's threads
// or the REST client's transport thread.
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

#include "absl/status/status.h"
#include "api/pod.h"
#include "framework/framework.h"
#include "framework/running_goroutines.h"
#include "framework/snapshot.h"
#include "scheduler/binding_window.h"
#include "scheduler/cache.h"
#include "scheduler/schedule_algorithm.h"
#include "scheduler/scheduling_queue.h"
#include "scheduler/worker_pool.h"

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
  // schedule_one.go updatePod(pod, no condition, {node_name, Override}) in the binding cycle:
  // sets status.nominatedNodeName to `node_name` unless `pod` (the scheduler's copy) shows it
  // already. Blocks (a binding thread) until the API server answered, so that the field is set
  // before the pod waits at Permit or runs PreBind, and never after its bind.
  virtual absl::Status SetNominatedNodeName(const api::Pod& pod, const std::string& node_name) = 0;
};

// The binding pool's threads when every profile binds without blocking and has no PreBind
// plugins (only failures use it).
inline constexpr int kFailurePoolThreads = 2;

struct SchedulerOptions {
  std::int32_t percentage_of_nodes_to_score = 0;  // global; 0 = adaptive
  // Binding cycles in flight at once, each way (see above): the pool's threads and the window of
  // asynchronous bindings. When every profile binds without blocking, the pool only handles bind
  // failures and gets at most kFailurePoolThreads threads.
  int binding_threads = 32;
  std::optional<std::uint64_t> seed;  // tie-break randomness; nullopt = random
  // Optional: scheduler_schedule_attempts_total, scheduling_attempt/algorithm durations, the SLI
  // and attempts of bound pods; also picks the cycles whose plugins are timed. Must outlive the
  // Scheduler.
  metrics::Metrics* metrics = nullptr;
  // The queue's clock, against which the SLI measures a pod's initial attempt time; nullptr:
  // steady_clock (the RealClock the daemon uses).
  const Clock* clock = nullptr;
  // KubeSchedulerConfiguration.extenders, in order (borrowed; they outlive the Scheduler). A pod
  // an extender binds takes the binding pool, and that extender's Bind replaces the Bind plugins.
  std::vector<Extender*> extenders;
  // The NominatedNodeNameForExpectation gate (beta, on by default since v1.35; KEP-5278): the
  // binding cycle runs the PreBind PreFlights and, when a PreBind plugin has work to do or the
  // pod waits at Permit, first sets status.nominatedNodeName to the chosen node, telling cluster
  // autoscalers where the pod is about to go (PodStatusWriter::SetNominatedNodeName). A failed
  // binding cycle clears it (with its PodScheduled=False write); the API server clears it at bind
  // (ClearingNominatedNodeNameAfterBinding). Off: v1.34's behaviour (no PreFlights, no write).
  bool nominated_node_name_for_expectation = true;
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
  using TimePoint = std::chrono::steady_clock::time_point;
  struct AsyncBinding;
  // Starts the binding cycle of a pod that does not wait at Permit, without a thread.
  void StartAsyncBinding(std::shared_ptr<AsyncBinding> binding);
  // The rest of an asynchronous binding cycle, once the Bind plugins answered `bound`.
  void FinishAsyncBinding(const std::shared_ptr<AsyncBinding>& binding, framework::Status bound);
  // Hands a failed asynchronous binding cycle to the pool (HandleBindingCycleError).
  void FailAsyncBinding(const std::shared_ptr<AsyncBinding>& binding, framework::Status status);
  // A bound pod: the Scheduled event, log, counters, metrics, PostBind.
  void RecordBound(framework::Framework& framework, framework::CycleState& state,
                   const ScheduleResult& result, const framework::QueuedPodInfo& pod_info,
                   const api::Pod& pod, TimePoint start);
  // Scheduling cycle: returns the result and, on failure, the status to report.
  // `start`: when the attempt began (after the pop), for the attempt and algorithm durations.
  framework::Status SchedulingCycle(framework::Framework& framework, framework::CycleState& state,
                                    framework::QueuedPodInfo& pod_info, ScheduleResult& result,
                                    framework::PodInfoPtr& assumed, TimePoint start);
  // `pre_flight`, `pre_bind_skipped`: RunPreBindPreFlights' answer for the pod (run on the
  // scheduling thread after Permit).
  framework::Status BindingCycle(framework::Framework& framework, framework::CycleState& state,
                                 const ScheduleResult& result, const framework::QueuedPodInfo& pod_info,
                                 const framework::PodInfoPtr& assumed, const framework::Status& pre_flight,
                                 std::uint64_t pre_bind_skipped, TimePoint start);
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
  // scheduler_goroutines{operation="binding"} (nullptr without SchedulerOptions::metrics).
  framework::RunningGoroutines* goroutines_ = nullptr;
  SchedulerStats stats_;
  BindingWindow binding_window_;  // drained first on destruction: its failures use the pool
  WorkerPool binding_pool_;       // joined once the window is idle
};

}  // namespace ksched::scheduler
