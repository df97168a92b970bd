// Affinity: core/v1 Affinity (a pod's spec.affinity): node affinity, and inter-pod affinity and
// anti-affinity.
//
// Presence that matters is kept: NodeAffinity::required is optional because a present selector with
// no terms matches no node, while an absent one places no constraint; PodAffinityTerm's
// label_selector and namespace_selector are optional because a null selector matches nothing
// while an empty one matches everything. Everything else that is absent decodes as empty, which
// the scheduler treats the same as nil (an absent spec.affinity is an Affinity with nothing set).
//
// Memory: Affinity is held inline in every PodSpec, so its lists are CompactVector (8 bytes each,
// nothing allocated when empty; api/compact_vector.h).
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/node_selector.h"
#include "api/compact_vector.h"

namespace ksched::api {

// core/v1 NodeAffinity.
struct NodeAffinity {
  // requiredDuringSchedulingIgnoredDuringExecution
  std::optional<NodeSelector> required;
  // preferredDuringSchedulingIgnoredDuringExecution
  CompactVector<PreferredSchedulingTerm> preferred;

  friend bool operator==(const NodeAffinity&, const NodeAffinity&) = default;
};

// core/v1 PodAffinityTerm.
struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::optional<LabelSelector> namespace_selector;
  InternedString topology_key;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;

  friend bool operator==(const PodAffinityTerm&, const PodAffinityTerm&) = default;
};

// core/v1 WeightedPodAffinityTerm.
struct WeightedPodAffinityTerm {
  std::int32_t weight = 0;
  PodAffinityTerm pod_affinity_term;

  friend bool operator==(const WeightedPodAffinityTerm&, const WeightedPodAffinityTerm&) = default;
};

// core/v1 PodAffinity and PodAntiAffinity (the same shape).
struct PodAffinity {
  // requiredDuringSchedulingIgnoredDuringExecution
  CompactVector<PodAffinityTerm> required;
  // preferredDuringSchedulingIgnoredDuringExecution
  CompactVector<WeightedPodAffinityTerm> preferred;

  bool empty() const noexcept { return required.empty() && preferred.empty(); }
  friend bool operator==(const PodAffinity&, const PodAffinity&) = default;
};

struct Affinity {
  NodeAffinity node_affinity;
  PodAffinity pod_affinity;
  PodAffinity pod_anti_affinity;

  friend bool operator==(const Affinity&, const Affinity&) = default;
};

}  // namespace ksched::api
