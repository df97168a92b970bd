// Framework: one profile's runtime (upstream frameworkruntime.frameworkImpl). Built from a
// ProfileConfig and a Registry: instantiates each plugin once, expands multiPoint, orders the
// plugins of every extension point, resolves score weights, and validates the result (exactly one
// QueueSort, at least one Bind, weights in range, every plugin implements the points it is listed
// at, no duplicates, args of unknown plugins rejected). Then runs the extension points with
// upstream's semantics (first failure wins for Filter; Skip handling; Permit waits; reverse-order
// Unreserve), stamping the failing plugin's name into the Status.
//
// The Framework is also the Handle its plugins receive.
//
// Metrics: with FrameworkServices::metrics_recorder set, every extension point run is timed
// (PreEnqueue, PreFilter, PostFilter, PreScore, Score, Reserve, Unreserve, Permit, PreBindPreFlight,
// PreBind, Bind, PostBind; Filter is timed by the caller over all nodes, see ObserveExtensionPoint), and each
// plugin call in cycles whose CycleState::record_plugin_metrics() is set (framework/metrics_recorder.h);
// every PreFilter, Filter, PreScore and Score call is counted (PluginEvaluationCounts) in per-thread
// stripes (framework/evaluation_counters.h), a relaxed increment per call.
//
// Ownership: owns its plugins. Borrowed services (FrameworkServices) must outlive it.
// Thread-safety: Run* methods are called as the plugin interfaces document (framework/interface.h);
// SetSnapshot only between cycles from the scheduling thread; the waiting-pods map is locked.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "framework/evaluation_counters.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/metrics_recorder.h"
#include "framework/pods_in_pre_bind.h"
#include "framework/profile_config.h"
#include "framework/registry.h"
#include "framework/score_normalization.h"

namespace ksched::framework {

// Pods nominated to nodes (by preemption), as the queue's nominator knows them.
class PodNominator {
 public:
  virtual ~PodNominator() = default;
  // The pods nominated to `node_name`, excluding none (the caller filters by priority).
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(std::string_view node_name) const = 0;
  // Whether any pod is nominated to any node: a cheap check (no lock) run before the per-node
  // lookup. May be stale by a concurrent nomination, as a per-node lookup may be.
  virtual bool HasNominatedPods() const = 0;
};

// Services the scheduler layer lends to every profile's runtime.
struct FrameworkServices {
  Parallelizer* parallelizer = nullptr;          // required
  ClusterApi* cluster_api = nullptr;             // required for Bind/preemption
  EventRecorder* event_recorder = nullptr;       // required
  const PodNominator* nominator = nullptr;       // optional
  std::function<std::optional<api::Labels>(std::string_view)> namespace_labels;  // optional
  const SpreadSelectorLister* spread_selector_lister = nullptr;  // optional
  const StorageLister* storage_lister = nullptr;                 // optional
  const ResourceLister* resource_lister = nullptr;               // optional
  // optional: whether the pod informer has pod (namespace, name); unset: unknown.
  std::function<bool(std::string_view, std::string_view)> pod_exists;
  MetricsRecorder* metrics_recorder = nullptr;  // optional: nullptr measures nothing
  NodeMetricsProvider* node_metrics = nullptr;  // optional: per-node metrics for score plugins
  // optional: the informer's PodDisruptionBudgets (preemption); unset: none.
  std::function<std::vector<std::shared_ptr<const api::PodDisruptionBudget>>()> pod_disruption_budgets;
  // optional: moves a queued pod to activeQ (Handle::Activate); unset: does nothing.
  std::function<void(const api::Pod&)> activate;
  // optional: the configured extenders, for preemption (borrowed; they outlive the framework).
  std::vector<PreemptionExtender*> preemption_extenders;
};

// A plugin's weighted score for one node (upstream PluginScore / NodePluginScores).
struct NodePluginScores {
  const NodeInfo* node = nullptr;
  std::int64_t total_score = 0;
};

class Framework final : public Handle {
 public:
  static absl::StatusOr<std::unique_ptr<Framework>> Create(const Registry& registry,
                                                           const ProfileConfig& profile,
                                                           FrameworkServices services);
  ~Framework() override;

  // --- Handle -------------------------------------------------------------------------------
  const Snapshot& snapshot() const override { return *snapshot_; }
  ClusterApi& cluster_api() override { return *services_.cluster_api; }
  EventRecorder& event_recorder() override { return *services_.event_recorder; }
  Parallelizer& parallelizer() override { return *services_.parallelizer; }
  const std::string& profile_name() const override { return profile_name_; }
  std::optional<api::Labels> NamespaceLabels(std::string_view name) const override;
  void IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) override;
  bool RejectWaitingPod(std::string_view uid) override;
  bool PreemptWaitingPod(std::string_view uid, std::string_view plugin, std::string message) override;
  bool CancelPodInPreBind(std::string_view uid, std::string message) override {
    return pods_in_pre_bind_.Cancel(uid, std::move(message));
  }
  bool PodInPreBindCancelled(std::string_view uid) const override {
    return pods_in_pre_bind_.Cancelled(uid);
  }
  const SpreadSelectorLister* spread_selector_lister() const override {
    return services_.spread_selector_lister;
  }
  const StorageLister* storage_lister() const override { return services_.storage_lister; }
  const ResourceLister* resource_lister() const override { return services_.resource_lister; }
  std::optional<bool> PodExists(std::string_view ns, std::string_view name) const override {
    if (!services_.pod_exists) return std::nullopt;
    return services_.pod_exists(ns, name);
  }
  NodeMetricsProvider* node_metrics() override { return services_.node_metrics; }

  // --- Configuration as built ---------------------------------------------------------------
  // The plugin names per extension point, in run order (for /configz and tests).
  std::map<std::string, std::vector<std::string>> ListPlugins() const;
  std::optional<std::int32_t> percentage_of_nodes_to_score() const { return percentage_; }
  bool HasFilterPlugins() const { return !filter_.empty(); }
  bool HasPostFilterPlugins() const { return !post_filter_.empty(); }
  bool HasScorePlugins() const { return !score_.empty(); }
  const QueueSortPlugin& queue_sort() const { return *queue_sort_; }
  // Events each plugin registered (plugin name, event with hint). A plugin that can reject but
  // does not implement EnqueueExtensions is registered for the wildcard event.
  const std::vector<std::pair<std::string, ClusterEventWithHint>>& registered_events() const {
    return events_;
  }

  // --- Metrics --------------------------------------------------------------------------------
  bool records_metrics() const { return extension_point_sink_ != nullptr; }
  // Observes an extension point timed outside the runtime (Filter: the scheduling algorithm
  // times all nodes of a cycle at once, as upstream). No-op without a recorder.
  void ObserveExtensionPoint(ExtensionPoint point, Code status,
                             std::chrono::steady_clock::time_point start) const;
  // scheduler_plugin_evaluation_total{plugin,extension_point,profile}: how many times each
  // PreFilter and PreScore plugin ran without returning Skip, and each Filter and Score plugin ran
  // (once per node), as upstream's instrumented plugins count. Every plugin of these four points
  // is listed, from 0; empty without a recorder. Thread-safe.
  struct PluginEvaluations {
    std::string_view plugin;  // lives as long as this Framework
    ExtensionPoint point;
    std::uint64_t count;
  };
  std::vector<PluginEvaluations> PluginEvaluationCounts() const;

  // Points the runtime at the snapshot of the coming cycle (scheduling thread, between cycles).
  void SetSnapshot(const Snapshot* snapshot) { snapshot_ = snapshot; }
  // The queue's nominator is created after the runtimes (it needs their events); set before the
  // first cycle.
  void SetNominator(const PodNominator* nominator) { services_.nominator = nominator; }
  const PodNominator* nominator() const { return services_.nominator; }
  // Like the nominator (the queue provides it): set before the first cycle.
  void SetActivate(std::function<void(const api::Pod&)> activate) {
    services_.activate = std::move(activate);
  }
  // Like the nominator: set (or left nullptr) before the first cycle.
  void SetSpreadSelectorLister(const SpreadSelectorLister* lister) {
    services_.spread_selector_lister = lister;
  }

  // --- Extension points ---------------------------------------------------------------------
  // First non-success wins; the status names the plugin.
  Status RunPreEnqueuePlugins(const api::Pod& pod);

  // Runs every PreFilter plugin, merging results; Skip marks the plugin's Filter skipped.
  // A rejection status carries the plugin. `plugins_with_nodes` receives the plugins that
  // narrowed the nodes (upstream's third result: they count as rejectors of the nodes they left
  // out); it stays empty after an UnschedulableAndUnresolvable or an error.
  std::pair<PreFilterResult, Status> RunPreFilterPlugins(CycleState& state, const api::Pod& pod,
                                                         std::set<std::string, std::less<>>&
                                                             plugins_with_nodes);
  Status RunPreFilterExtensionAddPod(CycleState& state, const api::Pod& pod,
                                     const PodInfoPtr& to_add, const NodeInfo& node) const override;
  Status RunPreFilterExtensionRemovePod(CycleState& state, const api::Pod& pod,
                                        const PodInfoPtr& to_remove,
                                        const NodeInfo& node) const override;

  // Filters in order and stops at the first rejection (upstream RunFilterPlugins). Thread-safe.
  Status RunFilterPlugins(const CycleState& state, const api::Pod& pod, const NodeInfo& node) const;
  // Upstream RunFilterPluginsWithNominatedPods: when nodes have nominated pods of priority >= the
  // pod's, filters twice (with them added, then without) and requires both to pass.
  Status RunFilterPluginsWithNominatedPods(const CycleState& state, const api::Pod& pod,
                                           const NodeInfo& node) const override;
  std::vector<PodInfoPtr> NominatedPodsForNode(std::string_view node_name) const override;
  std::vector<std::shared_ptr<const api::PodDisruptionBudget>> PodDisruptionBudgets() const override;
  void Activate(const api::Pod& pod) override;
  MetricsRecorder* metrics_recorder() override { return services_.metrics_recorder; }
  const std::vector<PreemptionExtender*>& preemption_extenders() const override {
    return services_.preemption_extenders;
  }

  std::pair<PostFilterResult, Status> RunPostFilterPlugins(CycleState& state, const api::Pod& pod,
                                                           const NodeToStatus& statuses);

  Status RunPreScorePlugins(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes);
  // Scores every node with every non-skipped plugin (parallel over nodes), normalizes, applies
  // weights, and returns one total per node in `nodes` order.
  absl::StatusOr<std::vector<NodePluginScores>> RunScorePlugins(
      const CycleState& state, const api::Pod& pod, const std::vector<const NodeInfo*>& nodes);

  // --- The pieces of Filter and Score, for reusing per-node results across identical pods -----
  // (scheduler/node_result_cache.h). Indexes refer to this runtime's Filter / Score plugin lists.
  //
  // The Filter plugins that run in this cycle: the plan RunPreFilterPlugins left in `state`, or
  // nullptr when there is none (PreFilter did not run through this runtime).
  const std::vector<std::uint16_t>* FilterPlan(const CycleState& state) const {
    return state.filter_plan(this);
  }
  // The Score plugins that run in this cycle (those PreScore did not skip).
  std::vector<std::uint16_t> ActiveScorePlugins(const CycleState& state) const;
  // Whether every listed plugin declares Plugin::NodeLocalResults().
  bool FilterPluginsAreNodeLocal(std::span<const std::uint16_t> filter_plugins) const;
  bool FilterPluginIsNodeLocal(std::uint16_t index) const;
  // Score plugins: Plugin::ScoreIsNodeLocalFor(pod).
  bool ScorePluginIsNodeLocal(std::uint16_t index, const api::Pod& pod) const;
  // RunFilterPlugins restricted to the Filter plugins `filter_plugins` (indexes, in run order):
  // stops at the first rejection or error, which it reports as RunFilterPlugins does, and then
  // stores the index of that plugin in `failed_at` (left untouched on Success). Thread-safe.
  Status RunFilterPluginSubset(const CycleState& state, const api::Pod& pod, const NodeInfo& node,
                               std::span<const std::uint16_t> filter_plugins,
                               std::uint16_t& failed_at) const;
  bool ScorePluginsAreNodeLocal(std::span<const std::uint16_t> score_plugins, const api::Pod& pod) const;
  // The raw Score of each plugin in `score_plugins` on one node, into `out` (same length).
  // Thread-safe. An error carries upstream's "running Score plugins: ..." text.
  absl::Status ScoreNode(const CycleState& state, const api::Pod& pod, const NodeInfo& node,
                         std::span<const std::uint16_t> score_plugins,
                         std::span<std::int64_t> out) const;
  // How the Score plugin at `index` turns a node's raw score into its part of the total, when
  // the framework knows: the weight, and the normalization (nullopt: none, raw scores count as
  // they are). nullopt when the plugin normalizes in its own way (see score_normalization.h).
  struct ScoreShape {
    std::int64_t weight = 1;
    std::optional<ScoreNormalization> normalization;
  };
  const std::optional<ScoreShape>& KnownScoreShape(std::uint16_t index) const {
    return score_shapes_[index];
  }
  // NormalizeScore of each plugin over its raw scores, then the weighted totals: scores[k] holds
  // plugin score_plugins[k]'s raw scores for `nodes`, in order (normalised in place). Errors as
  // RunScorePlugins'. Observes the Score extension point when metrics are recorded.
  absl::StatusOr<std::vector<NodePluginScores>> NormalizeAndWeighScores(
      const CycleState& state, const api::Pod& pod, std::span<const std::uint16_t> score_plugins,
      std::vector<std::vector<NodeScore>>& scores, const std::vector<const NodeInfo*>& nodes,
      std::chrono::steady_clock::time_point start) const;

  Status RunReservePluginsReserve(CycleState& state, const api::Pod& pod,
                                  const std::string& node_name);
  // Reverse order, every plugin.
  void RunReservePluginsUnreserve(CycleState& state, const api::Pod& pod,
                                  const std::string& node_name);

  // Success, a rejection, or Wait (the pod is then registered as waiting until WaitOnPermit).
  Status RunPermitPlugins(CycleState& state, const api::Pod& pod, const std::string& node_name);
  // Blocks (binding thread) until every waiting plugin allowed, one rejected, or a timeout.
  Status WaitOnPermit(const api::Pod& pod);

  // Upstream RunPreBindPreFlights (run when NominatedNodeNameForExpectation is on, as by default):
  // each PreBind plugin's PreBindPreFlight in order. Success when one or more has work for the pod,
  // Skip when all skip (and when there are no PreBind plugins), an Error ("running
  // PreBindPreFlight \"X\": ...", or a code other than Success, Skip or Error: "PreBindPreFlight X
  // returned \"Code\", which is unsupported. ...") at the first failure. `skipped` receives the
  // plugins that skipped, as a mask over the PreBind plugins' order, for RunPreBindPlugins.
  // Called on the scheduling thread after Permit (the PreFlights must not block). Timed as the
  // PreBindPreFlight extension point (and per plugin in sampled cycles), as upstream's.
  Status RunPreBindPreFlights(CycleState& state, const api::Pod& pod, const std::string& node_name,
                              std::uint64_t& skipped);
  // Runs the PreBind plugins in order, but those whose bit is set in `skipped` (the PreFlights'
  // Skip), stopping at the first failure. The extension point is timed even when every plugin is
  // skipped, as upstream's.
  Status RunPreBindPlugins(CycleState& state, const api::Pod& pod, const std::string& node_name,
                           std::uint64_t skipped = 0);
  // The pods in PreBind (framework/pods_in_pre_bind.h): the binding cycle registers a pod whose
  // PreFlights found work before PreBind, marks it prebound after, and removes it at its end.
  PodsInPreBind& pods_in_pre_bind() { return pods_in_pre_bind_; }
  // Tries Bind plugins in order until one does not Skip.
  Status RunBindPlugins(CycleState& state, const api::Pod& pod, const std::string& node_name);
  void RunPostBindPlugins(CycleState& state, const api::Pod& pod, const std::string& node_name);

  // Whether a binding cycle of this profile can run without a thread blocked on it: no PostBind
  // plugins, every PreBind plugin with a PreFlight (whether a given pod's PreBind blocks is then
  // RunPreBindPreFlights' answer), and every Bind plugin an AsyncBindPlugin that CanBindAsync.
  // Fixed at Create.
  bool BindsWithoutBlocking() const { return binds_without_blocking_; }
  bool HasPreBindPlugins() const { return !pre_bind_.empty(); }
  // Whether `uid` waits at Permit (WaitOnPermit would block for it).
  bool IsWaitingOnPermit(std::string_view uid) const;
  // RunBindPlugins without blocking (only when BindsWithoutBlocking()): starts the first Bind
  // plugin's BindAsync; a Skip moves on to the next plugin, on the thread that delivered it.
  // `done` gets what RunBindPlugins would have returned, exactly once, on the thread of the last
  // plugin's callback (possibly before this returns); it must be quick. `state`, `pod` and
  // `node_name` must stay alive until `done` has run. Timed as RunBindPlugins, from this call
  // until `done`.
  void RunBindPluginsAsync(CycleState& state, const api::Pod& pod, const std::string& node_name,
                           std::function<void(Status)> done);

 private:
  class WaitingPodImpl;
  struct AsyncBind;
  void BindFrom(std::shared_ptr<AsyncBind> bind, std::size_t index);
  Framework() = default;
  absl::Status Build(const Registry& registry, const ProfileConfig& profile);
  // The bodies of the Run* methods that time their extension point around them.
  std::pair<PreFilterResult, Status> RunPreFilterPluginsUntimed(
      CycleState& state, const api::Pod& pod, std::set<std::string, std::less<>>& plugins_with_nodes);
  absl::StatusOr<std::vector<NodePluginScores>> RunScorePluginsUntimed(
      const CycleState& state, const api::Pod& pod, const std::vector<const NodeInfo*>& nodes);
  absl::StatusOr<std::vector<NodePluginScores>> NormalizeAndWeighUntimed(
      const CycleState& state, const api::Pod& pod, std::span<const std::uint16_t> active,
      std::vector<std::vector<NodeScore>>& scores, const std::vector<const NodeInfo*>& nodes) const;
  static absl::Status ScoreError(const ScorePlugin& plugin, const Status& status);
  Status RunPermitPluginsUntimed(CycleState& state, const api::Pod& pod,
                                 const std::string& node_name);
  Status RunPreBindPreFlightsUntimed(CycleState& state, const api::Pod& pod, const std::string& node_name,
                                     std::uint64_t& skipped);

  std::string profile_name_;
  std::optional<std::int32_t> percentage_;
  FrameworkServices services_;
  const Snapshot* snapshot_ = nullptr;

  std::map<std::string, std::unique_ptr<Plugin>, std::less<>> plugins_;
  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  QueueSortPlugin* queue_sort_ = nullptr;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePlugin*> score_;
  std::vector<std::int64_t> score_weights_;  // parallel to score_
  std::vector<std::optional<ScoreShape>> score_shapes_;  // parallel to score_
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<PostBindPlugin*> post_bind_;
  // bind_ as AsyncBindPlugins, when binds_without_blocking_.
  std::vector<AsyncBindPlugin*> async_bind_;
  bool binds_without_blocking_ = false;
  // Parallel to pre_filter_ / pre_score_: the plugin has no binding-cycle extension point, so its
  // CycleState writes are scheduling-cycle-only (CycleState::DropSchedulingCycleOnlyData).
  std::vector<bool> pre_filter_scheduling_cycle_only_;
  std::vector<bool> pre_score_scheduling_cycle_only_;
  std::vector<std::pair<std::string, ClusterEventWithHint>> events_;

  // Metrics (all nullptr / empty without a recorder). Sinks are owned by the recorder; the
  // per-plugin vectors are parallel to the plugin vectors above, so that timing a plugin is an
  // index, not a lookup by name.
  DurationSink* extension_point_sink_ = nullptr;
  struct PluginSinks {
    std::vector<DurationSink*> pre_enqueue, pre_filter, filter, post_filter, pre_score, score,
        reserve, permit, pre_bind, bind, post_bind;
  };
  PluginSinks plugin_sinks_;
  void ResolveMetricSinks();
  // The evaluation counts, one slot per plugin: PreFilter plugins, then Filter, PreScore and Score
  // ones (the offsets below); nullptr without a recorder.
  std::unique_ptr<EvaluationCounters> evaluations_;
  std::size_t filter_slots_ = 0, pre_score_slots_ = 0, score_slots_ = 0;
  void CountEvaluation(std::size_t slot) const {
    if (evaluations_ != nullptr) evaluations_->Add(slot);
  }

  PodsInPreBind pods_in_pre_bind_;
  mutable base::Mutex waiting_mu_;
  std::map<std::string, std::shared_ptr<WaitingPodImpl>, std::less<>> waiting_ ABSL_GUARDED_BY(waiting_mu_);  // by pod UID
};

}  // namespace ksched::framework
