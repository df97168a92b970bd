#include "scheduler/node_tree.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "fmt/core.h"

namespace ksched::scheduler {

namespace {

// The value of the first label present (an empty value counts as present, as Go's map lookup).
std::string_view LabelOrFallback(const api::Labels& labels, std::string_view preferred,
                                 std::string_view fallback) {
  if (std::optional<std::string_view> value = labels.Get(preferred)) return *value;
  return labels.Get(fallback).value_or(std::string_view());
}

}  // namespace

std::string ZoneKey(const api::Node& node) {
  const api::Labels& labels = node.metadata.labels;
  const std::string_view zone =
      LabelOrFallback(labels, kLabelFailureDomainBetaZone, kLabelTopologyZone);
  const std::string_view region =
      LabelOrFallback(labels, kLabelFailureDomainBetaRegion, kLabelTopologyRegion);
  if (region.empty() && zone.empty()) return {};
  // The NUL keeps "a:" + "b" apart from "a" + ":b" (upstream's separator).
  std::string key;
  key.reserve(region.size() + 3 + zone.size());
  key.append(region);
  key.append(":\0:", 3);
  key.append(zone);
  return key;
}

NodeTree::Zone* NodeTree::FindZone(std::string_view key) {
  for (Zone& zone : zones_) {
    if (zone.key == key) return &zone;
  }
  return nullptr;
}

const NodeTree::Zone* NodeTree::FindZone(std::string_view key) const {
  for (const Zone& zone : zones_) {
    if (zone.key == key) return &zone;
  }
  return nullptr;
}

bool NodeTree::AddNode(const api::Node& node) {
  std::string key = ZoneKey(node);
  const std::string& name = node.metadata.name;
  if (Zone* zone = FindZone(key)) {
    if (!zone->members.insert(name).second) return false;
    zone->nodes.push_back(name);
  } else {
    zones_.push_back(Zone{std::move(key), {name}, {name}});
  }
  ++num_nodes_;
  return true;
}

absl::Status NodeTree::RemoveNode(const api::Node& node) {
  const std::string key = ZoneKey(node);
  const std::string& name = node.metadata.name;
  for (auto zone = zones_.begin(); zone != zones_.end(); ++zone) {
    if (zone->key != key) continue;
    if (zone->members.erase(name) == 0) break;
    zone->nodes.erase(std::find(zone->nodes.begin(), zone->nodes.end(), name));
    if (zone->nodes.empty()) zones_.erase(zone);
    --num_nodes_;
    return absl::OkStatus();
  }
  // upstream: `node %q in group %q was not found`, the group printed with Go's %q (NUL as \x00).
  std::string printable_key;
  for (char c : key) {
    if (c == '\0') {
      printable_key += "\\x00";
    } else {
      printable_key += c;
    }
  }
  return absl::NotFoundError(
      fmt::format("node \"{}\" in group \"{}\" was not found", name, printable_key));
}

bool NodeTree::UpdateNode(const api::Node* old_node, const api::Node& new_node) {
  const std::string old_key = old_node == nullptr ? std::string() : ZoneKey(*old_node);
  // A node's name never changes in an update: only a zone change moves it.
  if (old_key == ZoneKey(new_node)) return false;
  if (old_node != nullptr) {
    // Ignore NotFound, as upstream: the old node may never have been added.
    (void)RemoveNode(*old_node);
  }
  AddNode(new_node);
  return true;
}

std::vector<std::string> NodeTree::List() const {
  std::vector<std::string> names;
  names.reserve(num_nodes_);
  for (std::size_t index = 0; names.size() < num_nodes_; ++index) {
    const std::size_t before = names.size();
    for (const Zone& zone : zones_) {
      if (index < zone.nodes.size()) names.push_back(zone.nodes[index]);
    }
    if (names.size() == before) {
      // num_nodes_ is the sum of the zones' sizes by construction; anything else is a bug.
      fmt::print(stderr, "NodeTree: all zones exhausted before reaching {} nodes (got {})\n",
                 num_nodes_, names.size());
      std::abort();
    }
  }
  return names;
}

std::vector<std::string> NodeTree::Zones() const {
  std::vector<std::string> keys;
  keys.reserve(zones_.size());
  for (const Zone& zone : zones_) keys.push_back(zone.key);
  return keys;
}

std::vector<std::string> NodeTree::NodesInZone(std::string_view zone) const {
  const Zone* found = FindZone(zone);
  return found == nullptr ? std::vector<std::string>() : found->nodes;
}

}  // namespace ksched::scheduler
