// The plugin API: one interface per extension point (upstream
// k8s.io/kube-scheduler/framework/interface.go, v1.34), with the same call order and meaning:
//
//   PreEnqueue -> (queue, ordered by QueueSort) -> PreFilter -> Filter (parallel over nodes)
//   -> PostFilter (only when no node fits) -> PreScore -> Score (parallel) -> NormalizeScore
//   -> Reserve -> Permit  ... binding cycle: WaitOnPermit -> PreBind -> Bind -> PostBind
//   (Unreserve in reverse order on any failure after Reserve).
//
// A plugin is one object implementing any subset of these interfaces; the runtime discovers which
// with dynamic_cast once, at profile construction. Plugins are created per profile by their
// factory (framework/registry.h), receive the profile's Handle, and live as long as the profile.
//
// Thread-safety: Filter, Score and the PreFilter extensions (AddPod/RemovePod on cloned states) are
// called concurrently from the parallelizer's workers for different nodes and must be safe for
// that; every other method is called from one thread at a time (scheduling thread, or the pod's
// binding thread for PreBind/Bind/PostBind and Unreserve). Plugins must not allocate per node in
// Filter/Score when they can avoid it; precompute in PreFilter/PreScore.
//
// Errors: methods return Status (framework/status.h). Rejections use Unschedulable or
// UnschedulableAndUnresolvable with user-facing reasons (they end up in the FitError message
// verbatim); internal failures use Error; Skip from PreFilter/PreScore skips the plugin's Filter /
// Score for this pod.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/cluster_event.h"
#include "framework/cycle_state.h"
#include "framework/node_info.h"
#include "framework/pod_info.h"
#include "framework/status.h"

namespace ksched::framework {

// Score bounds (upstream MaxNodeScore/MinNodeScore): NormalizeScore must leave scores in range.
inline constexpr std::int64_t kMaxNodeScore = 100;
inline constexpr std::int64_t kMinNodeScore = 0;
// Upper bound of the total weighted score (upstream MaxTotalScore = math.MaxInt64).
inline constexpr std::int64_t kMaxTotalScore = INT64_MAX;

class Plugin {
 public:
  virtual ~Plugin() = default;
  // The name under which the plugin is registered and configured.
  virtual std::string_view Name() const = 0;
  // Whether the plugin's Filter and Score results for a node depend only on that NodeInfo's
  // content, the pod, and what the plugin's own PreFilter/PreScore wrote for the pod: not on other
  // nodes, the time, or data from outside the snapshot. The scheduler then reuses them for a
  // following pod that is identical for scheduling, on nodes whose NodeInfo has not changed
  // (scheduler/node_result_cache.h); NormalizeScore always runs. Default false: the plugin's Filter
  // and Score run in every cycle (beside the reused results of the node-local plugins).
  virtual bool NodeLocalResults() const { return false; }
  // Whether the plugin's Score results are node-local, as above, for this pod (and so for every pod
  // identical to it for scheduling). NodeLocalResults() unless a plugin knows better for some pods:
  // DynamicResources scores a pod without claims 0 on every node.
  virtual bool ScoreIsNodeLocalFor(const api::Pod& /*pod*/) const { return NodeLocalResults(); }
};

// Lets a plugin declare the cluster events that may make a pod it rejected schedulable. A plugin
// that rejects pods but does not implement this is treated as interested in every event.
class EnqueueExtensions {
 public:
  virtual ~EnqueueExtensions() = default;
  virtual std::vector<ClusterEventWithHint> EventsToRegister() const = 0;
};

class PreEnqueuePlugin : public virtual Plugin {
 public:
  // Success lets the pod into activeQ; anything else keeps it gated (no attempt, no event).
  virtual Status PreEnqueue(const api::Pod& pod) = 0;
};

class QueueSortPlugin : public virtual Plugin {
 public:
  // Strict weak order: whether `a` should be popped before `b`.
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
};

// PreFilter's optional narrowing of the candidate nodes (upstream PreFilterResult).
struct PreFilterResult {
  // nullopt: all nodes; otherwise only these nodes are considered.
  std::optional<std::set<std::string, std::less<>>> node_names;

  bool AllNodes() const { return !node_names.has_value(); }
  // Intersection (nullopt is the identity).
  static PreFilterResult Merge(const PreFilterResult& a, const PreFilterResult& b);
};

// Incremental updates of a PreFilter's state when the runtime adds or removes pods hypothetically
// (nominated pods, preemption victims). Called on cloned states, possibly concurrently.
class PreFilterExtensions {
 public:
  virtual ~PreFilterExtensions() = default;
  virtual Status AddPod(CycleState& state, const api::Pod& pod_to_schedule,
                        const PodInfoPtr& pod_to_add, const NodeInfo& node_info) = 0;
  virtual Status RemovePod(CycleState& state, const api::Pod& pod_to_schedule,
                           const PodInfoPtr& pod_to_remove, const NodeInfo& node_info) = 0;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  // `nodes` are every node of the snapshot (some plugins need them, e.g. topology spreading).
  virtual std::pair<PreFilterResult, Status> PreFilter(CycleState& state, const api::Pod& pod,
                                                       const std::vector<NodeInfo*>& nodes) = 0;
  // nullptr when the plugin has no incremental state.
  virtual PreFilterExtensions* GetPreFilterExtensions() { return nullptr; }
};

class FilterPlugin : public virtual Plugin {
 public:
  virtual Status Filter(const CycleState& state, const api::Pod& pod, const NodeInfo& node) = 0;
};

// Per-node statuses of a failed scheduling attempt (upstream NodeToStatus): nodes not listed have
// `absent_status` (UnschedulableAndUnresolvable when PreFilter narrowed the nodes, so that
// preemption skips them).
class NodeToStatus {
 public:
  void Set(std::string node_name, Status status) { map_[std::move(node_name)] = std::move(status); }
  // The status of a node, or absent_status when it has none.
  const Status& Get(std::string_view node_name) const;
  const absl::flat_hash_map<std::string, Status>& map() const { return map_; }
  std::size_t size() const { return map_.size(); }
  const Status& absent_status() const { return absent_; }
  void set_absent_status(Status status) { absent_ = std::move(status); }
  // Names of nodes (from `nodes`) whose status is Unschedulable (not Unresolvable): the
  // candidates preemption may help (upstream NodesForStatusCode(Unschedulable)).
  std::vector<const NodeInfo*> NodesWithCode(const std::vector<NodeInfo*>& nodes, Code code) const;

 private:
  absl::flat_hash_map<std::string, Status> map_;
  Status absent_{Code::kUnschedulableAndUnresolvable};
};

// upstream NominatingMode / NominatingInfo.
enum class NominatingMode : std::uint8_t { kNoop, kOverride };
struct NominatingInfo {
  std::string nominated_node_name;
  NominatingMode mode = NominatingMode::kNoop;
};

struct PostFilterResult {
  NominatingInfo nominating_info;
};

class PostFilterPlugin : public virtual Plugin {
 public:
  // Called when no node passed Filter. Success with a nominated node means preemption made room.
  virtual std::pair<PostFilterResult, Status> PostFilter(CycleState& state, const api::Pod& pod,
                                                         const NodeToStatus& statuses) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  // `nodes` are the nodes that passed Filter.
  virtual Status PreScore(CycleState& state, const api::Pod& pod,
                          const std::vector<const NodeInfo*>& nodes) = 0;
};

struct NodeScore {
  const NodeInfo* node = nullptr;
  std::int64_t score = 0;
};

class ScoreExtensions {
 public:
  virtual ~ScoreExtensions() = default;
  // Rewrites `scores` (one per feasible node, same order as the nodes) into [0, 100].
  virtual Status NormalizeScore(const CycleState& state, const api::Pod& pod,
                                std::vector<NodeScore>& scores) = 0;
};

class ScorePlugin : public virtual Plugin {
 public:
  virtual std::pair<std::int64_t, Status> Score(const CycleState& state, const api::Pod& pod,
                                                const NodeInfo& node) = 0;
  // nullptr when the raw scores are already in [0, 100].
  virtual ScoreExtensions* GetScoreExtensions() { return nullptr; }
};

class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const api::Pod& pod, const std::string& node_name) = 0;
  // Must be idempotent and tolerate a Reserve that never ran for this pod.
  virtual void Unreserve(CycleState& state, const api::Pod& pod, const std::string& node_name) = 0;
};

class PermitPlugin : public virtual Plugin {
 public:
  // Success, Unschedulable/Error (reject), or Wait with the timeout returned.
  virtual std::pair<Status, std::chrono::milliseconds> Permit(CycleState& state,
                                                              const api::Pod& pod,
                                                              const std::string& node_name) = 0;
};

class PreBindPlugin : public virtual Plugin {
 public:
  virtual Status PreBind(CycleState& state, const api::Pod& pod, const std::string& node_name) = 0;
  // Whether the plugin implements PreBindPreFlight (fixed for its lifetime). A profile whose
  // PreBind plugins all do can still bind without a thread per pod: only the pods for which a
  // PreFlight does not Skip take the blocking path (Framework::RunPreBindPreFlights).
  virtual bool HasPreBindPreFlight() const { return false; }
  // Upstream's PreBindPreFlight: Skip when PreBind has nothing to do for this pod (PreBind then
  // returns at once without blocking), Success when it has, an error to fail the binding cycle.
  // Called on the scheduling thread after Reserve and Permit; must not block.
  virtual Status PreBindPreFlight(CycleState& state, const api::Pod& pod, const std::string& node_name) {
    (void)state, (void)pod, (void)node_name;
    return Status();
  }
};

class BindPlugin : public virtual Plugin {
 public:
  // Skip lets the next Bind plugin try.
  virtual Status Bind(CycleState& state, const api::Pod& pod, const std::string& node_name) = 0;
};

// A Bind plugin that can also bind without blocking its caller, so that the scheduler needs no
// thread per binding in flight. The scheduler uses BindAsync only when CanBindAsync() holds for
// every Bind plugin of the profile (Framework::BindsWithoutBlocking), and Bind otherwise.
class AsyncBindPlugin : public BindPlugin {
 public:
  using BindCallback = std::function<void(Status)>;
  // Whether BindAsync returns without blocking (fixed for the plugin's lifetime).
  virtual bool CanBindAsync() const = 0;
  // Bind's result, delivered to `done` exactly once, on a thread of the plugin's choosing and
  // possibly before BindAsync returns; `done` must be quick. `state`, `pod` and `node_name` stay
  // alive until `done` has run.
  virtual void BindAsync(CycleState& state, const api::Pod& pod, const std::string& node_name,
                         BindCallback done) = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState& state, const api::Pod& pod, const std::string& node_name) = 0;
};

}  // namespace ksched::framework
