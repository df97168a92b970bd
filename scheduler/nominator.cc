#include "scheduler/nominator.h"

#include <algorithm>

namespace ksched::scheduler {

void Nominator::AddNominatedPod(const framework::PodInfoPtr& pod,
                                const framework::NominatingInfo* info) {
  const api::Pod& p = pod->pod();
  // Never keep two instances of one pod.
  Delete(p.metadata.uid);

  const bool override_node = info != nullptr && info->mode == framework::NominatingMode::kOverride;
  const std::string node_name =
      override_node ? info->nominated_node_name : p.status.nominated_node_name.str();
  // An empty name clears the nomination; nothing is keyed by "".
  if (node_name.empty()) return;

  if (pod_lister_) {
    // A pod that was removed or already bound is not nominated.
    std::shared_ptr<const api::Pod> current = pod_lister_(p.metadata.namespace_, p.metadata.name);
    if (current == nullptr || !current->spec.node_name.empty()) return;
  }

  nominated_pod_to_node_[p.metadata.uid] = node_name;
  nominated_pods_[node_name].push_back(pod);
}

void Nominator::UpdateNominatedPod(const api::Pod& old_pod, const framework::PodInfoPtr& new_pod) {
  // An update without status.nominatedNodeName may arrive right after preemption nominated the pod
  // in memory: keep that nomination. Any change of the field itself wins.
  std::optional<framework::NominatingInfo> keep;
  if (old_pod.status.nominated_node_name.empty() &&
      new_pod->pod().status.nominated_node_name.empty()) {
    if (auto it = nominated_pod_to_node_.find(old_pod.metadata.uid);
        it != nominated_pod_to_node_.end()) {
      keep = framework::NominatingInfo{it->second, framework::NominatingMode::kOverride};
    }
  }
  // Always re-add so that the stored PodInfo is the new one.
  Delete(old_pod.metadata.uid);
  AddNominatedPod(new_pod, keep.has_value() ? &*keep : nullptr);
}

void Nominator::DeleteNominatedPodIfExists(const api::Pod& pod) { Delete(pod.metadata.uid); }

void Nominator::Delete(const std::string& uid) {
  auto it = nominated_pod_to_node_.find(uid);
  if (it == nominated_pod_to_node_.end()) return;
  auto node = nominated_pods_.find(it->second);
  if (node != nominated_pods_.end()) {
    std::vector<framework::PodInfoPtr>& pods = node->second;
    auto pos = std::find_if(pods.begin(), pods.end(), [&](const framework::PodInfoPtr& p) {
      return p->pod().metadata.uid == uid;
    });
    if (pos != pods.end()) pods.erase(pos);
    if (pods.empty()) nominated_pods_.erase(node);
  }
  nominated_pod_to_node_.erase(it);
}

std::vector<framework::PodInfoPtr> Nominator::NominatedPodsForNode(
    std::string_view node_name) const {
  auto it = nominated_pods_.find(node_name);
  if (it == nominated_pods_.end()) return {};
  return it->second;
}

std::optional<std::string> Nominator::NominatedNodeOf(std::string_view uid) const {
  auto it = nominated_pod_to_node_.find(std::string(uid));
  if (it == nominated_pod_to_node_.end()) return std::nullopt;
  return it->second;
}

}  // namespace ksched::scheduler
