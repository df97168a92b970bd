// SpreadConstraint: a pod topology spread constraint as PodTopologySpread evaluates it (upstream
// podtopologyspread topologySpreadConstraint and the helpers of common.go, v1.34): the selector
// compiled, matchLabelKeys merged into it, minDomains and the node inclusion policies defaulted.
//
// v1.34 feature gates, fixed at their defaults: NodeInclusionPolicyInPodTopologySpread (GA, locked
// on: nodeAffinityPolicy/nodeTaintsPolicy are read) and MatchLabelKeysInPodTopologySpread (beta, on:
// the scheduler ANDs `key=value` for every matchLabelKeys key the pod has into the selector; with a
// null labelSelector the selector stays "nothing", as upstream). The API server's own merge
// (MatchLabelKeysInPodTopologySpreadSelectorMerge) only adds the same requirements again.
//
// Thread-safety: value types and pure functions; Matches/Count never allocate.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/topology_spread.h"
#include "framework/pod_info.h"
#include "plugins/helper/required_node_affinity.h"

namespace ksched::plugins::pod_topology_spread {

enum class NodeInclusionPolicy : std::uint8_t { kIgnore, kHonor };

struct SpreadConstraint {
  std::int32_t max_skew = 0;
  api::InternedString topology_key;
  api::CompiledLabelSelector selector;
  // 1 when absent.
  std::int32_t min_domains = 1;
  // Honor when absent: only nodes matching the pod's nodeSelector/required node affinity count.
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  // Ignore when absent: with Honor, nodes with a NoSchedule/NoExecute taint the pod does not
  // tolerate do not count.
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;

  // upstream matchNodeInclusionPolicies: whether `node` counts for this constraint. Parse errors
  // of the pod's node affinity count as no match.
  bool MatchNodeInclusionPolicies(const api::Pod& pod, const api::Node& node,
                                  const helper::RequiredNodeAffinity& affinity) const noexcept;
};

// upstream filterTopologySpreadConstraints: the constraints whose whenUnsatisfiable is `action`,
// in order, compiled. An invalid labelSelector is an error with the selector's message.
absl::StatusOr<std::vector<SpreadConstraint>> CompileConstraints(
    std::span<const api::TopologySpreadConstraint> constraints, const api::Labels& pod_labels,
    std::string_view action);

// upstream nodeLabelsMatchSpreadConstraints: the node has every constraint's topology key.
bool NodeLabelsMatchSpreadConstraints(const api::Labels& node_labels,
                                      std::span<const SpreadConstraint> constraints) noexcept;

// upstream countPodsMatchSelector: pods in namespace `ns`, not terminating, whose labels match.
// An Empty() selector (`labelSelector: {}` without matchLabelKeys) counts 0, as upstream.
int CountPodsMatchSelector(std::span<const framework::PodInfoPtr> pods,
                           const api::CompiledLabelSelector& selector,
                           std::string_view ns) noexcept;

// upstream podLabelsMatchSpreadConstraints: some constraint's selector matches the labels.
bool PodLabelsMatchSpreadConstraints(std::span<const SpreadConstraint> constraints,
                                     const api::Labels& labels) noexcept;

}  // namespace ksched::plugins::pod_topology_spread
