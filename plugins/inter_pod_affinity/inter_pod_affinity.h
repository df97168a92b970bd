// InterPodAffinity (upstream plugins/interpodaffinity, v1.34): required and preferred pod
// affinity and anti-affinity, both the incoming pod's terms and, by symmetry, the terms of the pods
// already running.
//
//   - PreFilter compiles the incoming pod (an invalid label selector in a term is
//     UnschedulableAndUnresolvable "parsing pod: <error>", as upstream) and counts, per topology
//     pair, in parallel over the nodes: existing pods whose required anti-affinity terms match the
//     incoming pod, existing pods matching all the incoming required affinity terms, existing pods
//     matching each incoming required anti-affinity term (see filtering_state.h). Skip when the
//     pod has no required terms and no existing pod's anti-affinity matches it. AddPod/RemovePod
//     update the counts for nominated pods and preemption victims.
//   - Filter, per node, with map lookups only:
//       UnschedulableAndUnresolvable "node(s) didn't match pod affinity rules" when the node lacks
//         a topology key of an affinity term, or some term's pair has no matching pod (unless no
//         pod in the cluster matches the terms and the incoming pod matches them itself: the first
//         pod of a group that wants to be together);
//       Unschedulable "node(s) didn't match pod anti-affinity rules" when a pod matching an
//         anti-affinity term is in the node's pair for that term;
//       Unschedulable "node(s) didn't satisfy existing pods anti-affinity rules" when one of the
//         node's label pairs holds a pod whose anti-affinity matches the incoming pod.
//   - PreScore sums, per topology pair, the weights of matching preferred terms (incoming pod's
//     affinity +w / anti-affinity -w against existing pods; existing pods' preferred terms against
//     the incoming pod; existing pods' required affinity terms with hard_pod_affinity_weight), over
//     all nodes when the pod has preferred terms and over the nodes with affinity pods otherwise.
//     Skip when nothing matched, or when ignore_preferred_terms_of_existing_pods is set and the pod
//     has no preferred terms. Score is the sum of the node's pairs; NormalizeScore maps
//     [min, max] to [0, 100].
//   - Namespace selectors of the incoming pod's terms are resolved through
//     Handle::NamespaceLabels, cached per cycle (incoming_terms.h).
//   - Events (queueing hints are always on in v1.34): Pod Add|UpdatePodLabel|Delete with
//     IsSchedulableAfterPodChange, Node Add|UpdateNodeLabel with IsSchedulableAfterNodeChange.
//
//   - PreFilter's cluster-wide counts are carried from cycle to cycle and patched with the nodes
//     that changed (prefilter_sums.h), for pods of the same labels, namespace and terms as the
//     last one; the counts are those a full pass would produce.
//
// Thread-safety: Filter, Score and the PreFilter extensions only read or update the cycle state
// they are given. PreFilter updates the carried counts under a mutex; the rest of the plugin is
// immutable after construction.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "plugins/inter_pod_affinity/args.h"
#include "plugins/inter_pod_affinity/prefilter_sums.h"

namespace ksched::plugins::inter_pod_affinity {

inline constexpr std::string_view kName = "InterPodAffinity";
inline constexpr std::string_view kErrReasonExistingAntiAffinityRulesNotMatch =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr std::string_view kErrReasonAffinityRulesNotMatch =
    "node(s) didn't match pod affinity rules";
inline constexpr std::string_view kErrReasonAntiAffinityRulesNotMatch =
    "node(s) didn't match pod anti-affinity rules";
inline constexpr framework::StateKey kPreScoreStateKey{"PreScoreInterPodAffinity"};

class InterPodAffinity final : public framework::PreFilterPlugin,
                               public framework::PreFilterExtensions,
                               public framework::FilterPlugin,
                               public framework::PreScorePlugin,
                               public framework::ScorePlugin,
                               public framework::ScoreExtensions,
                               public framework::EnqueueExtensions {
 public:
  // Validates the args (errors as ValidateInterPodAffinityArgs with no path).
  static absl::StatusOr<std::unique_ptr<InterPodAffinity>> Create(const InterPodAffinityArgs& args,
                                                                  framework::Handle& handle);

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
  // Queue when an assigned pod is added that matches all of `pod`'s required affinity terms, is
  // updated to match them, is updated to stop matching all its anti-affinity terms, or is deleted
  // while matching all of them; unscheduled pods never matter.
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;
  // Queue when a node is added with an affinity topology key (or at all, for a pod with
  // anti-affinity), gains an affinity topology key, loses an anti-affinity one, or changes the
  // value of either.
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;

  const InterPodAffinityArgs& args() const { return args_; }
  // How the carried PreFilter counts were brought up to date (tests, logs).
  IncrementalCounts::Stats existing_anti_affinity_stats() const;
  IncrementalCounts::Stats incoming_stats() const;

 private:
  InterPodAffinity(const InterPodAffinityArgs& args, framework::Handle& handle);

  InterPodAffinityArgs args_;
  framework::Handle& handle_;
  mutable base::Mutex sums_mu_;
  PreFilterSums sums_ ABSL_GUARDED_BY(sums_mu_);
};

// nullptr args take the defaults; args of another type are an error.
absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::inter_pod_affinity
