#include "framework/cluster_event.h"

#include <cstdlib>

namespace ksched::framework {

namespace {

// upstream framework/events.go label constants.
constexpr std::string_view kUnschedulableTimeout = "UnschedulableTimeout";
constexpr std::string_view kForceActivate = "ForceActivate";

}  // namespace

std::string_view EventResourceName(EventResource resource) {
  // upstream's EventResource strings; AssignedPod, UnscheduledPod and TargetPod are the internal
  // names for the parts of Pod (they appear in event labels such as "UnscheduledPodAdd" and
  // "TargetPodUpdatePodLabel").
  switch (resource) {
    case EventResource::kPod: return "Pod";
    case EventResource::kAssignedPod: return "AssignedPod";
    case EventResource::kUnscheduledPod: return "UnscheduledPod";
    case EventResource::kTargetPod: return "TargetPod";
    case EventResource::kNode: return "Node";
    case EventResource::kPersistentVolume: return "PersistentVolume";
    case EventResource::kPersistentVolumeClaim: return "PersistentVolumeClaim";
    case EventResource::kStorageClass: return "storage.k8s.io/StorageClass";
    case EventResource::kCSINode: return "storage.k8s.io/CSINode";
    case EventResource::kCSIDriver: return "storage.k8s.io/CSIDriver";
    case EventResource::kCSIStorageCapacity: return "storage.k8s.io/CSIStorageCapacity";
    case EventResource::kVolumeAttachment: return "storage.k8s.io/VolumeAttachment";
    case EventResource::kResourceClaim: return "resource.k8s.io/ResourceClaim";
    case EventResource::kResourceSlice: return "resource.k8s.io/ResourceSlice";
    case EventResource::kDeviceClass: return "resource.k8s.io/DeviceClass";
    case EventResource::kWildCard: return "*";
  }
  std::abort();  // an out-of-range EventResource is a broken invariant
}

ClusterEvent UnschedulableTimeoutEvent() {
  return ClusterEvent{EventResource::kWildCard, action::kAll, std::string(kUnschedulableTimeout)};
}

ClusterEvent ForceActivateEvent() {
  return ClusterEvent{EventResource::kWildCard, action::kAll, std::string(kForceActivate)};
}

ClusterEvent AssignedPodDeleteEvent() {
  return ClusterEvent{EventResource::kAssignedPod, action::kDelete, "AssignedPodDelete"};
}

}  // namespace ksched::framework
