// NodeTree: the names of the cluster's nodes grouped by zone, listed round-robin across zones
// (upstream pkg/scheduler/backend/cache/node_tree.go).
//
// The scheduler walks the snapshot's node list from a rotating start index and stops after
// percentageOfNodesToScore feasible nodes, so the list interleaves the zones: the first node of
// each zone in zone insertion order, then the second of each, and so on. A zone is the key
// ZoneKey() builds from a node's region and zone labels; nodes without them share the zone "".
//
// Ownership: owns the names. Thread-safety: none; the Cache calls it under its own lock.
// Errors: removing a node that is not in the tree is a value (NotFound), as upstream.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "api/node.h"

namespace ksched::scheduler {

// core/v1 well-known topology labels (stable and the deprecated beta ones).
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";
inline constexpr std::string_view kLabelTopologyRegion = "topology.kubernetes.io/region";
inline constexpr std::string_view kLabelFailureDomainBetaZone =
    "failure-domain.beta.kubernetes.io/zone";
inline constexpr std::string_view kLabelFailureDomainBetaRegion =
    "failure-domain.beta.kubernetes.io/region";

// upstream utilnode.GetZoneKey: "" when the node has neither a region nor a zone, else
// region + ":\0:" + zone. The deprecated beta label wins over the stable one when both are set.
std::string ZoneKey(const api::Node& node);

class NodeTree {
 public:
  // Adds the node to its zone (a new zone goes last). Returns false, changing nothing, when the
  // zone already lists a node of that name.
  bool AddNode(const api::Node& node);
  // Removes the node from the zone its labels name; an emptied zone is dropped. NotFound when the
  // zone does not list it.
  absl::Status RemoveNode(const api::Node& node);
  // Moves the node to the zone of `new_node` when the zone key changed. `old_node` may be null
  // (zone ""). Returns whether the tree changed.
  bool UpdateNode(const api::Node* old_node, const api::Node& new_node);

  // All node names, round-robin across zones (upstream nodeTree.list).
  std::vector<std::string> List() const;

  std::size_t num_nodes() const { return num_nodes_; }
  // Zone keys in insertion order.
  std::vector<std::string> Zones() const;
  // The nodes of a zone in insertion order; empty when the zone is unknown.
  std::vector<std::string> NodesInZone(std::string_view zone) const;

 private:
  struct Zone {
    std::string key;
    std::vector<std::string> nodes;
    // The same names, for duplicate checks in O(1): adding thousands of nodes stays linear.
    absl::flat_hash_set<std::string> members;
  };
  Zone* FindZone(std::string_view key);
  const Zone* FindZone(std::string_view key) const;

  // Few zones (tens at most): a vector keeps insertion order and beats a map.
  std::vector<Zone> zones_;
  std::size_t num_nodes_ = 0;
};

}  // namespace ksched::scheduler
