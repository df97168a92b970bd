#include "scheduler/cache.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include <spdlog/spdlog.h>

#include "fmt/core.h"
#include "fmt/format.h"

namespace ksched::scheduler {

namespace {

// Debian's abseil has its own string_view: heterogeneous lookups in the flat_hash_maps need it.
absl::string_view Key(std::string_view name) { return absl::string_view(name.data(), name.size()); }

// klog.KObj: "namespace/name", or "name" without a namespace.
std::string PodRef(const api::Pod& pod) {
  if (pod.metadata.namespace_.empty()) return pod.metadata.name;
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

// upstream framework.GetPodKey: the UID; an empty UID is an error.
absl::Status CheckPodKey(const api::Pod& pod) {
  if (pod.metadata.uid.empty()) {
    return absl::InvalidArgumentError("cannot get cache key for pod with empty UID");
  }
  return absl::OkStatus();
}

absl::Status CheckPodInfo(const framework::PodInfoPtr& pod) {
  if (pod == nullptr) return absl::InvalidArgumentError("nil pod");
  return CheckPodKey(pod->pod());
}

// Go's %+v of *framework.Resource, as the upstream dumper prints it.
std::string FormatResource(const framework::Resource& r) {
  std::string scalars;
  for (const auto& [name, value] : r.scalars) {
    if (!scalars.empty()) scalars += ' ';
    scalars += fmt::format("{}:{}", name, value);
  }
  return fmt::format(
      "&{{MilliCPU:{} Memory:{} EphemeralStorage:{} AllowedPodNumber:{} ScalarResources:map[{}]}}",
      r.milli_cpu, r.memory, r.ephemeral_storage, r.allowed_pod_number, scalars);
}

}  // namespace

Cache::Cache(CacheLogSink log_sink) : log_sink_(std::move(log_sink)) {}

void Cache::Log(CacheLogSeverity severity, std::string_view message) const {
  if (log_sink_) {
    log_sink_(severity, message);
  } else if (severity == CacheLogSeverity::kError) {
    SPDLOG_ERROR("{}", message);
  } else {
    SPDLOG_INFO("{}", message);
  }
}

void Cache::Corrupted(std::string_view message) const {
  Log(CacheLogSeverity::kError, message);
  constexpr std::string_view kCorrupted =
      "Scheduler cache is corrupted and can badly affect scheduling decisions";
  Log(CacheLogSeverity::kError, kCorrupted);
  // Always on stderr too: the process is about to die and the log may be buffered.
  spdlog::default_logger_raw()->flush();
  fmt::print(stderr, "scheduler cache: {}\nscheduler cache: {}\n", message, kCorrupted);
  std::fflush(stderr);
  // Upstream's klog.FlushAndExit(..., 1): what the API server showed is at odds with what the
  // cache holds; exit 1 for the kubelet (or supervisor) to restart the scheduler with a fresh
  // list, not a core dump. _Exit: the other threads still run, no static destructor may race them.
  std::_Exit(1);
}

// --- The NodeInfo list ---------------------------------------------------------------------------

Cache::NodeList::iterator Cache::FindNode(std::string_view name) {
  auto it = nodes_.find(Key(name));
  return it == nodes_.end() ? nodes_by_recency_.end() : it->second;
}

Cache::NodeList::iterator Cache::GetOrCreateNode(const std::string& name) {
  NodeList::iterator entry = FindNode(name);
  if (entry != nodes_by_recency_.end()) return entry;
  nodes_by_recency_.push_front(NodeEntry{name, framework::NodeInfo()});
  nodes_.emplace(name, nodes_by_recency_.begin());
  return nodes_by_recency_.begin();
}

void Cache::MoveToHead(NodeList::iterator entry) {
  // splice keeps every iterator valid, so nodes_ needs no update.
  nodes_by_recency_.splice(nodes_by_recency_.begin(), nodes_by_recency_, entry);
}

void Cache::EraseNode(NodeList::iterator entry) {
  nodes_.erase(entry->name);
  nodes_by_recency_.erase(entry);
}

void Cache::MarkNodeTreeChanged() {
  // Taken from the NodeInfo generation counter so that it orders with NodeInfo generations and
  // with the generation a snapshot records.
  node_tree_generation_ = framework::NodeInfo::NextGeneration();
}

// --- Pods ----------------------------------------------------------------------------------------

absl::Status Cache::AddPodLocked(framework::PodInfoPtr pod, bool assumed) {
  const api::Pod& p = pod->pod();
  NodeList::iterator entry = GetOrCreateNode(p.spec.node_name);
  entry->info.AddPod(pod);
  MoveToHead(entry);
  pod_states_.insert_or_assign(p.metadata.uid, PodState{std::move(pod), assumed});
  if (assumed) ++assumed_pods_;
  return absl::OkStatus();
}

absl::Status Cache::RemovePodLocked(const api::Pod& cached_pod) {
  const std::string& uid = cached_pod.metadata.uid;
  NodeList::iterator entry = FindNode(cached_pod.spec.node_name);
  if (entry == nodes_by_recency_.end()) {
    Log(CacheLogSeverity::kError,
        fmt::format("Node not found when trying to remove pod node=\"{}\" podKey=\"{}\" pod=\"{}\"",
                    cached_pod.spec.node_name, uid, PodRef(cached_pod)));
  } else {
    if (!entry->info.RemovePod(uid)) {
      return absl::NotFoundError(fmt::format("no corresponding pod {} in pods of node {}",
                                             PodRef(cached_pod), entry->name));
    }
    if (entry->info.pods().empty() && entry->info.node() == nullptr) {
      EraseNode(entry);
    } else {
      MoveToHead(entry);
    }
  }
  auto state = pod_states_.find(uid);
  if (state != pod_states_.end()) {
    if (state->second.assumed) --assumed_pods_;
    pod_states_.erase(state);
  }
  return absl::OkStatus();
}

absl::Status Cache::UpdatePodLocked(const api::Pod& cached_pod, framework::PodInfoPtr new_pod) {
  if (absl::Status removed = RemovePodLocked(cached_pod); !removed.ok()) return removed;
  return AddPodLocked(std::move(new_pod), /*assumed=*/false);
}

absl::Status Cache::AssumePod(framework::PodInfoPtr pod) {
  if (absl::Status valid = CheckPodInfo(pod); !valid.ok()) return valid;
  const api::Pod& p = pod->pod();
  if (p.spec.node_name.empty()) {
    return absl::InvalidArgumentError(fmt::format(
        "pod {}({}) has no spec.nodeName, so can't be assumed", p.metadata.uid, PodRef(p)));
  }
  base::MutexLock lock(&mu_);
  if (pod_states_.contains(p.metadata.uid)) {
    return absl::AlreadyExistsError(fmt::format("pod {}({}) is in the cache, so can't be assumed",
                                                p.metadata.uid, PodRef(p)));
  }
  return AddPodLocked(std::move(pod), /*assumed=*/true);
}

absl::Status Cache::ForgetPod(const api::Pod& pod) { return RemoveAssumed(pod); }

absl::Status Cache::RemoveAssumedPod(const api::Pod& pod) { return RemoveAssumed(pod); }

absl::Status Cache::RemoveAssumed(const api::Pod& pod) {
  if (absl::Status valid = CheckPodKey(pod); !valid.ok()) return valid;
  const std::string& uid = pod.metadata.uid;
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(uid);
  // v1.37: a pod the cache no longer has (an assumed pod removed on its deletion) is no error.
  if (state == pod_states_.end()) return absl::OkStatus();
  const api::Pod& cached = state->second.pod_info->pod();
  if (cached.spec.node_name != pod.spec.node_name) {
    return absl::FailedPreconditionError(
        fmt::format("pod {}({}) was assumed on {} but assigned to {}", uid, PodRef(pod),
                    pod.spec.node_name, cached.spec.node_name));
  }
  if (!state->second.assumed) {
    return absl::FailedPreconditionError(
        fmt::format("pod {}({}) is not assumed, so it cannot be removed or forgotten", uid, PodRef(pod)));
  }
  // Keep the PodInfo alive: RemovePodLocked erases the state that owns it.
  const framework::PodInfoPtr cached_info = state->second.pod_info;
  return RemovePodLocked(cached_info->pod());
}

absl::Status Cache::AddPod(framework::PodInfoPtr pod) {
  if (absl::Status valid = CheckPodInfo(pod); !valid.ok()) return valid;
  const api::Pod& p = pod->pod();
  if (p.spec.node_name.empty()) {
    return absl::InvalidArgumentError(fmt::format(
        "pod {}({}) has no spec.nodeName, so can't be added", p.metadata.uid, PodRef(p)));
  }
  const std::string uid = p.metadata.uid;
  const std::string ref = PodRef(p);
  const std::string new_node = p.spec.node_name;
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(uid);
  if (state == pod_states_.end()) {
    // Bound by someone else (or, upstream, an assumed pod that expired): add it.
    if (absl::Status added = AddPodLocked(std::move(pod), false); !added.ok()) {
      Log(CacheLogSeverity::kError,
          fmt::format("Error occurred while adding pod err=\"{}\"", std::string(added.message())));
    }
    return absl::OkStatus();
  }
  if (!state->second.assumed) {
    return absl::AlreadyExistsError(
        fmt::format("pod {}({}) was already in added state", uid, ref));
  }
  // Confirm the assumed pod: replace it with the informer's version, which may carry a newer
  // status and, if someone else bound it, another node.
  const framework::PodInfoPtr assumed = state->second.pod_info;
  if (absl::Status updated = UpdatePodLocked(assumed->pod(), std::move(pod)); !updated.ok()) {
    Log(CacheLogSeverity::kError, fmt::format("Error occurred while updating pod err=\"{}\"",
                                              std::string(updated.message())));
  }
  if (assumed->pod().spec.node_name != new_node) {
    Log(CacheLogSeverity::kInfo,
        fmt::format("Pod was added to a different node than it was assumed podKey=\"{}\" "
                    "pod=\"{}\" assumedNode=\"{}\" currentNode=\"{}\"",
                    uid, ref, assumed->pod().spec.node_name, new_node));
  }
  return absl::OkStatus();
}

absl::Status Cache::UpdatePod(framework::PodInfoPtr old_pod, framework::PodInfoPtr new_pod) {
  if (absl::Status valid = CheckPodInfo(old_pod); !valid.ok()) return valid;
  if (absl::Status valid = CheckPodInfo(new_pod); !valid.ok()) return valid;
  const api::Pod& old_p = old_pod->pod();
  const std::string& uid = old_p.metadata.uid;
  if (new_pod->pod().metadata.uid != uid) {
    return absl::InvalidArgumentError(fmt::format(
        "pod {}({}) cannot be updated to a pod with UID {}", uid, PodRef(old_p),
        new_pod->pod().metadata.uid));
  }
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(uid);
  if (state == pod_states_.end()) {
    return absl::NotFoundError(fmt::format(
        "pod {}({}) is not added to scheduler cache, so cannot be updated", uid, PodRef(old_p)));
  }
  // An assumed pod gets no Update before its Add, which turns it into an added pod.
  if (state->second.assumed) {
    return absl::FailedPreconditionError(
        fmt::format("assumed pod {}({}) should not be updated", uid, PodRef(old_p)));
  }
  const framework::PodInfoPtr cached = state->second.pod_info;
  if (cached->pod().spec.node_name != new_pod->pod().spec.node_name) {
    Corrupted(fmt::format(
        "Pod updated on a different node than previously added to podKey=\"{}\" pod=\"{}\" "
        "cachedNode=\"{}\" newNode=\"{}\"",
        uid, PodRef(old_p), cached->pod().spec.node_name, new_pod->pod().spec.node_name));
  }
  // Remove what the cache holds (not the informer's old object): the two agree unless events
  // were lost, and the cached one is what was added to the NodeInfo.
  return UpdatePodLocked(cached->pod(), std::move(new_pod));
}

absl::Status Cache::RemovePod(const api::Pod& pod) {
  if (absl::Status valid = CheckPodKey(pod); !valid.ok()) return valid;
  const std::string& uid = pod.metadata.uid;
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(uid);
  if (state == pod_states_.end()) {
    return absl::NotFoundError(
        fmt::format("pod {}({}) is not found in scheduler cache, so cannot be removed from it", uid,
                    PodRef(pod)));
  }
  const framework::PodInfoPtr cached = state->second.pod_info;
  if (cached->pod().spec.node_name != pod.spec.node_name) {
    const std::string message = fmt::format(
        "Pod was added to a different node than it was assumed podKey=\"{}\" pod=\"{}\" "
        "assumedNode=\"{}\" currentNode=\"{}\"",
        uid, PodRef(pod), cached->pod().spec.node_name, pod.spec.node_name);
    // An empty node name is possible when the Delete event was missed and the informer hands
    // over the last state it knew (a tombstone): remove the cached pod then.
    if (!pod.spec.node_name.empty()) Corrupted(message);
    Log(CacheLogSeverity::kError, message);
  }
  return RemovePodLocked(cached->pod());
}

bool Cache::IsAssumedPod(const api::Pod& pod) const {
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(pod.metadata.uid);
  return state != pod_states_.end() && state->second.assumed;
}

std::optional<framework::PodInfoPtr> Cache::GetPod(const api::Pod& pod) const {
  base::MutexLock lock(&mu_);
  auto state = pod_states_.find(pod.metadata.uid);
  if (state == pod_states_.end()) return std::nullopt;
  return state->second.pod_info;
}

// --- Nodes ---------------------------------------------------------------------------------------

void Cache::AddNodeImageStates(const api::Node& node, framework::NodeInfo& info) {
  auto& summaries = info.mutable_image_states();
  summaries.clear();
  for (const api::ContainerImage& image : node.status.images) {
    for (const std::string& name : image.names) {
      // A name listed twice on one node counts once; the first size wins, as upstream.
      if (summaries.contains(name)) continue;
      auto [state, inserted] = image_states_.try_emplace(name, ImageState{image.size_bytes, 0});
      ++state->second.num_nodes;
      summaries.emplace(name, framework::ImageStateSummary{state->second.size_bytes,
                                                           state->second.num_nodes});
    }
  }
}

void Cache::RemoveNodeImageStates(framework::NodeInfo& info) {
  // The NodeInfo's image names are exactly the ones AddNodeImageStates counted for it.
  for (const auto& [name, summary] : info.image_states()) {
    auto state = image_states_.find(name);
    if (state == image_states_.end()) continue;
    // Drop unused images so that image_states_ holds only images some node has.
    if (--state->second.num_nodes <= 0) image_states_.erase(state);
  }
  info.mutable_image_states().clear();
}

void Cache::RefreshImageNumNodes(framework::NodeInfo& copy) const {
  for (auto& [name, summary] : copy.mutable_image_states()) {
    auto state = image_states_.find(name);
    summary.num_nodes = state == image_states_.end() ? 0 : state->second.num_nodes;
  }
}

void Cache::SetNodeLocked(NodeList::iterator entry, std::shared_ptr<const api::Node> node) {
  const api::Node& n = *node;
  entry->info.SetNode(std::move(node));
  AddNodeImageStates(n, entry->info);
}

void Cache::AddNode(std::shared_ptr<const api::Node> node) {
  if (node == nullptr) return;
  base::MutexLock lock(&mu_);
  NodeList::iterator entry = GetOrCreateNode(node->metadata.name);
  // The tree holds the node as the cache last saw it: move it from there (a repeated Add after
  // a relist may carry another zone).
  const std::shared_ptr<const api::Node> previous = entry->info.node_ptr();
  const bool tree_changed = previous == nullptr ? node_tree_.AddNode(*node)
                                                : node_tree_.UpdateNode(previous.get(), *node);
  if (tree_changed) MarkNodeTreeChanged();
  RemoveNodeImageStates(entry->info);
  MoveToHead(entry);
  SetNodeLocked(entry, std::move(node));
}

void Cache::UpdateNode(std::shared_ptr<const api::Node> /*old_node*/,
                       std::shared_ptr<const api::Node> new_node) {
  // The cache's own copy of the node is the old state the tree and the image counts were built
  // from, so an Update is an Add that replaces it; the informer's old object is not needed (and
  // would mislead when an event was lost).
  AddNode(std::move(new_node));
}

void Cache::RemoveNode(const api::Node& node) {
  const std::string& name = node.metadata.name;
  base::MutexLock lock(&mu_);
  NodeList::iterator entry = FindNode(name);
  if (entry == nodes_by_recency_.end() || entry->info.node() == nullptr) {
    Log(CacheLogSeverity::kError, fmt::format("node {} is not found", name));
    return;
  }
  const std::shared_ptr<const api::Node> cached = entry->info.node_ptr();
  RemoveNodeImageStates(entry->info);
  entry->info.RemoveNode();
  // Pods on the node may still be reported deleted later (another watch): keep a node-less
  // NodeInfo holding them until then; snapshots skip it.
  if (entry->info.pods().empty()) {
    EraseNode(entry);
  } else {
    MoveToHead(entry);
  }
  if (absl::Status removed = node_tree_.RemoveNode(*cached); removed.ok()) {
    MarkNodeTreeChanged();
  } else {
    Log(CacheLogSeverity::kError,
        fmt::format(
            "Did not remove Node in NodeTree because it was not found node=\"{}\" err=\"{}\"",
            name, std::string(removed.message())));
  }
}

// --- Snapshot ------------------------------------------------------------------------------------

void Cache::RemoveDeletedNodesFromSnapshot(framework::Snapshot& snapshot) {
  std::size_t to_delete = snapshot.stored() - node_tree_.num_nodes();
  for (const std::string& name : snapshot.StoredNames()) {
    if (to_delete == 0) break;
    NodeList::iterator entry = FindNode(name);
    if (entry == nodes_by_recency_.end() || entry->info.node() == nullptr) {
      snapshot.Erase(name);
      --to_delete;
    }
  }
}

absl::Status Cache::UpdateSnapshot(framework::Snapshot& snapshot) {
  base::MutexLock lock(&mu_);
  const std::int64_t snapshot_generation = snapshot.generation();
  snapshot.BeginUpdate();

  // The node list follows the tree's order: rebuild it when the tree changed since the snapshot
  // (nodes added, removed, or moved to another zone) or when the snapshot was never filled.
  bool update_all_lists =
      snapshot_generation == 0 || node_tree_generation_ > snapshot_generation;
  // The affinity sub-lists change only when a node starts or stops having such pods.
  bool update_affinity_lists = false;

  // Most recently updated first: stop at the first NodeInfo the snapshot already has.
  for (NodeEntry& entry : nodes_by_recency_) {
    if (entry.info.generation() <= snapshot_generation) break;
    if (entry.info.node() == nullptr) continue;  // pods without (or after) their node
    framework::NodeInfo* copy = snapshot.GetMutable(entry.name);
    if (copy == nullptr) {
      update_all_lists = true;
      copy = snapshot.GetOrCreate(entry.name);
    }
    const bool had_affinity = !copy->pods_with_affinity().empty();
    const bool had_required_anti_affinity = !copy->pods_with_required_anti_affinity().empty();
    // Assign in place: the snapshot's lists point at this NodeInfo and may not be rebuilt.
    *copy = entry.info;
    RefreshImageNumNodes(*copy);
    snapshot.NoteUpdated(copy);
    if (had_affinity != !copy->pods_with_affinity().empty() ||
        had_required_anti_affinity != !copy->pods_with_required_anti_affinity().empty()) {
      update_affinity_lists = true;
    }
  }

  std::int64_t generation = std::max(snapshot_generation, node_tree_generation_);
  if (!nodes_by_recency_.empty()) {
    generation = std::max(generation, nodes_by_recency_.front().info.generation());
  }
  snapshot.set_generation(generation);

  // Nodes removed from the tree may still be in the snapshot (their NodeInfo gone, or left
  // without a node while pods remain).
  if (snapshot.stored() > node_tree_.num_nodes()) {
    RemoveDeletedNodesFromSnapshot(snapshot);
    update_all_lists = true;
  }

  if (update_all_lists) {
    snapshot.RebuildLists(node_tree_.List());
  } else if (update_affinity_lists) {
    snapshot.RebuildAffinityLists();
  }

  if (snapshot.size() != node_tree_.num_nodes()) {
    const std::string message = fmt::format(
        "snapshot state is not consistent, length of NodeInfoList={} not equal to length of nodes "
        "in tree={} , length of NodeInfoMap={}, length of nodes in cache={}, trying to recover",
        snapshot.size(), node_tree_.num_nodes(), snapshot.stored(), nodes_.size());
    Log(CacheLogSeverity::kError, message);
    // Recover: rebuild the lists now, and have the next update recopy every NodeInfo.
    snapshot.RebuildLists(node_tree_.List());
    snapshot.set_generation(0);
    return absl::InternalError(message);
  }
  return absl::OkStatus();
}

// --- Introspection -------------------------------------------------------------------------------

std::size_t Cache::NodeCount() const {
  base::MutexLock lock(&mu_);
  return nodes_.size();
}

std::size_t Cache::PodCount() const {
  base::MutexLock lock(&mu_);
  return pod_states_.size();
}

std::size_t Cache::AssumedPodCount() const {
  base::MutexLock lock(&mu_);
  return assumed_pods_;
}

std::string Cache::Dump() const {
  base::MutexLock lock(&mu_);
  std::vector<const NodeEntry*> entries;
  entries.reserve(nodes_by_recency_.size());
  for (const NodeEntry& entry : nodes_by_recency_) entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(),
            [](const NodeEntry* a, const NodeEntry* b) { return a->name < b->name; });
  std::string out;
  for (const NodeEntry* entry : entries) {
    const framework::NodeInfo& info = entry->info;
    if (!out.empty()) out += "\n\n";
    out += fmt::format(
        "Node name: {}\nDeleted: {}\nRequested Resources: {}\nAllocatable Resources:{}\n"
        "Scheduled Pods(number: {}):\n",
        entry->name, info.node() == nullptr, FormatResource(info.requested()),
        FormatResource(info.allocatable()), info.pods().size());
    for (const framework::PodInfoPtr& pod_info : info.pods()) {
      const api::Pod& pod = pod_info->pod();
      out += fmt::format("name: {}, namespace: {}, uid: {}, phase: {}, nominated node: {}\n",
                         pod.metadata.name, pod.metadata.namespace_, pod.metadata.uid,
                         pod.status.phase, pod.status.nominated_node_name);
    }
  }
  return out;
}

std::optional<framework::NodeInfo> Cache::GetNodeInfo(std::string_view node_name) const {
  base::MutexLock lock(&mu_);
  auto it = nodes_.find(Key(node_name));
  if (it == nodes_.end()) return std::nullopt;
  framework::NodeInfo copy = it->second->info.Clone();
  RefreshImageNumNodes(copy);
  return copy;
}

void Cache::ForEachNodeInfo(const std::function<void(const framework::NodeInfo&)>& visit) const {
  base::MutexLock lock(&mu_);
  for (const NodeEntry& entry : nodes_by_recency_) visit(entry.info);
}

std::vector<std::string> Cache::NodeNamesByRecency() const {
  base::MutexLock lock(&mu_);
  std::vector<std::string> names;
  names.reserve(nodes_by_recency_.size());
  for (const NodeEntry& entry : nodes_by_recency_) names.push_back(entry.name);
  return names;
}

std::vector<std::string> Cache::NodeTreeOrder() const {
  base::MutexLock lock(&mu_);
  return node_tree_.List();
}

int Cache::ImageNumNodes(std::string_view image_name) const {
  base::MutexLock lock(&mu_);
  auto it = image_states_.find(Key(image_name));
  return it == image_states_.end() ? 0 : it->second.num_nodes;
}

}  // namespace ksched::scheduler
