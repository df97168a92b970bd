// PodTopologySpread (upstream plugins/podtopologyspread, v1.34): spreads matching pods evenly
// across topology domains (zones, nodes, any node label) as spec.topologySpreadConstraints ask.
//
//   - Constraints: the pod's own (DoNotSchedule ones for filtering, ScheduleAnyway ones for
//     scoring), or, when it has none, the profile's default constraints (PodTopologySpreadArgs:
//     "System" = {kubernetes.io/hostname maxSkew 3, topology.kubernetes.io/zone maxSkew 5}, both
//     ScheduleAnyway; "List" = the listed ones) with the selector of the pod's Services and
//     controller (framework/spread_selector_lister.h; the daemon's watches Services,
//     ReplicationControllers, ReplicaSets and StatefulSets). Without a SpreadSelectorLister on the
//     handle default constraints apply to no pod.
//     minDomains, nodeAffinityPolicy/nodeTaintsPolicy and matchLabelKeys follow v1.34's defaults
//     (plugins/pod_topology_spread/constraints.h).
//   - PreFilter: Skip without hard constraints; otherwise counts matching pods (same namespace,
//     not terminating) per domain over every node that has all topology keys and passes the
//     constraint's inclusion policies, in parallel, and keeps the two smallest domains per
//     constraint. AddPod/RemovePod update those counts on cloned states (preemption, nominated
//     pods).
//   - Filter: UnschedulableAndUnresolvable "node(s) didn't match pod topology spread constraints
//     (missing required label)" when the node lacks a topology key; Unschedulable "node(s) didn't
//     match pod topology spread constraints" when matching pods in the node's domain, plus one if
//     the pod matches itself, minus the global minimum (0 with fewer domains than minDomains)
//     exceed maxSkew.
//   - PreScore: Skip without soft constraints or without nodes; otherwise counts matching pods per
//     domain of the filtered nodes over all nodes (hostname constraints are counted in Score).
//     Nodes lacking a topology key are ignored (scored 0), except with system defaulting, where a
//     node without a zone label still gets hostname spreading.
//   - Score: sum over constraints of count * log(domains + 2) + (maxSkew - 1), rounded;
//     NormalizeScore: 100 * (max + min - score) / max (fewer matching pods score higher).
//   - Events (queueing hints always on in v1.34): Pod Add|UpdatePodLabel|UpdatePodToleration|
//     Delete and Node Add|Delete|UpdateNodeLabel|UpdateNodeTaint, with upstream's hints.
// Filter and Score never allocate: PreFilter/PreScore precompute everything but the node label
// lookups (and Score's per-node count for hostname constraints).
//
// PreFilter and PreScore read per-node match counts back from a MatchCountMemo while a node's
// pods have not changed since an earlier cycle counted them with the same selector
// (plugins/pod_topology_spread/match_count_memo.h); the results are the same as counting anew.
// PreFilter and PreScore go one step further for pods alike in what they count: they keep the
// per-domain sums and correct them for the nodes changed since
// (plugins/pod_topology_spread/domain_counts.h).
//
// Thread-safety: immutable after construction but for the memos, which PreFilter and PreScore
// take one at a time; Filter, Score, AddPod/RemovePod and the hints may run concurrently (on
// distinct cycle states for AddPod/RemovePod).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "api/interned_string.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "plugins/pod_topology_spread/args.h"
#include "plugins/pod_topology_spread/constraints.h"
#include "plugins/pod_topology_spread/domain_counts.h"
#include "plugins/pod_topology_spread/match_count_memo.h"
#include "plugins/pod_topology_spread/state.h"

namespace ksched::plugins::pod_topology_spread {

inline constexpr std::string_view kName = "PodTopologySpread";
inline constexpr std::string_view kErrReasonConstraintsNotMatch =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kErrReasonNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterPodTopologySpread"};
inline constexpr framework::StateKey kPreScoreStateKey{"PreScorePodTopologySpread"};

// core/v1 well-known node labels.
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";
// kLabelHostname interned: SpreadConstraint::topology_key is interned, so the per-node loops
// compare one pointer instead of 22 characters. (The pool is built on first use, so this
// namespace-scope constant is safe to initialize before main.)
inline const api::InternedString kHostnameKey{kLabelHostname};

class PodTopologySpread final : public framework::PreFilterPlugin,
                                public framework::PreFilterExtensions,
                                public framework::FilterPlugin,
                                public framework::PreScorePlugin,
                                public framework::ScorePlugin,
                                public framework::ScoreExtensions,
                                public framework::EnqueueExtensions {
 public:
  // Validates the args (errors as ValidatePodTopologySpreadArgs with no path). The handle must
  // outlive the plugin; its snapshot, parallelizer and spread selector lister are read per cycle.
  static absl::StatusOr<std::unique_ptr<PodTopologySpread>> Create(
      const PodTopologySpreadArgs& args, framework::Handle& handle);

  std::string_view Name() const override { return kName; }

  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::PreFilterExtensions* GetPreFilterExtensions() override { return this; }
  framework::Status AddPod(framework::CycleState& state, const api::Pod& pod_to_schedule,
                           const framework::PodInfoPtr& pod_to_add,
                           const framework::NodeInfo& node_info) override;
  framework::Status RemovePod(framework::CycleState& state, const api::Pod& pod_to_schedule,
                              const framework::PodInfoPtr& pod_to_remove,
                              const framework::NodeInfo& node_info) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;

  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::ScoreExtensions* GetScoreExtensions() override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const api::Pod& pod,
                                   std::vector<framework::NodeScore>& scores) override;

  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
  // The Pod event hint (upstream isSchedulableAfterPodChange).
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;
  // The Node event hint (upstream isSchedulableAfterNodeChange).
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;

 private:
  explicit PodTopologySpread(framework::Handle& handle) : handle_(handle) {}

  // upstream getConstraints: the pod's DoNotSchedule constraints, or the default ones.
  absl::StatusOr<std::vector<SpreadConstraint>> GetConstraints(const api::Pod& pod) const;
  // upstream buildDefaultConstraints: the default constraints with `action`, with the pod's
  // workload selector; none when there is no lister or the selector is Empty().
  std::vector<SpreadConstraint> BuildDefaultConstraints(const api::Pod& pod,
                                                        std::string_view action) const;
  // upstream calPreFilterState.
  absl::StatusOr<std::unique_ptr<PreFilterState>> CalPreFilterState(
      const api::Pod& pod, const std::vector<framework::NodeInfo*>& nodes) const;
  // upstream initPreScoreState.
  absl::Status InitPreScoreState(PreScoreState& state, const api::Pod& pod,
                                 const std::vector<const framework::NodeInfo*>& filtered_nodes,
                                 bool require_all_topologies) const;
  // upstream updateWithPod.
  static void UpdateWithPod(PreFilterState& state, const api::Pod& updated_pod,
                            const api::Pod& preemptor_pod, const api::Node* node, int delta);

  framework::Handle& handle_;
  // The default constraints, compiled without selectors, per action (DoNotSchedule first).
  std::vector<SpreadConstraint> default_hard_constraints_;
  std::vector<SpreadConstraint> default_soft_constraints_;
  // defaultingType "System": nodes without a zone label still get hostname spreading.
  bool system_defaulted_ = false;
  // Per-node match counts across cycles; PreFilter and PreScore lock it for their pass.
  mutable MatchCountMemo match_counts_;
  // PreFilter's per-domain sums across cycles of alike pods; a PreFilter that finds it taken
  // (another thread's) counts into a DomainCounts of its own.
  mutable base::Mutex domain_counts_mu_;
  mutable DomainCounts domain_counts_ ABSL_GUARDED_BY(domain_counts_mu_);
  // PreScore's (soft constraints: the pod's own or the default ones), the same way.
  mutable base::Mutex score_domain_counts_mu_;
  mutable DomainCounts score_domain_counts_ ABSL_GUARDED_BY(score_domain_counts_mu_);
};

// nullptr args take the defaults (system defaulting); args of another type are an error.
absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::pod_topology_spread
