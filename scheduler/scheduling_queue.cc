#include "scheduler/scheduling_queue.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "scheduler/cluster_events.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/pod_update_events.h"

namespace ksched::scheduler {

namespace {

using framework::ClusterEvent;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using framework::QueuedPodInfoPtr;

// upstream podtopologyspread.Name: pods it rejected may fit after any pod event in their namespace.
// Stands for a PreEnqueue rejection that names no plugin, so that the pod still reads as gated.
constexpr std::string_view kUnnamedPreEnqueuePlugin = "PreEnqueue";

bool Gated(const QueuedPodInfo& pod) { return !pod.gating_plugin.empty(); }

bool HasRejectors(const QueuedPodInfo& pod) {
  return !pod.unschedulable_plugins.empty() || !pod.pending_plugins.empty();
}

// Sets a flag for the life of a scope (the caller holds the lock guarding it).
class FlagScope {
 public:
  explicit FlagScope(bool& flag) : flag_(flag) { flag_ = true; }
  ~FlagScope() { flag_ = false; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

 private:
  bool& flag_;
};

}  // namespace

SchedulingQueue::SchedulingQueue(SchedulingQueueOptions options, Clock& clock, LessFn less,
                                 PreEnqueueFn pre_enqueue, QueueingHintRegistrations hints)
    : options_(std::move(options)),
      clock_(clock),
      less_(std::move(less)),
      pre_enqueue_(std::move(pre_enqueue)),
      hints_(std::move(hints)),
      backoff_(options_.pod_initial_backoff, options_.pod_max_backoff,
               options_.pop_from_backoff_q ? BackoffPolicy::duration(options_.backoff_flush_period)
                                           : BackoffPolicy::duration::zero()),
      unscheduled_pod_add_(UnscheduledPodAddEvent()),
      unscheduled_pod_update_(UnscheduledPodUpdateEvent()),
      assigned_pod_add_(AssignedPodAddEvent()),
      active_q_([this](const QueuedPodInfo& a, const QueuedPodInfo& b) { return less_(a, b); }),
      backoff_q_([this](const QueuedPodInfo& a, const QueuedPodInfo& b) {
        if (!options_.pop_from_backoff_q) return backoff_.ExpiresBefore(a, b);
        // Pods of one ordering window leave in activeQ's order (they may be popped early).
        if (!backoff_.ExpiresTogether(a, b)) return backoff_.ExpiresBefore(a, b);
        return less_(a, b);
      }),
      error_backoff_q_([this](const QueuedPodInfo& a, const QueuedPodInfo& b) {
        return backoff_.ExpiresBefore(a, b);
      }),
      nominator_(options_.pod_lister) {
  for (const auto& [profile, registrations] : hints_) {
    for (const auto& [plugin, registration] : registrations) {
      plugin_events_[plugin].push_back(registration.event);
      registered_actions_[static_cast<std::size_t>(registration.event.resource)] |=
          registration.event.action;
    }
  }
  if (options_.metrics != nullptr) {
    options_.metrics->SetInFlightEventsSource([this] { return InFlightEventCounts(); });
    options_.metrics->SetPendingPodsSource([this] {
      const PendingPodCounts counts = Counts();
      return metrics::PendingPodsSnapshot{static_cast<double>(counts.active),
                                          static_cast<double>(counts.backoff),
                                          static_cast<double>(counts.unschedulable),
                                          static_cast<double>(counts.gated)};
    });
  }
}

SchedulingQueue::~SchedulingQueue() {
  // Waits for a scrape reading Counts() to finish.
  if (options_.metrics != nullptr) {
    options_.metrics->SetPendingPodsSource(nullptr);
    options_.metrics->SetInFlightEventsSource(nullptr);
  }
  Close();
}

// --- Informer events ----------------------------------------------------------------------------

void SchedulingQueue::Add(PodInfoPtr pod) {
  base::WriterMutexLock lock(&mu_);
  AddLocked(std::move(pod));
}

void SchedulingQueue::AddLocked(PodInfoPtr pod) {
  // v1.37 (k/k #139057): the pod's nomination is recorded whether or not it passes PreEnqueue, so
  // that a gated pod's nomination still keeps lower-priority pods off the nominated room; and
  // before the pod can be popped.
  nominator_.AddNominatedPod(pod, nullptr);
  has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
  if (MoveToActiveQLocked(NewQueuedPodInfoLocked(std::move(pod)), unscheduled_pod_add_.label,
                          false)) {
    pop_cv_.NotifyAll();
  }
}

void SchedulingQueue::Update(PodInfoPtr old_pod, PodInfoPtr new_pod) {
  const api::Pod& pod = new_pod->pod();
  // Without the old version nothing can be told apart: a generic update.
  const std::vector<ClusterEvent> events =
      PodSchedulingPropertiesChange(pod, old_pod != nullptr ? old_pod->pod() : pod, /*is_target_pod=*/true);
  Update(std::move(old_pod), std::move(new_pod), events);
}

void SchedulingQueue::Update(PodInfoPtr old_pod, PodInfoPtr new_pod, const std::vector<ClusterEvent>& events) {
  base::WriterMutexLock lock(&mu_);
  const api::Pod& pod = new_pod->pod();
  const api::Pod& old = old_pod != nullptr ? old_pod->pod() : pod;
  const SharedEventObjects objects{old_pod != nullptr ? old_pod->pod_ptr() : nullptr,
                                   new_pod->pod_ptr(), nullptr, nullptr};

  // Being scheduled: the attempt sees this update if it fails.
  if (in_flight_.AddEventsIfPodInFlight(pod.metadata.uid, events, objects)) return;

  if (old_pod != nullptr) {
    const std::string old_key = PodQueueKey(old);
    for (PodHeap* heap : {&active_q_, &backoff_q_, &error_backoff_q_}) {
      if (QueuedPodInfo* queued = heap->Get(old_key); queued != nullptr) {
        queued->pod_info = new_pod;
        heap->Fix(old_key);
        nominator_.UpdateNominatedPod(old, new_pod);
        has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
        return;
      }
    }
  }

  const std::string key = PodQueueKey(pod);
  if (QueuedPodInfoPtr queued = TakeUnschedulableLocked(key); queued != nullptr) {
    FlagScope from_pool(requeuing_from_pool_);
    queued->pod_info = new_pod;
    nominator_.UpdateNominatedPod(old, new_pod);
    has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
    // The pod's own update may resolve its rejection: ask its rejecting plugins.
    const framework::EventObjects view = objects.View();
    const Clock::time_point now = clock_.Now();
    Strategy strategy = Strategy::kSkip;
    std::string_view label;
    for (const ClusterEvent& event : events) {
      const Strategy hint = IsPodWorthRequeuingLocked(*queued, event, view);
      if (hint == Strategy::kSkip) continue;
      if (strategy == Strategy::kSkip) label = event.label;
      strategy = hint;
      // Upstream stops at the first event that sends the pod where Pop finds it; otherwise a later
      // event may still make it immediate.
      if (hint == Strategy::kImmediately || options_.pop_from_backoff_q ||
          !backoff_.IsBackingOff(*queued, now)) {
        label = event.label;
        break;
      }
    }
    if (strategy == Strategy::kSkip) {
      PutUnschedulableLocked(std::move(queued), {});
      return;
    }
    if (WakesPop(RequeueLocked(std::move(queued), strategy, label))) pop_cv_.NotifyAll();
    return;
  }

  // Not queued anywhere (e.g. it failed to be added before): added as a new pod (v1.37 addPod,
  // counted as a PodAdd).
  AddLocked(std::move(new_pod));
}

void SchedulingQueue::Delete(const api::Pod& pod) {
  base::WriterMutexLock lock(&mu_);
  nominator_.DeleteNominatedPodIfExists(pod);
  has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
  const std::string key = PodQueueKey(pod);
  QueuedPodInfoPtr deleted = active_q_.Delete(key);
  if (deleted == nullptr) deleted = TakeBackoffLocked(key);
  if (deleted == nullptr) deleted = TakeUnschedulableLocked(key);
  // v1.37 (k/k #138482): a deleted pod no longer counts in scheduler_unschedulable_pods, wherever it
  // was queued (v1.34 leaked it).
  if (deleted != nullptr) AddUnschedulablePodsLocked(*deleted, -1);
}

// --- Scheduling thread --------------------------------------------------------------------------

QueuedPodInfoPtr SchedulingQueue::Pop() {
  base::WriterMutexLock lock(&mu_);
  for (;;) {
    QueuedPodInfoPtr pod;
    pop_cv_.Wait(&mu_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return closed_ || !active_q_.empty() || (options_.pop_from_backoff_q && !backoff_q_.empty());
    });
    if (closed_) return nullptr;
    pod = active_q_.Pop();
    if (pod == nullptr) {
      // activeQ is empty: rather than idle, retry a rejected pod before its backoff ends. Pods
      // that failed with errors keep their backoff (it rate-limits retries against a failing API).
      pod = backoff_q_.Pop();
      SPDLOG_TRACE("Pod popped from backoffQ pod=\"{}\" event=\"{}\"", PodQueueKey(pod->pod()),
                   kPopFromBackoffQ);
      CountIncomingLocked(metrics::QueueName::kActive, kPopFromBackoffQ);
    }
    ++pod->attempts;
    if (!in_flight_.AddPod(pod->pod_info->pod_ptr())) {
      // Tracked twice: a bug elsewhere, but not worth stopping the scheduler. Drop this copy.
      SPDLOG_ERROR(
          "the same pod is tracked in multiple places in the scheduler, and just discard it "
          "pod=\"{}\"",
                   PodQueueKey(pod->pod()));
      continue;
    }
    ++scheduling_cycle_;
    // The next failure records its own rejectors.
    AddUnschedulablePodsLocked(*pod, -1);
    pod->unschedulable_plugins.clear();
    pod->pending_plugins.clear();
    return pod;
  }
}

void SchedulingQueue::Done(std::string_view pod_uid) {
  base::WriterMutexLock lock(&mu_);
  in_flight_.Done(pod_uid);
}

absl::Status SchedulingQueue::AddUnschedulableIfNotPresent(QueuedPodInfoPtr pod,
                                                           std::int64_t /*pod_scheduling_cycle*/) {
  base::WriterMutexLock lock(&mu_);
  const std::string uid = pod->pod().metadata.uid;
  const std::string key = PodQueueKey(pod->pod());
  // Whatever happens, the attempt is over once the pod is back.
  auto fail = [&](std::string_view where) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    in_flight_.Done(uid);
    return absl::AlreadyExistsError("Pod " + key + " is already present in " + std::string(where));
  };
  if (unschedulable_.count(key) > 0) return fail("unschedulable queue");
  if (active_q_.Has(key)) return fail("the active queue");
  if (backoff_q_.Has(key) || error_backoff_q_.Has(key)) return fail("the backoff queue");

  if (!HasRejectors(*pod)) {
    // An unexpected error (API server, network), not a verdict on the pod.
    ++pod->consecutive_errors;
  } else {
    ++pod->unschedulable_count;
    pod->consecutive_errors = 0;  // the errors are over
  }
  // The backoff runs from this failure.
  pod->timestamp = clock_.Now();
  // Back after an attempt: no longer "flushed" (upstream clears both here).
  pod->was_flushed_from_unschedulable = false;
  pod->flush_timestamp = {};
  AddUnschedulablePodsLocked(*pod, +1);

  // Did anything that happened during the attempt resolve the rejection?
  const Strategy strategy = HintForInFlightPodLocked(*pod);
  const QueuedIn where = RequeueLocked(std::move(pod), strategy, kScheduleAttemptFailure);
  SPDLOG_DEBUG("Pod moved to an internal scheduling queue pod=\"{}\" event=\"{}\" queue={}", key,
               kScheduleAttemptFailure, static_cast<int>(where));
  in_flight_.Done(uid);
  if (WakesPop(where)) pop_cv_.NotifyAll();
  return absl::OkStatus();
}

// --- Cluster events -----------------------------------------------------------------------------

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(
    const ClusterEvent& event, const framework::EventObjects& objects,
    const std::function<bool(const api::Pod&)>& precheck) {
  base::WriterMutexLock lock(&mu_);
  // No plugin cares: skip even the scan of the pool.
  if (!IsEventOfInterest(event)) return;
  MovePodsLocked(UnschedulableKeysLocked(), event, objects,
                 [&objects] { return SharedEventObjects::CopyOf(objects); }, precheck);
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                                    const SharedEventObjects& objects) {
  base::WriterMutexLock lock(&mu_);
  if (!IsEventOfInterest(event)) return;
  MovePodsLocked(UnschedulableKeysLocked(), event, objects.View(), [&objects] { return objects; });
}

void SchedulingQueue::AssignedPodAdded(const PodInfoPtr& pod) {
  // v1.37 (as v1.34 with queueing hints): every unschedulable pod's hints decide, as for any event.
  MoveAllToActiveOrBackoffQueue(assigned_pod_add_, SharedEventObjects{nullptr, pod->pod_ptr(), nullptr, nullptr});
}

void SchedulingQueue::AssignedPodUpdated(const PodInfoPtr& old_pod, const PodInfoPtr& new_pod,
                                         framework::ActionType action) {
  MoveAllToActiveOrBackoffQueue(
      MakeClusterEvent(framework::EventResource::kAssignedPod, action),
      SharedEventObjects{old_pod != nullptr ? old_pod->pod_ptr() : nullptr, new_pod->pod_ptr(), nullptr, nullptr});
}

bool SchedulingQueue::ActivateLocked(std::string_view key, const std::string* uid) {
  const auto is_the_pod = [uid](const QueuedPodInfo* queued) {
    return queued != nullptr && (uid == nullptr || queued->pod().metadata.uid == *uid);
  };
  QueuedPodInfoPtr queued;
  bool from_backoff = false;
  if (auto it = unschedulable_.find(std::string(key)); it != unschedulable_.end()) {
    if (is_the_pod(it->second.get())) queued = TakeUnschedulableLocked(key);
  } else if (is_the_pod(backoff_q_.Get(key)) || is_the_pod(error_backoff_q_.Get(key))) {
    queued = TakeBackoffLocked(key);
    from_backoff = true;
  }
  if (queued == nullptr) return false;
  requeuing_from_pool_ = !from_backoff;
  const bool moved = MoveToActiveQLocked(std::move(queued), kForceActivate, from_backoff);
  requeuing_from_pool_ = false;
  return moved;
}

void SchedulingQueue::Activate(const std::vector<PodInfoPtr>& pods) {
  base::WriterMutexLock lock(&mu_);
  bool activated = false;
  for (const PodInfoPtr& pod : pods) {
    if (ActivateLocked(PodQueueKey(pod->pod()), nullptr)) {
      activated = true;
      continue;
    }
    // Being scheduled: requeue it when it comes back (e.g. async preemption finished meanwhile).
    const SharedEventObjects objects{nullptr, pod->pod_ptr(), nullptr, nullptr};
    in_flight_.AddEventsIfPodInFlight(pod->pod().metadata.uid, {framework::ForceActivateEvent()},
                                      objects);
    move_request_cycle_ = scheduling_cycle_;
  }
  if (activated) pop_cv_.NotifyAll();
}

void SchedulingQueue::Activate(const api::Pod& pod) {
  base::WriterMutexLock lock(&mu_);
  if (ActivateLocked(PodQueueKey(pod), &pod.metadata.uid)) {
    pop_cv_.NotifyAll();
    return;
  }
  // Being scheduled: requeue it when it comes back. The event carries the pod as it was popped
  // (ForceActivate's hint matches it by UID), not a copy of `pod`.
  if (std::shared_ptr<const api::Pod> in_flight = in_flight_.PodOf(pod.metadata.uid)) {
    const SharedEventObjects objects{nullptr, std::move(in_flight), nullptr, nullptr};
    in_flight_.AddEventsIfPodInFlight(pod.metadata.uid, {framework::ForceActivateEvent()}, objects);
  }
  move_request_cycle_ = scheduling_cycle_;
}

// --- Flushes ------------------------------------------------------------------------------------

void SchedulingQueue::FlushBackoffQCompleted() {
  base::WriterMutexLock lock(&mu_);
  const Clock::time_point now = clock_.Now();
  bool activated = false;
  for (PodHeap* heap : {&backoff_q_, &error_backoff_q_}) {
    while (const QueuedPodInfo* head = heap->Peek()) {
      if (backoff_.IsBackingOff(*head, now)) break;
      if (MoveToActiveQLocked(heap->Pop(), kBackoffComplete, true)) activated = true;
    }
  }
  if (activated) pop_cv_.NotifyAll();
}

void SchedulingQueue::FlushUnschedulablePodsLeftover() {
  base::WriterMutexLock lock(&mu_);
  const Clock::time_point now = clock_.Now();
  std::vector<std::string> keys;
  for (const auto& [key, pod] : unschedulable_) {
    // Counted from the pod's last attempt or, when later, its last flush: a pod that stays gated
    // after a flush is flushed again only after another full period (upstream FlushTimestamp).
    const Clock::time_point since = std::max(pod->timestamp, pod->flush_timestamp);
    if (now - since > options_.pod_max_in_unschedulable_pods_duration) {
      pod->was_flushed_from_unschedulable = true;
      pod->flush_timestamp = now;
      keys.push_back(key);
    }
  }
  if (keys.empty()) return;
  MovePodsLocked(keys, framework::UnschedulableTimeoutEvent(), framework::EventObjects{},
                 [] { return SharedEventObjects{}; });
}

void SchedulingQueue::Run() {
  base::MutexLock lock(&run_mu_);
  if (run_thread_.joinable() || stop_requested_) return;
  run_thread_ = std::thread([this] { RunLoop(); });
}

void SchedulingQueue::RunLoop() {
  const Clock::duration backoff_period = options_.backoff_flush_period;
  const Clock::duration unschedulable_period = options_.unschedulable_flush_period;
  // Backoff flushes fall on window boundaries, so that a whole window leaves at once.
  const BackoffPolicy aligner(Clock::duration::zero(), Clock::duration::zero(), backoff_period);
  Clock::time_point now = clock_.Now();
  Clock::time_point next_backoff_flush = aligner.AlignToWindow(now) + backoff_period;
  Clock::time_point next_unschedulable_flush = now;  // upstream's wait.Until runs at once
  for (;;) {
    now = clock_.Now();
    if (now >= next_unschedulable_flush) {
      FlushUnschedulablePodsLeftover();
      next_unschedulable_flush = now + unschedulable_period;
    }
    if (now >= next_backoff_flush) {
      FlushBackoffQCompleted();
      next_backoff_flush += backoff_period;
      if (next_backoff_flush <= now) {
        next_backoff_flush = aligner.AlignToWindow(now) + backoff_period;
      }
    }
    const Clock::duration wait = std::max(
        Clock::duration::zero(), std::min(next_backoff_flush, next_unschedulable_flush) - now);
    base::MutexLock lock(&run_mu_);
    if (run_cv_.WaitFor(&run_mu_, wait, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(run_mu_) { return stop_requested_; })) return;
  }
}

void SchedulingQueue::Close() {
  {
    base::WriterMutexLock lock(&mu_);
    closed_ = true;
    // Attempts still running may report back; nothing waits for their events any more.
    in_flight_.Clear();
  }
  pop_cv_.NotifyAll();
  std::thread thread;
  {
    base::MutexLock lock(&run_mu_);
    stop_requested_ = true;
    thread = std::move(run_thread_);
  }
  run_cv_.NotifyAll();
  if (thread.joinable()) thread.join();
}

std::int64_t SchedulingQueue::SchedulingCycle() const {
  base::ReaderMutexLock lock(&mu_);
  return scheduling_cycle_;
}

// --- Nominator ----------------------------------------------------------------------------------

bool SchedulingQueue::HasNominatedPods() const {
  return has_nominated_pods_.load(std::memory_order_relaxed);
}

std::vector<PodInfoPtr> SchedulingQueue::NominatedPodsForNode(std::string_view node_name) const {
  base::ReaderMutexLock lock(&mu_);
  std::vector<PodInfoPtr> pods = nominator_.NominatedPodsForNode(node_name);
  // Prefer the version the queue holds: it is the newest the scheduler saw.
  for (PodInfoPtr& pod : pods) {
    if (const QueuedPodInfo* queued = FindQueuedLocked(PodQueueKey(pod->pod()))) {
      pod = queued->pod_info;
    }
  }
  return pods;
}

void SchedulingQueue::AddNominatedPod(const PodInfoPtr& pod,
                                      const framework::NominatingInfo& info) {
  base::WriterMutexLock lock(&mu_);
  nominator_.AddNominatedPod(pod, &info);
  has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
}

void SchedulingQueue::DeleteNominatedPodIfExists(const api::Pod& pod) {
  base::WriterMutexLock lock(&mu_);
  nominator_.DeleteNominatedPodIfExists(pod);
  has_nominated_pods_.store(nominator_.NodeCount() > 0, std::memory_order_relaxed);
}

// --- Metrics and debugging ----------------------------------------------------------------------

PendingPodCounts SchedulingQueue::Counts() const {
  base::ReaderMutexLock lock(&mu_);
  PendingPodCounts counts;
  counts.active = active_q_.size();
  counts.backoff = backoff_q_.size() + error_backoff_q_.size();
  counts.unschedulable = unschedulable_.size() - gated_count_;
  counts.gated = gated_count_;
  return counts;
}

SchedulingQueue::PendingPodList SchedulingQueue::PendingPods() const {
  base::ReaderMutexLock lock(&mu_);
  PendingPodList list;
  auto collect = [&list](const QueuedPodInfo& pod) {
    list.pods.push_back(pod.pod_info->pod_ptr());
  };
  active_q_.ForEach(collect);
  backoff_q_.ForEach(collect);
  error_backoff_q_.ForEach(collect);
  for (const auto& [key, pod] : unschedulable_) collect(*pod);
  list.summary = "activeQ:" + std::to_string(active_q_.size()) +
                 "; backoffQ:" + std::to_string(backoff_q_.size() + error_backoff_q_.size()) +
                 "; unschedulableEntities:" + std::to_string(unschedulable_.size());
  return list;
}

QueuedIn SchedulingQueue::Where(std::string_view ns, std::string_view name) const {
  base::ReaderMutexLock lock(&mu_);
  const std::string key = std::string(ns) + "/" + std::string(name);
  if (active_q_.Has(key)) return QueuedIn::kActive;
  if (backoff_q_.Has(key) || error_backoff_q_.Has(key)) return QueuedIn::kBackoff;
  if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
    return Gated(*it->second) ? QueuedIn::kGated : QueuedIn::kUnschedulable;
  }
  return QueuedIn::kNowhere;
}

std::optional<QueuedPodInfo> SchedulingQueue::GetPod(std::string_view ns,
                                                     std::string_view name) const {
  base::ReaderMutexLock lock(&mu_);
  const QueuedPodInfo* pod = FindQueuedLocked(std::string(ns) + "/" + std::string(name));
  if (pod == nullptr) return std::nullopt;
  return *pod;
}

std::vector<std::shared_ptr<const api::Pod>> SchedulingQueue::InFlightPods() const {
  base::ReaderMutexLock lock(&mu_);
  return in_flight_.Pods();
}

std::size_t SchedulingQueue::InFlightEventCount() const {
  base::ReaderMutexLock lock(&mu_);
  return in_flight_.EventCount();
}

std::vector<std::pair<std::string, std::int64_t>> SchedulingQueue::InFlightEventCounts() const {
  base::ReaderMutexLock lock(&mu_);
  return in_flight_.CountsByLabel();
}

std::int64_t SchedulingQueue::MoveRequestCycle() const {
  base::ReaderMutexLock lock(&mu_);
  return move_request_cycle_;
}

// --- Internals ----------------------------------------------------------------------------------

QueuedPodInfoPtr SchedulingQueue::NewQueuedPodInfoLocked(PodInfoPtr pod) const {
  auto queued = std::make_unique<QueuedPodInfo>();
  queued->pod_info = std::move(pod);
  queued->timestamp = clock_.Now();
  return queued;
}

void SchedulingQueue::RunPreEnqueueLocked(QueuedPodInfo& pod) {
  const framework::Status status = pre_enqueue_ ? pre_enqueue_(pod.pod()) : framework::Status();
  if (status.IsSuccess()) {
    pod.gating_plugin.clear();
    return;
  }
  // The gating plugin counts as a rejector, so that its events (and only those) move the pod.
  std::string plugin =
      status.plugin().empty() ? std::string(kUnnamedPreEnqueuePlugin) : status.plugin();
  if (status.code() == framework::Code::kError) {
    SPDLOG_ERROR("Unexpected error running PreEnqueue plugin pod=\"{}\" plugin=\"{}\" err=\"{}\"",
                 PodQueueKey(pod.pod()), plugin, status.Message());
  } else {
    SPDLOG_DEBUG("Status after running PreEnqueue plugin pod=\"{}\" plugin=\"{}\" status=\"{}\"",
                 PodQueueKey(pod.pod()), plugin, status.Message());
  }
  // Counted once per plugin (v1.37): a pod that stays gated through many PreEnqueue runs is one
  // unschedulable pod for its plugin.
  if (options_.metrics != nullptr && !pod.unschedulable_plugins.contains(plugin) &&
      !pod.pending_plugins.contains(plugin)) {
    options_.metrics->AddUnschedulablePods(plugin, pod.pod().spec.scheduler_name, +1);
  }
  pod.unschedulable_plugins.insert(plugin);
  pod.gating_plugin = std::move(plugin);
}

bool SchedulingQueue::MoveToActiveQLocked(QueuedPodInfoPtr pod, std::string_view event,
                                          bool moves_from_backoff) {
  // With SchedulerPopFromBackoffQ, PreEnqueue already ran when the pod entered the backoffQ.
  if (!(options_.pop_from_backoff_q && moves_from_backoff)) RunPreEnqueueLocked(*pod);
  const std::string key = PodQueueKey(pod->pod());
  if (Gated(*pod)) {
    // Gated pods never attempt scheduling: a flush that woke this one does not count for a later
    // wake-up by another event.
    pod->was_flushed_from_unschedulable = false;
    // A second copy of a queued pod (a repeated add) never displaces the first.
    if (FindQueuedLocked(key) != nullptr) return false;
    PutUnschedulableLocked(std::move(pod), event);
    return false;
  }
  if (!pod->has_initial_attempt) {
    pod->initial_attempt_timestamp = clock_.Now();
    pod->has_initial_attempt = true;
  }
  TakeUnschedulableLocked(key);
  TakeBackoffLocked(key);
  active_q_.AddOrUpdate(std::move(pod));
  CountIncomingLocked(metrics::QueueName::kActive, event);
  return true;
}

bool SchedulingQueue::MoveToBackoffQLocked(QueuedPodInfoPtr pod, std::string_view event) {
  const std::string key = PodQueueKey(pod->pod());
  if (options_.pop_from_backoff_q) {
    // The pod may be popped straight from the backoffQ: it must pass PreEnqueue on the way in.
    RunPreEnqueueLocked(*pod);
    if (Gated(*pod)) {
      pod->was_flushed_from_unschedulable = false;  // as in MoveToActiveQLocked
      if (unschedulable_.count(key) == 0) PutUnschedulableLocked(std::move(pod), event);
      return false;
    }
  }
  TakeUnschedulableLocked(key);
  PutBackoffLocked(std::move(pod));
  CountIncomingLocked(metrics::QueueName::kBackoff, event);
  return true;
}

QueuedIn SchedulingQueue::RequeueLocked(QueuedPodInfoPtr pod, Strategy strategy,
                                        std::string_view event) {
  if (strategy == Strategy::kSkip) {
    PutUnschedulableLocked(std::move(pod), event);
    return QueuedIn::kUnschedulable;
  }
  // The backoff may have run out while the pod waited in the pool.
  if (strategy == Strategy::kAfterBackoff && backoff_.IsBackingOff(*pod, clock_.Now())) {
    return MoveToBackoffQLocked(std::move(pod), event) ? QueuedIn::kBackoff
                                                       : QueuedIn::kUnschedulable;
  }
  // Immediately, or after a backoff that is over. A gated pod lands in the pool.
  return MoveToActiveQLocked(std::move(pod), event, false) ? QueuedIn::kActive
                                                           : QueuedIn::kUnschedulable;
}

bool SchedulingQueue::WakesPop(QueuedIn where) const {
  return where == QueuedIn::kActive || (options_.pop_from_backoff_q && where == QueuedIn::kBackoff);
}

void SchedulingQueue::PutUnschedulableLocked(QueuedPodInfoPtr pod, std::string_view event) {
  std::string key = PodQueueKey(pod->pod());
  const bool gated = Gated(*pod);
  auto [it, inserted] = unschedulable_.try_emplace(std::move(key));
  if (!inserted && Gated(*it->second)) --gated_count_;
  if (gated) ++gated_count_;
  it->second = std::move(pod);
  if (inserted && !event.empty() && !requeuing_from_pool_) {
    CountIncomingLocked(metrics::QueueName::kUnschedulable, event);
  }
}

void SchedulingQueue::CountIncomingLocked(metrics::QueueName queue, std::string_view event) const {
  if (options_.metrics != nullptr) options_.metrics->QueueIncomingPod(queue, event);
}

void SchedulingQueue::AddUnschedulablePodsLocked(const QueuedPodInfo& pod, double delta) const {
  if (options_.metrics == nullptr) return;
  const std::string& profile = pod.pod().spec.scheduler_name;
  // The union of both sets, as upstream's UnschedulablePlugins.Union(PendingPlugins).
  for (const std::string& plugin : pod.unschedulable_plugins) {
    options_.metrics->AddUnschedulablePods(plugin, profile, delta);
  }
  for (const std::string& plugin : pod.pending_plugins) {
    if (pod.unschedulable_plugins.count(plugin) == 0) {
      options_.metrics->AddUnschedulablePods(plugin, profile, delta);
    }
  }
}

QueuedPodInfoPtr SchedulingQueue::TakeUnschedulableLocked(std::string_view key) {
  auto it = unschedulable_.find(std::string(key));
  if (it == unschedulable_.end()) return nullptr;
  QueuedPodInfoPtr pod = std::move(it->second);
  unschedulable_.erase(it);
  if (Gated(*pod)) --gated_count_;
  return pod;
}

void SchedulingQueue::PutBackoffLocked(QueuedPodInfoPtr pod) {
  // Pods that failed with an error (no rejecting plugin) back off apart and are never popped early.
  const std::string key = PodQueueKey(pod->pod());
  if (HasRejectors(*pod)) {
    error_backoff_q_.Delete(key);
    backoff_q_.AddOrUpdate(std::move(pod));
  } else {
    backoff_q_.Delete(key);
    error_backoff_q_.AddOrUpdate(std::move(pod));
  }
}

QueuedPodInfoPtr SchedulingQueue::TakeBackoffLocked(std::string_view key) {
  if (QueuedPodInfoPtr pod = backoff_q_.Delete(key)) return pod;
  return error_backoff_q_.Delete(key);
}

const QueuedPodInfo* SchedulingQueue::FindQueuedLocked(std::string_view key) const {
  if (const QueuedPodInfo* pod = active_q_.Get(key)) return pod;
  if (const QueuedPodInfo* pod = backoff_q_.Get(key)) return pod;
  if (const QueuedPodInfo* pod = error_backoff_q_.Get(key)) return pod;
  if (auto it = unschedulable_.find(std::string(key)); it != unschedulable_.end()) {
    return it->second.get();
  }
  return nullptr;
}

bool SchedulingQueue::IsEventOfInterest(const ClusterEvent& event) const {
  // A wildcard event moves pods whichever plugin rejected them.
  if (event.IsWildCard()) return true;
  for (const auto& [profile, registrations] : hints_) {
    for (const auto& [plugin, registration] : registrations) {
      if (registration.event.Match(event)) return true;
    }
  }
  return false;
}

SchedulingQueue::Strategy SchedulingQueue::IsPodWorthRequeuingLocked(
    const QueuedPodInfo& pod, const ClusterEvent& event,
    const framework::EventObjects& objects) const {
  // No rejector: it failed with an error; any event is worth a retry.
  if (!HasRejectors(pod)) return Strategy::kAfterBackoff;

  if (event.IsWildCard()) {
    // A wildcard event carrying an object is meant for that pod only (ForceActivate).
    if (objects.new_pod != nullptr) {
      if (objects.new_pod->metadata.uid != pod.pod().metadata.uid) return Strategy::kSkip;
    } else if (objects.new_node != nullptr) {
      return Strategy::kSkip;
    }
    return Strategy::kAfterBackoff;
  }

  auto profile = hints_.find(pod.pod().spec.scheduler_name);
  if (profile == hints_.end()) {
    SPDLOG_ERROR("No QueueingHintMap is registered for this profile profile=\"{}\" pod=\"{}\"",
                 pod.pod().spec.scheduler_name, PodQueueKey(pod.pod()));
    return Strategy::kAfterBackoff;
  }

  Strategy strategy = Strategy::kSkip;
  for (const auto& [plugin, registration] : profile->second) {
    if (!registration.event.Match(event)) continue;
    const bool pending = pod.pending_plugins.count(plugin) > 0;
    if (!pending && pod.unschedulable_plugins.count(plugin) == 0) continue;

    framework::QueueingHint hint = framework::QueueingHint::kQueue;
    std::string_view hint_label = "Queue";  // upstream's queueingHintToLabel
    // The clock is read only for the histogram (unit tests and the decision-rate bench run without).
    const bool timed = options_.metrics != nullptr;
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    if (registration.hint) {
      absl::StatusOr<framework::QueueingHint> result = registration.hint(pod.pod(), objects);
      if (result.ok()) {
        hint = *result;
        if (hint == framework::QueueingHint::kQueueSkip) hint_label = "QueueSkip";
      } else {
        // An error counts as Queue: better a wasted attempt than a pod stuck in the pool.
        SPDLOG_ERROR(
            "QueueingHintFn returns error event=\"{}\" plugin=\"{}\" pod=\"{}\" err=\"{}\"",
            event.label, plugin, PodQueueKey(pod.pod()), result.status().ToString());
        hint_label = "Error";
      }
    }
    // Without a hint function upstream runs its default one (Queue): timed all the same.
    if (timed) {
      options_.metrics->ObserveQueueingHint(plugin, event.label, hint_label, std::chrono::steady_clock::now() - start);
    }
    if (hint == framework::QueueingHint::kQueueSkip) continue;
    // A Pending plugin asked for this event: no backoff, this is not the pod's fault.
    if (pending) return Strategy::kImmediately;
    if (pod.pending_plugins.empty()) return Strategy::kAfterBackoff;
    strategy = Strategy::kAfterBackoff;  // a Pending plugin may still say Queue
  }
  return strategy;
}

SchedulingQueue::Strategy SchedulingQueue::HintForInFlightPodLocked(
    const QueuedPodInfo& pod) const {
  // Failed with an error: retry after backoff, not at the next flush.
  if (!HasRejectors(pod)) return Strategy::kAfterBackoff;
  std::optional<std::vector<const InFlightEvent*>> events =
      in_flight_.EventsSince(pod.pod().metadata.uid);
  if (!events.has_value()) {
    // After Close nothing is in flight any more: attempts finishing late are expected.
    if (closed_) return Strategy::kAfterBackoff;
    SPDLOG_ERROR(
        "Error getting cluster events for pod: in flight Pod isn't found in the scheduling "
        "queue pod=\"{}\"",
                 PodQueueKey(pod.pod()));
    return Strategy::kAfterBackoff;
  }
  Strategy strategy = Strategy::kSkip;
  for (const InFlightEvent* event : *events) {
    switch (IsPodWorthRequeuingLocked(pod, event->event, event->objects.View())) {
      case Strategy::kSkip:
        break;
      case Strategy::kImmediately:
        return Strategy::kImmediately;
      case Strategy::kAfterBackoff:
        strategy = Strategy::kAfterBackoff;
        if (pod.pending_plugins.empty()) return strategy;
        break;
    }
  }
  return strategy;
}

void SchedulingQueue::MovePodsLocked(const std::vector<std::string>& keys,
                                     const ClusterEvent& event,
                                     const framework::EventObjects& objects,
                                     const ObjectsFn& shared_objects,
                                     const std::function<bool(const api::Pod&)>& precheck) {
  if (!IsEventOfInterest(event)) return;
  bool activated = false;
  const std::vector<framework::ClusterEvent> no_events;
  for (const std::string& key : keys) {
    auto it = unschedulable_.find(key);
    if (it == unschedulable_.end()) continue;
    const QueuedPodInfo& pod = *it->second;
    if (precheck && !precheck(pod.pod())) continue;
    // Only the gating plugin's events can lift a gate; and (v1.37) a wildcard event such as the
    // periodic flush, so that a gated pod whose ungating event was missed is not stuck for ever.
    if (Gated(pod) && !event.IsWildCard()) {
      auto registered = plugin_events_.find(pod.gating_plugin);
      const std::vector<framework::ClusterEvent>& gate_events =
          registered != plugin_events_.end() ? registered->second : no_events;
      if (!MatchAnyClusterEvent(event, gate_events)) {
        continue;
      }
    }
    const Strategy strategy = IsPodWorthRequeuingLocked(pod, event, objects);
    if (strategy == Strategy::kSkip) continue;
    FlagScope from_pool(requeuing_from_pool_);
    if (WakesPop(RequeueLocked(TakeUnschedulableLocked(key), strategy, event.label))) {
      activated = true;
    }
  }
  move_request_cycle_ = scheduling_cycle_;
  // A failing attempt in progress must see this event too.
  if (in_flight_.AnyInFlight()) in_flight_.AddEventIfAnyInFlight(event, shared_objects());
  if (activated) pop_cv_.NotifyAll();
}

std::vector<std::string> SchedulingQueue::UnschedulableKeysLocked() const {
  std::vector<std::string> keys;
  keys.reserve(unschedulable_.size());
  for (const auto& [key, pod] : unschedulable_) keys.push_back(key);
  return keys;
}

}  // namespace ksched::scheduler
