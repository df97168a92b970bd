#include "scheduler/in_flight_events.h"

#include <type_traits>

namespace ksched::scheduler {

SharedEventObjects SharedEventObjects::CopyOf(const framework::EventObjects& objects) {
  SharedEventObjects owned;
  if (objects.old_pod != nullptr) {
    owned.old_pod = std::make_shared<const api::Pod>(*objects.old_pod);
  }
  if (objects.new_pod != nullptr) {
    owned.new_pod = std::make_shared<const api::Pod>(*objects.new_pod);
  }
  if (objects.old_node != nullptr) {
    owned.old_node = std::make_shared<const api::Node>(*objects.old_node);
  }
  if (objects.new_node != nullptr) {
    owned.new_node = std::make_shared<const api::Node>(*objects.new_node);
  }
  auto copy = [](const auto* object) {
    using T = std::remove_cvref_t<decltype(*object)>;
    return object == nullptr ? nullptr : std::make_shared<const T>(*object);
  };
  owned.storage.old_pvc = copy(objects.old_pvc);
  owned.storage.new_pvc = copy(objects.new_pvc);
  owned.storage.old_pv = copy(objects.old_pv);
  owned.storage.new_pv = copy(objects.new_pv);
  owned.storage.old_storage_class = copy(objects.old_storage_class);
  owned.storage.new_storage_class = copy(objects.new_storage_class);
  owned.storage.old_csi_node = copy(objects.old_csi_node);
  owned.storage.new_csi_node = copy(objects.new_csi_node);
  owned.storage.old_volume_attachment = copy(objects.old_volume_attachment);
  owned.storage.new_volume_attachment = copy(objects.new_volume_attachment);
  owned.storage.old_csi_driver = copy(objects.old_csi_driver);
  owned.storage.new_csi_driver = copy(objects.new_csi_driver);
  owned.storage.old_csi_storage_capacity = copy(objects.old_csi_storage_capacity);
  owned.storage.new_csi_storage_capacity = copy(objects.new_csi_storage_capacity);
  owned.resource.old_resource_claim = copy(objects.old_resource_claim);
  owned.resource.new_resource_claim = copy(objects.new_resource_claim);
  owned.resource.old_resource_slice = copy(objects.old_resource_slice);
  owned.resource.new_resource_slice = copy(objects.new_resource_slice);
  owned.resource.old_device_class = copy(objects.old_device_class);
  owned.resource.new_device_class = copy(objects.new_device_class);
  return owned;
}

bool InFlightEvents::AddPod(const std::shared_ptr<const api::Pod>& pod) {
  const std::string& uid = pod->metadata.uid;
  if (pods_.count(uid) > 0) return false;
  entries_.push_back(Entry{pod, {}});
  pods_.emplace(uid, std::prev(entries_.end()));
  counts_.Add(kPodPoppedLabel, 1);
  return true;
}

bool InFlightEvents::AddEventIfAnyInFlight(const framework::ClusterEvent& event,
                                           SharedEventObjects objects) {
  if (pods_.empty()) return false;
  counts_.Add(event.label, 1);
  entries_.push_back(Entry{nullptr, InFlightEvent{event, std::move(objects)}});
  return true;
}

bool InFlightEvents::AddEventsIfPodInFlight(std::string_view uid,
                                            const std::vector<framework::ClusterEvent>& events,
                                            const SharedEventObjects& objects) {
  if (!IsInFlight(uid)) return false;
  for (const framework::ClusterEvent& event : events) {
    counts_.Add(event.label, 1);
    entries_.push_back(Entry{nullptr, InFlightEvent{event, objects}});
  }
  return true;
}

std::optional<std::vector<const InFlightEvent*>> InFlightEvents::EventsSince(
    std::string_view uid) const {
  auto marker = pods_.find(std::string(uid));
  if (marker == pods_.end()) return std::nullopt;
  std::vector<const InFlightEvent*> events;
  for (auto it = std::next(marker->second); it != entries_.end(); ++it) {
    if (it->pod == nullptr) events.push_back(&it->event);  // other pods' markers are skipped
  }
  return events;
}

void InFlightEvents::Done(std::string_view uid) {
  auto marker = pods_.find(std::string(uid));
  if (marker == pods_.end()) return;
  entries_.erase(marker->second);
  pods_.erase(marker);
  counts_.Add(kPodPoppedLabel, -1);
  // Events before the oldest remaining pod concern nobody any more.
  while (!entries_.empty() && entries_.front().pod == nullptr) {
    counts_.Add(entries_.front().event.event.label, -1);
    entries_.pop_front();
  }
}

void InFlightEvents::Clear() {
  entries_.clear();
  pods_.clear();
  counts_.ZeroAll();
}

std::shared_ptr<const api::Pod> InFlightEvents::PodOf(std::string_view uid) const {
  auto marker = pods_.find(std::string(uid));
  return marker == pods_.end() ? nullptr : marker->second->pod;
}

std::vector<std::shared_ptr<const api::Pod>> InFlightEvents::Pods() const {
  std::vector<std::shared_ptr<const api::Pod>> pods;
  pods.reserve(pods_.size());
  for (const auto& [uid, marker] : pods_) pods.push_back(marker->pod);
  return pods;
}

}  // namespace ksched::scheduler
