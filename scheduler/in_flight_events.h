// InFlightEvents: the pods being scheduled (popped, Done not yet called) and the cluster events
// that arrived meanwhile (upstream activeQueue.inFlightPods / inFlightEvents, v1.34).
//
// One list holds pod markers and events in arrival order. When a rejected pod comes back, the
// events after its marker are exactly those it may have missed, and they are replayed through its
// rejecting plugins' queueing hints, so an event that arrives during an attempt is never lost.
// When a pod is done, leading events no remaining in-flight pod precedes are dropped, so the list
// stays as short as the oldest attempt.
//
// Events keep their objects alive (shared pointers): hints may read them long after the informer
// moved on.
//
// Counts (upstream ObserveInFlightEventsAsync's, for scheduler_inflight_events{event}): per event
// label, the events in the list; under kPodPoppedLabel, the pods in flight. A label counted once
// keeps its entry (at 0 when idle), as upstream's gauge series stay.
//
// Ownership: owns the list. Thread-safety: none; the scheduling queue guards it with its lock.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "api/resource.h"
#include "api/storage.h"
#include "framework/cluster_event.h"
#include "scheduler/event_label_counts.h"

namespace ksched::scheduler {

// The objects of an event, owned (framework::EventObjects is the borrowed view hints receive).
struct SharedEventObjects {
  std::shared_ptr<const api::Pod> old_pod;
  std::shared_ptr<const api::Pod> new_pod;
  std::shared_ptr<const api::Node> old_node;
  std::shared_ptr<const api::Node> new_node;
  // The storage objects of PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode,
  // VolumeAttachment, CSIDriver and CSIStorageCapacity events.
  struct Storage {
    std::shared_ptr<const api::PersistentVolumeClaim> old_pvc, new_pvc;
    std::shared_ptr<const api::PersistentVolume> old_pv, new_pv;
    std::shared_ptr<const api::StorageClass> old_storage_class, new_storage_class;
    std::shared_ptr<const api::CSINode> old_csi_node, new_csi_node;
    std::shared_ptr<const api::VolumeAttachment> old_volume_attachment, new_volume_attachment;
    std::shared_ptr<const api::CSIDriver> old_csi_driver, new_csi_driver;
    std::shared_ptr<const api::CSIStorageCapacity> old_csi_storage_capacity, new_csi_storage_capacity;
  };
  Storage storage = {};
  // The dynamic resource allocation objects of ResourceClaim, ResourceSlice and DeviceClass events.
  struct Resource {
    std::shared_ptr<const api::ResourceClaim> old_resource_claim, new_resource_claim;
    std::shared_ptr<const api::ResourceSlice> old_resource_slice, new_resource_slice;
    std::shared_ptr<const api::DeviceClass> old_device_class, new_device_class;
  };
  Resource resource = {};

  framework::EventObjects View() const {
    return framework::EventObjects{old_pod.get(),
                                   new_pod.get(),
                                   old_node.get(),
                                   new_node.get(),
                                   storage.old_pvc.get(),
                                   storage.new_pvc.get(),
                                   storage.old_pv.get(),
                                   storage.new_pv.get(),
                                   storage.old_storage_class.get(),
                                   storage.new_storage_class.get(),
                                   storage.old_csi_node.get(),
                                   storage.new_csi_node.get(),
                                   storage.old_volume_attachment.get(),
                                   storage.new_volume_attachment.get(),
                                   storage.old_csi_driver.get(),
                                   storage.new_csi_driver.get(),
                                   storage.old_csi_storage_capacity.get(),
                                   storage.new_csi_storage_capacity.get(),
                                   resource.old_resource_claim.get(),
                                   resource.new_resource_claim.get(),
                                   resource.old_resource_slice.get(),
                                   resource.new_resource_slice.get(),
                                   resource.old_device_class.get(),
                                   resource.new_device_class.get()};
  }
  // Deep copies of the view's objects.
  static SharedEventObjects CopyOf(const framework::EventObjects& objects);
};

struct InFlightEvent {
  framework::ClusterEvent event;
  SharedEventObjects objects;
};

// upstream metrics.PodPoppedInFlightEvent: the label counting the pods in flight.
inline constexpr std::string_view kPodPoppedLabel = "PodPopped";

class InFlightEvents {
 public:
  // Marks the pod in flight; false (and nothing recorded) when its UID already is.
  bool AddPod(const std::shared_ptr<const api::Pod>& pod);
  bool IsInFlight(std::string_view uid) const { return pods_.count(std::string(uid)) > 0; }
  bool AnyInFlight() const { return !pods_.empty(); }

  // Records the event when any pod is in flight; returns whether it was recorded.
  bool AddEventIfAnyInFlight(const framework::ClusterEvent& event, SharedEventObjects objects);
  // Records the events when the pod `uid` is in flight; returns whether it is.
  bool AddEventsIfPodInFlight(std::string_view uid,
                              const std::vector<framework::ClusterEvent>& events,
                              const SharedEventObjects& objects);

  // The events recorded since the pod was marked, oldest first; nullopt when it is not in flight.
  // The pointers stay valid until the next change of this object.
  std::optional<std::vector<const InFlightEvent*>> EventsSince(std::string_view uid) const;

  // Unmarks the pod and drops the events nobody in flight still needs. No-op when not in flight.
  void Done(std::string_view uid);
  // Unmarks every pod (Close).
  void Clear();

  // The pod in flight with this UID, as it was when popped; nullptr when none is.
  std::shared_ptr<const api::Pod> PodOf(std::string_view uid) const;
  // The pods in flight, as they were when popped.
  std::vector<std::shared_ptr<const api::Pod>> Pods() const;
  // Recorded events (tests).
  std::size_t EventCount() const { return entries_.size() - pods_.size(); }
  // The counts by label (see the file comment).
  const std::vector<EventLabelCounts::Entry>& CountsByLabel() const { return counts_.counts(); }

 private:
  struct Entry {
    std::shared_ptr<const api::Pod> pod;  // set for a pod marker
    InFlightEvent event;                  // set for an event
  };

  std::list<Entry> entries_;
  std::unordered_map<std::string, std::list<Entry>::iterator> pods_;  // UID -> marker
  EventLabelCounts counts_;
};

}  // namespace ksched::scheduler
