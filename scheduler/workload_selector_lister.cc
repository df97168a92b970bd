#include "scheduler/workload_selector_lister.h"

#include <string_view>
#include <utility>
#include <vector>

namespace ksched::scheduler {
namespace {

// labels.Set(selector).AsSelectorPreValidated().Matches(labels), without building the selector.
bool SetMatches(const api::Labels& selector, const api::Labels& labels) {
  for (const auto& [key, value] : selector) {
    const std::optional<std::string_view> have = labels.Get(key);
    if (!have.has_value() || *have != value) return false;
  }
  return true;
}

// `selector` with the requirements of a ReplicaSet's or StatefulSet's selector added (upstream
// selector.Add(LabelSelectorAsSelector(...).Requirements()...)); unchanged when that selector is
// null (labels.Nothing() has no requirements) or invalid.
api::CompiledLabelSelector AddWorkloadRequirements(api::CompiledLabelSelector selector,
                                                   const api::WorkloadSpec& spec) {
  if (!spec.selector.has_value()) return selector;
  absl::StatusOr<api::CompiledLabelSelector> other = api::CompiledLabelSelector::Compile(*spec.selector);
  if (!other.ok() || other->requirements().empty()) return selector;
  std::vector<api::LabelRequirement> requirements(selector.requirements().begin(),
                                                  selector.requirements().end());
  requirements.insert(requirements.end(), other->requirements().begin(), other->requirements().end());
  return api::CompiledLabelSelector::FromRequirements(std::move(requirements));
}

}  // namespace

WorkloadSelectorLister::WorkloadSelectorLister()
    : services_(std::make_shared<NamespacedObjectStore<api::Service>>()),
      replication_controllers_(std::make_shared<NamespacedObjectStore<api::ReplicationController>>()),
      replica_sets_(std::make_shared<NamespacedObjectStore<api::ReplicaSet>>()),
      stateful_sets_(std::make_shared<NamespacedObjectStore<api::StatefulSet>>()) {}

api::CompiledLabelSelector WorkloadSelectorLister::DefaultSelector(const api::Pod& pod) const {
  const std::string_view ns = pod.metadata.namespace_;
  // Services select with plain label maps that match the pod, so their entries agree with the
  // pod's labels and merging them cannot conflict.
  api::Labels label_set;
  services_->ForEachIn(ns, [&](const api::Service& service) {
    // A Service without a selector matches no pod (upstream GetPodServices).
    if (!service.spec.selector.has_value() || !SetMatches(*service.spec.selector, pod.metadata.labels)) {
      return;
    }
    for (const auto& [key, value] : *service.spec.selector) label_set.Set(key, value);
  });

  const api::OwnerReference* owner = pod.metadata.ControllerRef();
  if (owner == nullptr) return api::CompiledLabelSelector::FromSet(label_set);
  if (owner->api_version == "v1" && owner->kind == "ReplicationController") {
    if (const auto rc = replication_controllers_->Get(ns, owner->name); rc != nullptr && rc->spec.selector) {
      for (const auto& [key, value] : *rc->spec.selector) label_set.Set(key, value);
    }
    return api::CompiledLabelSelector::FromSet(label_set);
  }
  api::CompiledLabelSelector selector = api::CompiledLabelSelector::FromSet(label_set);
  if (owner->api_version != "apps/v1") return selector;
  if (owner->kind == "ReplicaSet") {
    if (const auto rs = replica_sets_->Get(ns, owner->name); rs != nullptr) {
      return AddWorkloadRequirements(std::move(selector), rs->spec);
    }
  } else if (owner->kind == "StatefulSet") {
    if (const auto ss = stateful_sets_->Get(ns, owner->name); ss != nullptr) {
      return AddWorkloadRequirements(std::move(selector), ss->spec);
    }
  }
  return selector;
}

}  // namespace ksched::scheduler
