// Pod: core/v1 Pod holding only what kube-scheduler v1.37.2 reads: its default plugins, scheduling
// queue, cache, preemption and binding.
//
// Defaults: the decoder (api/json_decode.h) fills spec.schedulerName ("default-scheduler"), each
// container port's protocol ("TCP") and each rbd volume's pool ("rbd") when they are absent, as
// the API server always does; every other absent field is empty, zero or nullopt (see the decoder
// header for the full list of what is and is not defaulted).
//
// Memory: the scheduler caches every pod, so the layout is compact: strings whose values repeat
// across pods are InternedString (8 bytes, shared characters; see api/interned_string.h for which
// fields qualify), lists are CompactVector (8 bytes, nothing allocated when empty), quantities are
// 24 bytes, and what only the kubelet reports (container statuses, pod-level allocated and actual
// resources) is one CompactBox (8 bytes, nothing allocated for a pending pod). The perf-test pod of
// bench/decode_bench.cc holds under 1 KiB in all.
//
// Ownership: plain value types owning all their data (interned characters are shared).
// Thread-safety: like any struct; concurrent const use is safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/affinity.h"
#include "api/compact_box.h"
#include "api/container.h"
#include "api/labels.h"
#include "api/object_meta.h"
#include "api/resource_list.h"
#include "api/time.h"
#include "api/toleration.h"
#include "api/topology_spread.h"
#include "api/volume.h"
#include "api/compact_vector.h"
#include "api/interned_string.h"

namespace ksched::api {

inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";

// core/v1 PreemptionPolicy values.
inline constexpr std::string_view kPreemptLowerPriority = "PreemptLowerPriority";
inline constexpr std::string_view kPreemptNever = "Never";

// core/v1 PodPhase values.
inline constexpr std::string_view kPodPending = "Pending";
inline constexpr std::string_view kPodRunning = "Running";
inline constexpr std::string_view kPodSucceeded = "Succeeded";
inline constexpr std::string_view kPodFailed = "Failed";
inline constexpr std::string_view kPodUnknown = "Unknown";

// core/v1 ContainerRestartRuleAction value that NodeDeclaredFeatures looks for.
inline constexpr std::string_view kContainerRestartRuleActionRestartAllContainers =
    "RestartAllContainers";

// core/v1 PodConditionType values the scheduler reads or writes.
inline constexpr std::string_view kPodScheduled = "PodScheduled";
inline constexpr std::string_view kDisruptionTarget = "DisruptionTarget";
// v1.PodReasonPreemptionByScheduler: the DisruptionTarget reason preemption sets on its victims.
inline constexpr std::string_view kPodReasonPreemptionByScheduler = "PreemptionByScheduler";
inline constexpr std::string_view kPodResizePending = "PodResizePending";
// core/v1 PodReasonInfeasible / PodReasonDeferred: the reasons of a PodResizePending condition.
inline constexpr std::string_view kPodReasonInfeasible = "Infeasible";
inline constexpr std::string_view kPodReasonDeferred = "Deferred";

// core/v1 ConditionStatus values.
inline constexpr std::string_view kConditionTrue = "True";
inline constexpr std::string_view kConditionFalse = "False";
inline constexpr std::string_view kConditionUnknown = "Unknown";

// core/v1 PodResourceClaim: a claim by name, or a template the ResourceClaim controller
// instantiates (its claim's name then appears in status.resourceClaimStatuses).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;

  friend bool operator==(const PodResourceClaim&, const PodResourceClaim&) = default;
};

// core/v1 PodResourceClaimStatus; resource_claim_name nullopt: no claim was needed.
struct PodResourceClaimStatus {
  std::string name;
  std::optional<std::string> resource_claim_name;

  friend bool operator==(const PodResourceClaimStatus&, const PodResourceClaimStatus&) = default;
};

struct PodSpec {
  InternedString node_name;  // node names are bounded by the cluster's nodes
  InternedString scheduler_name;  // "default-scheduler" when absent
  std::optional<std::int32_t> priority;  // nullopt reads as 0 (upstream PodPriority)
  InternedString priority_class_name;
  InternedString preemption_policy;  // "" = absent (PreemptLowerPriority)
  Labels node_selector;
  Affinity affinity;
  CompactVector<Toleration> tolerations;
  CompactVector<TopologySpreadConstraint> topology_spread_constraints;
  CompactVector<Container> containers;
  CompactVector<Container> init_containers;
  ResourceList overhead;
  ResourceRequirements resources;  // pod-level resources (spec.resources)
  CompactVector<Volume> volumes;
  CompactVector<std::string> scheduling_gates;  // the gates' names
  // nullopt when absent; the API server always sets it (default 30).
  std::optional<std::int64_t> termination_grace_period_seconds;
  CompactVector<PodResourceClaim> resource_claims;  // spec.resourceClaims
  bool host_network = false;
  std::optional<bool> host_users;  // spec.hostUsers; nullopt when absent (not defaulted)
  // What NodeDeclaredFeatures' inference (component-helpers nodedeclaredfeatures) reads of the
  // containers, kept as two flags instead of lists nothing else reads (restartPolicyRules,
  // volumeMounts and ephemeralContainers are otherwise not decoded); they share host_network's
  // padding, so a pod costs no more bytes:
  //   some container or init container has a restartPolicyRules entry with action
  //   "RestartAllContainers";
  bool has_restart_all_containers_rule = false;
  //   some container, init container or ephemeral container has a volumeMount with a non-empty
  //   bindMountOptions.
  bool has_bind_mount_options = false;

  friend bool operator==(const PodSpec&, const PodSpec&) = default;
};

// core/v1 PodCondition.
struct PodCondition {
  InternedString type;
  InternedString status;
  InternedString reason;  // reasons are a small set of CamelCase words
  std::string message;
  std::optional<Time> last_probe_time;
  std::optional<Time> last_transition_time;
  std::int64_t observed_generation = 0;

  friend bool operator==(const PodCondition&, const PodCondition&) = default;
};

// The resources the kubelet reports in a pod's status, which the resource helpers read while an
// in-place resize is in progress (InPlacePodVerticalScaling GA, its init-container part GA and
// InPlacePodLevelResourcesVerticalScaling beta-on in v1.37). A v1.37 kubelet sets the pod-level
// pair on every running pod.
struct PodResourceStatus {
  CompactVector<ContainerStatus> container_statuses;       // status.containerStatuses
  CompactVector<ContainerStatus> init_container_statuses;  // status.initContainerStatuses
  ResourceList allocated_resources;                        // status.allocatedResources (pod level)
  // status.resources (pod level): absent (nullopt) until the kubelet reports it; upstream reads
  // it only when present. (An empty map and an absent one are the same here: the API server
  // never sends an empty one.)
  std::optional<ResourceRequirements> resources;

  friend bool operator==(const PodResourceStatus&, const PodResourceStatus&) = default;
};

struct PodStatus {
  InternedString phase;
  InternedString nominated_node_name;
  CompactVector<PodCondition> conditions;
  std::optional<Time> start_time;
  // Empty (no allocation) until the kubelet reported any of it; reads as an empty
  // PodResourceStatus then.
  CompactBox<PodResourceStatus> resource_status;
  CompactVector<PodResourceClaimStatus> resource_claim_statuses;

  // The condition of `type`, or nullptr (upstream GetPodCondition).
  const PodCondition* FindCondition(std::string_view type) const noexcept {
    for (const PodCondition& condition : conditions) {
      if (condition.type == type) return &condition;
    }
    return nullptr;
  }

  friend bool operator==(const PodStatus&, const PodStatus&) = default;
};

struct Pod {
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;

  friend bool operator==(const Pod&, const Pod&) = default;
};

// upstream corev1helpers.PodPriority: spec.priority, 0 when absent.
inline std::int32_t PodPriority(const Pod& pod) noexcept { return pod.spec.priority.value_or(0); }

}  // namespace ksched::api
