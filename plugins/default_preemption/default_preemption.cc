#include "plugins/default_preemption/default_preemption.h"

#include <algorithm>
#include <chrono>

#include "framework/metrics_recorder.h"
#include "framework/nodes_available_message.h"
#include "framework/raw_plugin_args.h"
#include "spdlog/spdlog.h"

namespace ksched::plugins::default_preemption {

namespace {

using framework::Code;
using framework::PodInfoPtr;
using framework::Status;

std::string PodKey(const api::Pod& pod) {
  return std::string(pod.metadata.namespace_) + "/" + pod.metadata.name;
}

// upstream podTerminatingByPreemption: being deleted, with DisruptionTarget=True set by the
// scheduler's preemption.
bool TerminatingByPreemption(const api::Pod& pod) {
  if (!pod.metadata.deletion_timestamp.has_value()) return false;
  const api::PodCondition* condition = pod.status.FindCondition(api::kDisruptionTarget);
  return condition != nullptr && condition->status == api::kConditionTrue &&
         condition->reason == api::kPodReasonPreemptionByScheduler;
}

// A fixed-size list filled concurrently by the dry run (upstream candidateList): adds past the
// capacity are dropped.
class CandidateList {
 public:
  explicit CandidateList(std::size_t capacity) : items_(capacity) {}
  void Add(Candidate candidate) {
    const std::size_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index < items_.size()) items_[index] = std::move(candidate);
  }
  std::size_t size() const { return std::min(next_.load(std::memory_order_relaxed), items_.size()); }
  // After the dry run (no concurrent Add).
  void MoveTo(std::vector<Candidate>& out) {
    for (std::size_t i = 0; i < size(); ++i) out.push_back(std::move(items_[i]));
  }

 private:
  std::vector<Candidate> items_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace

DefaultPreemption::DefaultPreemption(DefaultPreemptionArgs args, framework::Handle& handle,
                                     int executor_threads)
    : args_(args), handle_(handle), executor_(std::max(1, executor_threads)) {}

DefaultPreemption::~DefaultPreemption() = default;

std::vector<framework::ClusterEventWithHint> DefaultPreemption::EventsToRegister() const {
  // Only so that a pod gated by PreEnqueue is looked at again when a victim is deleted; the hint
  // skips: the pod's other rejecting plugins decide.
  return {{framework::ClusterEvent{framework::EventResource::kPod, framework::action::kDelete, "Pod"},
           [](const api::Pod&, const framework::EventObjects&) -> absl::StatusOr<framework::QueueingHint> {
             return framework::QueueingHint::kQueueSkip;
           }}};
}

Status DefaultPreemption::PreEnqueue(const api::Pod& pod) {
  if (preempting_count_.load(std::memory_order_acquire) == 0) return Status();
  if (IsPreempting(pod.metadata.uid)) {
    return Status(Code::kUnschedulableAndUnresolvable, {kWaitingForPreemption});
  }
  return Status();
}

bool DefaultPreemption::IsPreempting(std::string_view uid) const {
  base::MutexLock lock(&mu_);
  const auto it = preempting_.find(uid);
  if (it == preempting_.end()) return false;
  // The last victim not recorded yet: the preparation is still ahead of it.
  if (!it->second.has_value()) return true;
  // The last victim is gone from the informer: its deletion event has been (or is being) handled,
  // and the preparation is as good as done (upstream isRunningPreemption).
  return handle_.PodExists(it->second->ns, it->second->name) != false;
}

void DefaultPreemption::StopPreempting(const std::string& uid) {
  base::MutexLock lock(&mu_);
  if (preempting_.erase(uid) > 0) preempting_count_.fetch_sub(1, std::memory_order_release);
}

std::string_view DefaultPreemption::IneligibilityReason(
    const api::Pod& pod, const framework::Status& nominated_node_status) const {
  if (pod.spec.preemption_policy == api::kPreemptNever) return kNeverPolicy;
  const std::string_view nominated = pod.status.nominated_node_name;
  if (nominated.empty()) return {};
  // The nominated node no longer fits at all: preempting elsewhere is allowed.
  if (nominated_node_status.code() == Code::kUnschedulableAndUnresolvable) return {};
  const framework::NodeInfo* node = handle_.snapshot().Get(nominated);
  if (node == nullptr) return {};
  const std::int32_t priority = api::PodPriority(pod);
  for (const PodInfoPtr& other : node->pods()) {
    if (api::PodPriority(other->pod()) < priority && TerminatingByPreemption(other->pod())) {
      return kTerminatingOnNominated;
    }
  }
  return {};
}

std::pair<DefaultPreemption::Victims, Status> DefaultPreemption::SelectVictimsOnNode(
    framework::CycleState& state, const api::Pod& pod, framework::NodeInfo& node,
    const std::vector<DisruptionBudget>& budgets, api::Time now) const {
  const std::int32_t priority = api::PodPriority(pod);
  auto remove = [&](const PodInfoPtr& victim) -> Status {
    if (!node.RemovePod(victim->pod().metadata.uid)) {
      return Status::FromError("pod " + PodKey(victim->pod()) + " is not on node " + node.name());
    }
    return handle_.RunPreFilterExtensionRemovePod(state, pod, victim, node);
  };
  auto add = [&](const PodInfoPtr& victim) -> Status {
    node.AddPod(victim);
    return handle_.RunPreFilterExtensionAddPod(state, pod, victim, node);
  };

  // First every lower-priority pod goes: if the pod does not fit even then, the node cannot help.
  std::vector<PodInfoPtr> potential;
  for (const PodInfoPtr& other : node.pods()) {
    if (api::PodPriority(other->pod()) < priority) potential.push_back(other);
  }
  if (potential.empty()) return {{}, Status(Code::kUnschedulableAndUnresolvable, {kNoVictims})};
  for (const PodInfoPtr& victim : potential) {
    if (Status removed = remove(victim); !removed.IsSuccess()) {
      return {{}, Status::FromError(removed.Message())};
    }
  }
  if (Status fits = handle_.RunFilterPluginsWithNominatedPods(state, pod, node); !fits.IsSuccess()) {
    return {{}, std::move(fits)};
  }

  // Then as many as possible come back, most important first, PDB-violating ones before others.
  // Stable: pods equal in priority and start time keep the node's order.
  std::stable_sort(potential.begin(), potential.end(), [now](const PodInfoPtr& a, const PodInfoPtr& b) {
    return MoreImportantPod(a->pod(), b->pod(), now);
  });
  std::vector<PodInfoPtr> violating;
  std::vector<PodInfoPtr> non_violating;
  SplitByPdbViolation(potential, budgets, violating, non_violating);

  Victims victims;
  // Returns whether the pod was reprieved; an Error status when an extension failed.
  auto reprieve = [&](const PodInfoPtr& candidate, bool& fits) -> Status {
    if (Status added = add(candidate); !added.IsSuccess()) return Status::FromError(added.Message());
    fits = handle_.RunFilterPluginsWithNominatedPods(state, pod, node).IsSuccess();
    if (!fits) {
      if (Status removed = remove(candidate); !removed.IsSuccess()) {
        return Status::FromError(removed.Message());
      }
      victims.pods.push_back(candidate);
    }
    return Status();
  };
  for (const PodInfoPtr& candidate : violating) {
    bool fits = false;
    if (Status status = reprieve(candidate, fits); !status.IsSuccess()) return {{}, std::move(status)};
    if (!fits) ++victims.num_pdb_violations;
  }
  for (const PodInfoPtr& candidate : non_violating) {
    bool fits = false;
    if (Status status = reprieve(candidate, fits); !status.IsSuccess()) return {{}, std::move(status)};
  }
  // Both groups were walked by importance; the merged list must be too.
  if (!violating.empty() && !non_violating.empty()) {
    std::stable_sort(victims.pods.begin(), victims.pods.end(),
                     [now](const PodInfoPtr& a, const PodInfoPtr& b) {
                       return MoreImportantPod(a->pod(), b->pod(), now);
                     });
  }
  return {std::move(victims), Status()};
}

std::pair<framework::PostFilterResult, Status> DefaultPreemption::PostFilter(
    framework::CycleState& state, const api::Pod& pod, const framework::NodeToStatus& statuses) {
  if (framework::MetricsRecorder* metrics = handle_.metrics_recorder(); metrics != nullptr) {
    metrics->PreemptionAttempted();
  }
  framework::PostFilterResult result;
  // Every message goes out as "preemption: <message>" (upstream's PostFilter wrapper).
  auto prefixed = [&](Code code, std::string message) {
    return std::pair{result, Status(code, {"preemption: " + message})};
  };

  const std::string_view not_eligible =
      IneligibilityReason(pod, statuses.Get(pod.status.nominated_node_name));
  if (!not_eligible.empty()) {
    SPDLOG_DEBUG("Pod is not eligible for preemption pod=\"{}\" reason=\"{}\"", PodKey(pod), not_eligible);
    return prefixed(Code::kUnschedulable, std::string(not_eligible));
  }

  const std::vector<framework::NodeInfo*>& all_nodes = handle_.snapshot().nodes();
  if (all_nodes.empty()) return {result, Status::FromError("preemption: no nodes available")};
  const std::vector<const framework::NodeInfo*> potential =
      statuses.NodesWithCode(all_nodes, Code::kUnschedulable);

  const api::Time now = std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  // The dry run's statuses, for the message when no node can help.
  framework::NodeToStatus dry_run_statuses;
  std::vector<Candidate> candidates;
  std::vector<std::string> errors;
  if (!potential.empty()) {
    const std::vector<DisruptionBudget> budgets = CompileDisruptionBudgets(handle_.PodDisruptionBudgets());
    const auto n = static_cast<std::int32_t>(potential.size());
    const std::size_t offset = std::uniform_int_distribution<std::size_t>(0, potential.size() - 1)(rng_);
    const auto wanted = static_cast<std::size_t>(
        NumCandidates(n, args_.min_candidate_nodes_percentage, args_.min_candidate_nodes_absolute));
    CandidateList non_violating(wanted);
    CandidateList violating(wanted);
    base::Mutex statuses_mu;
    handle_.parallelizer().Until(potential.size(), [&](std::size_t i, framework::Parallelizer::Run& run) {
      const framework::NodeInfo& original = *potential[(offset + i) % potential.size()];
      framework::NodeInfo node = original.Clone();
      std::unique_ptr<framework::CycleState> state_copy = state.Clone();
      auto [victims, status] = SelectVictimsOnNode(*state_copy, pod, node, budgets, now);
      if (status.IsSuccess() && !victims.pods.empty()) {
        Candidate candidate{original.name(), std::move(victims.pods), victims.num_pdb_violations};
        (candidate.num_pdb_violations == 0 ? non_violating : violating).Add(std::move(candidate));
        const std::size_t found_clean = non_violating.size();
        if (found_clean > 0 && found_clean + violating.size() >= wanted) run.Cancel();
        return;
      }
      if (status.IsSuccess()) {
        status = Status::FromError("expected at least one victim pod on node " + original.name());
      }
      base::MutexLock lock(&statuses_mu);
      if (status.code() == Code::kError) errors.push_back(status.Message());
      dry_run_statuses.Set(original.name(), std::move(status));
    }, framework::GoroutineOperation::kDefaultPreemption);
    non_violating.MoveTo(candidates);
    violating.MoveTo(candidates);
  }
  if (candidates.empty() && !errors.empty()) {
    std::string message = "preemption: ";
    for (std::size_t i = 0; i < errors.size(); ++i) message += (i > 0 ? ", " : "") + errors[i];
    return {result, Status::FromError(std::move(message))};
  }
  if (candidates.empty()) {
    SPDLOG_DEBUG("No preemption candidate is found; preemption is not helpful for scheduling pod=\"{}\"",
                 PodKey(pod));
    dry_run_statuses.set_absent_status(Status(Code::kUnschedulableAndUnresolvable, {kNotHelpful}));
    result.nominating_info = {"", framework::NominatingMode::kOverride};
    return prefixed(Code::kUnschedulable,
                framework::NodesAvailableMessage(static_cast<int>(all_nodes.size()), dry_run_statuses));
  }

  // upstream callExtenders: the extenders with a preemptVerb may drop candidates or change victims.
  if (!handle_.preemption_extenders().empty()) {
    if (Status status = CallExtenders(pod, candidates); !status.IsSuccess()) return {result, std::move(status)};
    if (candidates.empty()) return prefixed(Code::kUnschedulable, "no candidate node for preemption");
  }

  const int best = candidates.size() == 1 ? 0 : PickOneNodeForPreemption(candidates, now);
  Candidate chosen = std::move(candidates[static_cast<std::size_t>(best)]);
  SPDLOG_DEBUG("the target node for the preemption is determined node=\"{}\" pod=\"{}\"",
               chosen.node_name, PodKey(pod));

  // upstream getLowerPriorityNominatedPods, read here (the nominator is the scheduling thread's).
  std::vector<PodInfoPtr> lower_nominated;
  for (PodInfoPtr& nominated : handle_.NominatedPodsForNode(chosen.node_name)) {
    if (api::PodPriority(nominated->pod()) < api::PodPriority(pod)) {
      lower_nominated.push_back(std::move(nominated));
    }
  }
  result.nominating_info = {chosen.node_name, framework::NominatingMode::kOverride};
  // Success carries a message since v1.37 (kubernetes#140180); the scheduler appends it to the
  // FailedScheduling event and the PodScheduled condition.
  std::string placed = "found a potential placement for pod on node " + chosen.node_name +
                       ", preempting " + std::to_string(chosen.victims.size()) + " victims";
  PrepareCandidateAsync(std::make_shared<const api::Pod>(pod), std::move(chosen), std::move(lower_nominated));
  return prefixed(Code::kSuccess, std::move(placed));
}

framework::Status DefaultPreemption::CallExtenders(const api::Pod& pod, std::vector<Candidate>& candidates) const {
  framework::NodeVictims victims;
  for (Candidate& candidate : candidates) {
    victims[candidate.node_name] = {std::move(candidate.victims), candidate.num_pdb_violations};
  }
  for (framework::PreemptionExtender* extender : handle_.preemption_extenders()) {
    if (!extender->SupportsPreemption() || !extender->IsInterested(pod)) continue;
    absl::StatusOr<framework::NodeVictims> kept = extender->ProcessPreemption(pod, victims, handle_.snapshot());
    if (!kept.ok()) {
      if (extender->IsIgnorable()) {
        SPDLOG_DEBUG("Skipped extender as it returned error and has ignorable flag set extender=\"{}\" err=\"{}\"",
                     extender->name(), std::string(kept.status().message()));
        continue;
      }
      return Status::FromError("preemption: " + std::string(kept.status().message()));
    }
    for (auto it = kept->begin(); it != kept->end();) {
      if (!it->second.pods.empty()) {
        ++it;
        continue;
      }
      if (!extender->IsIgnorable()) {
        return Status::FromError("preemption: expected at least one victim pod on node \"" + it->first + "\"");
      }
      SPDLOG_DEBUG("Ignored node for which the extender didn't report victims node=\"{}\" extender=\"{}\"", it->first,
                   extender->name());
      it = kept->erase(it);
    }
    victims = *std::move(kept);
    if (victims.empty()) break;  // no preemption can happen, whatever the other extenders say
  }
  candidates.clear();
  for (auto& [node, node_victims] : victims) {
    candidates.push_back(Candidate{node, std::move(node_victims.pods), node_victims.num_pdb_violations});
  }
  return Status();
}

void DefaultPreemption::PrepareCandidateAsync(std::shared_ptr<const api::Pod> preemptor,
                                              Candidate chosen,
                                              std::vector<PodInfoPtr> lower_priority_nominated) {
  if (framework::MetricsRecorder* metrics = handle_.metrics_recorder(); metrics != nullptr) {
    metrics->ObservePreemptionVictims(static_cast<int>(chosen.victims.size()));
  }
  // Victims whose graceful deletion has started need no API call (v1.37).
  std::vector<PodInfoPtr> to_delete;
  to_delete.reserve(chosen.victims.size());
  for (const PodInfoPtr& victim : chosen.victims) {
    if (victim->pod().metadata.deletion_timestamp.has_value()) {
      SPDLOG_DEBUG("Victim Pod is already being deleted, skipping the API call for it preemptor=\"{}\" "
                   "node=\"{}\" victim=\"{}\"",
                   PodKey(*preemptor), chosen.node_name, PodKey(victim->pod()));
      continue;
    }
    to_delete.push_back(victim);
  }
  if (to_delete.empty()) return;
  const std::string uid = preemptor->metadata.uid;
  {
    base::MutexLock lock(&mu_);
    if (preempting_.emplace(uid, std::nullopt).second) {
      preempting_count_.fetch_add(1, std::memory_order_release);
    }
  }
  executor_.Submit([this, preemptor = std::move(preemptor), chosen = std::move(chosen),
                    nominated = std::move(lower_priority_nominated), to_delete = std::move(to_delete)] {
    SPDLOG_DEBUG("Start the preemption asynchronously preemptor=\"{}\" node=\"{}\" numVictims={} "
                 "numVictimsToDelete={}",
                 PodKey(*preemptor), chosen.node_name, chosen.victims.size(), to_delete.size());
    const auto start = std::chrono::steady_clock::now();
    bool failed = false;
    for (const PodInfoPtr& other : nominated) {
      if (Status cleared = handle_.cluster_api().ClearNominatedNodeName(other->pod()); !cleared.IsSuccess()) {
        SPDLOG_ERROR("Cannot clear 'NominatedNodeName' field from lower priority pods on the same "
                     "target node node=\"{}\" pod=\"{}\": {}",
                     chosen.node_name, PodKey(other->pod()), cleared.Message());
        failed = true;
      }
    }
    const std::string& preemptor_uid = preemptor->metadata.uid;
    // Every victim but the last, stopping at the first failure; then, unless one failed, the last
    // one, recorded first so that PreEnqueue ungates the preemptor once it is gone.
    bool preempt_last = true;
    bool in_memory = false;
    for (std::size_t i = 0; i + 1 < to_delete.size() && preempt_last; ++i) {
      preempt_last = PreemptVictim(*preemptor, to_delete[i], chosen.node_name, in_memory).IsSuccess();
    }
    failed = failed || !preempt_last;
    bool last_in_memory = false;
    if (preempt_last) {
      const api::Pod& last = to_delete.back()->pod();
      {
        base::MutexLock lock(&mu_);
        if (auto it = preempting_.find(preemptor_uid); it != preempting_.end()) {
          it->second = PendingVictim{std::string(last.metadata.namespace_), std::string(last.metadata.name)};
        }
      }
      if (!PreemptVictim(*preemptor, to_delete.back(), chosen.node_name, last_in_memory).IsSuccess()) {
        failed = true;
      }
    }
    StopPreempting(preemptor_uid);
    SPDLOG_DEBUG("Async Preemption finished completely preemptor=\"{}\" node=\"{}\" result={}",
                 PodKey(*preemptor), chosen.node_name, failed ? "error" : "success");
    // The outcome and the time taken (v1.37's deferred closures; v1.34 reported "success" and
    // about 0 s).
    if (framework::MetricsRecorder* metrics = handle_.metrics_recorder(); metrics != nullptr) {
      metrics->ObservePreemptionGoroutine(failed, std::chrono::steady_clock::now() - start);
    }
    // No deletion event will requeue the preemptor after an error or an in-memory rejection.
    if (failed || last_in_memory) handle_.Activate(*preemptor);
  });
}

Status DefaultPreemption::PreemptVictim(const api::Pod& preemptor, const PodInfoPtr& victim,
                                        const std::string& node_name, bool& in_memory) {
  const api::Pod& pod = victim->pod();
  // v1.37's executor.PreemptPod: a victim waiting at Permit is preempted there (its binding cycle
  // fails and it goes to backoffQ, kubernetes#135719), a victim in PreBind has its binding cycle
  // cancelled (kubernetes#135502); only a victim neither can stop is evicted through the API.
  bool rejected = handle_.PreemptWaitingPod(pod.metadata.uid, kName, "preempted");
  if (rejected) {
    SPDLOG_DEBUG("Preemptor preempted a waiting pod preemptor=\"{}\" waitingPod=\"{}\" node=\"{}\"",
                 PodKey(preemptor), PodKey(pod), node_name);
  } else if (handle_.CancelPodInPreBind(pod.metadata.uid, std::string("preempted by ") + std::string(kName))) {
    rejected = true;
    SPDLOG_DEBUG("Preemptor rejected a pod in preBind preemptor=\"{}\" podInPreBind=\"{}\" node=\"{}\"",
                 PodKey(preemptor), PodKey(pod), node_name);
  } else {
    const std::string message =
        std::string(preemptor.spec.scheduler_name) + ": preempting to accommodate a higher priority pod";
    if (Status evicted = handle_.cluster_api().EvictVictim(pod, message); !evicted.IsSuccess()) {
      SPDLOG_ERROR("Error occurred during async preemption preemptor=\"{}\" victim=\"{}\": {}",
                   PodKey(preemptor), PodKey(pod), evicted.Message());
      return evicted;
    }
  }
  in_memory = rejected;
  std::string note = "Preempted by pod " + preemptor.metadata.uid + " on node " + node_name;
  if (rejected) note += " (in kube-scheduler memory).";
  handle_.event_recorder().Eventf(pod, &preemptor, "Normal", "Preempted", "Preempting", note);
  return Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle) {
  DefaultPreemptionArgs parsed;
  if (const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args)) {
    absl::StatusOr<DefaultPreemptionArgs> decoded = ParseDefaultPreemptionArgs(raw->json);
    if (!decoded.ok()) return decoded.status();
    parsed = *decoded;
  } else if (args != nullptr) {
    absl::StatusOr<const DefaultPreemptionArgs*> typed =
        framework::ArgsAs<DefaultPreemptionArgs>(args, kName);
    if (!typed.ok()) return typed.status();
    parsed = **typed;
  }
  return std::unique_ptr<framework::Plugin>(std::make_unique<DefaultPreemption>(parsed, handle));
}

}  // namespace ksched::plugins::default_preemption
