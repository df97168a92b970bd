// SchedulingQueue: the pods waiting to be scheduled (upstream pkg/scheduler/backend/queue
// PriorityQueue, v1.34, with QueueingHints GA and SchedulerPopFromBackoffQ on as by default).
//
// Three places hold a pending pod, exactly one at a time:
//   activeQ        heap ordered by the QueueSort plugin (`less`); Pop takes its head.
//   backoffQ       two heaps ordered by backoff expiry (scheduler/backoff_policy.h): pods rejected
//                  by plugins, and pods that failed with an error (no rejecting plugin). A flush
//                  about every second moves completed ones to activeQ. When activeQ is empty, Pop
//                  takes the head of the rejected-pods heap early (SchedulerPopFromBackoffQ).
//   unschedulable  pods rejected by plugins, waiting for a cluster event one of their rejecting
//                  plugins registered for and whose queueing hint says Queue; and gated pods
//                  (a PreEnqueue plugin said no: never attempted until it says yes). A flush every
//                  30 s moves pods that waited longer than pod_max_in_unschedulable_pods_duration
//                  (event UnschedulableTimeout; gated pods stay unless their gate listens to it).
// A popped pod is "in flight" until Done: cluster events arriving meanwhile are recorded and, if
// the attempt fails, replayed through the hints of the plugins that rejected it
// (scheduler/in_flight_events.h), so no event is lost to an attempt in progress.
//
// Where a failed pod goes (AddUnschedulableIfNotPresent): no rejecting plugin (an error) -> error
// backoff; a recorded event whose hint says Queue -> backoffQ (activeQ when its backoff is already
// over, or at once when the plugin returned Pending); otherwise the unschedulable pool.
// Backoff counts rejections and errors apart (BackoffPolicy).
//
// Pods are keyed by "namespace/name" (as upstream's queues); in-flight tracking is by UID.
//
// Thread-safety: every public method is safe from any thread. One mutex guards all state; Pop
// blocks on a condition variable without holding it. The callbacks (`less`, `pre_enqueue`, the
// queueing hints) run with the mutex held, as upstream runs them under the queue lock: they must
// be cheap and must not call back into the queue. Hints run on the thread that delivered the event.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/mutex.h"
#include "api/labels.h"
#include "api/pod.h"
#include "framework/cluster_event.h"
#include "framework/framework.h"
#include "framework/interface.h"
#include "framework/pod_info.h"
#include "framework/status.h"
#include "scheduler/backoff_policy.h"
#include "scheduler/clock.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/nominator.h"
#include "scheduler/pod_heap.h"

namespace ksched::scheduler {

namespace metrics {
class Metrics;
enum class QueueName;
}  // namespace metrics

struct SchedulingQueueOptions {
  std::chrono::milliseconds pod_initial_backoff{1000};
  std::chrono::milliseconds pod_max_backoff{10000};
  std::chrono::milliseconds pod_max_in_unschedulable_pods_duration{std::chrono::minutes(5)};
  // SchedulerPopFromBackoffQ (beta, on by default in v1.34): Pop takes a backing-off rejected pod
  // when activeQ is empty; backoff expiries are aligned to the ordering window; PreEnqueue runs
  // when a pod enters the backoffQ instead of when it leaves it.
  bool pop_from_backoff_q = true;
  // The backoffQ flush period, also the ordering window (upstream's 1 s constant).
  std::chrono::milliseconds backoff_flush_period{1000};
  // The unschedulable-pool flush period (upstream's 30 s constant).
  std::chrono::milliseconds unschedulable_flush_period{30000};
  // The informer's current pod, for the nominator's liveness check (upstream podLister); empty: no
  // check.
  Nominator::PodLister pod_lister;
  // Optional: scheduler_pending_pods (read from Counts() at each scrape), scheduler_inflight_events
  // (read from InFlightEventCounts() at each scrape), scheduler_queue_incoming_pods_total and
  // scheduler_unschedulable_pods. Must outlive the queue.
  metrics::Metrics* metrics = nullptr;
};

// The queueing hints per profile (spec.schedulerName): (plugin name, registered event + hint), in
// the order hints are consulted.
using QueueingHintRegistrations =
    std::map<std::string, std::vector<std::pair<std::string, framework::ClusterEventWithHint>>>;

// Where a pending pod is (debugging and tests).
enum class QueuedIn : std::uint8_t { kNowhere, kActive, kBackoff, kUnschedulable, kGated };

// Sizes for scheduler_pending_pods{queue=...}.
struct PendingPodCounts {
  std::size_t active = 0;
  std::size_t backoff = 0;
  std::size_t unschedulable = 0;  // not counting gated pods
  std::size_t gated = 0;
};

class SchedulingQueue : public framework::PodNominator {
 public:
  using LessFn =
      std::function<bool(const framework::QueuedPodInfo&, const framework::QueuedPodInfo&)>;
  // Runs the pod's profile's PreEnqueue plugins; non-success gates the pod, status.plugin() naming
  // the gating plugin.
  using PreEnqueueFn = std::function<framework::Status(const api::Pod&)>;

  SchedulingQueue(SchedulingQueueOptions options, Clock& clock, LessFn less,
                  PreEnqueueFn pre_enqueue, QueueingHintRegistrations hints);
  ~SchedulingQueue() override;  // Close()

  SchedulingQueue(const SchedulingQueue&) = delete;
  SchedulingQueue& operator=(const SchedulingQueue&) = delete;

  // A new unscheduled pod (informer add): its nomination (status.nominatedNodeName) recorded, then
  // to activeQ, or gated.
  void Add(framework::PodInfoPtr pod);
  // An unscheduled pod changed. In flight: recorded for its attempt. In activeQ/backoffQ: updated
  // in place. In the unschedulable pool: its own update events (PodSchedulingPropertiesChange, on
  // TargetPod) go through its rejecting plugins' hints. Elsewhere: added to activeQ. `old_pod` may
  // be nullptr.
  void Update(framework::PodInfoPtr old_pod, framework::PodInfoPtr new_pod);
  // The same with the update's events already worked out by the caller (the event handler):
  // PodSchedulingPropertiesChange(new, old, true), or a generic update without `old_pod`.
  void Update(framework::PodInfoPtr old_pod, framework::PodInfoPtr new_pod,
              const std::vector<framework::ClusterEvent>& events);
  // Removes the pod from every queue and from the nominator (not from the in-flight set).
  void Delete(const api::Pod& pod);

  // Blocks until a pod is available or Close(); nullptr once closed. Counts an attempt, starts a
  // scheduling cycle and clears the pod's rejecting plugins; the pod is in flight until Done.
  framework::QueuedPodInfoPtr Pop();
  // Ends the pod's in-flight period (AddUnschedulableIfNotPresent does it too).
  void Done(std::string_view pod_uid);
  // Puts a pod whose attempt failed back (see the file comment); its unschedulable_plugins /
  // pending_plugins say who rejected it (both empty: an error). Always ends its in-flight period.
  // AlreadyExists when the pod is already queued (the pod is dropped).
  // `pod_scheduling_cycle` is kept for interface parity: with queueing hints it is not needed.
  absl::Status AddUnschedulableIfNotPresent(framework::QueuedPodInfoPtr pod,
                                            std::int64_t pod_scheduling_cycle);

  // A cluster event: moves the unschedulable pods one of whose rejecting plugins registered for it
  // and whose hint says Queue; recorded for in-flight pods. The objects are copied only when an
  // attempt in flight needs them; the second form shares them instead.
  // `precheck` (upstream PreEnqueueCheck), when set, leaves the pods it returns false for where
  // they are (e.g. the pod whose own failed bind raised the event).
  void MoveAllToActiveOrBackoffQueue(const framework::ClusterEvent& event,
                                     const framework::EventObjects& objects,
                                     const std::function<bool(const api::Pod&)>& precheck = nullptr);
  void MoveAllToActiveOrBackoffQueue(const framework::ClusterEvent& event,
                                     const SharedEventObjects& objects);
  // A pod was bound (informer add of an assigned pod): the event AssignedPodAdd, offered to every
  // unschedulable pod's queueing hints (upstream v1.37 MoveAllToActiveOrBackoffQueue).
  void AssignedPodAdded(const framework::PodInfoPtr& pod);
  // An assigned pod changed (`action` from PodSchedulingPropertiesChange): the same with
  // AssignedPod<action>.
  void AssignedPodUpdated(const framework::PodInfoPtr& old_pod,
                          const framework::PodInfoPtr& new_pod, framework::ActionType action);
  // Moves the pods from the unschedulable pool or backoffQ to activeQ at once (event
  // ForceActivate); a pod in flight gets ForceActivate recorded for its attempt; others are
  // ignored.
  void Activate(const std::vector<framework::PodInfoPtr>& pods);
  // The same for one pod (framework::Handle::Activate, which preemption calls from threads of its
  // own), matched by UID: the pod queued under its namespace/name moves only if it has the same
  // UID (a pod deleted and recreated under that name is left where it is). In flight, the pod gets
  // ForceActivate recorded for its attempt.
  void Activate(const api::Pod& pod);

  // Starts the flush thread (backoffQ about every second, aligned to the ordering window; the
  // unschedulable pool every 30 s). Idempotent.
  void Run();
  // Wakes Pop (which then returns nullptr), stops and joins the flush thread. Idempotent.
  void Close();

  // Incremented by every Pop.
  std::int64_t SchedulingCycle() const;

  // --- Nominator -----------------------------------------------------------------------------
  // The nominated pods of a node, each as its latest queued version.
  std::vector<framework::PodInfoPtr> NominatedPodsForNode(
      std::string_view node_name) const override;
  bool HasNominatedPods() const override;
  void AddNominatedPod(const framework::PodInfoPtr& pod,
                       const framework::NominatingInfo& info = {});
  void DeleteNominatedPodIfExists(const api::Pod& pod);

  // --- Metrics and debugging -----------------------------------------------------------------
  PendingPodCounts Counts() const;
  struct PendingPodList {
    std::vector<std::shared_ptr<const api::Pod>> pods;  // activeQ, then backoffQ, then the pool
    std::string summary;  // "activeQ:1; backoffQ:0; unschedulableEntities:2" (upstream v1.37's format)
  };
  PendingPodList PendingPods() const;
  QueuedIn Where(std::string_view ns, std::string_view name) const;
  // A copy of the queued record, nullopt when not queued (in flight pods are not queued).
  std::optional<framework::QueuedPodInfo> GetPod(std::string_view ns, std::string_view name) const;
  std::vector<std::shared_ptr<const api::Pod>> InFlightPods() const;
  std::size_t InFlightEventCount() const;
  // Per label, the in-flight events, and the pods in flight under "PodPopped" (upstream
  // scheduler_inflight_events; InFlightEvents::CountsByLabel).
  std::vector<std::pair<std::string, std::int64_t>> InFlightEventCounts() const;
  // Whether some plugin of some profile registered for `action` (any of its bits) of `resource`
  // itself, not through a WildCard registration: upstream installs an informer handler for an
  // object kind's action only then (addAllEventHandlers' gvkMap).
  bool HasRegistrationFor(framework::EventResource resource, framework::ActionType action) const {
    return (registered_actions_[static_cast<std::size_t>(resource)] & action) != 0;
  }
  // The cycle of the last event that moved pods (upstream moveRequestCycle; informational with
  // queueing hints).
  std::int64_t MoveRequestCycle() const;

  // --- Test hooks: what the flush thread runs ------------------------------------------------
  void FlushBackoffQCompleted();
  void FlushUnschedulablePodsLeftover();

 private:
  enum class Strategy : std::uint8_t { kSkip, kAfterBackoff, kImmediately };
  using ObjectsFn = std::function<SharedEventObjects()>;

  // The *Locked methods require mu_: held exclusively, or shared for the const ones (they read).
  framework::QueuedPodInfoPtr NewQueuedPodInfoLocked(framework::PodInfoPtr pod) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  void AddLocked(framework::PodInfoPtr pod) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RunPreEnqueueLocked(framework::QueuedPodInfo& pod) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool MoveToActiveQLocked(framework::QueuedPodInfoPtr pod, std::string_view event,
                           bool moves_from_backoff) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool MoveToBackoffQLocked(framework::QueuedPodInfoPtr pod, std::string_view event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  QueuedIn RequeueLocked(framework::QueuedPodInfoPtr pod, Strategy strategy,
                         std::string_view event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Moves the pod `key` from the unschedulable pool or backoffQ to activeQ (event ForceActivate);
  // with `uid` set, only if the queued pod has that UID. True when it moved.
  bool ActivateLocked(std::string_view key, const std::string* uid) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool WakesPop(QueuedIn where) const;

  // `event` labels scheduler_queue_incoming_pods_total when the pod is new to the pool (empty: a
  // pod put back, not counted).
  void PutUnschedulableLocked(framework::QueuedPodInfoPtr pod, std::string_view event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CountIncomingLocked(metrics::QueueName queue, std::string_view event) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // scheduler_unschedulable_pods{plugin, profile} += delta for each rejector of the pod.
  void AddUnschedulablePodsLocked(const framework::QueuedPodInfo& pod, double delta) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  framework::QueuedPodInfoPtr TakeUnschedulableLocked(std::string_view key) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PutBackoffLocked(framework::QueuedPodInfoPtr pod) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  framework::QueuedPodInfoPtr TakeBackoffLocked(std::string_view key) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  const framework::QueuedPodInfo* FindQueuedLocked(std::string_view key) const ABSL_SHARED_LOCKS_REQUIRED(mu_);

  bool IsEventOfInterest(const framework::ClusterEvent& event) const;
  Strategy IsPodWorthRequeuingLocked(const framework::QueuedPodInfo& pod,
                                     const framework::ClusterEvent& event,
                                     const framework::EventObjects& objects) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  Strategy HintForInFlightPodLocked(const framework::QueuedPodInfo& pod) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  void MovePodsLocked(const std::vector<std::string>& keys, const framework::ClusterEvent& event,
                      const framework::EventObjects& objects, const ObjectsFn& shared_objects,
                      const std::function<bool(const api::Pod&)>& precheck = nullptr) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::vector<std::string> UnschedulableKeysLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu_);

  void RunLoop();

  // Immutable after construction.
  const SchedulingQueueOptions options_;
  Clock& clock_;
  const LessFn less_;
  const PreEnqueueFn pre_enqueue_;
  const QueueingHintRegistrations hints_;
  // Plugin name -> the events it registered (any profile), for gated pods (upstream
  // pluginToEventsMap).
  std::map<std::string, std::vector<framework::ClusterEvent>, std::less<>> plugin_events_;
  // Per EventResource, the union of the actions registered for it (HasRegistrationFor).
  std::array<framework::ActionType, static_cast<std::size_t>(framework::EventResource::kWildCard) + 1>
      registered_actions_{};
  const BackoffPolicy backoff_;
  const framework::ClusterEvent unscheduled_pod_add_;
  const framework::ClusterEvent unscheduled_pod_update_;
  const framework::ClusterEvent assigned_pod_add_;

  mutable base::SharedMutex mu_;
  // Whether nominator_ holds any nomination; written under mu_ after every change, read without it.
  std::atomic<bool> has_nominated_pods_{false};
  base::SharedCondVar pop_cv_;  // signalled when Pop may find a pod, or on Close
  PodHeap active_q_ ABSL_GUARDED_BY(mu_);
  PodHeap backoff_q_ ABSL_GUARDED_BY(mu_);  // pods rejected by plugins
  PodHeap error_backoff_q_ ABSL_GUARDED_BY(mu_);  // pods that failed with an error
  // The unschedulable pool, gated pods included.
  std::unordered_map<std::string, framework::QueuedPodInfoPtr> unschedulable_ ABSL_GUARDED_BY(mu_);
  std::size_t gated_count_ ABSL_GUARDED_BY(mu_) = 0;  // gated pods in unschedulable_
  InFlightEvents in_flight_ ABSL_GUARDED_BY(mu_);
  Nominator nominator_ ABSL_GUARDED_BY(mu_);
  std::int64_t scheduling_cycle_ ABSL_GUARDED_BY(mu_) = 0;
  std::int64_t move_request_cycle_ ABSL_GUARDED_BY(mu_) = -1;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  // Set while a pod taken out of the unschedulable pool is requeued: upstream decides with the pod
  // still in the pool, so a pod that lands there again is not "incoming".
  bool requeuing_from_pool_ ABSL_GUARDED_BY(mu_) = false;

  // The flush thread.
  base::Mutex run_mu_;
  base::CondVar run_cv_;
  bool stop_requested_ ABSL_GUARDED_BY(run_mu_) = false;
  std::thread run_thread_ ABSL_GUARDED_BY(run_mu_);
};

}  // namespace ksched::scheduler
