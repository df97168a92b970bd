// InterPodAffinity PreFilter, its extensions and Filter (upstream filtering.go).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "plugins/inter_pod_affinity/filtering_state.h"
#include "plugins/inter_pod_affinity/incoming_terms.h"
#include "plugins/inter_pod_affinity/incremental_counts.h"
#include "plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "plugins/inter_pod_affinity/topology_counts.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

using framework::Code;
using framework::Status;

Status MissingPreFilterState() {
  return Status::FromError("error reading \"" + std::string(kPreFilterStateKey) +
                           "\" from cycleState: not found");
}

// upstream getExistingAntiAffinityCounts, one node's part: the node's pods whose required
// anti-affinity terms match the incoming pod, counted per topology pair of the node.
void ContributeExistingAntiAffinity(const api::Pod& pod, const api::Labels& namespace_labels,
                                    const framework::NodeInfo& info, IncrementalCounts::Sink& sink) {
  for (const framework::PodInfoPtr& existing : info.pods_with_required_anti_affinity()) {
    for (const framework::AffinityTerm& term : existing->required_anti_affinity_terms()) {
      if (term.Matches(pod, &namespace_labels)) {
        sink.AppendIfLabeled(0, *info.node(), term.topology_key, 1);
      }
    }
  }
}

// upstream getIncomingAffinityAntiAffinityCounts, one node's part: its pods matching all the
// incoming pod's required affinity terms (sum 0, once per term's key) and those matching each of
// its required anti-affinity terms (sum 1).
void ContributeIncoming(const framework::PodInfo& incoming, NamespaceLabelsCache& namespaces,
                        const framework::NodeInfo& info, IncrementalCounts::Sink& sink) {
  const auto& affinity_terms = incoming.required_affinity_terms();
  const auto& anti_affinity_terms = incoming.required_anti_affinity_terms();
  for (const framework::PodInfoPtr& existing : info.pods()) {
    const api::Pod& existing_pod = existing->pod();
    if (MatchesAllIncomingTerms(affinity_terms, existing_pod, namespaces)) {
      for (const framework::AffinityTerm& term : affinity_terms) {
        sink.AppendIfLabeled(0, *info.node(), term.topology_key, 1);
      }
    }
    for (const framework::AffinityTerm& term : anti_affinity_terms) {
      if (IncomingTermMatches(term, existing_pod, namespaces)) {
        sink.AppendIfLabeled(1, *info.node(), term.topology_key, 1);
      }
    }
  }
}

// Whether the incoming terms' matches depend on namespace labels other than the incoming pod's
// own (a real namespace selector): those may change between cycles without any node changing.
bool DependsOnOtherNamespaces(const framework::PodInfo& incoming) {
  auto real_selector = [](const framework::AffinityTerm& term) {
    return !term.namespace_selector.Empty() && !term.namespace_selector.MatchesNothing();
  };
  for (const auto& term : incoming.required_affinity_terms()) {
    if (real_selector(term)) return true;
  }
  for (const auto& term : incoming.required_anti_affinity_terms()) {
    if (real_selector(term)) return true;
  }
  return false;
}

// Whether placing the pod on the node violates no existing pod's anti-affinity term: none of the
// node's label pairs holds a pod whose term matches the incoming pod. Upstream probes the counts
// with every node label; probing with the counts' few keys finds the same pairs.
bool SatisfiesExistingPodsAntiAffinity(const PreFilterState& state, const api::Node& node) {
  const TopologyCounts& counts = state.existing_anti_affinity_counts();
  if (counts.empty()) return true;
  for (const std::string_view key : counts.keys()) {
    const std::optional<std::string_view> value = node.metadata.labels.Get(key);
    if (value.has_value() && counts.Get(key, *value) > 0) return false;
  }
  return true;
}

// Whether no pod matching one of the incoming anti-affinity terms is in the node's domain of
// that term.
bool SatisfiesPodAntiAffinity(const PreFilterState& state, const api::Node& node) {
  const TopologyCounts& counts = state.anti_affinity_counts();
  if (counts.empty()) return true;
  for (const framework::AffinityTerm& term : state.pod_info().required_anti_affinity_terms()) {
    std::optional<std::string_view> value = node.metadata.labels.Get(term.topology_key);
    if (value.has_value() && counts.Get(term.topology_key, *value) > 0) return false;
  }
  return true;
}

// Whether the node has every affinity term's topology key and a matching pod in each term's
// domain, or, when no pod anywhere matches the terms, the pod matches them itself (so that the
// first pod of a group with affinity to itself is not pending forever).
bool SatisfiesPodAffinity(const PreFilterState& state, const api::Node& node) {
  const TopologyCounts& counts = state.affinity_counts();
  bool pods_exist = true;
  for (const framework::AffinityTerm& term : state.pod_info().required_affinity_terms()) {
    std::optional<std::string_view> value = node.metadata.labels.Get(term.topology_key);
    if (!value.has_value()) return false;  // every topology key must be on the node
    if (counts.Get(term.topology_key, *value) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  return counts.empty() && state.pod_matches_own_affinity_terms();
}

}  // namespace

std::pair<framework::PreFilterResult, Status> InterPodAffinity::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& nodes) {
  // The pod arrives bare: compile its terms (one copy of the pod per cycle, shared by the
  // cloned states and by PreScore).
  absl::StatusOr<framework::PodInfoPtr> pod_info =
      framework::PodInfo::Create(std::make_shared<const api::Pod>(pod));
  if (!pod_info.ok()) {
    return {{},
            Status(Code::kUnschedulableAndUnresolvable,
                   std::vector<std::string>{"parsing pod: " +
                                            std::string(pod_info.status().message())})};
  }
  std::shared_ptr<NamespaceLabelsCache> namespaces = CycleNamespaceLabels(state, handle_);
  const api::Labels* own_labels = namespaces->Get(pod.metadata.namespace_);
  auto pre_filter = std::make_unique<PreFilterState>(
      *pod_info, own_labels != nullptr ? *own_labels : api::Labels(), namespaces);

  framework::Parallelizer& parallelizer = handle_.parallelizer();
  const framework::Snapshot& snapshot = handle_.snapshot();
  const framework::PodInfo& incoming = pre_filter->pod_info();
  const bool has_terms = !incoming.required_affinity_terms().empty() ||
                         !incoming.required_anti_affinity_terms().empty();
  {
    base::MutexLock lock(&sums_mu_);
    // Existing pods' anti-affinity against this pod, carried over from the last pod that had the
    // same namespace, labels and namespace labels.
    const api::Labels& namespace_labels = pre_filter->namespace_labels();
    const bool new_existing_key = !sums_.existing_anti_affinity_key.has_value() ||
                                  !sums_.existing_anti_affinity_key->Is(pod, namespace_labels);
    if (new_existing_key) {
      sums_.existing_anti_affinity_key = ExistingAntiAffinityKey{
          pod.metadata.namespace_, pod.metadata.labels, namespace_labels};
    }
    sums_.existing_anti_affinity.Sync(
        snapshot, new_existing_key, snapshot.have_pods_with_required_anti_affinity(), parallelizer,
        [&](const framework::NodeInfo& info, IncrementalCounts::Sink& sink) {
          ContributeExistingAntiAffinity(pod, namespace_labels, info, sink);
        });
    pre_filter->set_existing_anti_affinity_counts(sums_.existing_anti_affinity.counts(0));

    if (has_terms) {
      auto contribute = [&](const framework::NodeInfo& info, IncrementalCounts::Sink& sink) {
        ContributeIncoming(incoming, *namespaces, info, sink);
      };
      if (&nodes == &snapshot.nodes() && !DependsOnOtherNamespaces(incoming)) {
        const bool new_incoming_key = !sums_.incoming_key.has_value() || !sums_.incoming_key->Is(pod);
        if (new_incoming_key) sums_.incoming_key.emplace(pod);
        sums_.incoming.Sync(snapshot, new_incoming_key, nodes, parallelizer, contribute);
        pre_filter->set_affinity_counts(sums_.incoming.counts(0));
        pre_filter->set_anti_affinity_counts(sums_.incoming.counts(1));
      } else {
        // Counted afresh, and not kept.
        IncrementalCounts fresh(2);
        fresh.Sync(snapshot, /*rebuild=*/true, nodes, parallelizer, contribute);
        pre_filter->set_affinity_counts(fresh.counts(0));
        pre_filter->set_anti_affinity_counts(fresh.counts(1));
      }
    }
  }

  if (pre_filter->existing_anti_affinity_counts().empty() && !has_terms) {
    return {{}, Status(Code::kSkip)};
  }
  pre_filter->set_pod_matches_own_affinity_terms(
      MatchesAllIncomingTerms(incoming.required_affinity_terms(), incoming.pod(), *namespaces));
  state.Write(kPreFilterStateKey, std::move(pre_filter));
  return {{}, {}};
}

Status InterPodAffinity::AddPod(framework::CycleState& state, const api::Pod& /*pod_to_schedule*/,
                                const framework::PodInfoPtr& pod_to_add,
                                const framework::NodeInfo& node_info) {
  auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) return MissingPreFilterState();
  if (node_info.node() == nullptr) return Status::FromError("node not found");
  pre_filter->UpdateWithPod(*pod_to_add, *node_info.node(), 1);
  return {};
}

Status InterPodAffinity::RemovePod(framework::CycleState& state,
                                   const api::Pod& /*pod_to_schedule*/,
                                   const framework::PodInfoPtr& pod_to_remove,
                                   const framework::NodeInfo& node_info) {
  auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) return MissingPreFilterState();
  if (node_info.node() == nullptr) return Status::FromError("node not found");
  pre_filter->UpdateWithPod(*pod_to_remove, *node_info.node(), -1);
  return {};
}

Status InterPodAffinity::Filter(const framework::CycleState& state, const api::Pod& /*pod*/,
                                const framework::NodeInfo& node_info) {
  const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) return MissingPreFilterState();
  const api::Node* node = node_info.node();
  if (node == nullptr) return Status::FromError("node not found");
  // Constants, stamped with the plugin's name: a rejected node costs no allocation.
  if (!SatisfiesPodAffinity(*pre_filter, *node)) {
    static const Status kAffinityNotMatch =
        Status(Code::kUnschedulableAndUnresolvable, {kErrReasonAffinityRulesNotMatch}).WithPlugin(kName);
    return kAffinityNotMatch;
  }
  if (!SatisfiesPodAntiAffinity(*pre_filter, *node)) {
    static const Status kAntiAffinityNotMatch =
        Status(Code::kUnschedulable, {kErrReasonAntiAffinityRulesNotMatch}).WithPlugin(kName);
    return kAntiAffinityNotMatch;
  }
  if (!SatisfiesExistingPodsAntiAffinity(*pre_filter, *node)) {
    static const Status kExistingAntiAffinityNotMatch =
        Status(Code::kUnschedulable, {kErrReasonExistingAntiAffinityRulesNotMatch}).WithPlugin(kName);
    return kExistingAntiAffinityNotMatch;
  }
  return {};
}

IncrementalCounts::Stats InterPodAffinity::existing_anti_affinity_stats() const {
  base::MutexLock lock(&sums_mu_);
  return sums_.existing_anti_affinity.stats();
}

IncrementalCounts::Stats InterPodAffinity::incoming_stats() const {
  base::MutexLock lock(&sums_mu_);
  return sums_.incoming.stats();
}

}  // namespace ksched::plugins::inter_pod_affinity
