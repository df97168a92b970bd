// Cache: the scheduler's view of which pods run (or are about to run) on which node, aggregated
// per node into NodeInfos (upstream pkg/scheduler/backend/cache, v1.37).
//
// It is fed by the pod and node informers (assigned pods, nodes) and by the scheduler itself
// (assumed pods), and it fills the scheduling cycle's Snapshot incrementally: UpdateSnapshot copies
// only the NodeInfos whose generation moved since the snapshot was last updated, walking the nodes
// in most-recently-updated order and stopping at the first one the snapshot already has, so its
// cost is O(changed nodes), not O(nodes).
//
// State machine of a pod in the cache (upstream interface.go):
//
//   +-------------------------------------------+  +----+
//   |                            Add            |  |    |
//   |                                           |  |    | Update
//   +      Assume                Add            v  v    |
//  Initial +--------> Assumed +------------+---> Added <--+
//   ^                +   +               |       +
//   |                |   |               |       |
//   |                |   |           Add |       | Remove
//   |                |   |               |       |
//   |                |   |               +       |
//   +----------------+   +-----------> Expired   +----> Deleted
//         Forget             Expire
//
// "Initial", "Expired" and "Deleted" pods do not exist in the cache. Assumed pods never expire (v1.37
// removed the expiry and FinishBinding): an assumed pod stays until the informer's Add confirms it,
// ForgetPod undoes it, or RemoveAssumedPod drops it (deleted while binding), so the Expire edge is
// never taken. Assumptions, as upstream:
//   - no pod is assumed twice;
//   - a pod may be added without going through the scheduler (Add without Assume);
//   - a pod that was not added is neither updated nor removed;
//   - "Expired" and "Deleted" are both end states: events may be lost (relist), so a pod can change
//     state without the cache being told.
//
// Nodes: a pod may arrive before its node; its NodeInfo then exists without a node and is kept out
// of snapshots. A node removed while pods remain keeps a node-less NodeInfo until its last pod goes
// (the pod and node watches are separate streams, so deletions can arrive in either order).
// Images: per image name the cache keeps its size and how many nodes have it; each NodeInfo's
// image_states lists its node's images. A copy (snapshot, GetNodeInfo) gets num_nodes = the number
// of nodes having the image at copy time (upstream ImageStateSummary.Snapshot); as upstream, a
// snapshot copy that is not recopied keeps the count it was copied with.
//
// Errors: an event that does not fit the state machine (assume twice, forget a pod that is not
// assumed, update or remove an unknown pod, an empty UID) is a Status value; the caller logs it.
// A pod updated onto, or removed from, a node other than the one the cache has it on means the
// cache is corrupted: the process exits 1 with the message flushed, as upstream's FlushAndExit.
//
// Ownership: the cache owns its NodeInfos; PodInfos and nodes are immutable and shared.
// Thread-safety: every method may be called from any thread; one mutex (mu_) guards all state.
// UpdateSnapshot runs on the scheduling thread while informer and binding threads call the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "base/mutex.h"
#include "api/node.h"
#include "api/pod.h"
#include "framework/node_info.h"
#include "framework/pod_info.h"
#include "framework/snapshot.h"
#include "scheduler/node_tree.h"

namespace ksched::scheduler {

enum class CacheLogSeverity { kInfo, kError };
// Receives the cache's log lines (klog-style "message key=value ..." text). Called with the cache's
// lock held: it must not call back into the cache.
using CacheLogSink = std::function<void(CacheLogSeverity severity, std::string_view message)>;

class Cache {
 public:
  // Without a sink, lines go to spdlog's default logger (error / info).
  explicit Cache(CacheLogSink log_sink = {});
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Adds the pod, whose spec.nodeName names the chosen node, to that node as assumed. Error when
  // the pod (by UID) is already in the cache or has no node name.
  absl::Status AssumePod(framework::PodInfoPtr pod);
  // Undoes AssumePod (the binding failed). Error when the pod is added (not assumed), or is
  // assumed on another node than pod.spec.nodeName; a pod the cache does not have is no error
  // (v1.37: RemoveAssumedPod may have removed it).
  absl::Status ForgetPod(const api::Pod& pod);
  // An assumed pod was deleted from the cluster while its binding cycle runs (v1.37, k/k #134157):
  // its room is freed at once rather than when the binding fails. Same checks as ForgetPod
  // (upstream differs from ForgetPod only for pod group members, which this scheduler does not
  // have).
  absl::Status RemoveAssumedPod(const api::Pod& pod);
  // The informer saw an assigned pod: confirms an assumed pod (moving it when it landed on another
  // node than assumed) or adds a pod bound by someone else. Error when already added.
  absl::Status AddPod(framework::PodInfoPtr pod);
  // Replaces an added pod's information. Error when the pod is unknown or still assumed.
  absl::Status UpdatePod(framework::PodInfoPtr old_pod, framework::PodInfoPtr new_pod);
  // Subtracts a pod from its node. Error when unknown.
  absl::Status RemovePod(const api::Pod& pod);

  bool IsAssumedPod(const api::Pod& pod) const;
  // The cached PodInfo of the pod with this UID (assumed or added), even when its node is gone.
  std::optional<framework::PodInfoPtr> GetPod(const api::Pod& pod) const;

  // Sets the node's object (a repeated Add, e.g. after a relist, replaces it).
  void AddNode(std::shared_ptr<const api::Node> node);
  // Replaces the node's object. The old state is the cache's own copy (what its node tree and
  // image counts were built from), so `old_node` is not needed: an Update whose Add was missed, or
  // that reaches a node-less NodeInfo, adds the node as upstream's does.
  void UpdateNode(std::shared_ptr<const api::Node> old_node,
                  std::shared_ptr<const api::Node> new_node);
  // Removes the node from the node tree; its NodeInfo stays, without a node, while pods remain.
  void RemoveNode(const api::Node& node);

  // Brings `snapshot` up to date (see the header comment). Rebuilds the node list (node-tree
  // order) only when nodes were added or removed or a zone changed, and the affinity sub-lists
  // only when a node started or stopped having such pods. When the result is inconsistent (the
  // list length differs from the number of nodes), returns Internal after rebuilding the lists,
  // and marks the snapshot for a full recopy on the next call (upstream logs and recovers the same
  // way).
  absl::Status UpdateSnapshot(framework::Snapshot& snapshot);

  // NodeInfos, node-less ones included (upstream NodeCount).
  std::size_t NodeCount() const;
  std::size_t PodCount() const;
  std::size_t AssumedPodCount() const;

  // upstream debugger DumpAll's "Dump of cached NodeInfo" text: per NodeInfo (sorted by name) its
  // name, whether its node is deleted, requested and allocatable resources and its pods; entries
  // separated by a blank line.
  std::string Dump() const;

  // --- Tests and debugging ---------------------------------------------------------------------
  // A copy of a node's NodeInfo, node-less ones included (image num_nodes as of now).
  std::optional<framework::NodeInfo> GetNodeInfo(std::string_view node_name) const;
  // Calls `visit` on every NodeInfo (node-less ones included), most recently updated first,
  // without copying them: for checks over the whole cache after each placement (benchmarks).
  // Called with the lock held: `visit` must not call back into the cache. Image num_nodes are as
  // last copied, not refreshed.
  void ForEachNodeInfo(const std::function<void(const framework::NodeInfo&)>& visit) const;
  // NodeInfo names, most recently updated first (the order UpdateSnapshot walks).
  std::vector<std::string> NodeNamesByRecency() const;
  // Node names in node-tree order (what the snapshot's list follows).
  std::vector<std::string> NodeTreeOrder() const;
  // How many nodes have the image; 0 when none.
  int ImageNumNodes(std::string_view image_name) const;

 private:
  struct NodeEntry {
    std::string name;
    framework::NodeInfo info;
  };
  // Most recently updated first (upstream's doubly linked list headed by headNode).
  using NodeList = std::list<NodeEntry>;

  struct PodState {
    framework::PodInfoPtr pod_info;
    bool assumed = false;
  };

  struct ImageState {
    std::int64_t size_bytes = 0;
    int num_nodes = 0;
  };

  // ForgetPod and RemoveAssumedPod (which take the lock).
  absl::Status RemoveAssumed(const api::Pod& pod);
  // The private helpers below require mu_ held (Log and Corrupted do not).
  NodeList::iterator FindNode(std::string_view name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  NodeList::iterator GetOrCreateNode(const std::string& name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void MoveToHead(NodeList::iterator entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EraseNode(NodeList::iterator entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status AddPodLocked(framework::PodInfoPtr pod, bool assumed) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes the pod as the cache has it (its node, its UID).
  absl::Status RemovePodLocked(const api::Pod& cached_pod) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status UpdatePodLocked(const api::Pod& cached_pod, framework::PodInfoPtr new_pod) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetNodeLocked(NodeList::iterator entry, std::shared_ptr<const api::Node> node) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AddNodeImageStates(const api::Node& node, framework::NodeInfo& info) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveNodeImageStates(framework::NodeInfo& info) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // upstream ImageStateSummary.Snapshot: a copy's num_nodes = how many nodes have the image now.
  void RefreshImageNumNodes(framework::NodeInfo& copy) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void MarkNodeTreeChanged() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveDeletedNodesFromSnapshot(framework::Snapshot& snapshot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Log(CacheLogSeverity severity, std::string_view message) const;
  [[noreturn]] void Corrupted(std::string_view message) const;

  mutable base::Mutex mu_;
  NodeList nodes_by_recency_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, NodeList::iterator> nodes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, PodState> pod_states_ ABSL_GUARDED_BY(mu_);  // by UID
  std::size_t assumed_pods_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, ImageState> image_states_ ABSL_GUARDED_BY(mu_);  // by name
  NodeTree node_tree_ ABSL_GUARDED_BY(mu_);
  // The NodeInfo generation counter's value when the tree's order last changed: a snapshot older
  // than it rebuilds its node list.
  std::int64_t node_tree_generation_ ABSL_GUARDED_BY(mu_) = 0;
  const CacheLogSink log_sink_;
};

}  // namespace ksched::scheduler
