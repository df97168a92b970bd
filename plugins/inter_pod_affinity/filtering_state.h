// PreFilterState: what InterPodAffinity's PreFilter computes for Filter (upstream preFilterState):
// three topology-pair counts over the cluster's pods, the incoming pod compiled, and its
// namespace's labels.
//
//   existing_anti_affinity_counts: pairs of nodes whose pods have a required anti-affinity term
//     the incoming pod matches (one count per matching term and pod);
//   affinity_counts: pairs of nodes whose pods match *all* the incoming pod's required affinity
//     terms (one count per term's topology key);
//   anti_affinity_counts: pairs of nodes whose pods match an incoming required anti-affinity term.
//
// UpdateWithPod is the PreFilter extension's AddPod (+1) / RemovePod (-1): it applies one pod's
// contribution on a node, dropping pairs that fall to zero, so that the counts stay equal to those
// a PreFilter over the changed cluster would have produced.
//
// Ownership: the incoming PodInfo and the namespace-labels cache are shared with clones (both are
// immutable or synchronized). The counts are shared too, read-only (with clones, and with
// InterPodAffinity's cross-cycle sums, incremental_counts.h): UpdateWithPod copies a shared count
// before changing it. Thread-safety: a value type; a cloned state
// is updated by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "api/labels.h"
#include "api/node.h"
#include "framework/cycle_state.h"
#include "framework/pod_info.h"
#include "plugins/inter_pod_affinity/incoming_terms.h"
#include "plugins/inter_pod_affinity/topology_counts.h"

namespace ksched::plugins::inter_pod_affinity {

inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterInterPodAffinity"};

class PreFilterState final : public framework::StateData {
 public:
  PreFilterState(framework::PodInfoPtr pod_info, api::Labels namespace_labels,
                 std::shared_ptr<NamespaceLabelsCache> namespaces)
      : pod_info_(std::move(pod_info)),
        namespace_labels_(std::move(namespace_labels)),
        namespaces_(std::move(namespaces)) {}

  std::unique_ptr<framework::StateData> Clone() const override {
    return std::unique_ptr<framework::StateData>(new PreFilterState(*this));
  }

  // Adds (multiplier 1) or removes (-1) the contribution of `pod` placed on `node`.
  void UpdateWithPod(const framework::PodInfo& pod, const api::Node& node, std::int64_t multiplier);

  const framework::PodInfo& pod_info() const { return *pod_info_; }
  const framework::PodInfoPtr& pod_info_ptr() const { return pod_info_; }
  // The incoming pod's namespace labels (empty when the namespace is unknown).
  const api::Labels& namespace_labels() const { return namespace_labels_; }
  NamespaceLabelsCache& namespaces() const { return *namespaces_; }

  const TopologyCounts& existing_anti_affinity_counts() const { return *existing_anti_affinity_; }
  const TopologyCounts& affinity_counts() const { return *affinity_; }
  const TopologyCounts& anti_affinity_counts() const { return *anti_affinity_; }
  void set_existing_anti_affinity_counts(std::shared_ptr<const TopologyCounts> counts) {
    existing_anti_affinity_ = std::move(counts);
  }
  void set_affinity_counts(std::shared_ptr<const TopologyCounts> counts) {
    affinity_ = std::move(counts);
  }
  void set_anti_affinity_counts(std::shared_ptr<const TopologyCounts> counts) {
    anti_affinity_ = std::move(counts);
  }

  // Whether the incoming pod matches all its own required affinity terms (computed once in
  // PreFilter for Filter's "first pod of a group" rule).
  bool pod_matches_own_affinity_terms() const { return matches_own_affinity_terms_; }
  void set_pod_matches_own_affinity_terms(bool value) { matches_own_affinity_terms_ = value; }

 private:
  PreFilterState(const PreFilterState&) = default;
  static std::shared_ptr<const TopologyCounts> EmptyCounts();
  // The counts, copied first when shared, for UpdateWithPod.
  static TopologyCounts& Writable(std::shared_ptr<const TopologyCounts>& counts);

  framework::PodInfoPtr pod_info_;
  api::Labels namespace_labels_;
  std::shared_ptr<NamespaceLabelsCache> namespaces_;
  // Never null (empty counts, shared, until set).
  std::shared_ptr<const TopologyCounts> existing_anti_affinity_ = EmptyCounts();
  std::shared_ptr<const TopologyCounts> affinity_ = EmptyCounts();
  std::shared_ptr<const TopologyCounts> anti_affinity_ = EmptyCounts();
  bool matches_own_affinity_terms_ = false;
};

}  // namespace ksched::plugins::inter_pod_affinity
