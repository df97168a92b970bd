// DefaultPreemption (upstream plugins/defaultpreemption and framework/preemption, v1.37.2, with
// SchedulerAsyncPreemption on as it defaults): when no node fits a pod, find the node where
// evicting the fewest and least important lower-priority pods makes room, nominate the pod to it,
// and evict those pods.
//
// PostFilter (scheduling thread):
//   1. Eligibility: a pod with preemptionPolicy Never does not preempt ("not eligible due to
//      preemptionPolicy=Never."); nor does a pod nominated to a node (whose status is not
//      UnschedulableAndUnresolvable) where a lower-priority pod is still terminating because of
//      preemption ("not eligible due to a terminating pod on the nominated node.").
//   2. Candidates: only nodes whose Filter status is Unschedulable. A dry run over them, in
//      parallel, from a random offset: on a copy of the node and of the cycle state, remove every
//      lower-priority pod (PreFilter extensions told), run Filter with nominated pods; if the pod
//      fits, add the victims back most important first (PDB-violating ones first), keeping each
//      that still lets the pod fit. Stops once max(10% of the nodes, 100) candidates are found
//      (DefaultPreemptionArgs) and one of them violates no PDB.
//   3. No candidate: Unschedulable "preemption: 0/N nodes are available: <dry-run reasons>, <k>
//      Preemption is not helpful for scheduling." and the pod's nomination is cleared.
//   4. Otherwise the best candidate (candidates.h PickOneNodeForPreemption) is nominated, with
//      Success "preemption: found a potential placement for pod on node <node>, preempting <n>
//      victims" (v1.37), and its preparation runs asynchronously (below).
// Preparation (v1.37.2's prepareCandidateAsync): victims already being deleted (deletionTimestamp
// set) get no API call, and when none is left nothing runs and the preemptor is not gated. On a
// PreemptionExecutor thread: clear status.nominatedNodeName of lower-priority pods nominated to
// that node; evict every victim but the last (a victim waiting in Permit is rejected instead, "in
// kube-scheduler memory"); unless one of them failed, record the last victim and evict it; then
// stop gating the preemptor. Each victim handled gets a Normal "Preempted" event. On any error,
// or when the last victim was only rejected in memory (no deletion event will come), the
// preemptor is activated so that it is retried at once.
// PreEnqueue: a pod whose preparation is running is gated (UnschedulableAndUnresolvable "waiting
// for the preemption for this pod to be finished") until its last victim is gone from the pod
// informer (upstream also ends it once that victim has a deletionTimestamp; the informer view
// here, Handle::PodExists, tells only whether the pod is there), so that the victim's deletion
// event cannot be missed. EventsToRegister: Pod/Delete with a hint that always skips (the pod's
// other rejecting plugins decide when it is requeued).
//
// Deviations from upstream: the preemptor is the cycle's copy of the pod, not re-read from the
// informer (the queue refreshes it on every update); victims of one preparation are evicted one
// after the other on one executor thread (upstream: in parallel); ties after every criterion go to
// the first candidate found (upstream: Go's random map order); extenders are not supported.
//
// Thread-safety: PostFilter runs on the scheduling thread; PreEnqueue on any thread (a lock-free
// check when no preemption is running); the preparation on executor threads. The preempting set
// is guarded by a mutex.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "plugins/default_preemption/args.h"
#include "plugins/default_preemption/candidates.h"
#include "plugins/default_preemption/preemption_executor.h"

namespace ksched::plugins::default_preemption {

inline constexpr std::string_view kName = "DefaultPreemption";

// The reasons users read (upstream's texts).
inline constexpr std::string_view kNoVictims = "No preemption victims found for incoming pod";
inline constexpr std::string_view kNotHelpful = "Preemption is not helpful for scheduling";
inline constexpr std::string_view kNeverPolicy = "not eligible due to preemptionPolicy=Never.";
inline constexpr std::string_view kTerminatingOnNominated =
    "not eligible due to a terminating pod on the nominated node.";
inline constexpr std::string_view kWaitingForPreemption =
    "waiting for the preemption for this pod to be finished";

class DefaultPreemption final : public framework::PostFilterPlugin,
                                public framework::PreEnqueuePlugin,
                                public framework::EnqueueExtensions {
 public:
  // `executor_threads` (>= 1): threads that run preparations at once.
  DefaultPreemption(DefaultPreemptionArgs args, framework::Handle& handle, int executor_threads = 4);
  ~DefaultPreemption() override;

  std::string_view Name() const override { return kName; }

  std::pair<framework::PostFilterResult, framework::Status> PostFilter(
      framework::CycleState& state, const api::Pod& pod,
      const framework::NodeToStatus& statuses) override;
  framework::Status PreEnqueue(const api::Pod& pod) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // --- The steps, public for tests ---------------------------------------------------------
  struct Victims {
    std::vector<framework::PodInfoPtr> pods;  // most important first
    std::int64_t num_pdb_violations = 0;
  };
  // upstream SelectVictimsOnNode on `node` (a copy this call changes) and `state` (a clone).
  // Success with at least one victim; UnschedulableAndUnresolvable kNoVictims when no pod on the
  // node has a lower priority; the Filter status when the pod does not fit even without them;
  // Error when a PreFilter extension failed.
  std::pair<Victims, framework::Status> SelectVictimsOnNode(
      framework::CycleState& state, const api::Pod& pod, framework::NodeInfo& node,
      const std::vector<DisruptionBudget>& budgets, api::Time now) const;
  // upstream PodEligibleToPreemptOthers: empty when eligible, else the reason.
  std::string_view IneligibilityReason(const api::Pod& pod,
                                       const framework::Status& nominated_node_status) const;
  // Whether a preparation for the pod (by UID) is running.
  bool IsPreempting(std::string_view uid) const;
  // Fixes the dry run's random start offset (tests).
  void SeedForTest(std::uint64_t seed) { rng_.seed(seed); }

 private:
  // Evicts (or rejects in Permit, setting `in_memory`) one victim and records the Preempted event.
  framework::Status PreemptVictim(const api::Pod& preemptor, const framework::PodInfoPtr& victim,
                                  const std::string& node_name, bool& in_memory);
  // upstream callExtenders: hands the candidates to each interested extender with a preemptVerb
  // in turn (an ignorable one's error skips it, and drops its nodes without victims); an error
  // status fails the preemption. `candidates` becomes what the last extender kept.
  framework::Status CallExtenders(const api::Pod& pod, std::vector<Candidate>& candidates) const;
  // The asynchronous preparation of `chosen` for `preemptor`.
  void PrepareCandidateAsync(std::shared_ptr<const api::Pod> preemptor, Candidate chosen,
                             std::vector<framework::PodInfoPtr> lower_priority_nominated);
  void StopPreempting(const std::string& uid);

  const DefaultPreemptionArgs args_;
  framework::Handle& handle_;
  std::mt19937_64 rng_{std::random_device{}()};  // scheduling thread only

  // A preemptor's last victim, once its eviction has started (upstream
  // lastVictimsPendingPreemption).
  struct PendingVictim {
    std::string ns;
    std::string name;
  };
  mutable base::Mutex mu_;
  // Preemptor UIDs, with the last victim once it is being evicted.
  std::map<std::string, std::optional<PendingVictim>, std::less<>> preempting_ ABSL_GUARDED_BY(mu_);
  std::atomic<std::size_t> preempting_count_{0};  // preempting_.size(), read without the lock

  // Declared last: destroyed first, so that running preparations finish while the rest lives.
  PreemptionExecutor executor_;
};

// The factory: args as framework::RawPluginArgs (JSON) or DefaultPreemptionArgs; none: defaults.
absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::default_preemption
