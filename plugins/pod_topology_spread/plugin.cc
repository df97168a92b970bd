// PodTopologySpread: construction, constraints of a pod, events and queueing hints (upstream
// plugin.go and common.go).
#include "plugins/pod_topology_spread/pod_topology_spread.h"

#include <string>

namespace ksched::plugins::pod_topology_spread {
namespace {

// upstream systemDefaultConstraints.
std::vector<api::TopologySpreadConstraint> SystemDefaultConstraints() {
  std::vector<api::TopologySpreadConstraint> constraints(2);
  constraints[0].topology_key = kHostnameKey;
  constraints[0].when_unsatisfiable = std::string(api::kScheduleAnyway);
  constraints[0].max_skew = 3;
  constraints[1].topology_key = std::string(kLabelTopologyZone);
  constraints[1].when_unsatisfiable = std::string(api::kScheduleAnyway);
  constraints[1].max_skew = 5;
  return constraints;
}

// upstream involvedInTopologySpreading: an assigned or (v1.37, #135392) nominated pod of its
// namespace; here also the pod itself (upstream's TargetPod registration, which this plugin's one
// Pod registration covers).
bool InvolvedInTopologySpreading(const api::Pod& incoming, const api::Pod& pod_with_spreading) {
  if (incoming.metadata.uid == pod_with_spreading.metadata.uid) return true;
  if (incoming.spec.node_name.empty() && incoming.status.nominated_node_name.empty()) return false;
  return incoming.metadata.namespace_ == pod_with_spreading.metadata.namespace_;
}

bool HasConstraintWithNodeTaintsPolicyHonor(const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints) {
    if (c.node_taints_policy == NodeInclusionPolicy::kHonor) return true;
  }
  return false;
}

// upstream checkTopologyKeyLabelsChanged (an absent label reads as "").
bool TopologyKeyLabelsChanged(const api::Labels& original, const api::Labels& modified,
                              const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints) {
    if (original.Get(c.topology_key).value_or("") != modified.Get(c.topology_key).value_or("")) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PodTopologySpread>> PodTopologySpread::Create(
    const PodTopologySpreadArgs& args, framework::Handle& handle) {
  if (absl::Status valid = ValidatePodTopologySpreadArgs(api::FieldPath(), args); !valid.ok()) {
    return valid;
  }
  std::unique_ptr<PodTopologySpread> plugin(new PodTopologySpread(handle));
  std::vector<api::TopologySpreadConstraint> defaults = args.default_constraints;
  if (args.defaulting_type == kSystemDefaulting) {
    defaults = SystemDefaultConstraints();
    plugin->system_defaulted_ = true;
  }
  // Default constraints have no labelSelector (validated), so they compile to "nothing" and
  // their matchLabelKeys never apply; the selector is set per pod.
  absl::StatusOr<std::vector<SpreadConstraint>> hard =
      CompileConstraints(defaults, api::Labels(), api::kDoNotSchedule);
  if (!hard.ok()) return hard.status();
  absl::StatusOr<std::vector<SpreadConstraint>> soft =
      CompileConstraints(defaults, api::Labels(), api::kScheduleAnyway);
  if (!soft.ok()) return soft.status();
  plugin->default_hard_constraints_ = *std::move(hard);
  plugin->default_soft_constraints_ = *std::move(soft);
  return plugin;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle) {
  absl::StatusOr<const PodTopologySpreadArgs*> typed =
      framework::ArgsAs<PodTopologySpreadArgs>(args, kName);
  if (!typed.ok()) return typed.status();
  const PodTopologySpreadArgs defaults;
  absl::StatusOr<std::unique_ptr<PodTopologySpread>> plugin =
      PodTopologySpread::Create(*typed != nullptr ? **typed : defaults, handle);
  if (!plugin.ok()) return plugin.status();
  return std::unique_ptr<framework::Plugin>(std::move(*plugin));
}

std::vector<SpreadConstraint> PodTopologySpread::BuildDefaultConstraints(
    const api::Pod& pod, std::string_view action) const {
  const std::vector<SpreadConstraint>& defaults =
      action == api::kDoNotSchedule ? default_hard_constraints_ : default_soft_constraints_;
  if (defaults.empty()) return {};
  const framework::SpreadSelectorLister* lister = handle_.spread_selector_lister();
  if (lister == nullptr) return {};
  api::CompiledLabelSelector selector = lister->DefaultSelector(pod);
  if (selector.Empty()) return {};
  std::vector<SpreadConstraint> constraints = defaults;
  for (SpreadConstraint& c : constraints) c.selector = selector;
  return constraints;
}

absl::StatusOr<std::vector<SpreadConstraint>> PodTopologySpread::GetConstraints(
    const api::Pod& pod) const {
  if (pod.spec.topology_spread_constraints.empty()) {
    return BuildDefaultConstraints(pod, api::kDoNotSchedule);
  }
  absl::StatusOr<std::vector<SpreadConstraint>> constraints = CompileConstraints(
      pod.spec.topology_spread_constraints, pod.metadata.labels, api::kDoNotSchedule);
  if (!constraints.ok()) {
    return absl::InvalidArgumentError("obtaining pod's hard topology spread constraints: " +
                                      std::string(constraints.status().message()));
  }
  return constraints;
}

std::vector<framework::ClusterEventWithHint> PodTopologySpread::EventsToRegister() const {
  // Pods: an assigned pod added, deleted or relabelled changes the counts; the pod itself getting
  // a toleration matters with nodeTaintsPolicy Honor. Nodes: a topology label or taint change
  // changes the domains.
  return {
      {framework::ClusterEvent{framework::EventResource::kPod,
                               framework::action::kAdd | framework::action::kUpdatePodLabel |
                                   framework::action::kUpdatePodToleration |
                                   framework::action::kDelete,
                               "Pod"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterPodChange(pod, objects);
       }},
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd | framework::action::kDelete |
                                   framework::action::kUpdateNodeLabel |
                                   framework::action::kUpdateNodeTaint,
                               "Node"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterNodeChange(pod, objects);
       }},
  };
}

absl::StatusOr<framework::QueueingHint> PodTopologySpread::IsSchedulableAfterPodChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Pod* original = objects.old_pod;
  const api::Pod* modified = objects.new_pod;
  if (original == nullptr && modified == nullptr) {
    return absl::InvalidArgumentError("PodTopologySpread: pod event without pods");
  }
  if ((modified != nullptr && !InvolvedInTopologySpreading(*modified, pod)) ||
      (original != nullptr && !InvolvedInTopologySpreading(*original, pod))) {
    // Unscheduled, or in another namespace: it does not change the counts.
    return framework::QueueingHint::kQueueSkip;
  }
  absl::StatusOr<std::vector<SpreadConstraint>> constraints = GetConstraints(pod);
  if (!constraints.ok()) return constraints.status();

  if (modified != nullptr && original != nullptr) {
    // The pod itself got a toleration: a tainted node may count now.
    if (pod.metadata.uid == modified->metadata.uid &&
        modified->spec.tolerations != original->spec.tolerations &&
        HasConstraintWithNodeTaintsPolicyHonor(*constraints)) {
      return framework::QueueingHint::kQueue;
    }
    if (modified->metadata.labels == original->metadata.labels) {
      return framework::QueueingHint::kQueueSkip;
    }
    for (const SpreadConstraint& c : *constraints) {
      // The update makes the pod start or stop matching a constraint.
      if (c.selector.Matches(original->metadata.labels) !=
          c.selector.Matches(modified->metadata.labels)) {
        return framework::QueueingHint::kQueue;
      }
    }
    return framework::QueueingHint::kQueueSkip;
  }
  const api::Pod& changed = modified != nullptr ? *modified : *original;
  return PodLabelsMatchSpreadConstraints(*constraints, changed.metadata.labels)
             ? framework::QueueingHint::kQueue
             : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> PodTopologySpread::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Node* original = objects.old_node;
  const api::Node* modified = objects.new_node;
  if (original == nullptr && modified == nullptr) {
    return absl::InvalidArgumentError("PodTopologySpread: node event without nodes");
  }
  absl::StatusOr<std::vector<SpreadConstraint>> constraints = GetConstraints(pod);
  if (!constraints.ok()) return constraints.status();

  const bool original_matching =
      original != nullptr &&
      NodeLabelsMatchSpreadConstraints(original->metadata.labels, *constraints);
  const bool modified_matching =
      modified != nullptr &&
      NodeLabelsMatchSpreadConstraints(modified->metadata.labels, *constraints);

  if (original != nullptr && modified != nullptr) {
    // UpdateNodeLabel: the node enters or leaves the domains, or moves between them;
    // UpdateNodeTaint: the taints of a node in the domains changed.
    if (original_matching != modified_matching) return framework::QueueingHint::kQueue;
    if (modified_matching &&
        (TopologyKeyLabelsChanged(original->metadata.labels, modified->metadata.labels,
                                  *constraints) ||
         original->spec.taints != modified->spec.taints)) {
      return framework::QueueingHint::kQueue;
    }
    return framework::QueueingHint::kQueueSkip;
  }
  // Add: the created node has every topology key; Delete: the deleted one had.
  const bool matching = modified != nullptr ? modified_matching : original_matching;
  return matching ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

}  // namespace ksched::plugins::pod_topology_spread
