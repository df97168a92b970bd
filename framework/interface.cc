#include "framework/interface.h"

namespace ksched::framework {

namespace {

absl::string_view Key(std::string_view name) { return absl::string_view(name.data(), name.size()); }

}  // namespace

PreFilterResult PreFilterResult::Merge(const PreFilterResult& a, const PreFilterResult& b) {
  // upstream PreFilterResult.Merge: "all nodes" is the identity; otherwise the intersection (an
  // empty set stays a restriction to no node).
  if (a.AllNodes()) return b;
  if (b.AllNodes()) return a;
  PreFilterResult merged;
  merged.node_names.emplace();
  for (const std::string& name : *a.node_names) {
    if (b.node_names->count(name) > 0) merged.node_names->insert(name);
  }
  return merged;
}

const Status& NodeToStatus::Get(std::string_view node_name) const {
  auto it = map_.find(Key(node_name));
  return it != map_.end() ? it->second : absent_;
}

std::vector<const NodeInfo*> NodeToStatus::NodesWithCode(const std::vector<NodeInfo*>& nodes,
                                                         Code code) const {
  // upstream NodesForStatusCode, in the order of `nodes` (upstream's order depends on map
  // iteration when the absent status has another code).
  std::vector<const NodeInfo*> result;
  if (map_.empty() && absent_.code() != code) return result;
  for (const NodeInfo* node : nodes) {
    if (Get(node->name()).code() == code) result.push_back(node);
  }
  return result;
}

}  // namespace ksched::framework
