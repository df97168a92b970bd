// Cluster events and queueing hints (upstream framework.ClusterEvent, ClusterEventWithHint,
// QueueingHintFn): what a plugin registers as "a change that may make a pod I rejected
// schedulable", so that the scheduling queue moves a rejected pod back only when one of its
// rejecting plugins cares about the event.
//
// Thread-safety: value types; hint functions are called from the queue's event dispatch with the
// queue lock released and must be safe to call concurrently with the scheduling cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/resource.h"
#include "api/storage.h"

namespace ksched::framework {

enum class EventResource : std::uint8_t {
  kPod,             // any pod (assigned or not); upstream "Pod"
  kAssignedPod,     // pods bound to a node
  kUnscheduledPod,  // pods not bound, other than the pod the event is replayed for
  kTargetPod,       // the unscheduled pod itself, when its own update is replayed to its plugins
  kNode,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,
  kVolumeAttachment,
  kResourceClaim,
  kResourceSlice,
  kDeviceClass,
  kWildCard,  // matches every resource
};

std::string_view EventResourceName(EventResource resource);

// ActionType: a bit set (upstream framework.ActionType).
using ActionType = std::uint32_t;
namespace action {
inline constexpr ActionType kAdd = 1U << 0;
inline constexpr ActionType kDelete = 1U << 1;
inline constexpr ActionType kUpdateNodeAllocatable = 1U << 2;
inline constexpr ActionType kUpdateNodeLabel = 1U << 3;
inline constexpr ActionType kUpdateNodeTaint = 1U << 4;
inline constexpr ActionType kUpdateNodeCondition = 1U << 5;
inline constexpr ActionType kUpdateNodeAnnotation = 1U << 6;
inline constexpr ActionType kUpdatePodLabel = 1U << 7;
inline constexpr ActionType kUpdatePodScaleDown = 1U << 8;
inline constexpr ActionType kUpdatePodToleration = 1U << 9;
inline constexpr ActionType kUpdatePodSchedulingGatesEliminated = 1U << 10;
inline constexpr ActionType kUpdatePodGeneratedResourceClaim = 1U << 11;
// Any other update of a non-pod, non-node object.
inline constexpr ActionType kUpdateOther = 1U << 12;
// A change of node.status.declaredFeatures (upstream UpdateNodeDeclaredFeature, v1.35+; the bit
// values need not follow upstream's order, only the names are visible).
inline constexpr ActionType kUpdateNodeDeclaredFeature = 1U << 13;
// A resource request raised or added (upstream UpdatePodScaleUp, v1.37).
inline constexpr ActionType kUpdatePodScaleUp = 1U << 14;
inline constexpr ActionType kUpdate =
    kUpdateNodeAllocatable | kUpdateNodeLabel | kUpdateNodeTaint | kUpdateNodeCondition |
    kUpdateNodeAnnotation | kUpdatePodLabel | kUpdatePodScaleDown | kUpdatePodToleration |
    kUpdatePodSchedulingGatesEliminated | kUpdatePodGeneratedResourceClaim | kUpdateOther |
    kUpdateNodeDeclaredFeature | kUpdatePodScaleUp;
inline constexpr ActionType kAll = kAdd | kDelete | kUpdate;
}  // namespace action

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  ActionType action = action::kAll;
  // A label for logs and metrics (upstream's event label, e.g. "NodeAdd", "AssignedPodDelete").
  std::string label;

  // Whether `this` (a registered interest) covers `event` (something that happened).
  bool Match(const ClusterEvent& event) const {
    const bool resource_ok = resource == EventResource::kWildCard || resource == event.resource ||
                             (resource == EventResource::kPod &&
                              (event.resource == EventResource::kAssignedPod ||
                               event.resource == EventResource::kUnscheduledPod ||
                               event.resource == EventResource::kTargetPod));
    // The incoming action must also be no broader than the registered one (upstream: a
    // registration for UpdateNodeLabel does not match a general Update).
    return IsWildCard() || (resource_ok && (action & event.action) != 0 && event.action <= action);
  }
  bool IsWildCard() const { return resource == EventResource::kWildCard && action == action::kAll; }
};

// Events the queue itself raises.
ClusterEvent UnschedulableTimeoutEvent();  // pods stayed too long in the unschedulable pool
ClusterEvent ForceActivateEvent();
ClusterEvent AssignedPodDeleteEvent();  // also raised when an assumed pod is forgotten

enum class QueueingHint : std::uint8_t { kQueueSkip = 0, kQueue = 1 };

// The objects of an event; exactly the pointers relevant to its resource are set (old is nullptr
// for adds, new is nullptr for deletes).
struct EventObjects {
  const api::Pod* old_pod = nullptr;
  const api::Pod* new_pod = nullptr;
  const api::Node* old_node = nullptr;
  const api::Node* new_node = nullptr;
  const api::PersistentVolumeClaim* old_pvc = nullptr;
  const api::PersistentVolumeClaim* new_pvc = nullptr;
  const api::PersistentVolume* old_pv = nullptr;
  const api::PersistentVolume* new_pv = nullptr;
  const api::StorageClass* old_storage_class = nullptr;
  const api::StorageClass* new_storage_class = nullptr;
  const api::CSINode* old_csi_node = nullptr;
  const api::CSINode* new_csi_node = nullptr;
  const api::VolumeAttachment* old_volume_attachment = nullptr;
  const api::VolumeAttachment* new_volume_attachment = nullptr;
  const api::CSIDriver* old_csi_driver = nullptr;
  const api::CSIDriver* new_csi_driver = nullptr;
  const api::CSIStorageCapacity* old_csi_storage_capacity = nullptr;
  const api::CSIStorageCapacity* new_csi_storage_capacity = nullptr;
  const api::ResourceClaim* old_resource_claim = nullptr;
  const api::ResourceClaim* new_resource_claim = nullptr;
  const api::ResourceSlice* old_resource_slice = nullptr;
  const api::ResourceSlice* new_resource_slice = nullptr;
  const api::DeviceClass* old_device_class = nullptr;
  const api::DeviceClass* new_device_class = nullptr;
};

// Decides whether `event` may make `pod` schedulable. An error counts as Queue.
using QueueingHintFn =
    std::function<absl::StatusOr<QueueingHint>(const api::Pod& pod, const EventObjects& objects)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;  // empty: always Queue
};

}  // namespace ksched::framework
