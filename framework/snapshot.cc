#include "framework/snapshot.h"

#include <map>
#include <set>

namespace ksched::framework {

namespace {

// Debian's abseil has its own string_view; flat_hash_map<std::string, ...> looks up with it.
absl::string_view Key(std::string_view name) { return absl::string_view(name.data(), name.size()); }

}  // namespace

std::unique_ptr<Snapshot> Snapshot::FromObjects(
    const std::vector<std::shared_ptr<const api::Node>>& nodes,
    const std::vector<PodInfoPtr>& pods) {
  auto snapshot = std::make_unique<Snapshot>();
  std::vector<std::string> order;
  order.reserve(nodes.size());
  // upstream createImageExistenceMap: image name -> the nodes that have it.
  std::map<std::string, std::set<std::string>, std::less<>> image_nodes;
  for (const auto& node : nodes) {
    const std::string& name = node->metadata.name;
    if (snapshot->map_.find(Key(name)) == snapshot->map_.end()) order.push_back(name);
    snapshot->GetOrCreate(name)->SetNode(node);
    for (const api::ContainerImage& image : node->status.images) {
      for (const std::string& image_name : image.names) image_nodes[image_name].insert(name);
    }
  }
  for (const PodInfoPtr& pod : pods) {
    if (NodeInfo* info = snapshot->GetMutable(pod->pod().spec.node_name)) info->AddPod(pod);
  }
  // upstream getNodeImageStates.
  for (const auto& node : nodes) {
    NodeInfo* info = snapshot->GetMutable(node->metadata.name);
    if (info->node() != node.get()) continue;  // a later node of the same name replaced it
    auto& states = info->mutable_image_states();
    states.clear();
    for (const api::ContainerImage& image : node->status.images) {
      for (const std::string& image_name : image.names) {
        states[image_name] = ImageStateSummary{
            image.size_bytes, static_cast<int>(image_nodes[image_name].size())};
      }
    }
  }
  snapshot->RebuildLists(order);
  return snapshot;
}

const NodeInfo* Snapshot::Get(std::string_view node_name) const {
  auto it = map_.find(Key(node_name));
  return it != map_.end() ? it->second.get() : nullptr;
}

NodeInfo* Snapshot::GetOrCreate(const std::string& node_name) {
  std::unique_ptr<NodeInfo>& slot = map_[node_name];
  if (slot == nullptr) slot = std::make_unique<NodeInfo>();
  return slot.get();
}

void Snapshot::Erase(std::string_view node_name) {
  map_.erase(Key(node_name));
  ++list_version_;
}

NodeInfo* Snapshot::GetMutable(std::string_view node_name) {
  auto it = map_.find(Key(node_name));
  return it != map_.end() ? it->second.get() : nullptr;
}

void Snapshot::RebuildLists(const std::vector<std::string>& order) {
  ++list_version_;
  list_.clear();
  list_.reserve(order.size());
  for (const std::string& name : order) {
    NodeInfo* info = GetMutable(name);
    // NodeInfos that only hold pods of a node not (yet) seen are not part of a snapshot.
    if (info != nullptr && info->node() != nullptr) list_.push_back(info);
  }
  RebuildAffinityLists();
}

void Snapshot::RebuildAffinityLists() {
  with_affinity_.clear();
  with_required_anti_affinity_.clear();
  for (NodeInfo* info : list_) {
    if (!info->pods_with_affinity().empty()) with_affinity_.push_back(info);
    if (!info->pods_with_required_anti_affinity().empty()) {
      with_required_anti_affinity_.push_back(info);
    }
  }
}

bool Snapshot::IsPVCUsedByPods(std::string_view claim_key) const {
  for (const NodeInfo* node : list_) {
    if (node->pvc_ref_counts().contains(claim_key)) return true;
  }
  return false;
}

std::vector<std::string> Snapshot::StoredNames() const {
  std::vector<std::string> names;
  names.reserve(map_.size());
  for (const auto& entry : map_) names.push_back(entry.first);
  return names;
}

}  // namespace ksched::framework
