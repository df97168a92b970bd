#include "scheduler/scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "scheduler/fit_error.h"
#include "scheduler/metrics/metrics.h"

namespace ksched::scheduler {
namespace {

std::string PodKey(const api::Pod& pod) { return pod.metadata.namespace_ + "/" + pod.metadata.name; }

framework::NominatingInfo ClearNominatedNode() {
  return framework::NominatingInfo{"", framework::NominatingMode::kOverride};
}

// A FitError for a rejection after a node was chosen (Reserve, Permit): one node, its status.
FitError SingleNodeFitError(const std::string& node, const framework::Status& status) {
  FitError fit_error;
  fit_error.num_all_nodes = 1;
  fit_error.diagnosis.node_to_status.Set(node, status);
  fit_error.diagnosis.AddPluginStatus(status);
  return fit_error;
}

// The binding pool's size: `binding_threads`, unless every profile binds without blocking and
// has no PreBind plugins.
int BindingPoolThreads(int binding_threads,
                       const std::map<std::string, framework::Framework*, std::less<>>& profiles,
                       const std::vector<Extender*>& extenders) {
  // An extender's Bind blocks a pool thread.
  for (Extender* extender : extenders) {
    if (extender->IsBinder()) return binding_threads;
  }
  for (const auto& [name, framework] : profiles) {
    // PreBind plugins may need the pool for some pods (it starts its threads as they are needed).
    if (!framework->BindsWithoutBlocking() || framework->HasPreBindPlugins()) return binding_threads;
  }
  return std::min(binding_threads, kFailurePoolThreads);
}

}  // namespace

// An asynchronous binding cycle's pod and state, shared by its callbacks.
struct Scheduler::AsyncBinding {
  framework::Framework* framework;
  std::shared_ptr<framework::CycleState> state;
  ScheduleResult result;
  framework::QueuedPodInfoPtr pod_info;
  framework::PodInfoPtr assumed;
  TimePoint start;
  // The binding cycle counts as upstream's binding goroutine until its last callback is done.
  framework::CountedGoroutines counted;
  // RunPreBindPreFlights' Skip mask (every PreBind plugin skipped).
  std::uint64_t pre_bind_skipped = 0;
};

Scheduler::Scheduler(SchedulerOptions options, Cache& cache, SchedulingQueue& queue,
                     std::map<std::string, framework::Framework*, std::less<>> profiles,
                     PodLookup informer_pod, PodStatusWriter& status_writer)
    : options_(std::move(options)),
      cache_(cache),
      queue_(queue),
      profiles_(std::move(profiles)),
      informer_pod_(std::move(informer_pod)),
      status_writer_(status_writer),
      algorithm_(options_.percentage_of_nodes_to_score, options_.seed),
      sample_random_(static_cast<std::minstd_rand::result_type>(
          options_.seed.value_or(std::random_device{}()))),
      binding_window_(options_.binding_threads),
      binding_pool_(BindingPoolThreads(options_.binding_threads, profiles_, options_.extenders)) {
  algorithm_.set_extenders(options_.extenders);
  if (options_.metrics != nullptr) {
    goroutines_ = &options_.metrics->goroutines();
    algorithm_.set_goroutines(goroutines_);
  }
  for (auto& [name, framework] : profiles_) {
    framework->SetSnapshot(&snapshot_);
    if (options_.metrics != nullptr) {
      profile_metrics_[framework] = &options_.metrics->ForProfile(framework->profile_name());
    }
  }
}

Scheduler::~Scheduler() {
  // A failed asynchronous binding hands its handling to the pool: the window first.
  binding_window_.WaitIdle();
  binding_pool_.Stop();
}

framework::Framework* Scheduler::FrameworkForPod(const api::Pod& pod) const {
  auto it = profiles_.find(pod.spec.scheduler_name);
  return it == profiles_.end() ? nullptr : it->second;
}

void Scheduler::Run() {
  while (ScheduleOne()) {
  }
}

void Scheduler::DrainBindings() {
  // The window first: a binding leaves it only after handing its failure to the pool.
  while (binding_window_.in_flight() > 0 || binding_pool_.in_flight() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

bool Scheduler::SkipPodSchedule(framework::Framework& framework, const api::Pod& pod) {
  if (pod.metadata.deletion_timestamp.has_value()) {
    framework.event_recorder().Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling",
                                      "skip schedule deleting pod: " + PodKey(pod));
    SPDLOG_DEBUG("Skip schedule deleting pod pod=\"{}\"", PodKey(pod));
    return true;
  }
  // An assumed pod may come back through an update that arrived during its cycle.
  return cache_.IsAssumedPod(pod);
}

bool Scheduler::ScheduleOne() {
  framework::QueuedPodInfoPtr pod_info = queue_.Pop();
  if (!pod_info) return false;
  const api::Pod& pod = pod_info->pod();
  framework::Framework* framework = FrameworkForPod(pod);
  if (framework == nullptr) {
    // Only pods of our profiles are queued; anything else is a bug upstream of here.
    SPDLOG_ERROR("profile not found for scheduler name \"{}\" pod=\"{}\"", pod.spec.scheduler_name,
                 PodKey(pod));
    queue_.Done(pod.metadata.uid);
    return true;
  }
  if (SkipPodSchedule(*framework, pod)) {
    stats_.skipped.fetch_add(1, std::memory_order_relaxed);
    queue_.Done(pod.metadata.uid);
    return true;
  }
  stats_.attempts.fetch_add(1, std::memory_order_relaxed);

  const TimePoint start = std::chrono::steady_clock::now();
  auto state = std::make_shared<framework::CycleState>();
  // Plugins are timed in a sample of the cycles only (upstream pluginMetricsSamplePercent).
  if (options_.metrics != nullptr) {
    state->set_record_plugin_metrics(static_cast<int>(sample_random_() % 100) <
                                     options_.metrics->plugin_sample_percent());
  }
  ScheduleResult result;
  framework::PodInfoPtr assumed;
  std::optional<FitError> fit_error;
  framework::Status status = SchedulingCycle(*framework, *state, *pod_info, result, assumed, start);
  if (!status.IsSuccess()) {
    HandleSchedulingFailure(*framework, std::move(pod_info), status, std::nullopt,
                            result.nominating_info, start);
    return true;
  }

  // The binding cycle owns the pod from here. What only Filter and Score read is freed now, not
  // when the bind returns (many binds are in flight at once).
  state->DropSchedulingCycleOnlyData();
  // Upstream runs the PreFlights first thing in the binding goroutine; they do not block, and
  // their answer decides whether the binding cycle needs a thread at all.
  std::uint64_t pre_bind_skipped = 0;
  framework::Status pre_flight =
      framework->RunPreBindPreFlights(*state, assumed->pod(), result.suggested_host, pre_bind_skipped);
  if (framework->BindsWithoutBlocking() && pre_flight.IsSkip() &&
      !framework->IsWaitingOnPermit(pod.metadata.uid) &&
      !ExtenderBindsPod(options_.extenders, assumed->pod())) {
    StartAsyncBinding(std::make_shared<AsyncBinding>(AsyncBinding{
        framework, std::move(state), std::move(result), std::move(pod_info), std::move(assumed), start,
        framework::CountedGoroutines(goroutines_, framework::GoroutineOperation::kBinding),
        pre_bind_skipped}));
    return true;
  }
  if (!options_.nominated_node_name_for_expectation) {
    // v1.34: no PreFlights; every PreBind plugin runs, and the pod counts as in PreBind.
    pre_flight = framework::Status();
    pre_bind_skipped = 0;
  }
  auto shared_info = std::make_shared<framework::QueuedPodInfoPtr>(std::move(pod_info));
  binding_pool_.Submit([this, framework, state, result, shared_info, assumed, pre_flight,
                        pre_bind_skipped, start]() mutable {
    // Counted from when a pool thread takes it (upstream: from the goroutine's start).
    const framework::CountedGoroutines counted(goroutines_, framework::GoroutineOperation::kBinding);
    framework::Status bind_status = BindingCycle(*framework, *state, result, **shared_info, assumed,
                                                 pre_flight, pre_bind_skipped, start);
    if (!bind_status.IsSuccess()) {
      HandleBindingCycleError(*framework, *state, std::move(*shared_info), result, assumed,
                              bind_status, start);
    }
  });
  return true;
}

framework::Status Scheduler::SchedulingCycle(framework::Framework& framework,
                                             framework::CycleState& state,
                                             framework::QueuedPodInfo& pod_info,
                                             ScheduleResult& result,
                                             framework::PodInfoPtr& assumed, TimePoint start) {
  const api::Pod& pod = pod_info.pod();
  // Upstream observes the algorithm latency since the attempt began: at once after a success, after
  // PostFilter after a failure (its deferred observation).
  auto observe_algorithm = [&] {
    if (options_.metrics != nullptr) {
      options_.metrics->ObserveSchedulingAlgorithmDuration(std::chrono::steady_clock::now() - start);
    }
  };
  if (absl::Status updated = cache_.UpdateSnapshot(snapshot_); !updated.ok()) {
    observe_algorithm();
    result.nominating_info = ClearNominatedNode();
    return framework::Status::FromError(std::string(updated.message()));
  }
  ScheduleOutcome outcome = algorithm_.SchedulePod(framework, state, pod, snapshot_);
  result = outcome.result;
  if (!outcome.status.IsSuccess()) {
    struct ObserveOnReturn {
      decltype(observe_algorithm)& observe;
      ~ObserveOnReturn() { observe(); }
    } observe_on_return{observe_algorithm};
    if (!outcome.fit_error.has_value()) return outcome.status;  // no nodes, or an error
    FitError& fit_error = *outcome.fit_error;
    pod_info.unschedulable_plugins = fit_error.diagnosis.unschedulable_plugins;
    pod_info.pending_plugins = fit_error.diagnosis.pending_plugins;
    if (!framework.HasPostFilterPlugins()) {
      // v1.37 clears a nomination here too (v1.34 left it).
      result.nominating_info = ClearNominatedNode();
      return framework::Status(framework::Code::kUnschedulable).WithError(fit_error.Message());
    }
    auto [post_result, post_status] =
        framework.RunPostFilterPlugins(state, pod, fit_error.diagnosis.node_to_status);
    fit_error.diagnosis.post_filter_msg = post_status.Message();
    if (post_status.code() == framework::Code::kError) {
      SPDLOG_ERROR("Status after running PostFilter plugins for pod pod=\"{}\" status=\"{}\"",
                   PodKey(pod), post_status.Message());
    }
    result.nominating_info = post_result.nominating_info;
    return framework::Status(framework::Code::kUnschedulable).WithError(fit_error.Message());
  }
  observe_algorithm();

  // Assume: the cache counts the pod on its node from now on, so the next cycle sees it.
  auto assumed_pod = std::make_shared<api::Pod>(pod);
  assumed_pod->spec.node_name = result.suggested_host;
  assumed = framework::PodInfo::CreateOrDie(std::move(assumed_pod));
  if (absl::Status status = cache_.AssumePod(assumed); !status.ok()) {
    result.nominating_info = ClearNominatedNode();
    assumed.reset();
    return framework::Status::FromError(std::string(status.message()));
  }
  // upstream assume(): a nominated pod now counts on its node through the cache; left nominated,
  // other pods' filters would count it twice until the informer reports the binding.
  queue_.DeleteNominatedPodIfExists(assumed->pod());

  auto undo = [&](const framework::Status& status) {
    framework.RunReservePluginsUnreserve(state, assumed->pod(), result.suggested_host);
    if (absl::Status forgot = cache_.ForgetPod(assumed->pod()); !forgot.ok()) {
      SPDLOG_ERROR("Scheduler cache ForgetPod failed: {}", std::string(forgot.message()));
    }
    result.nominating_info = ClearNominatedNode();
    if (status.IsRejected()) {
      FitError fit_error = SingleNodeFitError(result.suggested_host, status);
      pod_info.unschedulable_plugins = fit_error.diagnosis.unschedulable_plugins;
      pod_info.pending_plugins = fit_error.diagnosis.pending_plugins;
      return framework::Status(status.code()).WithError(fit_error.Message());
    }
    return status;
  };
  if (framework::Status status =
          framework.RunReservePluginsReserve(state, assumed->pod(), result.suggested_host);
      !status.IsSuccess()) {
    return undo(status);
  }
  framework::Status permit = framework.RunPermitPlugins(state, assumed->pod(), result.suggested_host);
  if (!permit.IsSuccess() && !permit.IsWait()) return undo(permit);
  return framework::Status();
}

framework::Status Scheduler::BindingCycle(framework::Framework& framework,
                                          framework::CycleState& state,
                                          const ScheduleResult& result,
                                          const framework::QueuedPodInfo& pod_info,
                                          const framework::PodInfoPtr& assumed,
                                          const framework::Status& pre_flight,
                                          std::uint64_t pre_bind_skipped, TimePoint start) {
  const api::Pod& pod = assumed->pod();
  if (options_.nominated_node_name_for_expectation) {
    // Rejections are not a PreFlight's answer: RunPreBindPreFlights turns them into errors.
    if (pre_flight.code() == framework::Code::kError || pre_flight.IsRejected()) return pre_flight;
    if (pre_flight.IsSuccess() || framework.IsWaitingOnPermit(pod.metadata.uid)) {
      // Tell external components (cluster autoscalers) where the pod is about to go; only when
      // Permit or PreBind will take time, as otherwise the pod is bound soon anyway.
      if (absl::Status set = status_writer_.SetNominatedNodeName(pod, result.suggested_host); !set.ok()) {
        // Not critical enough to stop the binding cycle.
        SPDLOG_ERROR("Failed to update the nominated node name in the binding cycle pod=\"{}\" "
                     "nominatedNodeName=\"{}\": {}",
                     PodKey(pod), result.suggested_host, std::string(set.message()));
      }
    }
  }
  if (framework::Status status = framework.WaitOnPermit(pod); !status.IsSuccess()) {
    if (status.IsRejected()) {
      FitError fit_error = SingleNodeFitError(result.suggested_host, status);
      fit_error.diagnosis.unschedulable_plugins.insert(status.plugin());
      return framework::Status(status.code()).WithError(fit_error.Message()).WithPlugin(status.plugin());
    }
    return status;
  }
  // Past Permit no failure makes the pod "unschedulable"; in-flight events can be released.
  queue_.Done(pod.metadata.uid);
  // A pod whose PreBind plugins have work to do can be preempted in memory until it is prebound
  // (framework/pods_in_pre_bind.h).
  framework::PodsInPreBind& in_pre_bind = framework.pods_in_pre_bind();
  const bool registered = pre_flight.IsSuccess();
  struct Unregister {
    framework::PodsInPreBind* pods;
    const std::string* uid;
    ~Unregister() {
      if (pods != nullptr) pods->Remove(*uid);
    }
  } const unregister{registered ? &in_pre_bind : nullptr, &pod.metadata.uid};
  if (registered) in_pre_bind.Add(pod.metadata.uid);
  if (framework::Status status =
          framework.RunPreBindPlugins(state, pod, result.suggested_host, pre_bind_skipped);
      !status.IsSuccess()) {
    return status;
  }
  // A pod preempted during PreBind is not bound (k/k #135502): it goes back to the queue.
  if (registered) {
    if (std::optional<std::string> cause = in_pre_bind.MarkPrebound(pod.metadata.uid)) {
      return framework::Status::FromError(*cause);
    }
  }
  // upstream bind(): an interested binder extender replaces the Bind plugins.
  auto [by_extender, extender_status] = BindWithExtenders(options_.extenders, pod, result.suggested_host);
  framework::Status bound =
      by_extender ? std::move(extender_status) : framework.RunBindPlugins(state, pod, result.suggested_host);
  if (!bound.IsSuccess()) {
    SPDLOG_DEBUG("Failed to bind pod pod=\"{}\"", PodKey(pod));
    return bound;
  }
  RecordBound(framework, state, result, pod_info, pod, start);
  return framework::Status();
}

void Scheduler::StartAsyncBinding(std::shared_ptr<AsyncBinding> binding) {
  // Nothing waits at Permit: as BindingCycle after WaitOnPermit, in-flight events can be released.
  queue_.Done(binding->assumed->pod().metadata.uid);
  binding_window_.Run([this, binding = std::move(binding)]() mutable {
    AsyncBinding& started = *binding;
    // Every PreBind plugin's PreFlight skipped (PreBind returns at once), but the extension point
    // runs and is timed as upstream's.
    if (framework::Status pre_bound = started.framework->RunPreBindPlugins(
            *started.state, started.assumed->pod(), started.result.suggested_host,
            options_.nominated_node_name_for_expectation ? started.pre_bind_skipped : 0);
        !pre_bound.IsSuccess()) {
      FailAsyncBinding(binding, std::move(pre_bound));
      binding_window_.Finished();
      return;
    }
    started.framework->RunBindPluginsAsync(
        *started.state, started.assumed->pod(), started.result.suggested_host,
        [this, binding = std::move(binding)](framework::Status bound) {
          FinishAsyncBinding(binding, std::move(bound));
          binding_window_.Finished();
        });
  });
}

void Scheduler::FinishAsyncBinding(const std::shared_ptr<AsyncBinding>& binding,
                                   framework::Status bound) {
  const api::Pod& pod = binding->assumed->pod();
  if (!bound.IsSuccess()) {
    SPDLOG_DEBUG("Failed to bind pod pod=\"{}\"", PodKey(pod));
    FailAsyncBinding(binding, std::move(bound));
    return;
  }
  RecordBound(*binding->framework, *binding->state, binding->result, *binding->pod_info, pod,
              binding->start);
}

void Scheduler::FailAsyncBinding(const std::shared_ptr<AsyncBinding>& binding, framework::Status status) {
  // Unreserve plugins and the requeue may block: off the transport's thread. Called before the
  // window slot is released, so that DrainBindings and the destructor see the task in the pool.
  binding_pool_.Submit([this, binding, status = std::move(status)] {
    HandleBindingCycleError(*binding->framework, *binding->state, std::move(binding->pod_info),
                            binding->result, binding->assumed, status, binding->start);
  });
}

void Scheduler::RecordBound(framework::Framework& framework, framework::CycleState& state,
                            const ScheduleResult& result, const framework::QueuedPodInfo& pod_info,
                            const api::Pod& pod, TimePoint start) {
  framework.event_recorder().Eventf(pod, nullptr, "Normal", "Scheduled", "Binding",
                                    "Successfully assigned " + PodKey(pod) + " to " +
                                        result.suggested_host);
  SPDLOG_DEBUG("Successfully bound pod to node pod=\"{}\" node=\"{}\" evaluatedNodes={} feasibleNodes={}",
               PodKey(pod), result.suggested_host, result.evaluated_nodes, result.feasible_nodes);
  stats_.scheduled.fetch_add(1, std::memory_order_relaxed);
  ObserveAttempt(framework, metrics::AttemptResult::kScheduled, start);
  ObservePodScheduled(pod_info);
  framework.RunPostBindPlugins(state, pod, result.suggested_host);
}

void Scheduler::HandleBindingCycleError(framework::Framework& framework,
                                        framework::CycleState& state,
                                        framework::QueuedPodInfoPtr pod_info,
                                        const ScheduleResult& result,
                                        const framework::PodInfoPtr& assumed,
                                        const framework::Status& status, TimePoint start) {
  const api::Pod& pod = assumed->pod();
  framework.RunReservePluginsUnreserve(state, pod, result.suggested_host);
  const bool forgotten = cache_.ForgetPod(pod).ok();
  if (!forgotten) SPDLOG_ERROR("scheduler cache ForgetPod failed for pod=\"{}\"", PodKey(pod));
  framework::EventObjects objects;
  objects.old_pod = &pod;
  if (status.IsRejected()) {
    pod_info->unschedulable_plugins.clear();
    if (!status.plugin().empty()) pod_info->unschedulable_plugins.insert(status.plugin());
    // The room the assumed pod held is free again (an AssignedPodDelete), but the pod itself was
    // rejected: requeue it first, then offer the event to the others only, so that the event
    // does not send the rejected pod straight to backoff (upstream defers the move likewise).
    const std::string uid = pod.metadata.uid;
    HandleSchedulingFailure(framework, std::move(pod_info), status, std::nullopt, ClearNominatedNode(),
                            start);
    if (forgotten) {
      queue_.MoveAllToActiveOrBackoffQueue(
          framework::AssignedPodDeleteEvent(), objects,
          [&uid](const api::Pod& other) { return other.metadata.uid != uid; });
    }
    return;
  }
  if (forgotten) queue_.MoveAllToActiveOrBackoffQueue(framework::AssignedPodDeleteEvent(), objects);
  HandleSchedulingFailure(framework, std::move(pod_info), status, std::nullopt, ClearNominatedNode(),
                          start);
}

void Scheduler::HandleSchedulingFailure(framework::Framework& framework,
                                        framework::QueuedPodInfoPtr pod_info,
                                        const framework::Status& status,
                                        const std::optional<FitError>& /*fit_error*/,
                                        const std::optional<framework::NominatingInfo>& nominating,
                                        TimePoint start) {
  std::shared_ptr<const api::Pod> pod = pod_info->pod_info->pod_ptr();
  const bool rejected = status.IsRejected();
  const std::string message = status.Message();
  (rejected ? stats_.unschedulable : stats_.errors).fetch_add(1, std::memory_order_relaxed);
  ObserveAttempt(framework,
                 rejected ? metrics::AttemptResult::kUnschedulable : metrics::AttemptResult::kError,
                 start);
  if (message == kNoNodesAvailable) {
    SPDLOG_INFO("Unable to schedule pod; no nodes are registered to the cluster; waiting pod=\"{}\"",
                PodKey(*pod));
  } else if (rejected) {
    SPDLOG_INFO("Unable to schedule pod; no fit; waiting pod=\"{}\" err=\"{}\"", PodKey(*pod), message);
  } else {
    SPDLOG_ERROR("Error scheduling pod; retrying pod=\"{}\" err=\"{}\"", PodKey(*pod), message);
  }

  // Requeue with the informer's current copy, unless the pod is gone or already bound.
  const std::string uid = pod->metadata.uid;
  std::shared_ptr<const api::Pod> current = informer_pod_(pod->metadata.namespace_, pod->metadata.name);
  bool requeued = false;
  if (current == nullptr) {
    SPDLOG_INFO("Pod doesn't exist in informer cache pod=\"{}\"", PodKey(*pod));
  } else if (!current->spec.node_name.empty()) {
    SPDLOG_INFO("Pod has been assigned to node. Abort adding it back to queue. pod=\"{}\" node=\"{}\"",
                PodKey(*pod), current->spec.node_name);
  } else if (current->metadata.uid != uid) {
    // v1.37: another pod under the same name; neither requeued nor written to.
    SPDLOG_DEBUG("Pod was recreated while handling scheduling failure. Skip requeueing and status "
                 "updates. pod=\"{}\" oldUID=\"{}\" newUID=\"{}\"",
                 PodKey(*pod), uid, current->metadata.uid);
    queue_.Done(uid);
    return;
  } else {
    absl::StatusOr<framework::PodInfoPtr> refreshed = framework::PodInfo::Create(current);
    pod_info->pod_info = refreshed.ok() ? *refreshed : framework::PodInfo::CreateOrDie(current);
    // v1.37: the event and the status write are about the informer's copy too, so that a
    // nominatedNodeName set since the pod was popped (the binding cycle's) is seen and cleared.
    pod = current;
    if (nominating.has_value()) queue_.AddNominatedPod(pod_info->pod_info, *nominating);
    const std::int64_t cycle = queue_.SchedulingCycle();
    if (absl::Status added = queue_.AddUnschedulableIfNotPresent(std::move(pod_info), cycle);
        !added.ok()) {
      SPDLOG_ERROR("Error occurred: {}", std::string(added.message()));
    }
    requeued = true;
  }
  if (!requeued) {
    // Upstream offers the pod to the nominator in every case; it nominates neither a pod the
    // informer no longer has nor a bound one, but a clearing drops an in-memory nomination.
    if (nominating.has_value()) queue_.AddNominatedPod(pod_info->pod_info, *nominating);
    queue_.Done(uid);
  }

  framework.event_recorder().Eventf(*pod, nullptr, "Warning", "FailedScheduling", "Scheduling",
                                    TruncateEventNote(message));
  api::PodCondition condition;
  condition.type = std::string(api::kPodScheduled);
  condition.status = std::string(api::kConditionFalse);
  condition.reason = rejected ? "Unschedulable" : "SchedulerError";
  condition.message = message;
  condition.observed_generation = pod->metadata.generation;
  status_writer_.UpdatePodScheduledCondition(pod, std::move(condition), nominating);
}

void Scheduler::ObserveAttempt(const framework::Framework& framework, metrics::AttemptResult result,
                               TimePoint start) {
  auto it = profile_metrics_.find(&framework);
  if (it == profile_metrics_.end()) return;  // no metrics
  it->second->Observe(result, std::chrono::steady_clock::now() - start);
}

void Scheduler::ObservePodScheduled(const framework::QueuedPodInfo& pod_info) {
  if (options_.metrics == nullptr) return;
  if (pod_info.was_flushed_from_unschedulable) {
    SPDLOG_DEBUG("Pod scheduled after flush from unschedulableEntities pod=\"{}/{}\"", pod_info.pod().metadata.namespace_,
                 pod_info.pod().metadata.name);
    options_.metrics->PodScheduledAfterFlush();
  }
  if (!pod_info.has_initial_attempt) {
    options_.metrics->ObservePodScheduled(pod_info.attempts, nullptr);
    return;
  }
  const Clock::time_point now =
      options_.clock != nullptr ? options_.clock->Now() : std::chrono::steady_clock::now();
  const std::chrono::nanoseconds since_initial = now - pod_info.initial_attempt_timestamp;
  options_.metrics->ObservePodScheduled(pod_info.attempts, &since_initial);
}

}  // namespace ksched::scheduler
