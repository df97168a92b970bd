// Snapshot: the scheduling cycle's frozen view of the cluster (upstream cache.Snapshot): the
// NodeInfos of every node, in the cache's node-tree order (zones interleaved), and the sub-lists of
// nodes that hold pods with (required anti-)affinity.
//
// The scheduler's cache fills a Snapshot incrementally (UpdateSnapshot copies only NodeInfos whose
// generation moved) between cycles; during a cycle the Snapshot is read-only and plugins read it
// through the Handle from any worker thread.
//
// Ownership: the Snapshot owns its NodeInfo copies; the pointers in the lists point into it and
// stay valid until the next update. Thread-safety: concurrent reads are safe; updates need
// exclusive access (the scheduling thread, between cycles).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "framework/node_info.h"

namespace ksched::framework {

class Snapshot {
 public:
  Snapshot() = default;
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  // Test and tool support: a snapshot of these nodes with these pods (assigned by spec.nodeName).
  static std::unique_ptr<Snapshot> FromObjects(const std::vector<std::shared_ptr<const api::Node>>& nodes,
                                               const std::vector<PodInfoPtr>& pods);

  // All nodes in node-tree order.
  const std::vector<NodeInfo*>& nodes() const { return list_; }
  const std::vector<NodeInfo*>& have_pods_with_affinity() const { return with_affinity_; }
  const std::vector<NodeInfo*>& have_pods_with_required_anti_affinity() const {
    return with_required_anti_affinity_;
  }
  // The NodeInfo of a node, nullptr when unknown.
  const NodeInfo* Get(std::string_view node_name) const;
  // Whether a pod on any node (assumed pods included) uses the claim "namespace/name" (upstream
  // StorageInfos().IsPVCUsedByPods). Linear in the nodes: VolumeRestrictions asks only for the
  // ReadWriteOncePod claims of the pod it schedules.
  bool IsPVCUsedByPods(std::string_view claim_key) const;
  std::size_t size() const { return list_.size(); }
  // The cache generation this snapshot reflects (0 = never updated).
  std::int64_t generation() const { return generation_; }
  // Grows whenever nodes() may have changed (nodes added, removed or reordered); equal versions of
  // one Snapshot mean the same NodeInfo objects in the same order. NodeInfos are updated in place
  // (their generation moves) without changing it.
  std::uint64_t list_version() const { return list_version_; }
  // What the last update changed in place: every NodeInfo it assigned, and the generation the
  // snapshot had before it. A reader that last saw generation updated_from() (and the same
  // list_version()) finds every NodeInfo changed since among updated_nodes(); a reader that saw
  // an older generation must compare all of them.
  std::int64_t updated_from() const { return updated_from_; }
  const std::vector<const NodeInfo*>& updated_nodes() const { return updated_nodes_; }

  // --- For the cache (scheduler layer) only ---------------------------------------------------
  // The stored NodeInfo of a node, created empty when absent.
  NodeInfo* GetOrCreate(const std::string& node_name);
  // Forgets a node.
  void Erase(std::string_view node_name);
  NodeInfo* GetMutable(std::string_view node_name);
  std::size_t stored() const { return map_.size(); }
  // Rebuilds the ordered lists from `order` (node names in node-tree order; unknown names skipped).
  void RebuildLists(const std::vector<std::string>& order);
  // Rebuilds only the affinity sub-lists (after pods changed but no node was added or removed).
  void RebuildAffinityLists();
  void set_generation(std::int64_t generation) { generation_ = generation; }
  // Starts an update's record of changed NodeInfos (updated_from() = the current generation).
  void BeginUpdate() {
    updated_from_ = generation_;
    updated_nodes_.clear();
  }
  // Records a NodeInfo the current update assigned.
  void NoteUpdated(const NodeInfo* node) { updated_nodes_.push_back(node); }
  // Names of all stored nodes (any order).
  std::vector<std::string> StoredNames() const;

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<NodeInfo>> map_;
  std::vector<NodeInfo*> list_;
  std::vector<NodeInfo*> with_affinity_;
  std::vector<NodeInfo*> with_required_anti_affinity_;
  std::int64_t generation_ = 0;
  std::uint64_t list_version_ = 0;
  std::int64_t updated_from_ = -1;  // -1: no update recorded
  std::vector<const NodeInfo*> updated_nodes_;
};

}  // namespace ksched::framework
