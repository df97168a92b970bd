// NodeInfo: a node with the pods on it and the totals the plugins read (upstream
// framework.NodeInfo): requested and non-zero requested resources, allocatable, used host ports,
// image states, PVC reference counts, the pods with (anti-)affinity, and a generation that grows
// on every change (the snapshot copies only NodeInfos whose generation moved).
//
// The cache owns the authoritative NodeInfos and mutates them under its lock; the scheduling cycle
// reads copies held by a Snapshot, so plugins never see a NodeInfo change while they run.
// A NodeInfo may exist without a node (pods seen before their node); such NodeInfos are left out of
// snapshots.
//
// Thread-safety: a value type; not synchronized.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/btree_map.h"
#include "api/compact_vector.h"
#include "api/node.h"
#include "framework/pod_info.h"
#include "framework/resource.h"

namespace ksched::framework {

// Host ports in use on a node: (ip, protocol, port) triples (upstream HostPortInfo). The IP
// "0.0.0.0" (or empty, which means it) conflicts with every IP for the same protocol and port.
class HostPortInfo {
 public:
  void Add(std::string_view ip, std::string_view protocol, std::int32_t port);
  void Remove(std::string_view ip, std::string_view protocol, std::int32_t port);
  // Whether (ip, protocol, port) conflicts with a port in use.
  bool CheckConflict(std::string_view ip, std::string_view protocol, std::int32_t port) const;
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  friend bool operator==(const HostPortInfo&, const HostPortInfo&) = default;

 private:
  struct Entry {
    std::string ip;  // normalized: "" -> "0.0.0.0"
    std::string protocol;  // normalized: "" -> "TCP"
    std::int32_t port = 0;
    int count = 0;  // the same triple may be used by several containers
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  api::CompactVector<Entry> entries_;  // one pointer: most nodes have no host ports in use
};

// An image present on a node, with how many nodes of the cluster have it (upstream
// ImageStateSummary; num_nodes is filled by the cache across all nodes).
struct ImageStateSummary {
  std::int64_t size_bytes = 0;
  int num_nodes = 0;
  friend bool operator==(const ImageStateSummary&, const ImageStateSummary&) = default;
};

// A NodeInfo's pod lists: one pointer each (most nodes' affinity lists are empty, and every node
// has two NodeInfos, the cache's and the snapshot's).
using PodInfoList = api::CompactVector<PodInfoPtr>;
// B-trees: 24 bytes when empty (a std::map is 48), and denser per entry for nodes that report
// dozens of images.
using ImageStateMap = absl::btree_map<std::string, ImageStateSummary, std::less<>>;
// "namespace/claimName" -> number of the node's pods using it.
using PvcRefCounts = absl::btree_map<std::string, int, std::less<>>;

class NodeInfo {
 public:
  NodeInfo() = default;

  // The node, or nullptr while only pods are known.
  const api::Node* node() const { return node_.get(); }
  const std::shared_ptr<const api::Node>& node_ptr() const { return node_; }
  // "" when there is no node.
  const std::string& name() const;
  // Sets the node: allocatable is recomputed; generation bumped.
  void SetNode(std::shared_ptr<const api::Node> node);
  void RemoveNode();

  const PodInfoList& pods() const { return pods_; }
  const PodInfoList& pods_with_affinity() const { return pods_with_affinity_; }
  const PodInfoList& pods_with_required_anti_affinity() const {
    return pods_with_required_anti_affinity_;
  }
  const Resource& requested() const { return requested_; }
  const Resource& non_zero_requested() const { return non_zero_requested_; }
  const Resource& allocatable() const { return allocatable_; }
  const HostPortInfo& used_ports() const { return used_ports_; }
  // By image name (every name of every image on the node).
  const ImageStateMap& image_states() const { return image_states_; }
  ImageStateMap& mutable_image_states() { return image_states_; }
  // "namespace/claimName" -> number of pods on the node using it.
  const PvcRefCounts& pvc_ref_counts() const { return pvc_ref_counts_; }

  std::int64_t generation() const { return generation_; }

  // Adds a pod: requests, ports, PVC counts and affinity lists are updated; generation bumped.
  void AddPod(PodInfoPtr pod);
  // Removes the pod with this UID; returns false (and changes nothing) when it is not here.
  bool RemovePod(std::string_view uid);

  // A snapshot copy (shares the immutable PodInfos and node).
  NodeInfo Clone() const { return *this; }

  // The generation counter is process-wide (as upstream's nextGeneration), so that a NodeInfo
  // removed and recreated never reuses a generation a snapshot has seen.
  static std::int64_t NextGeneration();

 private:
  void Update(const PodInfo& pod, int sign);

  std::shared_ptr<const api::Node> node_;
  PodInfoList pods_;
  PodInfoList pods_with_affinity_;
  PodInfoList pods_with_required_anti_affinity_;
  Resource requested_;
  Resource non_zero_requested_;
  Resource allocatable_;
  HostPortInfo used_ports_;
  ImageStateMap image_states_;
  PvcRefCounts pvc_ref_counts_;
  std::int64_t generation_ = NextGeneration();
};

// Adds to `ports` the host ports the pod asks for (containers, init containers): the
// (hostIP, protocol, hostPort) of every port with hostPort != 0 (upstream HostPortInfo from
// GetContainerPorts). Shared by NodeInfo and the NodePorts plugin.
void ForEachHostPort(const api::Pod& pod,
                     const std::function<void(std::string_view ip, std::string_view protocol,
                                              std::int32_t port)>& fn);

}  // namespace ksched::framework
