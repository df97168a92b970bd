#include "framework/framework.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>

namespace ksched::framework {
namespace {

// Upstream's cap on a Permit wait (maxTimeout).
constexpr std::chrono::minutes kMaxPermitTimeout{15};

std::string Quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  out += text;
  out += '"';
  return out;
}

// Go's time.Duration.String() for a millisecond duration ("100ms", "1.5s", "1m30s", "15m0s"):
// upstream prints the Permit timeout that way in its rejection message.
std::string GoDuration(std::chrono::milliseconds duration) {
  std::int64_t ms = duration.count();
  if (ms == 0) return "0s";
  std::string out = ms < 0 ? "-" : "";
  if (ms < 0) ms = -ms;
  if (ms < 1000) return out + std::to_string(ms) + "ms";
  const std::int64_t hours = ms / 3'600'000;
  const std::int64_t minutes = ms / 60'000 % 60;
  const std::int64_t seconds = ms / 1000 % 60;
  const std::int64_t millis = ms % 1000;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(seconds);
  if (millis > 0) {
    std::string fraction = std::to_string(millis);
    fraction.insert(0, 3 - fraction.size(), '0');
    while (fraction.back() == '0') fraction.pop_back();
    out += "." + fraction;
  }
  return out + "s";
}

// Upstream AsStatus(fmt.Errorf("<prefix>: %w", status.AsError())).
Status WrapError(std::string prefix, const Status& status) {
  return Status::FromError(std::move(prefix) + ": " + status.Message());
}

// A Bind plugin's answer other than Skip as RunBindPlugins returns it: success as is, a rejection
// naming the plugin, anything else an error naming it.
Status BindPluginResult(const BindPlugin& plugin, Status status) {
  if (status.IsSuccess()) return status;
  const std::string name(plugin.Name());
  if (status.IsRejected()) return std::move(status).WithPlugin(name);
  return WrapError("running Bind plugin " + Quoted(name), status).WithPlugin(name);
}

using SteadyClock = std::chrono::steady_clock;

std::chrono::nanoseconds Since(SteadyClock::time_point start) { return SteadyClock::now() - start; }

// The status code a plugin call returned, whatever the shape of its result.
Code CodeOf(const Status& status) { return status.code(); }
template <typename T>
Code CodeOf(const std::pair<T, Status>& result) {
  return result.second.code();
}
template <typename T>
Code CodeOf(const std::pair<Status, T>& result) {
  return result.first.code();
}

// The sink timing plugin `index` of an extension point in this cycle, nullptr when the cycle is
// not sampled or there is no recorder.
DurationSink* SinkAt(const std::vector<DurationSink*>& sinks, std::size_t index, bool sampled) {
  return sampled && !sinks.empty() ? sinks[index] : nullptr;
}

// Runs `call` (one plugin method) and, when `sink` is set, observes its duration and status code
// (upstream's run<Point>Plugin wrappers).
template <typename Call>
auto TimedCall(DurationSink* sink, ExtensionPoint point, Call&& call) {
  if (sink == nullptr) return call();
  const SteadyClock::time_point start = SteadyClock::now();
  auto result = call();
  sink->Observe(point, CodeOf(result), Since(start));
  return result;
}

// Upstream samples PreEnqueue plugin timings per call (rand.Intn(100) < percent). PreEnqueue runs
// on event threads under the queue lock, so each thread draws from a generator of its own.
bool SampleCall(int percent) {
  thread_local std::minstd_rand random(std::random_device{}());
  return static_cast<int>(random() % 100) < percent;
}

// An ordered set of names preserving insertion order (upstream orderedSet).
class OrderedNames {
 public:
  bool Has(std::string_view name) const {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }
  void Insert(const std::string& name) {
    if (!Has(name)) names_.push_back(name);
  }
  void Erase(std::string_view name) {
    names_.erase(std::remove(names_.begin(), names_.end(), name), names_.end());
  }
  const std::vector<std::string>& list() const { return names_; }

 private:
  std::vector<std::string> names_;
};

}  // namespace

// A pod held at Permit (upstream waitingPod): the plugins still waiting, each with its timeout.
class Framework::WaitingPodImpl final : public WaitingPod {
 public:
  WaitingPodImpl(std::shared_ptr<const api::Pod> pod,
                 const std::map<std::string, std::chrono::milliseconds, std::less<>>& timeouts)
      : pod_(std::move(pod)) {
    const auto now = std::chrono::steady_clock::now();
    for (const auto& [plugin, timeout] : timeouts) pending_[plugin] = Pending{timeout, now + timeout};
  }

  const api::Pod& pod() const override { return *pod_; }

  std::vector<std::string> PendingPlugins() const override {
    base::MutexLock lock(&mu_);
    std::vector<std::string> names;
    for (const auto& [name, pending] : pending_) names.push_back(name);
    return names;
  }

  void Allow(std::string_view plugin) override {
    base::MutexLock lock(&mu_);
    ExpireLocked();
    if (result_.has_value()) return;
    auto it = pending_.find(plugin);
    if (it != pending_.end()) pending_.erase(it);
    if (pending_.empty()) result_ = Status();
    // Also when plugins remain: the waiter re-arms for the next deadline.
    cv_.NotifyAll();
  }

  bool Reject(std::string_view plugin, std::string message) override {
    return StopWith(Code::kUnschedulable, plugin, std::move(message));
  }

  bool Preempt(std::string_view plugin, std::string message) override {
    return StopWith(Code::kError, plugin, std::move(message));
  }

  // Blocks until allowed, rejected, or the deadline of a plugin still pending passes (then
  // rejected by that plugin, as upstream's per-plugin timer does).
  Status Wait() {
    base::MutexLock lock(&mu_);
    for (;;) {
      ExpireLocked();
      if (result_.has_value()) return *result_;
      auto earliest = std::min_element(pending_.begin(), pending_.end(),
                                       [](const auto& a, const auto& b) {
                                         return a.second.deadline < b.second.deadline;
                                       });
      // A copy: wait_until holds its deadline by reference and reads it again after waking, when
      // Allow() on another thread may have erased `earliest` (ASan: heap-use-after-free).
      const std::chrono::steady_clock::time_point deadline = earliest->second.deadline;
      cv_.WaitUntil(&mu_, deadline);
    }
  }

 private:
  // Upstream stopWithStatus: the first result wins.
  bool StopWith(Code code, std::string_view plugin, std::string message) {
    base::MutexLock lock(&mu_);
    ExpireLocked();
    if (result_.has_value()) return false;
    result_ = Status(code, {std::move(message)}).WithPlugin(std::string(plugin));
    cv_.NotifyAll();
    return true;
  }

  struct Pending {
    std::chrono::milliseconds timeout;
    std::chrono::steady_clock::time_point deadline;
  };

  // The first result wins: a deadline that passed rejects the pod even when nobody waits yet.
  void ExpireLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (result_.has_value()) return;
    const auto now = std::chrono::steady_clock::now();
    const std::pair<const std::string, Pending>* expired = nullptr;
    for (const auto& entry : pending_) {
      if (entry.second.deadline <= now &&
          (expired == nullptr || entry.second.deadline < expired->second.deadline)) {
        expired = &entry;
      }
    }
    if (expired == nullptr) return;
    result_ = Status(Code::kUnschedulable,
                     {"rejected due to timeout after waiting " + GoDuration(expired->second.timeout) +
                      " at plugin " + expired->first})
                  .WithPlugin(expired->first);
  }

  std::shared_ptr<const api::Pod> pod_;
  mutable base::Mutex mu_;
  base::CondVar cv_;
  // pending_ is never empty while result_ is unset.
  std::map<std::string, Pending, std::less<>> pending_ ABSL_GUARDED_BY(mu_);
  std::optional<Status> result_ ABSL_GUARDED_BY(mu_);
};

Framework::~Framework() = default;

absl::StatusOr<std::unique_ptr<Framework>> Framework::Create(const Registry& registry,
                                                             const ProfileConfig& profile,
                                                             FrameworkServices services) {
  if (services.parallelizer == nullptr || services.event_recorder == nullptr) {
    return absl::InvalidArgumentError("framework services: parallelizer and event recorder are required");
  }
  std::unique_ptr<Framework> framework(new Framework());
  framework->profile_name_ = profile.scheduler_name;
  framework->percentage_ = profile.percentage_of_nodes_to_score;
  framework->services_ = std::move(services);
  if (absl::Status status = framework->Build(registry, profile); !status.ok()) return status;
  framework->ResolveMetricSinks();
  return framework;
}

absl::Status Framework::Build(const Registry& registry, const ProfileConfig& profile) {
  const PluginsConfig& plugins = profile.plugins;
  const std::vector<const PluginSet*> points = {
      &plugins.pre_enqueue, &plugins.queue_sort, &plugins.pre_filter, &plugins.filter,
      &plugins.post_filter, &plugins.pre_score,  &plugins.score,      &plugins.reserve,
      &plugins.permit,      &plugins.pre_bind,   &plugins.bind,       &plugins.post_bind};

  // Instantiate every plugin named anywhere (upstream pluginsNeeded), in name order.
  std::set<std::string, std::less<>> needed;
  for (const PluginSet* set : points) {
    for (const PluginRef& ref : set->enabled) needed.insert(ref.name);
  }
  for (const PluginRef& ref : plugins.multi_point.enabled) needed.insert(ref.name);
  for (const std::string& name : needed) {
    const PluginFactory* factory = registry.Find(name);
    if (factory == nullptr) continue;  // refused below, naming the extension point as upstream
    auto args_it = profile.plugin_args.find(name);
    const PluginArgs* args = args_it == profile.plugin_args.end() ? nullptr : args_it->second.get();
    absl::StatusOr<std::unique_ptr<Plugin>> plugin = (*factory)(args, *this);
    if (!plugin.ok()) {
      return absl::InvalidArgumentError("initializing plugin " + Quoted(name) + ": " +
                                        std::string(plugin.status().message()));
    }
    plugins_.emplace(name, *std::move(plugin));
  }

  // A name the registry lacks, refused as upstream's updatePluginList and then
  // expandMultiPointPlugins refuse it: the extension points in upstream's order (getExtensionPoints),
  // the first one's type named ("FilterPlugin \"Foo\" does not exist"); a multiPoint name with
  // the first point whose set is not disabled with "*".
  struct NamedPoint {
    const PluginSet* set;
    std::string_view type;
  };
  const NamedPoint upstream_order[] = {
      {&plugins.pre_filter, "PreFilterPlugin"}, {&plugins.filter, "FilterPlugin"},
      {&plugins.post_filter, "PostFilterPlugin"}, {&plugins.reserve, "ReservePlugin"},
      {&plugins.pre_score, "PreScorePlugin"},   {&plugins.score, "ScorePlugin"},
      {&plugins.pre_bind, "PreBindPlugin"},     {&plugins.bind, "BindPlugin"},
      {&plugins.post_bind, "PostBindPlugin"},   {&plugins.permit, "PermitPlugin"},
      {&plugins.pre_enqueue, "PreEnqueuePlugin"}, {&plugins.queue_sort, "QueueSortPlugin"}};
  for (const NamedPoint& point : upstream_order) {
    for (const PluginRef& ref : point.set->enabled) {
      if (!plugins_.contains(ref.name)) {
        return absl::InvalidArgumentError(std::string(point.type) + " " + Quoted(ref.name) + " does not exist");
      }
    }
  }
  for (const NamedPoint& point : upstream_order) {
    if (std::find(point.set->disabled.begin(), point.set->disabled.end(), "*") != point.set->disabled.end()) continue;
    for (const PluginRef& ref : plugins.multi_point.enabled) {
      if (!plugins_.contains(ref.name)) {
        return absl::InvalidArgumentError(std::string(point.type) + " " + Quoted(ref.name) + " does not exist");
      }
    }
    break;  // every multiPoint name was checked against the first point expanded
  }

  // The PodGroup extension points of v1.37 (placementGenerate, placementScore, podGroupPostFilter)
  // run only for pod groups (GenericWorkload, TopologyAwareWorkloadScheduling: off, and refused
  // on here). The one upstream plugin extending each is accepted and stays inert; any other name is
  // refused as upstream refuses it: missing from its registry, or not extending the point.
  struct PodGroupPoint {
    const PluginSet* set;
    std::string_view type;
    std::string_view upstream_plugin;
  };
  const PodGroupPoint pod_group_points[] = {
      {&plugins.placement_generate, "PlacementGeneratePlugin", "TopologyPlacementGenerator"},
      {&plugins.placement_score, "PlacementScorePlugin", "PodGroupPodsCount"},
      {&plugins.pod_group_post_filter, "PodGroupPostFilterPlugin", "DynamicResources"}};
  constexpr std::string_view kUpstreamWorkloadPlugins[] = {"GangScheduling", "TopologyPlacementGenerator",
                                                           "PodGroupPodsCount"};
  for (const PodGroupPoint& point : pod_group_points) {
    for (const PluginRef& ref : point.set->enabled) {
      if (ref.name == point.upstream_plugin) continue;
      const bool known = registry.Find(ref.name) != nullptr ||
                         std::find(std::begin(kUpstreamWorkloadPlugins), std::end(kUpstreamWorkloadPlugins),
                                   ref.name) != std::end(kUpstreamWorkloadPlugins);
      if (!known) {
        return absl::InvalidArgumentError(std::string(point.type) + " " + Quoted(ref.name) + " does not exist");
      }
      return absl::InvalidArgumentError("plugin " + Quoted(ref.name) + " does not extend " +
                                        std::string(point.type) + " plugin");
    }
  }

  // Fills one extension point: the specific entries, then multiPoint expansion and upstream's
  // reordering (overrides, then multiPoint-only plugins, then the other specific plugins).
  auto fill = [&]<typename Interface>(const PluginSet& config, std::string_view interface_name,
                                      std::vector<Interface*>& out) -> absl::Status {
    OrderedNames enabled;
    for (const PluginRef& ref : config.enabled) {
      Plugin* plugin = plugins_.at(ref.name).get();
      if (dynamic_cast<Interface*>(plugin) == nullptr) {
        return absl::InvalidArgumentError("plugin " + Quoted(ref.name) + " does not extend " +
                                          std::string(interface_name) + " plugin");
      }
      if (enabled.Has(ref.name)) {
        return absl::InvalidArgumentError("plugin " + Quoted(ref.name) + " already registered as " +
                                          Quoted(interface_name));
      }
      enabled.Insert(ref.name);
    }
    std::set<std::string, std::less<>> disabled(config.disabled.begin(), config.disabled.end());
    std::vector<std::string> order = enabled.list();
    if (!disabled.contains("*")) {
      OrderedNames multi_point;
      OrderedNames overrides;
      for (const PluginRef& ref : plugins.multi_point.enabled) {
        Plugin* plugin = plugins_.at(ref.name).get();
        if (dynamic_cast<Interface*>(plugin) == nullptr) continue;
        if (disabled.contains(ref.name)) continue;
        if (enabled.Has(ref.name)) {
          overrides.Insert(ref.name);  // the specific point's entry wins
          continue;
        }
        if (multi_point.Has(ref.name)) {
          return absl::InvalidArgumentError("plugin " + Quoted(ref.name) +
                                            " already registered as " + Quoted(interface_name));
        }
        multi_point.Insert(ref.name);
      }
      order.clear();
      for (const std::string& name : enabled.list()) {
        if (overrides.Has(name)) order.push_back(name);
      }
      for (const std::string& name : multi_point.list()) order.push_back(name);
      for (const std::string& name : enabled.list()) {
        if (!overrides.Has(name)) order.push_back(name);
      }
    }
    out.clear();
    for (const std::string& name : order) {
      out.push_back(dynamic_cast<Interface*>(plugins_.at(name).get()));
    }
    return absl::OkStatus();
  };

  std::vector<QueueSortPlugin*> queue_sort;
  absl::Status status;
  if (status = fill(plugins.pre_enqueue, "PreEnqueuePlugin", pre_enqueue_); !status.ok()) return status;
  if (status = fill(plugins.queue_sort, "QueueSortPlugin", queue_sort); !status.ok()) return status;
  if (status = fill(plugins.pre_filter, "PreFilterPlugin", pre_filter_); !status.ok()) return status;
  if (status = fill(plugins.filter, "FilterPlugin", filter_); !status.ok()) return status;
  if (status = fill(plugins.post_filter, "PostFilterPlugin", post_filter_); !status.ok()) return status;
  if (status = fill(plugins.pre_score, "PreScorePlugin", pre_score_); !status.ok()) return status;
  if (status = fill(plugins.score, "ScorePlugin", score_); !status.ok()) return status;
  if (status = fill(plugins.reserve, "ReservePlugin", reserve_); !status.ok()) return status;
  if (status = fill(plugins.permit, "PermitPlugin", permit_); !status.ok()) return status;
  if (status = fill(plugins.pre_bind, "PreBindPlugin", pre_bind_); !status.ok()) return status;
  if (status = fill(plugins.bind, "BindPlugin", bind_); !status.ok()) return status;
  if (status = fill(plugins.post_bind, "PostBindPlugin", post_bind_); !status.ok()) return status;
  {
    std::set<std::string_view> in_binding_cycle;
    for (const auto* p : reserve_) in_binding_cycle.insert(p->Name());
    for (const auto* p : permit_) in_binding_cycle.insert(p->Name());
    for (const auto* p : pre_bind_) in_binding_cycle.insert(p->Name());
    for (const auto* p : bind_) in_binding_cycle.insert(p->Name());
    for (const auto* p : post_bind_) in_binding_cycle.insert(p->Name());
    for (const auto* p : pre_filter_) {
      pre_filter_scheduling_cycle_only_.push_back(!in_binding_cycle.contains(p->Name()));
    }
    for (const auto* p : pre_score_) {
      pre_score_scheduling_cycle_only_.push_back(!in_binding_cycle.contains(p->Name()));
    }
  }

  // Score weights (upstream getScoreWeights): the specific score entry first, then multiPoint;
  // 0 means 1; the total must not overflow.
  std::map<std::string, std::int64_t, std::less<>> weights;
  std::int64_t total = 0;
  std::vector<PluginRef> weighted = plugins.score.enabled;
  weighted.insert(weighted.end(), plugins.multi_point.enabled.begin(),
                  plugins.multi_point.enabled.end());
  for (const PluginRef& ref : weighted) {
    // (A multiPoint name the registry lacks gets here only when every point is disabled with "*":
    // upstream panics there; it extends nothing.)
    auto found = plugins_.find(ref.name);
    if (found == plugins_.end() || dynamic_cast<ScorePlugin*>(found->second.get()) == nullptr) continue;
    if (weights.contains(ref.name)) continue;
    if (ref.weight < 0) {
      return absl::InvalidArgumentError("score plugin " + Quoted(ref.name) +
                                        " has a negative weight " + std::to_string(ref.weight));
    }
    const std::int64_t weight = ref.weight == 0 ? 1 : ref.weight;
    if (weight * kMaxNodeScore > kMaxTotalScore - total) {
      // v1.37 wraps getValidScoreWeights' error ("score plugins: %w").
      return absl::InvalidArgumentError("score plugins: total score of Score plugins could overflow");
    }
    total += weight * kMaxNodeScore;
    weights[ref.name] = weight;
  }
  score_weights_.clear();
  score_shapes_.clear();
  for (ScorePlugin* plugin : score_) {
    auto it = weights.find(plugin->Name());
    const std::int64_t weight = it == weights.end() ? 1 : it->second;
    score_weights_.push_back(weight);
    ScoreExtensions* extensions = plugin->GetScoreExtensions();
    if (extensions == nullptr) {
      score_shapes_.push_back(ScoreShape{weight, std::nullopt});
    } else if (const auto* standard = dynamic_cast<const StandardNormalization*>(extensions)) {
      score_shapes_.push_back(ScoreShape{weight, standard->normalization()});
    } else {
      score_shapes_.push_back(std::nullopt);
    }
  }

  if (queue_sort.size() != 1) {
    return absl::InvalidArgumentError(
        "only one queue sort plugin required for profile with scheduler name " +
        Quoted(profile_name_) + ", but got " + std::to_string(queue_sort.size()));
  }
  queue_sort_ = queue_sort.front();
  if (bind_.empty()) {
    return absl::InvalidArgumentError("at least one bind plugin is needed for profile with scheduler name " +
                                      Quoted(profile_name_));
  }
  // Without a ClusterApi nothing can bind asynchronously (and DefaultBinder must not ask it).
  // PreBind plugins with a PreFlight leave the decision to each pod (PreBindNeedsThread).
  binds_without_blocking_ =
      std::all_of(pre_bind_.begin(), pre_bind_.end(), [](PreBindPlugin* p) { return p->HasPreBindPreFlight(); }) &&
      post_bind_.empty() && services_.cluster_api != nullptr;
  for (BindPlugin* plugin : bind_) {
    auto* async = dynamic_cast<AsyncBindPlugin*>(plugin);
    if (async == nullptr || !binds_without_blocking_ || !async->CanBindAsync()) {
      binds_without_blocking_ = false;
      async_bind_.clear();
      break;
    }
    async_bind_.push_back(async);
  }

  // Events (upstream: plugins that can reject register their events; without EnqueueExtensions
  // a plugin gets every event).
  std::set<std::string, std::less<>> seen;
  auto register_events = [&](Plugin* plugin) {
    const std::string name(plugin->Name());
    if (!seen.insert(name).second) return;
    if (const auto* ext = dynamic_cast<const EnqueueExtensions*>(plugin)) {
      for (ClusterEventWithHint& event : ext->EventsToRegister()) {
        events_.emplace_back(name, std::move(event));
      }
    } else {
      events_.emplace_back(name, ClusterEventWithHint{ClusterEvent{EventResource::kWildCard,
                                                                   action::kAll, "WildCard"},
                                                      nullptr});
    }
  };
  for (auto* p : pre_enqueue_) register_events(p);
  for (auto* p : pre_filter_) register_events(p);
  for (auto* p : filter_) register_events(p);
  for (auto* p : reserve_) register_events(p);
  for (auto* p : permit_) register_events(p);
  for (auto* p : pre_bind_) register_events(p);
  return absl::OkStatus();
}

void Framework::ResolveMetricSinks() {
  MetricsRecorder* recorder = services_.metrics_recorder;
  if (recorder == nullptr) return;
  extension_point_sink_ = &recorder->ExtensionPointDurations(profile_name_);
  auto resolve = [recorder](const auto& plugins, std::vector<DurationSink*>& out) {
    out.clear();
    for (const auto* plugin : plugins) out.push_back(&recorder->PluginDurations(plugin->Name()));
  };
  resolve(pre_enqueue_, plugin_sinks_.pre_enqueue);
  resolve(pre_filter_, plugin_sinks_.pre_filter);
  resolve(filter_, plugin_sinks_.filter);
  resolve(post_filter_, plugin_sinks_.post_filter);
  resolve(pre_score_, plugin_sinks_.pre_score);
  resolve(score_, plugin_sinks_.score);
  resolve(reserve_, plugin_sinks_.reserve);
  resolve(permit_, plugin_sinks_.permit);
  resolve(pre_bind_, plugin_sinks_.pre_bind);
  resolve(bind_, plugin_sinks_.bind);
  resolve(post_bind_, plugin_sinks_.post_bind);
  filter_slots_ = pre_filter_.size();
  pre_score_slots_ = filter_slots_ + filter_.size();
  score_slots_ = pre_score_slots_ + pre_score_.size();
  evaluations_ = std::make_unique<EvaluationCounters>(score_slots_ + score_.size());
}

std::vector<Framework::PluginEvaluations> Framework::PluginEvaluationCounts() const {
  std::vector<PluginEvaluations> out;
  if (evaluations_ == nullptr) return out;
  out.reserve(evaluations_->slots());
  auto add = [&](const auto& plugins, ExtensionPoint point, std::size_t first_slot) {
    for (std::size_t i = 0; i < plugins.size(); ++i) {
      out.push_back(PluginEvaluations{plugins[i]->Name(), point, evaluations_->Total(first_slot + i)});
    }
  };
  add(pre_filter_, ExtensionPoint::kPreFilter, 0);
  add(filter_, ExtensionPoint::kFilter, filter_slots_);
  add(pre_score_, ExtensionPoint::kPreScore, pre_score_slots_);
  add(score_, ExtensionPoint::kScore, score_slots_);
  return out;
}

void Framework::ObserveExtensionPoint(ExtensionPoint point, Code status,
                                      SteadyClock::time_point start) const {
  if (extension_point_sink_ != nullptr) extension_point_sink_->Observe(point, status, Since(start));
}

std::optional<api::Labels> Framework::NamespaceLabels(std::string_view name) const {
  if (!services_.namespace_labels) return std::nullopt;
  return services_.namespace_labels(name);
}

std::vector<PodInfoPtr> Framework::NominatedPodsForNode(std::string_view node_name) const {
  if (services_.nominator == nullptr || !services_.nominator->HasNominatedPods()) return {};
  return services_.nominator->NominatedPodsForNode(node_name);
}

std::vector<std::shared_ptr<const api::PodDisruptionBudget>> Framework::PodDisruptionBudgets() const {
  if (!services_.pod_disruption_budgets) return {};
  return services_.pod_disruption_budgets();
}

void Framework::Activate(const api::Pod& pod) {
  if (services_.activate) services_.activate(pod);
}

std::map<std::string, std::vector<std::string>> Framework::ListPlugins() const {
  std::map<std::string, std::vector<std::string>> out;
  auto list = [&](const char* point, const auto& plugins) {
    std::vector<std::string> names;
    for (const auto* p : plugins) names.emplace_back(p->Name());
    if (!names.empty()) out[point] = std::move(names);
  };
  list("PreEnqueuePlugin", pre_enqueue_);
  list("QueueSortPlugin", std::vector<const QueueSortPlugin*>{queue_sort_});
  list("PreFilterPlugin", pre_filter_);
  list("FilterPlugin", filter_);
  list("PostFilterPlugin", post_filter_);
  list("PreScorePlugin", pre_score_);
  list("ScorePlugin", score_);
  list("ReservePlugin", reserve_);
  list("PermitPlugin", permit_);
  list("PreBindPlugin", pre_bind_);
  list("BindPlugin", bind_);
  list("PostBindPlugin", post_bind_);
  return out;
}

Status Framework::RunPreEnqueuePlugins(const api::Pod& pod) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = timed && SampleCall(services_.metrics_recorder->plugin_sample_percent());
  Status result = [&]() -> Status {
    for (std::size_t i = 0; i < pre_enqueue_.size(); ++i) {
      PreEnqueuePlugin* plugin = pre_enqueue_[i];
      Status status = TimedCall(SinkAt(plugin_sinks_.pre_enqueue, i, sampled),
                                ExtensionPoint::kPreEnqueue, [&] { return plugin->PreEnqueue(pod); });
      if (status.IsSuccess()) continue;
      const std::string name(plugin->Name());
      if (status.IsRejected()) return std::move(status).WithPlugin(name);
      return WrapError("running PreEnqueue plugin " + Quoted(name), status).WithPlugin(name);
    }
    return Status();
  }();
  // Upstream's deferred observation reads a status variable its loop never assigns, so PreEnqueue
  // is always recorded as Success; mirrored so that dashboards read the same.
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPreEnqueue, Code::kSuccess, start);
  return result;
}

std::pair<PreFilterResult, Status> Framework::RunPreFilterPlugins(
    CycleState& state, const api::Pod& pod,
    std::set<std::string, std::less<>>& plugins_with_nodes_out) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  std::pair<PreFilterResult, Status> out =
      RunPreFilterPluginsUntimed(state, pod, plugins_with_nodes_out);
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPreFilter, out.second.code(), start);
  return out;
}

std::pair<PreFilterResult, Status> Framework::RunPreFilterPluginsUntimed(
    CycleState& state, const api::Pod& pod,
    std::set<std::string, std::less<>>& plugins_with_nodes_out) {
  const bool sampled = state.record_plugin_metrics();
  PreFilterResult result;
  // Sorted, as upstream lists its set in the "didn't satisfy" message.
  std::set<std::string, std::less<>> plugins_with_nodes;
  Status returned;
  std::set<std::string, std::less<>> skipped;
  // Upstream records the skipped plugins on every return (a deferred SetSkipFilterPlugins).
  auto finish = [&](PreFilterResult out, Status status) {
    state.skip_filter_plugins() = std::move(skipped);
    // The Filter plugins that run, worked out once here rather than per node.
    std::vector<std::uint16_t> plan;
    plan.reserve(filter_.size());
    for (std::size_t i = 0; i < filter_.size(); ++i) {
      if (!state.skip_filter_plugins().contains(filter_[i]->Name())) {
        plan.push_back(static_cast<std::uint16_t>(i));
      }
    }
    state.set_filter_plan(this, std::move(plan));
    return std::pair<PreFilterResult, Status>{std::move(out), std::move(status)};
  };
  for (std::size_t i = 0; i < pre_filter_.size(); ++i) {
    PreFilterPlugin* plugin = pre_filter_[i];
    const std::string name(plugin->Name());
    state.set_scheduling_cycle_only_writes(pre_filter_scheduling_cycle_only_[i]);
    auto [plugin_result, status] =
        TimedCall(SinkAt(plugin_sinks_.pre_filter, i, sampled), ExtensionPoint::kPreFilter,
                  [&] { return plugin->PreFilter(state, pod, snapshot_->nodes()); });
    state.set_scheduling_cycle_only_writes(false);
    if (status.IsSkip()) {
      skipped.insert(name);
      continue;
    }
    CountEvaluation(i);
    if (!status.IsSuccess()) {
      status.WithPlugin(name);
      if (status.code() == Code::kUnschedulableAndUnresolvable) {
        return finish(PreFilterResult{}, std::move(status));
      }
      if (status.code() == Code::kUnschedulable) {
        // Later PreFilters still run so that preemption sees their state (upstream #119770).
        returned = std::move(status);
        continue;
      }
      return finish(PreFilterResult{},
                    WrapError("running PreFilter plugin " + Quoted(name), status).WithPlugin(name));
    }
    if (!plugin_result.AllNodes()) plugins_with_nodes.insert(name);
    result = PreFilterResult::Merge(result, plugin_result);
    if (!result.AllNodes() && result.node_names->empty()) {
      std::string message;
      if (plugins_with_nodes.size() == 1) {
        message = "node(s) didn't satisfy plugin " + *plugins_with_nodes.begin();
      } else {
        message = "node(s) didn't satisfy plugin(s) [";
        for (const std::string& with_nodes : plugins_with_nodes) {
          if (message.back() != '[') message += ' ';
          message += with_nodes;
        }
        message += "] simultaneously";
      }
      plugins_with_nodes_out.insert(plugins_with_nodes.begin(), plugins_with_nodes.end());
      return finish(std::move(result), Status(Code::kUnschedulableAndUnresolvable, {message}));
    }
  }
  plugins_with_nodes_out.insert(plugins_with_nodes.begin(), plugins_with_nodes.end());
  return finish(std::move(result), std::move(returned));
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const api::Pod& pod,
                                              const PodInfoPtr& to_add,
                                              const NodeInfo& node) const {
  const bool sampled = state.record_plugin_metrics();
  for (std::size_t i = 0; i < pre_filter_.size(); ++i) {
    PreFilterPlugin* plugin = pre_filter_[i];
    PreFilterExtensions* ext = plugin->GetPreFilterExtensions();
    if (ext == nullptr || state.skip_filter_plugins().contains(plugin->Name())) continue;
    Status status = TimedCall(SinkAt(plugin_sinks_.pre_filter, i, sampled),
                              ExtensionPoint::kPreFilterExtensionAddPod,
                              [&] { return ext->AddPod(state, pod, to_add, node); });
    if (!status.IsSuccess()) {
      return WrapError("running AddPod on PreFilter plugin " + Quoted(plugin->Name()), status);
    }
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const api::Pod& pod,
                                                 const PodInfoPtr& to_remove,
                                                 const NodeInfo& node) const {
  const bool sampled = state.record_plugin_metrics();
  for (std::size_t i = 0; i < pre_filter_.size(); ++i) {
    PreFilterPlugin* plugin = pre_filter_[i];
    PreFilterExtensions* ext = plugin->GetPreFilterExtensions();
    if (ext == nullptr || state.skip_filter_plugins().contains(plugin->Name())) continue;
    Status status = TimedCall(SinkAt(plugin_sinks_.pre_filter, i, sampled),
                              ExtensionPoint::kPreFilterExtensionRemovePod,
                              [&] { return ext->RemovePod(state, pod, to_remove, node); });
    if (!status.IsSuccess()) {
      return WrapError("running RemovePod on PreFilter plugin " + Quoted(plugin->Name()), status);
    }
  }
  return Status();
}

Status Framework::RunFilterPluginSubset(const CycleState& state, const api::Pod& pod,
                                        const NodeInfo& node,
                                        std::span<const std::uint16_t> filter_plugins,
                                        std::uint16_t& failed_at) const {
  const bool sampled = state.record_plugin_metrics();
  for (const std::uint16_t i : filter_plugins) {
    FilterPlugin* plugin = filter_[i];
    CountEvaluation(filter_slots_ + i);
    Status status = TimedCall(SinkAt(plugin_sinks_.filter, i, sampled), ExtensionPoint::kFilter,
                              [&] { return plugin->Filter(state, pod, node); });
    if (status.IsSuccess()) continue;
    failed_at = i;
    const std::string_view name = plugin->Name();
    if (!status.IsRejected()) {
      // Filters may only accept or reject; anything else is an error of the plugin.
      return WrapError("running " + Quoted(name) + " filter plugin", status).WithPlugin(name);
    }
    return std::move(status).WithPlugin(name);
  }
  return Status();
}

Status Framework::RunFilterPlugins(const CycleState& state, const api::Pod& pod,
                                   const NodeInfo& node) const {
  std::uint16_t failed_at = 0;
  // The per-node hot path: the plan RunPreFilterPlugins left, no name lookups.
  if (const std::vector<std::uint16_t>* plan = state.filter_plan(this)) {
    return RunFilterPluginSubset(state, pod, node, *plan, failed_at);
  }
  const auto& skip = state.skip_filter_plugins();
  for (std::size_t i = 0; i < filter_.size(); ++i) {
    if (!skip.empty() && skip.contains(filter_[i]->Name())) continue;
    const std::uint16_t one[] = {static_cast<std::uint16_t>(i)};
    Status status = RunFilterPluginSubset(state, pod, node, one, failed_at);
    if (!status.IsSuccess()) return status;
  }
  return Status();
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const api::Pod& pod,
                                                    const NodeInfo& node) const {
  // Pass 1 with the nominated pods of equal or higher priority added; pass 2 without. The pod
  // must pass both, so that it neither takes room promised to them nor relies on their presence
  // (e.g. for affinity).
  std::vector<PodInfoPtr> nominated;
  // One relaxed atomic load per node in the common case of no nominations, instead of the
  // nominator's lock and a per-node lookup.
  if (services_.nominator != nullptr && services_.nominator->HasNominatedPods()) {
    nominated = services_.nominator->NominatedPodsForNode(node.name());
  }
  if (nominated.empty()) return RunFilterPlugins(state, pod, node);

  const std::int32_t priority = api::PodPriority(pod);
  std::unique_ptr<CycleState> state_with = state.Clone();
  NodeInfo node_with = node.Clone();
  bool added = false;
  for (const PodInfoPtr& other : nominated) {
    if (api::PodPriority(other->pod()) < priority) continue;
    if (other->pod().metadata.uid == pod.metadata.uid) continue;
    node_with.AddPod(other);
    Status status = RunPreFilterExtensionAddPod(*state_with, pod, other, node_with);
    if (!status.IsSuccess()) return status;
    added = true;
  }
  if (!added) return RunFilterPlugins(state, pod, node);
  Status status = RunFilterPlugins(*state_with, pod, node_with);
  if (!status.IsSuccess()) return status;
  return RunFilterPlugins(state, pod, node);
}

std::pair<PostFilterResult, Status> Framework::RunPostFilterPlugins(CycleState& state,
                                                                    const api::Pod& pod,
                                                                    const NodeToStatus& statuses) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  std::pair<PostFilterResult, Status> out = [&]() -> std::pair<PostFilterResult, Status> {
    PostFilterResult result;
    std::vector<std::string> reasons;
    std::string rejector;
    for (std::size_t i = 0; i < post_filter_.size(); ++i) {
      PostFilterPlugin* plugin = post_filter_[i];
      const std::string name(plugin->Name());
      auto [plugin_result, status] =
          TimedCall(SinkAt(plugin_sinks_.post_filter, i, sampled), ExtensionPoint::kPostFilter,
                    [&] { return plugin->PostFilter(state, pod, statuses); });
      if (status.IsSuccess()) return {std::move(plugin_result), std::move(status)};
      if (status.code() == Code::kUnschedulableAndUnresolvable) {
        return {std::move(plugin_result), std::move(status).WithPlugin(name)};
      }
      if (!status.IsRejected()) {
        return {PostFilterResult{}, Status::FromError(status.Message()).WithPlugin(name)};
      }
      if (plugin_result.nominating_info.mode != NominatingMode::kNoop) result = plugin_result;
      for (std::string& reason : status.Reasons()) reasons.push_back(std::move(reason));
      if (rejector.empty()) rejector = name;
    }
    return {std::move(result), Status(Code::kUnschedulable, std::move(reasons)).WithPlugin(rejector)};
  }();
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPostFilter, out.second.code(), start);
  return out;
}

Status Framework::RunPreScorePlugins(CycleState& state, const api::Pod& pod,
                                     const std::vector<const NodeInfo*>& nodes) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  Status result = [&]() -> Status {
    std::set<std::string, std::less<>> skipped;
    for (std::size_t i = 0; i < pre_score_.size(); ++i) {
      PreScorePlugin* plugin = pre_score_[i];
      state.set_scheduling_cycle_only_writes(pre_score_scheduling_cycle_only_[i]);
      Status status = TimedCall(SinkAt(plugin_sinks_.pre_score, i, sampled),
                                ExtensionPoint::kPreScore,
                                [&] { return plugin->PreScore(state, pod, nodes); });
      state.set_scheduling_cycle_only_writes(false);
      const std::string name(plugin->Name());
      if (status.IsSkip()) {
        skipped.insert(name);
        continue;
      }
      CountEvaluation(pre_score_slots_ + i);
      if (!status.IsSuccess()) {
        return WrapError("running PreScore plugin " + Quoted(name), status).WithPlugin(name);
      }
    }
    state.skip_score_plugins() = std::move(skipped);
    return Status();
  }();
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPreScore, result.code(), start);
  return result;
}

absl::StatusOr<std::vector<NodePluginScores>> Framework::RunScorePlugins(
    const CycleState& state, const api::Pod& pod, const std::vector<const NodeInfo*>& nodes) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  absl::StatusOr<std::vector<NodePluginScores>> out = RunScorePluginsUntimed(state, pod, nodes);
  if (timed) {
    ObserveExtensionPoint(ExtensionPoint::kScore, out.ok() ? Code::kSuccess : Code::kError, start);
  }
  return out;
}

absl::StatusOr<std::vector<NodePluginScores>> Framework::RunScorePluginsUntimed(
    const CycleState& state, const api::Pod& pod, const std::vector<const NodeInfo*>& nodes) {
  const bool sampled = state.record_plugin_metrics();
  const std::vector<std::uint16_t> active = ActiveScorePlugins(state);
  if (active.empty() || nodes.empty()) {
    std::vector<NodePluginScores> totals(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) totals[i].node = nodes[i];
    return totals;
  }

  // scores[k][i]: plugin active[k] on node i. Error texts are upstream's (they reach the
  // FailedScheduling event).
  std::vector<std::vector<NodeScore>> scores(active.size(), std::vector<NodeScore>(nodes.size()));
  base::Mutex error_mu;
  std::optional<absl::Status> first_error;
  services_.parallelizer->Until(nodes.size(), [&](std::size_t i, Parallelizer::Run& run) {
    for (std::size_t k = 0; k < active.size(); ++k) {
      ScorePlugin* plugin = score_[active[k]];
      CountEvaluation(score_slots_ + active[k]);
      auto [score, status] =
          TimedCall(SinkAt(plugin_sinks_.score, active[k], sampled), ExtensionPoint::kScore,
                    [&] { return plugin->Score(state, pod, *nodes[i]); });
      if (!status.IsSuccess()) {
        base::MutexLock lock(&error_mu);
        if (!first_error) first_error = ScoreError(*plugin, status);
        run.Cancel();
        return;
      }
      scores[k][i] = NodeScore{nodes[i], score};
    }
  }, GoroutineOperation::kScore);
  if (first_error) return *first_error;
  return NormalizeAndWeighUntimed(state, pod, active, scores, nodes);
}

absl::Status Framework::ScoreError(const ScorePlugin& plugin, const Status& status) {
  return absl::InternalError("running Score plugins: plugin " + Quoted(plugin.Name()) +
                             " failed with: " + status.Message());
}

std::vector<std::uint16_t> Framework::ActiveScorePlugins(const CycleState& state) const {
  std::vector<std::uint16_t> active;  // indexes into score_ of the plugins that run
  active.reserve(score_.size());
  for (std::size_t p = 0; p < score_.size(); ++p) {
    if (!state.skip_score_plugins().contains(score_[p]->Name())) {
      active.push_back(static_cast<std::uint16_t>(p));
    }
  }
  return active;
}

bool Framework::FilterPluginsAreNodeLocal(std::span<const std::uint16_t> filter_plugins) const {
  for (const std::uint16_t i : filter_plugins) {
    if (!filter_[i]->NodeLocalResults()) return false;
  }
  return true;
}

bool Framework::FilterPluginIsNodeLocal(std::uint16_t index) const {
  return filter_[index]->NodeLocalResults();
}

bool Framework::ScorePluginIsNodeLocal(std::uint16_t index, const api::Pod& pod) const {
  return score_[index]->ScoreIsNodeLocalFor(pod);
}

bool Framework::ScorePluginsAreNodeLocal(std::span<const std::uint16_t> score_plugins, const api::Pod& pod) const {
  for (const std::uint16_t i : score_plugins) {
    if (!score_[i]->ScoreIsNodeLocalFor(pod)) return false;
  }
  return true;
}

absl::Status Framework::ScoreNode(const CycleState& state, const api::Pod& pod,
                                  const NodeInfo& node,
                                  std::span<const std::uint16_t> score_plugins,
                                  std::span<std::int64_t> out) const {
  const bool sampled = state.record_plugin_metrics();
  for (std::size_t k = 0; k < score_plugins.size(); ++k) {
    ScorePlugin* plugin = score_[score_plugins[k]];
    CountEvaluation(score_slots_ + score_plugins[k]);
    auto [score, status] =
        TimedCall(SinkAt(plugin_sinks_.score, score_plugins[k], sampled), ExtensionPoint::kScore,
                  [&] { return plugin->Score(state, pod, node); });
    if (!status.IsSuccess()) return ScoreError(*plugin, status);
    out[k] = score;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<NodePluginScores>> Framework::NormalizeAndWeighScores(
    const CycleState& state, const api::Pod& pod, std::span<const std::uint16_t> score_plugins,
    std::vector<std::vector<NodeScore>>& scores, const std::vector<const NodeInfo*>& nodes,
    SteadyClock::time_point start) const {
  absl::StatusOr<std::vector<NodePluginScores>> out =
      NormalizeAndWeighUntimed(state, pod, score_plugins, scores, nodes);
  if (records_metrics()) {
    ObserveExtensionPoint(ExtensionPoint::kScore, out.ok() ? Code::kSuccess : Code::kError, start);
  }
  return out;
}

absl::StatusOr<std::vector<NodePluginScores>> Framework::NormalizeAndWeighUntimed(
    const CycleState& state, const api::Pod& pod, std::span<const std::uint16_t> active,
    std::vector<std::vector<NodeScore>>& scores, const std::vector<const NodeInfo*>& nodes) const {
  const bool sampled = state.record_plugin_metrics();
  std::vector<NodePluginScores> totals(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) totals[i].node = nodes[i];
  // Every plugin normalizes before any range check, as upstream's two phases.
  for (std::size_t k = 0; k < active.size(); ++k) {
    ScorePlugin* plugin = score_[active[k]];
    if (ScoreExtensions* ext = plugin->GetScoreExtensions()) {
      Status status = TimedCall(SinkAt(plugin_sinks_.score, active[k], sampled),
                                ExtensionPoint::kScoreExtensionNormalize,
                                [&] { return ext->NormalizeScore(state, pod, scores[k]); });
      if (!status.IsSuccess()) {
        return absl::InternalError("running Normalize on Score plugins: plugin " +
                                   Quoted(plugin->Name()) + " failed with: " + status.Message());
      }
    }
  }
  for (std::size_t k = 0; k < active.size(); ++k) {
    const std::vector<NodeScore>& column = scores[k];
    // Range check first, branch-free over the column; the loop below then only adds.
    std::int64_t low = kMinNodeScore;
    std::int64_t high = kMaxNodeScore;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      low = std::min(low, column[i].score);
      high = std::max(high, column[i].score);
    }
    if (low < kMinNodeScore || high > kMaxNodeScore) {
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::int64_t score = column[i].score;
        if (score <= kMaxNodeScore && score >= kMinNodeScore) continue;
        return absl::InternalError(
            "applying score defaultWeights on Score plugins: plugin " +
            Quoted(score_[active[k]]->Name()) + " returns an invalid score " +
            std::to_string(score) + ", it should in the range of [" +
            std::to_string(kMinNodeScore) + ", " + std::to_string(kMaxNodeScore) +
            "] after normalizing");
      }
    }
    const std::int64_t weight = score_weights_[active[k]];
    for (std::size_t i = 0; i < nodes.size(); ++i) totals[i].total_score += column[i].score * weight;
  }
  return totals;
}

Status Framework::RunReservePluginsReserve(CycleState& state, const api::Pod& pod,
                                           const std::string& node_name) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  Status result = [&]() -> Status {
    for (std::size_t i = 0; i < reserve_.size(); ++i) {
      ReservePlugin* plugin = reserve_[i];
      Status status = TimedCall(SinkAt(plugin_sinks_.reserve, i, sampled), ExtensionPoint::kReserve,
                                [&] { return plugin->Reserve(state, pod, node_name); });
      if (status.IsSuccess()) continue;
      const std::string name(plugin->Name());
      if (status.IsRejected()) return std::move(status).WithPlugin(name);
      return WrapError("running Reserve plugin " + Quoted(name), status).WithPlugin(name);
    }
    return Status();
  }();
  if (timed) ObserveExtensionPoint(ExtensionPoint::kReserve, result.code(), start);
  return result;
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const api::Pod& pod,
                                           const std::string& node_name) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  for (std::size_t i = reserve_.size(); i-- > 0;) {
    DurationSink* sink = SinkAt(plugin_sinks_.reserve, i, sampled);
    const SteadyClock::time_point plugin_start =
        sink != nullptr ? SteadyClock::now() : SteadyClock::time_point{};
    reserve_[i]->Unreserve(state, pod, node_name);
    // Unreserve cannot fail: upstream records Success.
    if (sink != nullptr) sink->Observe(ExtensionPoint::kUnreserve, Code::kSuccess, Since(plugin_start));
  }
  if (timed) ObserveExtensionPoint(ExtensionPoint::kUnreserve, Code::kSuccess, start);
}

Status Framework::RunPermitPlugins(CycleState& state, const api::Pod& pod,
                                   const std::string& node_name) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  Status result = RunPermitPluginsUntimed(state, pod, node_name);
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPermit, result.code(), start);
  return result;
}

Status Framework::RunPermitPluginsUntimed(CycleState& state, const api::Pod& pod,
                                          const std::string& node_name) {
  const bool sampled = state.record_plugin_metrics();
  std::map<std::string, std::chrono::milliseconds, std::less<>> waits;
  for (std::size_t i = 0; i < permit_.size(); ++i) {
    PermitPlugin* plugin = permit_[i];
    auto [status, timeout] =
        TimedCall(SinkAt(plugin_sinks_.permit, i, sampled), ExtensionPoint::kPermit,
                  [&] { return plugin->Permit(state, pod, node_name); });
    if (status.IsSuccess()) continue;
    const std::string name(plugin->Name());
    if (status.IsRejected()) return std::move(status).WithPlugin(name);
    if (status.IsWait()) {
      waits[name] = std::min<std::chrono::milliseconds>(timeout, kMaxPermitTimeout);
      continue;
    }
    return WrapError("running Permit plugin " + Quoted(name), status).WithPlugin(name);
  }
  if (waits.empty()) return Status();
  auto waiting = std::make_shared<WaitingPodImpl>(std::make_shared<const api::Pod>(pod), waits);
  {
    base::MutexLock lock(&waiting_mu_);
    waiting_[pod.metadata.uid] = std::move(waiting);
  }
  return Status(Code::kWait, {"one or more plugins asked to wait and no plugin rejected pod " +
                              Quoted(pod.metadata.name)});
}

Status Framework::WaitOnPermit(const api::Pod& pod) {
  std::shared_ptr<WaitingPodImpl> waiting;
  {
    base::MutexLock lock(&waiting_mu_);
    auto it = waiting_.find(pod.metadata.uid);
    if (it == waiting_.end()) return Status();
    waiting = it->second;
  }
  const auto start = std::chrono::steady_clock::now();
  Status status = waiting->Wait();
  if (services_.metrics_recorder != nullptr) {
    services_.metrics_recorder->ObservePermitWait(status.code(), std::chrono::steady_clock::now() - start);
  }
  {
    base::MutexLock lock(&waiting_mu_);
    waiting_.erase(pod.metadata.uid);
  }
  if (status.IsSuccess() || status.IsRejected()) return status;
  const std::string plugin = status.plugin();
  return WrapError("waiting on permit for pod", status).WithPlugin(plugin);
}

void Framework::IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) {
  std::vector<std::shared_ptr<WaitingPodImpl>> pods;
  {
    base::MutexLock lock(&waiting_mu_);
    for (auto& [uid, pod] : waiting_) pods.push_back(pod);
  }
  for (auto& pod : pods) fn(*pod);
}

bool Framework::RejectWaitingPod(std::string_view uid) {
  std::shared_ptr<WaitingPodImpl> pod;
  {
    base::MutexLock lock(&waiting_mu_);
    auto it = waiting_.find(uid);
    if (it == waiting_.end()) return false;
    pod = it->second;
  }
  pod->Reject("", "removed");
  return true;
}

bool Framework::PreemptWaitingPod(std::string_view uid, std::string_view plugin, std::string message) {
  std::shared_ptr<WaitingPodImpl> pod;
  {
    base::MutexLock lock(&waiting_mu_);
    auto it = waiting_.find(uid);
    if (it == waiting_.end()) return false;
    pod = it->second;
  }
  return pod->Preempt(plugin, std::move(message));
}

namespace {

// Bit `i` of a PreBind skip mask; plugins past the 64th are never skipped.
constexpr std::uint64_t PreBindBit(std::size_t i) { return i < 64 ? std::uint64_t{1} << i : 0; }

}  // namespace

Status Framework::RunPreBindPlugins(CycleState& state, const api::Pod& pod,
                                    const std::string& node_name, std::uint64_t skipped) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  Status result = [&]() -> Status {
    for (std::size_t i = 0; i < pre_bind_.size(); ++i) {
      if ((skipped & PreBindBit(i)) != 0) continue;
      PreBindPlugin* plugin = pre_bind_[i];
      Status status = TimedCall(SinkAt(plugin_sinks_.pre_bind, i, sampled), ExtensionPoint::kPreBind,
                                [&] { return plugin->PreBind(state, pod, node_name); });
      if (status.IsSuccess()) continue;
      const std::string name(plugin->Name());
      if (status.IsRejected()) return std::move(status).WithPlugin(name);
      return WrapError("running PreBind plugin " + Quoted(name), status).WithPlugin(name);
    }
    return Status();
  }();
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPreBind, result.code(), start);
  return result;
}

Status Framework::RunPreBindPreFlights(CycleState& state, const api::Pod& pod,
                                       const std::string& node_name, std::uint64_t& skipped) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  Status result = RunPreBindPreFlightsUntimed(state, pod, node_name, skipped);
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPreBindPreFlight, result.code(), start);
  return result;
}

Status Framework::RunPreBindPreFlightsUntimed(CycleState& state, const api::Pod& pod,
                                              const std::string& node_name, std::uint64_t& skipped) {
  skipped = 0;
  const bool sampled = state.record_plugin_metrics();
  Status result(Code::kSkip);
  for (std::size_t i = 0; i < pre_bind_.size(); ++i) {
    PreBindPlugin* plugin = pre_bind_[i];
    Status status = TimedCall(SinkAt(plugin_sinks_.pre_bind, i, sampled), ExtensionPoint::kPreBindPreFlight,
                              [&] { return plugin->PreBindPreFlight(state, pod, node_name); });
    switch (status.code()) {
      case Code::kSuccess:
        // Success when one or more plugins have work to do.
        result = Status();
        break;
      case Code::kSkip:
        skipped |= PreBindBit(i);
        break;
      case Code::kError:
        return WrapError("running PreBindPreFlight " + Quoted(plugin->Name()), status);
      default:
        return Status::FromError("PreBindPreFlight " + std::string(plugin->Name()) + " returned " +
                                 Quoted(CodeName(status.code())) +
                                 ", which is unsupported. It is supposed to return Success, Skip, or Error status");
    }
  }
  return result;
}

Status Framework::RunBindPlugins(CycleState& state, const api::Pod& pod,
                                 const std::string& node_name) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  Status result = [&]() -> Status {
    Status status(Code::kSkip);
    for (std::size_t i = 0; i < bind_.size(); ++i) {
      BindPlugin* plugin = bind_[i];
      status = TimedCall(SinkAt(plugin_sinks_.bind, i, sampled), ExtensionPoint::kBind,
                         [&] { return plugin->Bind(state, pod, node_name); });
      if (status.IsSkip()) continue;
      return BindPluginResult(*plugin, std::move(status));
    }
    return status;
  }();
  if (timed) ObserveExtensionPoint(ExtensionPoint::kBind, result.code(), start);
  return result;
}

// One RunBindPluginsAsync call, shared by the callbacks of its plugins.
struct Framework::AsyncBind {
  CycleState* state;
  const api::Pod* pod;
  const std::string* node_name;
  std::function<void(Status)> done;
  bool timed;
  bool sampled;
  SteadyClock::time_point start;
};

bool Framework::IsWaitingOnPermit(std::string_view uid) const {
  base::MutexLock lock(&waiting_mu_);
  return waiting_.find(uid) != waiting_.end();
}

void Framework::RunBindPluginsAsync(CycleState& state, const api::Pod& pod,
                                    const std::string& node_name, std::function<void(Status)> done) {
  if (!binds_without_blocking_) {
    // A caller's bug: BindAsync would block, or there is no plugin to call.
    std::fprintf(stderr, "RunBindPluginsAsync on profile \"%s\", which cannot bind without blocking\n",
                 profile_name_.c_str());
    std::abort();
  }
  const bool timed = records_metrics();
  auto bind = std::make_shared<AsyncBind>(AsyncBind{
      &state, &pod, &node_name, std::move(done), timed, state.record_plugin_metrics(),
      timed ? SteadyClock::now() : SteadyClock::time_point{}});
  BindFrom(std::move(bind), 0);
}

void Framework::BindFrom(std::shared_ptr<AsyncBind> bind, std::size_t index) {
  if (index == async_bind_.size()) {  // every plugin skipped: RunBindPlugins' answer
    if (bind->timed) ObserveExtensionPoint(ExtensionPoint::kBind, Code::kSkip, bind->start);
    bind->done(Status(Code::kSkip));
    return;
  }
  AsyncBindPlugin* plugin = async_bind_[index];
  DurationSink* sink = SinkAt(plugin_sinks_.bind, index, bind->sampled);
  const SteadyClock::time_point plugin_start = sink != nullptr ? SteadyClock::now() : SteadyClock::time_point{};
  CycleState& state = *bind->state;
  const api::Pod& pod = *bind->pod;
  const std::string& node_name = *bind->node_name;
  plugin->BindAsync(state, pod, node_name,
                    [this, bind = std::move(bind), index, plugin, sink, plugin_start](Status status) mutable {
                      if (sink != nullptr) sink->Observe(ExtensionPoint::kBind, status.code(), Since(plugin_start));
                      if (status.IsSkip()) {
                        BindFrom(std::move(bind), index + 1);
                        return;
                      }
                      Status result = BindPluginResult(*plugin, std::move(status));
                      if (bind->timed) ObserveExtensionPoint(ExtensionPoint::kBind, result.code(), bind->start);
                      bind->done(std::move(result));
                    });
}

void Framework::RunPostBindPlugins(CycleState& state, const api::Pod& pod,
                                   const std::string& node_name) {
  const bool timed = records_metrics();
  const SteadyClock::time_point start = timed ? SteadyClock::now() : SteadyClock::time_point{};
  const bool sampled = state.record_plugin_metrics();
  for (std::size_t i = 0; i < post_bind_.size(); ++i) {
    DurationSink* sink = SinkAt(plugin_sinks_.post_bind, i, sampled);
    const SteadyClock::time_point plugin_start =
        sink != nullptr ? SteadyClock::now() : SteadyClock::time_point{};
    post_bind_[i]->PostBind(state, pod, node_name);
    // PostBind cannot fail: upstream records Success.
    if (sink != nullptr) sink->Observe(ExtensionPoint::kPostBind, Code::kSuccess, Since(plugin_start));
  }
  if (timed) ObserveExtensionPoint(ExtensionPoint::kPostBind, Code::kSuccess, start);
}

}  // namespace ksched::framework
