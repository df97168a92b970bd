// Nominator: the pods nominated to run on each node (upstream backend/queue/nominator.go): pods
// whose status.nominatedNodeName is set, and pods preemption nominated in memory before the API
// update lands. Filters account for them so that a preemptor's room is not taken by others.
//
// A pod is nominated to at most one node. The node comes from the NominatingInfo: Override names it
// (an empty name clears the nomination), Noop keeps the pod's own status.nominatedNodeName. When a
// pod lister is given, a pod that is gone or already bound is not nominated (upstream podLister).
//
// Ownership: holds shared references to immutable PodInfos.
// Thread-safety: none; the scheduling queue guards it with its lock.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/pod.h"
#include "framework/interface.h"
#include "framework/pod_info.h"

namespace ksched::scheduler {

class Nominator {
 public:
  // The informer's current copy of a pod, nullptr when it is gone.
  using PodLister =
      std::function<std::shared_ptr<const api::Pod>(std::string_view ns, std::string_view name)>;

  explicit Nominator(PodLister pod_lister = nullptr) : pod_lister_(std::move(pod_lister)) {}

  // Nominates the pod (replacing any earlier nomination of the same UID). `info` nullptr is Noop.
  void AddNominatedPod(const framework::PodInfoPtr& pod, const framework::NominatingInfo* info);
  // Replaces `old_pod` by `new_pod`, keeping an in-memory nomination when neither version carries
  // status.nominatedNodeName (upstream UpdateNominatedPod).
  void UpdateNominatedPod(const api::Pod& old_pod, const framework::PodInfoPtr& new_pod);
  void DeleteNominatedPodIfExists(const api::Pod& pod);

  // The pods nominated to `node_name`, in nomination order.
  std::vector<framework::PodInfoPtr> NominatedPodsForNode(std::string_view node_name) const;
  // The node a pod (by UID) is nominated to.
  std::optional<std::string> NominatedNodeOf(std::string_view uid) const;
  // Nodes with at least one nominated pod.
  std::size_t NodeCount() const { return nominated_pods_.size(); }

 private:
  void Delete(const std::string& uid);

  PodLister pod_lister_;
  // node name -> nominated pods, in nomination order.
  std::map<std::string, std::vector<framework::PodInfoPtr>, std::less<>> nominated_pods_;
  // pod UID -> node name.
  std::unordered_map<std::string, std::string> nominated_pod_to_node_;
};

}  // namespace ksched::scheduler
