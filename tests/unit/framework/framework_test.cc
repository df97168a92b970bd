// The per-profile runtime (framework/framework.h) with fake plugins registered in a Registry, ported
// from upstream's pkg/scheduler/framework/runtime/framework_test.go (v1.34) where it has the case
// (the upstream test name is in the TEST_CASE name): construction (multiPoint expansion, ordering,
// weights, validation errors, args), every extension point's run semantics and user-facing texts,
// nominated pods in Filter, Permit waits across threads, and the registered cluster events.
//
// As upstream, results are injected through the plugins' args (InjectedArgs), which also proves
// that the factory receives the profile's args.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "framework/framework.h"
#include "framework/parallelizer.h"
#include "framework/registry.h"
#include "framework/snapshot.h"
#include "test_objects.h"

namespace ksched::framework {
namespace {

using namespace std::chrono_literals;
using NameSet = std::set<std::string, std::less<>>;
using PluginLists = std::map<std::string, std::vector<std::string>>;
using testing::MakeNode;
using testing::PodFromJson;
using testing::PodInfoFromJson;

// Upstream's plugin names and injected reasons.
constexpr const char* kQueueSortPlugin = "no-op-queue-sort-plugin";
constexpr const char* kBindPlugin = "bind-plugin";
constexpr const char* kScoreWithNormalize1 = "score-with-normalize-plugin-1";
constexpr const char* kScoreWithNormalize2 = "score-with-normalize-plugin-2";
constexpr const char* kScorePlugin1 = "score-plugin-1";
constexpr const char* kScorePlugin2 = "score-plugin-2";
constexpr const char* kNotScore = "plugin-not-implementing-score";
constexpr const char* kDuplicate = "duplicate-plugin";
constexpr const char* kTestPlugin = "test-plugin";
constexpr const char* kPermitPlugin = "permit-plugin";
constexpr const char* kProfileName = "test-profile";
constexpr const char* kInjectReason = "injected status";
constexpr const char* kInjectFilterReason = "injected filter status";
constexpr const char* kInjectFailure = "injecting failure.";
// The CycleState key the fakes' AddPod writes (to see which Filter pass ran on the clone).
constexpr const char* kAddedMarker = "nominated-added";

// What a fake plugin answers (upstream injectedResult). Fields are in designated-initializer order.
struct Inj {
  std::int64_t score_res = 0;
  std::optional<std::int64_t> normalize_res{};  // nullopt: NormalizeScore leaves the scores
  Code score_status = Code::kSuccess;
  Code normalize_status = Code::kSuccess;
  PreFilterResult pre_filter_result{};
  Code pre_filter_status = Code::kSuccess;
  Code add_pod_status = Code::kSuccess;
  Code remove_pod_status = Code::kSuccess;
  Code filter_status = Code::kSuccess;
  std::optional<std::size_t> filter_max_pods{};  // Unschedulable on nodes with more pods
  std::optional<std::size_t> filter_min_pods{};  // Unschedulable on nodes with fewer pods
  Code post_filter_status = Code::kSuccess;
  PostFilterResult post_filter_result{};
  Code pre_score_status = Code::kSuccess;
  Code reserve_status = Code::kSuccess;
  Code permit_status = Code::kSuccess;
  std::chrono::milliseconds permit_timeout{0};
  Code pre_bind_status = Code::kSuccess;
  Code bind_status = Code::kSuccess;
  Code pre_enqueue_status = Code::kSuccess;
};

struct InjectedArgs final : PluginArgs {
  explicit InjectedArgs(Inj injected) : inj(std::move(injected)) {}
  Inj inj;
};

struct OtherArgs final : PluginArgs {};

// The calls the fakes saw, in order ("Reserve:a", "Filter:b pods=1 +state", ...).
class CallLog {
 public:
  void Add(std::string call) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(call));
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> calls_;
};

class Marker final : public StateData {
 public:
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<Marker>(); }
};

// Base of the fakes: a name, injected results, an optional call log.
class FakeBase : public virtual Plugin {
 public:
  FakeBase(std::string name, Inj inj, CallLog* log)
      : name_(std::move(name)), inj_(std::move(inj)), log_(log) {}
  std::string_view Name() const override { return name_; }

 protected:
  void Log(const std::string& point) const {
    if (log_ != nullptr) log_->Add(point + ":" + name_);
  }
  const std::string name_;
  const Inj inj_;
  CallLog* const log_;
};

// Upstream's TestPlugin: every extension point but PreEnqueue, answering what it was injected.
class FakePlugin final : public FakeBase,
                         public QueueSortPlugin,
                         public PreFilterPlugin,
                         public PreFilterExtensions,
                         public FilterPlugin,
                         public PostFilterPlugin,
                         public PreScorePlugin,
                         public ScorePlugin,
                         public ReservePlugin,
                         public PermitPlugin,
                         public PreBindPlugin,
                         public BindPlugin,
                         public PostBindPlugin {
 public:
  using FakeBase::FakeBase;

  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }

  std::pair<PreFilterResult, Status> PreFilter(CycleState&, const api::Pod&,
                                               const std::vector<NodeInfo*>&) override {
    Log("PreFilter");
    return {inj_.pre_filter_result, Status(inj_.pre_filter_status, {kInjectReason})};
  }
  PreFilterExtensions* GetPreFilterExtensions() override { return this; }
  Status AddPod(CycleState& state, const api::Pod&, const PodInfoPtr& to_add,
                const NodeInfo&) override {
    Log("AddPod " + to_add->pod().metadata.name);
    state.Write(kAddedMarker, std::make_unique<Marker>());
    return Status(inj_.add_pod_status, {kInjectReason});
  }
  Status RemovePod(CycleState&, const api::Pod&, const PodInfoPtr&, const NodeInfo&) override {
    Log("RemovePod");
    return Status(inj_.remove_pod_status, {kInjectReason});
  }

  Status Filter(const CycleState& state, const api::Pod&, const NodeInfo& node) override {
    const std::size_t pods = node.pods().size();
    Log("Filter pods=" + std::to_string(pods) +
        (state.Read(kAddedMarker) != nullptr ? " +state" : ""));
    if (inj_.filter_max_pods && pods > *inj_.filter_max_pods) {
      return Status(Code::kUnschedulable, {"too many pods"});
    }
    if (inj_.filter_min_pods && pods < *inj_.filter_min_pods) {
      return Status(Code::kUnschedulable, {"too few pods"});
    }
    return Status(inj_.filter_status, {kInjectFilterReason});
  }

  std::pair<PostFilterResult, Status> PostFilter(CycleState&, const api::Pod&,
                                                 const NodeToStatus&) override {
    Log("PostFilter");
    return {inj_.post_filter_result, Status(inj_.post_filter_status, {kInjectReason})};
  }

  Status PreScore(CycleState&, const api::Pod&, const std::vector<const NodeInfo*>&) override {
    Log("PreScore");
    return Status(inj_.pre_score_status, {kInjectReason});
  }
  std::pair<std::int64_t, Status> Score(const CycleState&, const api::Pod&,
                                        const NodeInfo&) override {
    if (inj_.score_status != Code::kSuccess) return {0, Status(inj_.score_status, {kInjectFailure})};
    return {inj_.score_res, Status()};
  }

  Status Reserve(CycleState&, const api::Pod&, const std::string&) override {
    Log("Reserve");
    return Status(inj_.reserve_status, {kInjectReason});
  }
  void Unreserve(CycleState&, const api::Pod&, const std::string&) override { Log("Unreserve"); }

  std::pair<Status, std::chrono::milliseconds> Permit(CycleState&, const api::Pod&,
                                                      const std::string&) override {
    Log("Permit");
    return {Status(inj_.permit_status, {kInjectReason}), inj_.permit_timeout};
  }
  Status PreBind(CycleState&, const api::Pod&, const std::string&) override {
    Log("PreBind");
    return Status(inj_.pre_bind_status, {kInjectReason});
  }
  Status Bind(CycleState&, const api::Pod&, const std::string& node_name) override {
    Log("Bind " + node_name);
    return Status(inj_.bind_status, {kInjectReason});
  }
  void PostBind(CycleState&, const api::Pod&, const std::string& node_name) override {
    Log("PostBind " + node_name);
  }
};

class FakePreEnqueue final : public FakeBase, public PreEnqueuePlugin {
 public:
  using FakeBase::FakeBase;
  Status PreEnqueue(const api::Pod&) override {
    Log("PreEnqueue");
    return Status(inj_.pre_enqueue_status, {kInjectReason});
  }
};

class FakeQueueSort final : public FakeBase, public QueueSortPlugin {
 public:
  using FakeBase::FakeBase;
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
};

class FakeBind final : public FakeBase, public BindPlugin {
 public:
  using FakeBase::FakeBase;
  Status Bind(CycleState&, const api::Pod&, const std::string&) override { return Status(); }
};

// A PreBind plugin with a PreFlight (as VolumeBinding): nothing to do (Skip) for a pod whose
// node is "node-skip", work for any other node.
class FakePreFlightPreBind final : public FakeBase, public PreBindPlugin {
 public:
  using FakeBase::FakeBase;
  Status PreBind(CycleState&, const api::Pod&, const std::string&) override { return Status(); }
  bool HasPreBindPreFlight() const override { return true; }
  Status PreBindPreFlight(CycleState&, const api::Pod&, const std::string& node) override {
    return node == "node-skip" ? Status(Code::kSkip) : Status();
  }
};

// A Bind plugin that also binds asynchronously: BindAsync answers its injected status from a thread
// of its own (joined when the plugin goes), as RestClusterApi answers from the transport's thread.
class FakeAsyncBind final : public FakeBase, public AsyncBindPlugin {
 public:
  using FakeBase::FakeBase;
  ~FakeAsyncBind() override {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      threads.swap(threads_);
    }
    for (std::thread& thread : threads) thread.join();
  }
  Status Bind(CycleState&, const api::Pod&, const std::string& node_name) override {
    Log("Bind " + node_name);
    return Status(inj_.bind_status, {kInjectReason});
  }
  bool CanBindAsync() const override { return true; }
  void BindAsync(CycleState&, const api::Pod&, const std::string& node_name, BindCallback done) override {
    Log("Bind " + node_name);
    std::lock_guard lock(mu_);
    threads_.emplace_back([status = Status(inj_.bind_status, {kInjectReason}), done = std::move(done)] {
      done(status);
    });
  }

 private:
  std::mutex mu_;
  std::vector<std::thread> threads_;  // guarded by mu_
};

// Upstream's TestScorePlugin: PreScore and Score, no NormalizeScore.
class FakeScore final : public FakeBase, public PreScorePlugin, public ScorePlugin {
 public:
  using FakeBase::FakeBase;
  Status PreScore(CycleState&, const api::Pod&, const std::vector<const NodeInfo*>&) override {
    return Status(inj_.pre_score_status, {kInjectReason});
  }
  std::pair<std::int64_t, Status> Score(const CycleState&, const api::Pod&,
                                        const NodeInfo&) override {
    if (inj_.score_status != Code::kSuccess) return {0, Status(inj_.score_status, {kInjectFailure})};
    return {inj_.score_res, Status()};
  }
};

// Upstream's TestScoreWithNormalizePlugin: Score and NormalizeScore.
class FakeScoreWithNormalize final : public FakeBase, public ScorePlugin, public ScoreExtensions {
 public:
  using FakeBase::FakeBase;
  std::pair<std::int64_t, Status> Score(const CycleState&, const api::Pod&,
                                        const NodeInfo&) override {
    if (inj_.score_status != Code::kSuccess) return {0, Status(inj_.score_status, {kInjectFailure})};
    return {inj_.score_res, Status()};
  }
  ScoreExtensions* GetScoreExtensions() override { return this; }
  Status NormalizeScore(const CycleState&, const api::Pod&, std::vector<NodeScore>& scores) override {
    Log("NormalizeScore");
    if (inj_.normalize_status != Code::kSuccess) return Status(inj_.normalize_status, {kInjectFailure});
    if (inj_.normalize_res) {
      for (NodeScore& score : scores) score.score = *inj_.normalize_res;
    }
    return Status();
  }
};

class FakeNotScore final : public FakeBase {
 public:
  using FakeBase::FakeBase;
};

class FakePreFilterOnly final : public FakeBase, public PreFilterPlugin {
 public:
  using FakeBase::FakeBase;
  std::pair<PreFilterResult, Status> PreFilter(CycleState&, const api::Pod&,
                                               const std::vector<NodeInfo*>&) override {
    return {PreFilterResult{}, Status()};
  }
};

class FakeFilterOnly final : public FakeBase, public FilterPlugin {
 public:
  using FakeBase::FakeBase;
  Status Filter(const CycleState&, const api::Pod&, const NodeInfo&) override { return Status(); }
};

// A Filter that declares its events.
class FakeFilterWithEvents final : public FakeBase, public FilterPlugin, public EnqueueExtensions {
 public:
  using FakeBase::FakeBase;
  Status Filter(const CycleState&, const api::Pod&, const NodeInfo&) override { return Status(); }
  std::vector<ClusterEventWithHint> EventsToRegister() const override {
    return {ClusterEventWithHint{ClusterEvent{EventResource::kNode, action::kAdd, "NodeAdd"}, nullptr}};
  }
};

// A factory making P with the injected results of its args (defaults without args).
template <typename P>
PluginFactory FactoryOf(std::string plugin_name, CallLog* log = nullptr) {
  return [plugin_name, log](const PluginArgs* args,
                            Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    absl::StatusOr<const InjectedArgs*> typed = ArgsAs<InjectedArgs>(args, plugin_name);
    if (!typed.ok()) return typed.status();
    Inj inj = *typed != nullptr ? (*typed)->inj : Inj{};
    return std::unique_ptr<Plugin>(std::make_unique<P>(plugin_name, std::move(inj), log));
  };
}

template <typename P>
void Register(Registry& registry, const std::string& name, CallLog* log = nullptr) {
  const absl::Status status = registry.Register(name, FactoryOf<P>(name, log));
  REQUIRE(status.ok());
}

// Upstream's package-level `registry`.
Registry DefaultRegistry(CallLog* log = nullptr) {
  Registry registry;
  Register<FakeScoreWithNormalize>(registry, kScoreWithNormalize1, log);
  Register<FakeScoreWithNormalize>(registry, kScoreWithNormalize2, log);
  Register<FakeScore>(registry, kScorePlugin1, log);
  Register<FakeScore>(registry, kScorePlugin2, log);
  Register<FakeNotScore>(registry, kNotScore, log);
  Register<FakePreFilterOnly>(registry, kDuplicate, log);
  Register<FakePlugin>(registry, kTestPlugin, log);
  Register<FakeQueueSort>(registry, kQueueSortPlugin, log);
  Register<FakeBind>(registry, kBindPlugin, log);
  return registry;
}

ProfileConfig Profile() {
  ProfileConfig profile;
  profile.scheduler_name = kProfileName;
  return profile;
}

void SetArgs(ProfileConfig& profile, const std::string& name, Inj inj) {
  profile.plugin_args[name] = std::make_shared<InjectedArgs>(std::move(inj));
}

// A fake plugin per spec: registered, given its injected results as args, enabled at `point`.
struct Spec {
  std::string name;
  Inj inj;
};
void AddFakes(Registry& registry, ProfileConfig& profile, PluginSet PluginsConfig::*point,
              const std::vector<Spec>& specs, CallLog* log = nullptr) {
  for (const Spec& spec : specs) {
    Register<FakePlugin>(registry, spec.name, log);
    SetArgs(profile, spec.name, spec.inj);
    (profile.plugins.*point).enabled.push_back(PluginRef{spec.name});
  }
}

class NullClusterApi final : public ClusterApi {
 public:
  Status BindPod(const api::Pod&, const std::string&) override { return Status(); }
  Status EvictVictim(const api::Pod&, const std::string&) override { return Status(); }
  Status ClearNominatedNodeName(const api::Pod&) override { return Status(); }
};

class NullRecorder final : public EventRecorder {
 public:
  void Eventf(const api::Pod&, const api::Pod*, std::string_view, std::string_view,
              std::string_view, std::string) override {}
};

class FakeNominator final : public PodNominator {
 public:
  std::vector<PodInfoPtr> NominatedPodsForNode(std::string_view node_name) const override {
    auto it = pods.find(std::string(node_name));
    return it == pods.end() ? std::vector<PodInfoPtr>{} : it->second;
  }
  bool HasNominatedPods() const override { return !pods.empty(); }
  std::map<std::string, std::vector<PodInfoPtr>> pods;
};

// The services a runtime borrows, and a snapshot of node1 and node2 (no pods).
struct Env {
  Parallelizer parallelizer{2};
  NullClusterApi cluster_api;
  NullRecorder recorder;
  FakeNominator nominator;
  MetricsRecorder* metrics_recorder = nullptr;
  std::unique_ptr<Snapshot> snapshot = Snapshot::FromObjects({MakeNode("node1"), MakeNode("node2")}, {});

  absl::StatusOr<std::unique_ptr<Framework>> Create(const Registry& registry,
                                                    const ProfileConfig& profile) {
    FrameworkServices services;
    services.parallelizer = &parallelizer;
    services.cluster_api = &cluster_api;
    services.event_recorder = &recorder;
    services.nominator = &nominator;
    services.metrics_recorder = metrics_recorder;
    absl::StatusOr<std::unique_ptr<Framework>> framework = Framework::Create(registry, profile, services);
    if (framework.ok()) (*framework)->SetSnapshot(snapshot.get());
    return framework;
  }

  // Upstream newFrameworkWithQueueSortAndBind: adds the no-op QueueSort and Bind plugins when the
  // profile has none; the framework must build.
  std::unique_ptr<Framework> Build(Registry registry, ProfileConfig profile) {
    if (registry.Find(kQueueSortPlugin) == nullptr) Register<FakeQueueSort>(registry, kQueueSortPlugin);
    if (registry.Find(kBindPlugin) == nullptr) Register<FakeBind>(registry, kBindPlugin);
    if (profile.plugins.queue_sort.enabled.empty()) {
      profile.plugins.queue_sort.enabled.push_back(PluginRef{kQueueSortPlugin});
    }
    if (profile.plugins.bind.enabled.empty()) profile.plugins.bind.enabled.push_back(PluginRef{kBindPlugin});
    absl::StatusOr<std::unique_ptr<Framework>> framework = Create(registry, profile);
    INFO(framework.status().ToString());
    REQUIRE(framework.ok());
    return *std::move(framework);
  }

  std::vector<const NodeInfo*> Nodes() const {
    return std::vector<const NodeInfo*>(snapshot->nodes().begin(), snapshot->nodes().end());
  }
};

Status NewStatus(Code code, std::vector<std::string> reasons = {}, std::string plugin = "") {
  return Status(code, std::move(reasons)).WithPlugin(std::move(plugin));
}
Status ErrorStatus(std::string message, std::string plugin = "") {
  return Status::FromError(std::move(message)).WithPlugin(std::move(plugin));
}

// Code, message and plugin must all agree.
void CheckStatus(const Status& got, const Status& want) {
  INFO("got: " << got.ToString() << "; want: " << want.ToString());
  CHECK(got.code() == want.code());
  CHECK(got.Message() == want.Message());
  CHECK(got.plugin() == want.plugin());
}

const std::shared_ptr<const api::Pod>& TestPod() {
  static const std::shared_ptr<const api::Pod> pod =
      PodFromJson(R"({"metadata": {"name": "pod", "namespace": "default", "uid": "pod-uid"}})");
  return pod;
}

// All extension points upstream's TestPlugin implements, each with just `name`.
PluginLists AllPoints(const std::string& name) {
  PluginLists lists;
  for (const char* point : {"QueueSortPlugin", "PreFilterPlugin", "FilterPlugin", "PostFilterPlugin",
                            "PreScorePlugin", "ScorePlugin", "ReservePlugin", "PermitPlugin",
                            "PreBindPlugin", "BindPlugin", "PostBindPlugin"}) {
    lists[point] = {name};
  }
  return lists;
}

std::vector<PluginRef> Refs(std::initializer_list<std::pair<const char*, std::int32_t>> refs) {
  std::vector<PluginRef> out;
  for (const auto& [name, weight] : refs) out.push_back(PluginRef{name, weight});
  return out;
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Construction

TEST_CASE("multiPoint expands and orders per point, with weights (TestNewFrameworkMultiPointExpansion)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    PluginsConfig plugins;
    PluginLists want;
    std::map<std::string, std::int64_t> want_weights;
    const char* want_error = nullptr;
  };
  std::vector<Case> cases;
  {
    Case c{"plugin expansion", {}, AllPoints(kTestPlugin), {{kTestPlugin, 5}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 5}});
    cases.push_back(c);
  }
  {
    Case c{"disable MultiPoint plugin at some extension points", {}, AllPoints(kTestPlugin), {}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}});
    c.plugins.pre_score.disabled = {kTestPlugin};
    c.plugins.score.disabled = {kTestPlugin};
    c.want.erase("PreScorePlugin");
    c.want.erase("ScorePlugin");
    cases.push_back(c);
  }
  {
    Case c{"Multiple MultiPoint plugins", {}, AllPoints(kTestPlugin), {{kTestPlugin, 1}, {kScorePlugin1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.want["PreScorePlugin"] = {kTestPlugin, kScorePlugin1};
    c.want["ScorePlugin"] = {kTestPlugin, kScorePlugin1};
    cases.push_back(c);
  }
  {
    Case c{"disable MultiPoint extension", {}, AllPoints(kTestPlugin), {{kTestPlugin, 1}, {kScorePlugin1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.pre_score.disabled = {"*"};
    c.want.erase("PreScorePlugin");
    c.want["ScorePlugin"] = {kTestPlugin, kScorePlugin1};
    cases.push_back(c);
  }
  {
    Case c{"Reorder MultiPoint plugins (specified extension takes precedence)", {}, AllPoints(kTestPlugin),
           {{kTestPlugin, 1}, {kScorePlugin1, 1}, {kScoreWithNormalize1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kScoreWithNormalize1, 0}, {kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.score.enabled = Refs({{kScorePlugin1, 0}, {kTestPlugin, 0}});
    c.want["PreScorePlugin"] = {kTestPlugin, kScorePlugin1};
    c.want["ScorePlugin"] = {kScorePlugin1, kTestPlugin, kScoreWithNormalize1};
    cases.push_back(c);
  }
  {
    Case c{"Reorder MultiPoint plugins (specified extension only takes precedence when it exists in "
           "MultiPoint)",
           {}, AllPoints(kTestPlugin), {{kTestPlugin, 1}, {kScorePlugin1, 1}, {kScoreWithNormalize1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.score.enabled = Refs({{kScoreWithNormalize1, 0}, {kScorePlugin1, 0}, {kTestPlugin, 0}});
    c.want["PreScorePlugin"] = {kTestPlugin, kScorePlugin1};
    c.want["ScorePlugin"] = {kScorePlugin1, kTestPlugin, kScoreWithNormalize1};
    cases.push_back(c);
  }
  {
    Case c{"Override MultiPoint plugins weights", {}, AllPoints(kTestPlugin), {{kScorePlugin1, 5}, {kTestPlugin, 3}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.score.enabled = Refs({{kScorePlugin1, 5}, {kTestPlugin, 3}});
    c.want["PreScorePlugin"] = {kTestPlugin, kScorePlugin1};
    c.want["ScorePlugin"] = {kScorePlugin1, kTestPlugin};
    cases.push_back(c);
  }
  {
    Case c{"disable and enable MultiPoint plugins with '*'", {}, {}, {{kScorePlugin1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kQueueSortPlugin, 0}, {kBindPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.multi_point.disabled = {"*"};
    c.want = {{"QueueSortPlugin", {kQueueSortPlugin}},
              {"PreScorePlugin", {kScorePlugin1}},
              {"ScorePlugin", {kScorePlugin1}},
              {"BindPlugin", {kBindPlugin}}};
    cases.push_back(c);
  }
  {
    Case c{"disable and enable MultiPoint plugin by name", {}, {}, {{kScorePlugin1, 1}}};
    c.plugins.multi_point.enabled = Refs({{kBindPlugin, 0}, {kQueueSortPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.multi_point.disabled = {kScorePlugin1};
    c.want = {{"QueueSortPlugin", {kQueueSortPlugin}},
              {"PreScorePlugin", {kScorePlugin1}},
              {"ScorePlugin", {kScorePlugin1}},
              {"BindPlugin", {kBindPlugin}}};
    cases.push_back(c);
  }
  {
    Case c{"Expect 'already registered' error", {}, {}, {}, "plugin \"test-plugin\" already registered as"};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kTestPlugin, 0}});
    cases.push_back(c);
  }
  {
    Case c{"Override MultiPoint plugins weights and avoid a plugin being loaded multiple times", {},
           AllPoints(kTestPlugin), {{kScorePlugin1, 5}, {kTestPlugin, 3}, {kScorePlugin2, 5}}};
    c.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
    c.plugins.score.enabled = Refs({{kScorePlugin1, 5}, {kScorePlugin2, 5}, {kTestPlugin, 3}});
    c.want["PreScorePlugin"] = {kTestPlugin, kScorePlugin1};
    c.want["ScorePlugin"] = {kScorePlugin1, kTestPlugin, kScorePlugin2};
    cases.push_back(c);
  }

  for (const Case& c : cases) {
    CAPTURE(c.name);
    Env env;
    ProfileConfig profile = Profile();
    profile.plugins = c.plugins;
    // Every score plugin scores 1, so that scoring it alone yields its weight.
    for (const char* name : {kTestPlugin, kScorePlugin1, kScorePlugin2, kScoreWithNormalize1}) {
      SetArgs(profile, name, Inj{.score_res = 1});
    }
    absl::StatusOr<std::unique_ptr<Framework>> framework = env.Create(DefaultRegistry(), profile);
    if (c.want_error != nullptr) {
      REQUIRE_FALSE(framework.ok());
      CHECK_THAT(std::string(framework.status().message()), Catch::Contains(c.want_error));
      continue;
    }
    INFO(framework.status().ToString());
    REQUIRE(framework.ok());
    CHECK((*framework)->ListPlugins() == c.want);

    const std::vector<std::string> scored = c.want.contains("ScorePlugin") ? c.want.at("ScorePlugin")
                                                                           : std::vector<std::string>{};
    REQUIRE(scored.size() == c.want_weights.size());
    for (const auto& [plugin, weight] : c.want_weights) {
      CAPTURE(plugin);
      CycleState state;
      for (const std::string& other : scored) {
        if (other != plugin) state.skip_score_plugins().insert(other);
      }
      auto totals = (*framework)->RunScorePlugins(state, *TestPod(), env.Nodes());
      REQUIRE(totals.ok());
      REQUIRE(totals->size() == 2);
      CHECK((*totals)[0].total_score == weight);
      CHECK((*totals)[1].total_score == weight);
    }
  }
}

TEST_CASE("construction rejects bad profiles with upstream's messages (TestNewFrameworkErrors, "
          "TestInitFrameworkWithScorePlugins)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::function<void(Registry&, ProfileConfig&)> setup;
    std::string want_error{};
  };
  auto with_qs_and_bind = [](ProfileConfig& profile) {
    profile.plugins.queue_sort.enabled = Refs({{kQueueSortPlugin, 0}});
    profile.plugins.bind.enabled = Refs({{kBindPlugin, 0}});
  };
  const std::vector<Case> cases = {
      {"enabled Score plugin doesn't exist in registry",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.score.enabled = Refs({{"notExist", 0}});
       },
       "ScorePlugin \"notExist\" does not exist"},
      {"multiPoint plugin doesn't exist in registry",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.multi_point.enabled = Refs({{"notExist", 0}});
       },
       // Upstream's expandMultiPointPlugins names the first extension point it expands.
       "PreFilterPlugin \"notExist\" does not exist"},
      {"multiPoint plugin doesn't exist, PreFilter disabled with *: the next point is named",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.pre_filter.disabled = {"*"};
         p.plugins.multi_point.enabled = Refs({{"notExist", 0}});
       },
       "FilterPlugin \"notExist\" does not exist"},
      {"multiPoint plugin doesn't exist, the points before Bind disabled with *: Bind is named",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         for (PluginSet* set : {&p.plugins.pre_filter, &p.plugins.filter, &p.plugins.post_filter, &p.plugins.reserve,
                                &p.plugins.pre_score, &p.plugins.score, &p.plugins.pre_bind}) {
           set->disabled = {"*"};
         }
         p.plugins.multi_point.enabled = Refs({{"notExist", 0}});
       },
       "BindPlugin \"notExist\" does not exist"},
      {"enabled Score plugin doesn't extend the ScorePlugin interface",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.score.enabled = Refs({{kNotScore, 0}});
       },
       "plugin \"plugin-not-implementing-score\" does not extend ScorePlugin plugin"},
      // v1.37's PodGroup points (upstream's type names); no plugin here extends them.
      {"placementScore plugin doesn't exist in registry",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.placement_score.enabled = Refs({{"Foo", 0}});
       },
       "PlacementScorePlugin \"Foo\" does not exist"},
      {"a registered plugin at placementGenerate does not extend it",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.placement_generate.enabled = Refs({{kBindPlugin, 0}});
       },
       "plugin \"bind-plugin\" does not extend PlacementGeneratePlugin plugin"},
      {"upstream's plugin of a PodGroup point elsewhere does not extend it",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.placement_score.enabled = Refs({{"TopologyPlacementGenerator", 0}});
       },
       "plugin \"TopologyPlacementGenerator\" does not extend PlacementScorePlugin plugin"},
      {"podGroupPostFilter plugin doesn't exist in registry",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.pod_group_post_filter.enabled = Refs({{"Foo", 0}});
       },
       "PodGroupPostFilterPlugin \"Foo\" does not exist"},
      {"a Bind plugin listed at Filter does not extend it",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.filter.enabled = Refs({{kBindPlugin, 0}});
       },
       "plugin \"bind-plugin\" does not extend FilterPlugin plugin"},
      {"duplicate plugin name",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.pre_filter.enabled = Refs({{kDuplicate, 1}, {kDuplicate, 1}});
       },
       "plugin \"duplicate-plugin\" already registered as \"PreFilterPlugin\""},
      {"no queue sort plugin",
       [](Registry&, ProfileConfig& p) { p.plugins.bind.enabled = Refs({{kBindPlugin, 0}}); },
       "only one queue sort plugin required for profile with scheduler name \"test-profile\", but got 0"},
      {"two queue sort plugins",
       [](Registry&, ProfileConfig& p) {
         p.plugins.queue_sort.enabled = Refs({{kQueueSortPlugin, 0}, {kTestPlugin, 0}});
         p.plugins.bind.enabled = Refs({{kBindPlugin, 0}});
       },
       "only one queue sort plugin required for profile with scheduler name \"test-profile\", but got 2"},
      {"no bind plugin",
       [](Registry&, ProfileConfig& p) { p.plugins.queue_sort.enabled = Refs({{kQueueSortPlugin, 0}}); },
       "at least one bind plugin is needed for profile with scheduler name \"test-profile\""},
      {"negative score weight",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.score.enabled = Refs({{kScorePlugin1, -1}});
       },
       "score plugin \"score-plugin-1\" has a negative weight -1"},
      {"a failing factory",
       [&](Registry& r, ProfileConfig& p) {
         with_qs_and_bind(p);
         const absl::Status status = r.Register(
             "failing", [](const PluginArgs*, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
               return absl::InvalidArgumentError("boom");
             });
         REQUIRE(status.ok());
         p.plugins.filter.enabled = Refs({{"failing", 0}});
       },
       "initializing plugin \"failing\": boom"},
      {"args of another type",
       [&](Registry&, ProfileConfig& p) {
         with_qs_and_bind(p);
         p.plugins.score.enabled = Refs({{kScorePlugin1, 0}});
         p.plugin_args[kScorePlugin1] = std::make_shared<OtherArgs>();
       },
       "initializing plugin \"score-plugin-1\": want args of the right type for plugin score-plugin-1"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Env env;
    Registry registry = DefaultRegistry();
    ProfileConfig profile = Profile();
    c.setup(registry, profile);
    absl::StatusOr<std::unique_ptr<Framework>> framework = env.Create(registry, profile);
    REQUIRE_FALSE(framework.ok());
    CHECK(framework.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(framework.status().message()) == c.want_error);
  }
}

TEST_CASE("upstream's own plugin of each PodGroup point is accepted, inert while workload scheduling is off",
          "[framework][runtime]") {
  Env env;
  ProfileConfig profile = Profile();
  profile.plugins.queue_sort.enabled = Refs({{kQueueSortPlugin, 0}});
  profile.plugins.bind.enabled = Refs({{kBindPlugin, 0}});
  profile.plugins.placement_generate.enabled = Refs({{"TopologyPlacementGenerator", 0}});
  profile.plugins.placement_score.enabled = Refs({{"PodGroupPodsCount", 3}});
  profile.plugins.pod_group_post_filter.enabled = Refs({{"DynamicResources", 0}});
  CHECK(env.Create(DefaultRegistry(), profile).ok());
}

TEST_CASE("Score plugin lists that build (TestInitFrameworkWithScorePlugins)", "[framework][runtime]") {
  for (const std::vector<PluginRef>& score : {std::vector<PluginRef>{}, Refs({{kScorePlugin1, 0}}),
                                              Refs({{kScoreWithNormalize1, 0}})}) {
    Env env;
    ProfileConfig profile = Profile();
    profile.plugins.score.enabled = score;
    std::unique_ptr<Framework> framework = env.Build(DefaultRegistry(), profile);
    CHECK(framework->HasScorePlugins() == !score.empty());
  }
}

TEST_CASE("Create requires a parallelizer and an event recorder", "[framework][runtime]") {
  ProfileConfig profile = Profile();
  FrameworkServices services;  // nothing
  absl::StatusOr<std::unique_ptr<Framework>> framework =
      Framework::Create(DefaultRegistry(), profile, services);
  REQUIRE_FALSE(framework.ok());
  CHECK(framework.status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("a factory receives its plugin's args (nullptr without) and the runtime as Handle",
          "[framework][runtime]") {
  std::map<std::string, const PluginArgs*> seen_args;
  std::map<std::string, const Handle*> seen_handles;
  Registry registry;
  for (const char* name : {"with-args", "without-args"}) {
    const absl::Status status = registry.Register(
        name, [&, plugin_name = std::string(name)](const PluginArgs* args, Handle& handle)
                  -> absl::StatusOr<std::unique_ptr<Plugin>> {
          seen_args[plugin_name] = args;
          seen_handles[plugin_name] = &handle;
          CHECK(handle.profile_name() == kProfileName);
          return std::unique_ptr<Plugin>(std::make_unique<FakeFilterOnly>(plugin_name, Inj{}, nullptr));
        });
    REQUIRE(status.ok());
  }
  ProfileConfig profile = Profile();
  profile.percentage_of_nodes_to_score = 35;
  profile.plugins.filter.enabled = Refs({{"with-args", 0}, {"without-args", 0}});
  auto args = std::make_shared<OtherArgs>();
  profile.plugin_args["with-args"] = args;
  profile.plugin_args["not-enabled"] = std::make_shared<OtherArgs>();  // ignored, as upstream
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CHECK(seen_args.size() == 2);
  CHECK(seen_args["with-args"] == args.get());
  CHECK(seen_args["without-args"] == nullptr);
  CHECK(seen_handles["with-args"] == static_cast<const Handle*>(framework.get()));
  CHECK(framework->profile_name() == kProfileName);
  CHECK(framework->percentage_of_nodes_to_score() == std::optional<std::int32_t>(35));
  CHECK(framework->ListPlugins().at("FilterPlugin") == std::vector<std::string>{"with-args", "without-args"});
}

TEST_CASE("score weights: 0 means 1, and the Score entry beats multiPoint even when 0",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<PluginRef> multi_point;
    std::vector<PluginRef> score;
    std::int64_t want_weight;
  };
  const Case cases[] = {
      {"unset weight", {}, Refs({{kScorePlugin1, 0}}), 1},
      {"multiPoint weight", Refs({{kScorePlugin1, 7}}), {}, 7},
      {"score entry weight 0 beats multiPoint's 7", Refs({{kScorePlugin1, 7}}), Refs({{kScorePlugin1, 0}}), 1},
      {"score entry weight 4 beats multiPoint's 7", Refs({{kScorePlugin1, 7}}), Refs({{kScorePlugin1, 4}}), 4},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Env env;
    ProfileConfig profile = Profile();
    profile.plugins.multi_point.enabled = c.multi_point;
    profile.plugins.score.enabled = c.score;
    SetArgs(profile, kScorePlugin1, Inj{.score_res = 10});
    std::unique_ptr<Framework> framework = env.Build(DefaultRegistry(), profile);
    CycleState state;
    auto totals = framework->RunScorePlugins(state, *TestPod(), env.Nodes());
    REQUIRE(totals.ok());
    CHECK((*totals)[0].total_score == 10 * c.want_weight);
  }
}

TEST_CASE("disabled '*' at a point keeps the point's own entries and drops multiPoint's",
          "[framework][runtime]") {
  Env env;
  ProfileConfig profile = Profile();
  profile.plugins.multi_point.enabled = Refs({{kTestPlugin, 0}, {kScorePlugin1, 0}});
  profile.plugins.pre_score.enabled = Refs({{kScorePlugin1, 0}});
  profile.plugins.pre_score.disabled = {"*"};
  profile.plugins.filter.disabled = {"*"};
  profile.plugins.queue_sort.enabled = Refs({{kTestPlugin, 0}});  // the one QueueSort
  std::unique_ptr<Framework> framework = env.Build(DefaultRegistry(), profile);
  const PluginLists lists = framework->ListPlugins();
  CHECK(lists.at("PreScorePlugin") == std::vector<std::string>{kScorePlugin1});
  CHECK_FALSE(lists.contains("FilterPlugin"));
  CHECK_FALSE(framework->HasFilterPlugins());
  CHECK(lists.at("PreFilterPlugin") == std::vector<std::string>{kTestPlugin});
}

TEST_CASE("registered events: plugins without EnqueueExtensions get the wildcard, once",
          "[framework][runtime]") {
  Registry registry = DefaultRegistry();
  Register<FakeFilterOnly>(registry, "no-ext");
  Register<FakeFilterWithEvents>(registry, "with-ext");
  ProfileConfig profile = Profile();
  profile.plugins.pre_filter.enabled = Refs({{kTestPlugin, 0}});
  profile.plugins.filter.enabled = Refs({{"no-ext", 0}, {"with-ext", 0}, {kTestPlugin, 0}});
  profile.plugins.reserve.enabled = Refs({{kTestPlugin, 0}});
  profile.plugins.score.enabled = Refs({{kScorePlugin1, 0}});  // Score cannot reject: no events
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  const auto& events = framework->registered_events();
  REQUIRE(events.size() == 3);
  CHECK(events[0].first == kTestPlugin);
  CHECK(events[0].second.event.IsWildCard());
  CHECK(events[1].first == "no-ext");
  CHECK(events[1].second.event.IsWildCard());
  CHECK(events[2].first == "with-ext");
  CHECK(events[2].second.event.resource == EventResource::kNode);
  CHECK(events[2].second.event.action == action::kAdd);
  CHECK(events[2].second.event.label == "NodeAdd");
}

// ------------------------------------------------------------------------------------------------
// PreEnqueue, PreFilter, Filter, PostFilter

TEST_CASE("RunPreEnqueuePlugins: the first non-success wins (TestPreEnqueuePlugins)", "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    Status want;
    std::vector<std::string> want_calls;
  };
  const std::vector<Case> cases = {
      {"no plugins", {}, Status(), {}},
      {"success", {{"a", {}}, {"b", {}}}, Status(), {"PreEnqueue:a", "PreEnqueue:b"}},
      {"gated by the first rejection",
       {{"a", {}}, {"gate", Inj{.pre_enqueue_status = Code::kUnschedulable}}, {"c", {}}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "gate"),
       {"PreEnqueue:a", "PreEnqueue:gate"}},
      {"an error is wrapped",
       {{"err", Inj{.pre_enqueue_status = Code::kError}}},
       ErrorStatus("running PreEnqueue plugin \"err\": injected status", "err"),
       {"PreEnqueue:err"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    for (const Spec& spec : c.plugins) {
      Register<FakePreEnqueue>(registry, spec.name, &log);
      SetArgs(profile, spec.name, spec.inj);
      profile.plugins.pre_enqueue.enabled.push_back(PluginRef{spec.name});
    }
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CheckStatus(framework->RunPreEnqueuePlugins(*TestPod()), c.want);
    CHECK(log.calls() == c.want_calls);
  }
}

TEST_CASE("RunPreFilterPlugins: skips, rejections, errors and merged results (TestRunPreFilterPlugins)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    std::optional<NameSet> want_result;  // nullopt: all nodes
    NameSet want_skipped;
    Status want;
    NameSet want_with_nodes;
    std::vector<std::string> want_ran;
  };
  auto only = [](NameSet names) { return PreFilterResult{std::move(names)}; };
  const std::vector<Case> cases = {
      {"all PreFilter returned success",
       {{"success1", {}}, {"success2", {}}},
       std::nullopt, {}, Status(), {}, {"success1", "success2"}},
      {"one PreFilter plugin returned success, but another PreFilter plugin returned non-success",
       {{"success", {}}, {"error", Inj{.pre_filter_status = Code::kError}}},
       std::nullopt, {}, ErrorStatus("running PreFilter plugin \"error\": injected status", "error"), {},
       {"success", "error"}},
      {"one PreFilter plugin returned skip, but another PreFilter plugin returned non-success",
       {{"skip", Inj{.pre_filter_status = Code::kSkip}}, {"error", Inj{.pre_filter_status = Code::kError}}},
       std::nullopt, {"skip"}, ErrorStatus("running PreFilter plugin \"error\": injected status", "error"), {},
       {"skip", "error"}},
      {"all PreFilter plugins returned skip",
       {{"skip1", Inj{.pre_filter_status = Code::kSkip}},
        {"skip2", Inj{.pre_filter_status = Code::kSkip}},
        {"skip3", Inj{.pre_filter_status = Code::kSkip}}},
       std::nullopt, {"skip1", "skip2", "skip3"}, Status(), {}, {"skip1", "skip2", "skip3"}},
      {"some PreFilter plugins returned skip",
       {{"skip1", Inj{.pre_filter_status = Code::kSkip}},
        {"success1", {}},
        {"skip2", Inj{.pre_filter_status = Code::kSkip}},
        {"success2", {}}},
       std::nullopt, {"skip1", "skip2"}, Status(), {}, {"skip1", "success1", "skip2", "success2"}},
      {"one PreFilter plugin returned Unschedulable, but another PreFilter plugin should be executed",
       {{"unschedulable", Inj{.pre_filter_status = Code::kUnschedulable}},
        {"skip", Inj{.pre_filter_status = Code::kSkip}}},
       std::nullopt, {"skip"}, NewStatus(Code::kUnschedulable, {kInjectReason}, "unschedulable"), {},
       {"unschedulable", "skip"}},
      {"one PreFilter plugin returned UnschedulableAndUnresolvable, and all other plugins aren't executed",
       {{"narrow", Inj{.pre_filter_result = only({"node1"})}},
        {"unresolvable", Inj{.pre_filter_status = Code::kUnschedulableAndUnresolvable}},
        {"skip", Inj{.pre_filter_status = Code::kSkip}}},
       std::nullopt, {}, NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectReason}, "unresolvable"), {},
       {"narrow", "unresolvable"}},
      {"all nodes are filtered out by prefilter result, but other plugins aren't executed",
       {{"reject-all-nodes", Inj{.pre_filter_result = only({})}}, {"skip", Inj{.pre_filter_status = Code::kSkip}}},
       NameSet{}, {},
       NewStatus(Code::kUnschedulableAndUnresolvable, {"node(s) didn't satisfy plugin reject-all-nodes"}),
       {"reject-all-nodes"}, {"reject-all-nodes"}},
      {"several plugins whose results do not intersect are listed sorted",
       {{"zeta", Inj{.pre_filter_result = only({"node1"})}},
        {"all", {}},
        {"alpha", Inj{.pre_filter_result = only({"node2"})}},
        {"never", {}}},
       NameSet{}, {},
       NewStatus(Code::kUnschedulableAndUnresolvable,
                 {"node(s) didn't satisfy plugin(s) [alpha zeta] simultaneously"}),
       {"alpha", "zeta"}, {"zeta", "all", "alpha"}},
      {"results are intersected; the narrowing plugins are reported",
       {{"a", Inj{.pre_filter_result = only({"node1", "node2"})}},
        {"all", {}},
        {"b", Inj{.pre_filter_result = only({"node2", "node3"})}}},
       NameSet{"node2"}, {}, Status(), {"a", "b"}, {"a", "all", "b"}},
      {"an Unschedulable plugin does not stop the merge",
       {{"a", Inj{.pre_filter_result = only({"node1"})}},
        {"unschedulable", Inj{.pre_filter_status = Code::kUnschedulable}}},
       NameSet{"node1"}, {}, NewStatus(Code::kUnschedulable, {kInjectReason}, "unschedulable"), {"a"},
       {"a", "unschedulable"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::pre_filter, c.plugins, &log);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    state.skip_filter_plugins().insert("stale");  // replaced by the run
    NameSet with_nodes;
    auto [result, status] = framework->RunPreFilterPlugins(state, *TestPod(), with_nodes);
    CHECK(result.node_names == c.want_result);
    CheckStatus(status, c.want);
    CHECK(state.skip_filter_plugins() == c.want_skipped);
    CHECK(with_nodes == c.want_with_nodes);
    std::vector<std::string> want_calls;
    for (const std::string& name : c.want_ran) want_calls.push_back("PreFilter:" + name);
    CHECK(log.calls() == want_calls);
  }
}

TEST_CASE("RunPreFilterExtensionAddPod/RemovePod: skipped plugins are left out, errors wrapped "
          "(TestRunPreFilterExtensionAddPod, TestRunPreFilterExtensionRemovePod)",
          "[framework][runtime]") {
  CallLog log;
  Registry registry;
  ProfileConfig profile = Profile();
  AddFakes(registry, profile, &PluginsConfig::pre_filter,
           {{"ok", {}},
            {"skipped", Inj{.add_pod_status = Code::kError, .remove_pod_status = Code::kError}},
            {"failing", Inj{.add_pod_status = Code::kError, .remove_pod_status = Code::kUnschedulable}}},
           &log);
  Register<FakePreFilterOnly>(registry, "no-extensions");
  profile.plugins.pre_filter.enabled.push_back(PluginRef{"no-extensions"});
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CycleState state;
  state.skip_filter_plugins().insert("skipped");
  const PodInfoPtr other = PodInfoFromJson(R"({"metadata": {"name": "other", "uid": "other"}})");
  const NodeInfo& node = *env.snapshot->nodes()[0];
  CheckStatus(framework->RunPreFilterExtensionAddPod(state, *TestPod(), other, node),
              ErrorStatus("running AddPod on PreFilter plugin \"failing\": injected status"));
  CheckStatus(framework->RunPreFilterExtensionRemovePod(state, *TestPod(), other, node),
              ErrorStatus("running RemovePod on PreFilter plugin \"failing\": injected status"));
  CHECK(log.calls() == std::vector<std::string>{"AddPod other:ok", "AddPod other:failing", "RemovePod:ok",
                                                "RemovePod:failing"});
}

TEST_CASE("RunFilterPlugins: the first rejection wins and names its plugin (TestFilterPlugins)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    NameSet skipped;
    Status want;
  };
  auto filter = [](Code code) { return Inj{.filter_status = code}; };
  auto error = [](const std::string& plugin) {
    return ErrorStatus("running \"" + plugin + "\" filter plugin: injected filter status", plugin);
  };
  const std::vector<Case> cases = {
      {"SuccessFilter", {{"TestPlugin", filter(Code::kSuccess)}}, {}, Status()},
      {"ErrorFilter", {{"TestPlugin", filter(Code::kError)}}, {}, error("TestPlugin")},
      {"UnschedulableFilter", {{"TestPlugin", filter(Code::kUnschedulable)}}, {},
       NewStatus(Code::kUnschedulable, {kInjectFilterReason}, "TestPlugin")},
      {"UnschedulableAndUnresolvableFilter", {{"TestPlugin", filter(Code::kUnschedulableAndUnresolvable)}}, {},
       NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectFilterReason}, "TestPlugin")},
      {"ErrorAndErrorFilters", {{"TestPlugin1", filter(Code::kError)}, {"TestPlugin2", filter(Code::kError)}}, {},
       error("TestPlugin1")},
      {"UnschedulableAndUnschedulableFilters",
       {{"TestPlugin1", filter(Code::kUnschedulable)}, {"TestPlugin2", filter(Code::kUnschedulable)}}, {},
       NewStatus(Code::kUnschedulable, {kInjectFilterReason}, "TestPlugin1")},
      {"UnschedulableAndUnschedulableAndUnresolvableFilters",
       {{"TestPlugin1", filter(Code::kUnschedulableAndUnresolvable)}, {"TestPlugin2", filter(Code::kUnschedulable)}},
       {}, NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectFilterReason}, "TestPlugin1")},
      {"SuccessAndSuccessFilters", {{"TestPlugin1", filter(Code::kSuccess)}, {"TestPlugin2", filter(Code::kSuccess)}},
       {}, Status()},
      {"SuccessAndSkipFilters", {{"TestPlugin1", filter(Code::kSuccess)}, {"TestPlugin2", filter(Code::kError)}},
       {"TestPlugin2"}, Status()},
      {"ErrorAndSuccessFilters", {{"TestPlugin1", filter(Code::kError)}, {"TestPlugin2", filter(Code::kSuccess)}},
       {}, error("TestPlugin1")},
      {"SuccessAndErrorFilters", {{"TestPlugin1", filter(Code::kSuccess)}, {"TestPlugin2", filter(Code::kError)}},
       {}, error("TestPlugin2")},
      {"SuccessAndUnschedulableFilters",
       {{"TestPlugin1", filter(Code::kSuccess)}, {"TestPlugin2", filter(Code::kUnschedulable)}}, {},
       NewStatus(Code::kUnschedulable, {kInjectFilterReason}, "TestPlugin2")},
      {"a Filter answering Skip is an error", {{"TestPlugin", filter(Code::kSkip)}}, {}, error("TestPlugin")},
      {"a Filter answering Wait is an error", {{"TestPlugin", filter(Code::kWait)}}, {}, error("TestPlugin")},
      {"Pending is a rejection", {{"TestPlugin", filter(Code::kPending)}}, {},
       NewStatus(Code::kPending, {kInjectFilterReason}, "TestPlugin")},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::filter, c.plugins);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    state.skip_filter_plugins() = c.skipped;
    CheckStatus(framework->RunFilterPlugins(state, *TestPod(), *env.snapshot->nodes()[0]), c.want);
  }
}

TEST_CASE("RunFilterPluginsWithNominatedPods: pass 1 with nominated pods of >= priority, pass 2 "
          "without (TestFilterPluginsWithNominatedPods)",
          "[framework][runtime]") {
  const auto low_pod = PodFromJson(R"({"metadata": {"name": "low", "uid": "low"}, "spec": {"priority": 0}})");
  const auto high_pod = PodFromJson(R"({"metadata": {"name": "high", "uid": "high"}, "spec": {"priority": 1000}})");
  const PodInfoPtr low = PodInfo::CreateOrDie(low_pod);
  const PodInfoPtr high = PodInfo::CreateOrDie(high_pod);
  const PodInfoPtr equal =
      PodInfoFromJson(R"({"metadata": {"name": "equal", "uid": "equal"}, "spec": {"priority": 1000}})");
  // The pod being scheduled, nominated itself (e.g. by an earlier preemption).
  const PodInfoPtr self = PodInfoFromJson(R"({"metadata": {"name": "high", "uid": "high"}, "spec": {"priority": 1000}})");

  struct Case {
    const char* name;
    std::optional<Spec> pre_filter;
    std::optional<Spec> filter;
    std::shared_ptr<const api::Pod> pod;
    std::vector<PodInfoPtr> nominated;
    Status want;
    std::vector<std::string> want_calls;
  };
  const std::vector<Case> cases = {
      {"node has no nominated pod", std::nullopt, Spec{"TestPlugin2", {}}, low_pod, {}, Status(),
       {"Filter pods=0:TestPlugin2"}},
      {"node has a high-priority nominated pod and all filters succeed", Spec{"TestPlugin1", {}},
       Spec{"TestPlugin2", {}}, low_pod, {high}, Status(),
       {"AddPod high:TestPlugin1", "Filter pods=1 +state:TestPlugin2", "Filter pods=0:TestPlugin2"}},
      {"an equal-priority nominated pod counts too", Spec{"TestPlugin1", {}}, Spec{"TestPlugin2", {}}, high_pod,
       {equal}, Status(),
       {"AddPod equal:TestPlugin1", "Filter pods=1 +state:TestPlugin2", "Filter pods=0:TestPlugin2"}},
      {"node has a high-priority nominated pod and pre filters fail",
       Spec{"TestPlugin1", Inj{.add_pod_status = Code::kError}}, std::nullopt, low_pod, {high},
       ErrorStatus("running AddPod on PreFilter plugin \"TestPlugin1\": injected status"),
       {"AddPod high:TestPlugin1"}},
      {"node has a high-priority nominated pod and filters fail", Spec{"TestPlugin1", {}},
       Spec{"TestPlugin2", Inj{.filter_status = Code::kError}}, low_pod, {high},
       ErrorStatus("running \"TestPlugin2\" filter plugin: injected filter status", "TestPlugin2"),
       {"AddPod high:TestPlugin1", "Filter pods=1 +state:TestPlugin2"}},
      {"node has a low-priority nominated pod and pre filters return unschedulable",
       Spec{"TestPlugin1", Inj{.add_pod_status = Code::kUnschedulable}}, Spec{"TestPlugin2", {}}, high_pod, {low},
       Status(), {"Filter pods=0:TestPlugin2"}},
      {"the pod itself is not added", Spec{"TestPlugin1", {}}, Spec{"TestPlugin2", {}}, high_pod, {self},
       Status(), {"Filter pods=0:TestPlugin2"}},
      {"a rejection in pass 1 ends the run", Spec{"TestPlugin1", {}},
       Spec{"TestPlugin2", Inj{.filter_max_pods = 0}}, low_pod, {high},
       NewStatus(Code::kUnschedulable, {"too many pods"}, "TestPlugin2"),
       {"AddPod high:TestPlugin1", "Filter pods=1 +state:TestPlugin2"}},
      {"pass 2 must pass too", Spec{"TestPlugin1", {}}, Spec{"TestPlugin2", Inj{.filter_min_pods = 1}}, low_pod,
       {high}, NewStatus(Code::kUnschedulable, {"too few pods"}, "TestPlugin2"),
       {"AddPod high:TestPlugin1", "Filter pods=1 +state:TestPlugin2", "Filter pods=0:TestPlugin2"}},
      {"only pods of >= priority are added", Spec{"TestPlugin1", {}}, Spec{"TestPlugin2", {}}, high_pod,
       {low, equal}, Status(),
       {"AddPod equal:TestPlugin1", "Filter pods=1 +state:TestPlugin2", "Filter pods=0:TestPlugin2"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    if (c.pre_filter) AddFakes(registry, profile, &PluginsConfig::pre_filter, {*c.pre_filter}, &log);
    if (c.filter) AddFakes(registry, profile, &PluginsConfig::filter, {*c.filter}, &log);
    Env env;
    env.nominator.pods["node1"] = c.nominated;
    env.nominator.pods["node2"] = {high};  // another node's nominations do not matter
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    const NodeInfo& node = *env.snapshot->nodes()[0];
    REQUIRE(node.name() == "node1");
    CheckStatus(framework->RunFilterPluginsWithNominatedPods(state, *c.pod, node), c.want);
    CHECK(log.calls() == c.want_calls);
    // Pass 1 ran on copies.
    CHECK(node.pods().empty());
    CHECK(state.Read(kAddedMarker) == nullptr);
  }
}

TEST_CASE("RunPostFilterPlugins: success returns at once, reasons aggregate (TestPostFilterPlugins)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    Status want;
    std::string want_nominated;
    std::vector<std::string> want_ran;
  };
  auto post = [](Code code, std::string nominated = "") {
    Inj inj{.post_filter_status = code};
    if (!nominated.empty()) inj.post_filter_result.nominating_info = {std::move(nominated), NominatingMode::kOverride};
    return inj;
  };
  const std::vector<Case> cases = {
      {"a single plugin makes a Pod schedulable", {{"TestPlugin", post(Code::kSuccess, "node1")}},
       NewStatus(Code::kSuccess, {kInjectReason}), "node1", {"TestPlugin"}},
      {"plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod schedulable",
       {{"TestPlugin1", post(Code::kUnschedulable)}, {"TestPlugin2", post(Code::kSuccess, "node2")}},
       NewStatus(Code::kSuccess, {kInjectReason}), "node2", {"TestPlugin1", "TestPlugin2"}},
      {"plugin1 makes a Pod schedulable, followed by plugin2 which cannot make the Pod schedulable",
       {{"TestPlugin1", post(Code::kSuccess)}, {"TestPlugin2", post(Code::kUnschedulable)}},
       NewStatus(Code::kSuccess, {kInjectReason}), "", {"TestPlugin1"}},
      {"plugin1 errors, followed by plugin2 which makes the Pod schedulable",
       {{"TestPlugin1", post(Code::kError)}, {"TestPlugin2", post(Code::kSuccess)}},
       ErrorStatus(kInjectReason, "TestPlugin1"), "", {"TestPlugin1"}},
      {"plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod unresolvable",
       {{"TestPlugin1", post(Code::kUnschedulable)}, {"TestPlugin2", post(Code::kUnschedulableAndUnresolvable)},
        {"TestPlugin3", post(Code::kSuccess)}},
       NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectReason}, "TestPlugin2"), "",
       {"TestPlugin1", "TestPlugin2"}},
      {"both plugins failed to make a Pod schedulable",
       {{"TestPlugin1", post(Code::kUnschedulable)}, {"TestPlugin2", post(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason, kInjectReason}, "TestPlugin1"), "",
       {"TestPlugin1", "TestPlugin2"}},
      {"a rejecting plugin's non-noop result is kept",
       {{"TestPlugin1", post(Code::kUnschedulable, "node2")}, {"TestPlugin2", post(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason, kInjectReason}, "TestPlugin1"), "node2",
       {"TestPlugin1", "TestPlugin2"}},
      {"no PostFilter plugins", {}, NewStatus(Code::kUnschedulable), "", {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::post_filter, c.plugins, &log);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    auto [result, status] = framework->RunPostFilterPlugins(state, *TestPod(), NodeToStatus());
    CheckStatus(status, c.want);
    CHECK(result.nominating_info.nominated_node_name == c.want_nominated);
    std::vector<std::string> want_calls;
    for (const std::string& name : c.want_ran) want_calls.push_back("PostFilter:" + name);
    CHECK(log.calls() == want_calls);
  }
}

// ------------------------------------------------------------------------------------------------
// PreScore, Score

TEST_CASE("RunPreScorePlugins records skipped plugins and wraps errors (TestRunPreScorePlugins)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    NameSet want_skipped;
    Status want;
  };
  const std::vector<Case> cases = {
      {"all PreScorePlugins returned success", {{"success1", {}}, {"success2", {}}}, {}, Status()},
      {"one PreScore plugin returned success, but another PreScore plugin returned non-success",
       {{"success", {}}, {"error", Inj{.pre_score_status = Code::kError}}}, {},
       ErrorStatus("running PreScore plugin \"error\": injected status", "error")},
      {"all PreScore plugins returned skip",
       {{"skip1", Inj{.pre_score_status = Code::kSkip}}, {"skip2", Inj{.pre_score_status = Code::kSkip}}},
       {"skip1", "skip2"}, Status()},
      {"some PreScore plugins returned skip",
       {{"skip1", Inj{.pre_score_status = Code::kSkip}}, {"success1", {}},
        {"skip2", Inj{.pre_score_status = Code::kSkip}}},
       {"skip1", "skip2"}, Status()},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::pre_score, c.plugins);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    CheckStatus(framework->RunPreScorePlugins(state, *TestPod(), env.Nodes()), c.want);
    if (c.want.IsSuccess()) CHECK(state.skip_score_plugins() == c.want_skipped);
  }
}

TEST_CASE("RunScorePlugins normalizes, range-checks and weighs (TestRunScorePlugins)", "[framework][runtime]") {
  // Upstream's defaultWeights.
  const std::map<std::string, std::int32_t> default_weights = {
      {kScoreWithNormalize1, 1}, {kScoreWithNormalize2, 2}, {kScorePlugin1, 1}};
  auto score_config = [&](std::initializer_list<const char*> names) {
    PluginsConfig plugins;
    for (const char* name : names) {
      auto it = default_weights.find(name);
      plugins.score.enabled.push_back(PluginRef{name, it == default_weights.end() ? 0 : it->second});
    }
    return plugins;
  };
  struct Case {
    const char* name;
    PluginsConfig plugins;
    std::map<std::string, Inj> args;
    NameSet skipped;
    std::int64_t want_total = 0;  // the same on both nodes
    std::string want_error{};
  };
  std::vector<Case> cases = {
      {"no Score plugins", score_config({}), {}, {}, 0},
      {"single Score plugin", score_config({kScorePlugin1}), {{kScorePlugin1, Inj{.score_res = 1}}}, {}, 1},
      {"single ScoreWithNormalize plugin", score_config({kScoreWithNormalize1}),
       {{kScoreWithNormalize1, Inj{.score_res = 10, .normalize_res = 5}}}, {}, 5},
      {"3 Score plugins, 2 NormalizeScore plugins",
       score_config({kScorePlugin1, kScoreWithNormalize1, kScoreWithNormalize2}),
       {{kScorePlugin1, Inj{.score_res = 1}},
        {kScoreWithNormalize1, Inj{.score_res = 3, .normalize_res = 4}},
        {kScoreWithNormalize2, Inj{.score_res = 4, .normalize_res = 5}}},
       {}, 1 + 4 + 2 * 5},
      {"score fails", score_config({kScorePlugin1, kScoreWithNormalize1}),
       {{kScoreWithNormalize1, Inj{.score_status = Code::kError}}}, {}, 0,
       "running Score plugins: plugin \"score-with-normalize-plugin-1\" failed with: injecting failure."},
      {"normalize fails", score_config({kScorePlugin1, kScoreWithNormalize1}),
       {{kScoreWithNormalize1, Inj{.normalize_status = Code::kError}}}, {}, 0,
       "running Normalize on Score plugins: plugin \"score-with-normalize-plugin-1\" failed with: injecting "
       "failure."},
      {"Score plugin return score greater than MaxNodeScore", score_config({kScorePlugin1}),
       {{kScorePlugin1, Inj{.score_res = kMaxNodeScore + 1}}}, {}, 0,
       "applying score defaultWeights on Score plugins: plugin \"score-plugin-1\" returns an invalid score 101, "
       "it should in the range of [0, 100] after normalizing"},
      {"Score plugin return score less than MinNodeScore", score_config({kScorePlugin1}),
       {{kScorePlugin1, Inj{.score_res = kMinNodeScore - 1}}}, {}, 0,
       "applying score defaultWeights on Score plugins: plugin \"score-plugin-1\" returns an invalid score -1, "
       "it should in the range of [0, 100] after normalizing"},
      {"ScoreWithNormalize plugin return score greater than MaxNodeScore", score_config({kScoreWithNormalize1}),
       {{kScoreWithNormalize1, Inj{.normalize_res = kMaxNodeScore + 1}}}, {}, 0,
       "applying score defaultWeights on Score plugins: plugin \"score-with-normalize-plugin-1\" returns an "
       "invalid score 101, it should in the range of [0, 100] after normalizing"},
      {"ScoreWithNormalize plugin return score less than MinNodeScore", score_config({kScoreWithNormalize1}),
       {{kScoreWithNormalize1, Inj{.normalize_res = kMinNodeScore - 1}}}, {}, 0,
       "applying score defaultWeights on Score plugins: plugin \"score-with-normalize-plugin-1\" returns an "
       "invalid score -1, it should in the range of [0, 100] after normalizing"},
      {"a raw score out of range is fine when NormalizeScore brings it back",
       score_config({kScoreWithNormalize1}), {{kScoreWithNormalize1, Inj{.score_res = 1000, .normalize_res = 100}}},
       {}, 100},
      {"a failing NormalizeScore wins over an earlier plugin's out-of-range score",
       score_config({kScorePlugin1, kScoreWithNormalize1}),
       {{kScorePlugin1, Inj{.score_res = 1000}}, {kScoreWithNormalize1, Inj{.normalize_status = Code::kError}}}, {},
       0,
       "running Normalize on Score plugins: plugin \"score-with-normalize-plugin-1\" failed with: injecting "
       "failure."},
      {"one success plugin, one skip plugin", score_config({kScorePlugin1, kScoreWithNormalize1}),
       {{kScorePlugin1, Inj{.score_res = 1}}, {kScoreWithNormalize1, Inj{.score_status = Code::kError}}},
       {kScoreWithNormalize1}, 1},
      {"all plugins are skipped in prescore", score_config({kScorePlugin1}),
       {{kScorePlugin1, Inj{.score_status = Code::kError}}}, {kScorePlugin1}, 0},
      {"skipped prescore plugin number greater than the number of score plugins", score_config({kScorePlugin1}),
       {}, {kScorePlugin1, "score-plugin-unknown"}, 0},
  };
  {
    Case c{"single Score plugin with MultiPointExpansion", {}, {{kScorePlugin1, Inj{.score_res = 1}}}, {}, 3};
    c.plugins.multi_point.enabled = Refs({{kScorePlugin1, 0}});
    c.plugins.score.enabled = Refs({{kScorePlugin1, 3}});
    cases.push_back(c);
  }
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CallLog log;
    ProfileConfig profile = Profile();
    profile.plugins = c.plugins;
    for (const auto& [name, inj] : c.args) SetArgs(profile, name, inj);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(DefaultRegistry(&log), profile);
    CycleState state;
    state.skip_score_plugins() = c.skipped;
    auto totals = framework->RunScorePlugins(state, *TestPod(), env.Nodes());
    if (!c.want_error.empty()) {
      REQUIRE_FALSE(totals.ok());
      CHECK(std::string(totals.status().message()) == c.want_error);
      continue;
    }
    INFO(totals.status().ToString());
    REQUIRE(totals.ok());
    REQUIRE(totals->size() == 2);
    CHECK((*totals)[0].node == env.snapshot->nodes()[0]);
    CHECK((*totals)[1].node == env.snapshot->nodes()[1]);
    CHECK((*totals)[0].total_score == c.want_total);
    CHECK((*totals)[1].total_score == c.want_total);
    // NormalizeScore ran once per non-skipped plugin that has it.
    const auto calls = log.calls();
    for (const char* name : {kScoreWithNormalize1, kScoreWithNormalize2}) {
      bool enabled = false;
      for (const PluginRef& ref : c.plugins.score.enabled) enabled = enabled || ref.name == name;
      const bool runs = enabled && !c.skipped.contains(name);
      CHECK(std::count(calls.begin(), calls.end(), std::string("NormalizeScore:") + name) == (runs ? 1 : 0));
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Reserve, Permit, PreBind, Bind, PostBind

TEST_CASE("RunReservePluginsReserve stops at the first failure (TestReservePlugins)", "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    Status want;
  };
  auto reserve = [](Code code) { return Inj{.reserve_status = code}; };
  const std::vector<Case> cases = {
      {"NoReservePlugin", {}, Status()},
      {"SuccessReservePlugins", {{"TestPlugin", reserve(Code::kSuccess)}}, Status()},
      {"UnschedulableReservePlugin", {{"TestPlugin", reserve(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "TestPlugin")},
      {"ErrorReservePlugin", {{"TestPlugin", reserve(Code::kError)}},
       ErrorStatus("running Reserve plugin \"TestPlugin\": injected status", "TestPlugin")},
      {"UnschedulableAndUnresolvableReservePlugin", {{"TestPlugin", reserve(Code::kUnschedulableAndUnresolvable)}},
       NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectReason}, "TestPlugin")},
      {"SuccessSuccessReservePlugins", {{"TestPlugin", reserve(Code::kSuccess)}, {"TestPlugin 1", reserve(Code::kSuccess)}},
       Status()},
      {"ErrorErrorReservePlugins", {{"TestPlugin", reserve(Code::kError)}, {"TestPlugin 1", reserve(Code::kError)}},
       ErrorStatus("running Reserve plugin \"TestPlugin\": injected status", "TestPlugin")},
      {"SuccessErrorReservePlugins", {{"TestPlugin", reserve(Code::kSuccess)}, {"TestPlugin 1", reserve(Code::kError)}},
       ErrorStatus("running Reserve plugin \"TestPlugin 1\": injected status", "TestPlugin 1")},
      {"UnschedulableAndSuccessReservePlugin",
       {{"TestPlugin", reserve(Code::kUnschedulable)}, {"TestPlugin 1", reserve(Code::kSuccess)}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "TestPlugin")},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::reserve, c.plugins);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    CheckStatus(framework->RunReservePluginsReserve(state, *TestPod(), "node1"), c.want);
  }
}

TEST_CASE("Unreserve runs every Reserve plugin in reverse order", "[framework][runtime]") {
  CallLog log;
  Registry registry;
  ProfileConfig profile = Profile();
  AddFakes(registry, profile, &PluginsConfig::reserve,
           {{"a", {}}, {"b", Inj{.reserve_status = Code::kUnschedulable}}, {"c", {}}}, &log);
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CycleState state;
  CHECK(framework->RunReservePluginsReserve(state, *TestPod(), "node1").code() == Code::kUnschedulable);
  framework->RunReservePluginsUnreserve(state, *TestPod(), "node1");
  CHECK(log.calls() ==
        std::vector<std::string>{"Reserve:a", "Reserve:b", "Unreserve:c", "Unreserve:b", "Unreserve:a"});
}

TEST_CASE("RunPermitPlugins: success, rejection, error and wait (TestPermitPlugins)", "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    Status want;
  };
  auto permit = [](Code code) { return Inj{.permit_status = code, .permit_timeout = 10s}; };
  const std::vector<Case> cases = {
      {"NilPermitPlugin", {}, Status()},
      {"SuccessPermitPlugin", {{"TestPlugin", permit(Code::kSuccess)}}, Status()},
      {"UnschedulablePermitPlugin", {{"TestPlugin", permit(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "TestPlugin")},
      {"ErrorPermitPlugin", {{"TestPlugin", permit(Code::kError)}},
       ErrorStatus("running Permit plugin \"TestPlugin\": injected status", "TestPlugin")},
      {"UnschedulableAndUnresolvablePermitPlugin", {{"TestPlugin", permit(Code::kUnschedulableAndUnresolvable)}},
       NewStatus(Code::kUnschedulableAndUnresolvable, {kInjectReason}, "TestPlugin")},
      {"WaitPermitPlugin", {{"TestPlugin", permit(Code::kWait)}},
       NewStatus(Code::kWait, {"one or more plugins asked to wait and no plugin rejected pod \"pod\""})},
      {"SuccessSuccessPermitPlugin", {{"TestPlugin", permit(Code::kSuccess)}, {"TestPlugin 1", permit(Code::kSuccess)}},
       Status()},
      {"ErrorAndErrorPlugins", {{"TestPlugin", permit(Code::kError)}, {"TestPlugin 1", permit(Code::kError)}},
       ErrorStatus("running Permit plugin \"TestPlugin\": injected status", "TestPlugin")},
      {"a rejection after a Wait wins", {{"TestPlugin", permit(Code::kWait)}, {"TestPlugin 1", permit(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "TestPlugin 1")},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::permit, c.plugins);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    CheckStatus(framework->RunPermitPlugins(state, *TestPod(), "node1"), c.want);
    std::size_t waiting = 0;
    framework->IterateOverWaitingPods([&](WaitingPod&) { ++waiting; });
    CHECK(waiting == (c.want.IsWait() ? 1U : 0U));
  }
}

namespace {

// A runtime with Permit plugins that wait (name, timeout), the pod already waiting.
struct PermitFixture {
  explicit PermitFixture(const std::vector<std::pair<std::string, std::chrono::milliseconds>>& waits,
                         MetricsRecorder* recorder = nullptr) {
    env.metrics_recorder = recorder;
    Registry registry;
    ProfileConfig profile = Profile();
    std::vector<Spec> specs;
    for (const auto& [name, timeout] : waits) {
      specs.push_back(Spec{name, Inj{.permit_status = Code::kWait, .permit_timeout = timeout}});
    }
    AddFakes(registry, profile, &PluginsConfig::permit, specs);
    framework = env.Build(std::move(registry), profile);
    REQUIRE(framework->RunPermitPlugins(state, *TestPod(), "node1").code() == Code::kWait);
  }

  // Calls fn on the waiting pod with this UID (from any thread); false when it is not waiting.
  bool OnWaitingPod(const std::string& uid, const std::function<void(WaitingPod&)>& fn) {
    bool found = false;
    framework->IterateOverWaitingPods([&](WaitingPod& pod) {
      if (pod.pod().metadata.uid == uid) {
        found = true;
        fn(pod);
      }
    });
    return found;
  }

  Env env;
  std::unique_ptr<Framework> framework;
  CycleState state;
};

}  // namespace

TEST_CASE("WaitOnPermit returns when another thread allows or rejects (TestWaitOnPermit)",
          "[framework][runtime]") {
  struct Case {
    const char* name;
    std::function<void(WaitingPod&)> action;
    Status want;
  };
  const std::vector<Case> cases = {
      {"Reject Waiting Pod", [](WaitingPod& pod) { pod.Reject(kPermitPlugin, "reject message"); },
       NewStatus(Code::kUnschedulable, {"reject message"}, kPermitPlugin)},
      {"Allow Waiting Pod", [](WaitingPod& pod) { pod.Allow(kPermitPlugin); }, Status()},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    PermitFixture fixture({{kPermitPlugin, 10s}});
    std::vector<std::string> pending;
    CHECK(fixture.OnWaitingPod("pod-uid", [&](WaitingPod& pod) { pending = pod.PendingPlugins(); }));
    CHECK(pending == std::vector<std::string>{kPermitPlugin});
    std::thread other([&] {
      std::this_thread::sleep_for(50ms);
      fixture.OnWaitingPod("pod-uid", c.action);
    });
    const auto start = std::chrono::steady_clock::now();
    const Status got = fixture.framework->WaitOnPermit(*TestPod());
    other.join();
    CheckStatus(got, c.want);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
    // The pod no longer waits.
    CHECK_FALSE(fixture.OnWaitingPod("pod-uid", [](WaitingPod&) {}));
  }
}

TEST_CASE("WaitOnPermit needs every waiting plugin to allow, an allowed plugin's deadline no longer "
          "applies",
          "[framework][runtime]") {
  PermitFixture fixture({{"fast", 200ms}, {"slow", 10s}});
  std::vector<std::string> pending;  // written by `other`, read after the join
  // Before `other` starts: its 500ms sleep then bounds the wait from below however late this
  // thread gets here (a slow sanitizer run).
  const auto start = std::chrono::steady_clock::now();
  std::thread other([&] {
    fixture.OnWaitingPod("pod-uid", [](WaitingPod& pod) { pod.Allow("fast"); });
    fixture.OnWaitingPod("pod-uid", [&](WaitingPod& pod) { pending = pod.PendingPlugins(); });
    std::this_thread::sleep_for(500ms);  // past fast's deadline
    fixture.OnWaitingPod("pod-uid", [](WaitingPod& pod) { pod.Allow("slow"); });
  });
  const Status got = fixture.framework->WaitOnPermit(*TestPod());
  const auto waited = std::chrono::steady_clock::now() - start;
  other.join();
  CheckStatus(got, Status());
  CHECK(pending == std::vector<std::string>{"slow"});
  CHECK(waited >= 450ms);
}

namespace {

// A recorder that times nothing: keeps what WaitOnPermit reports (scheduler_permit_wait_duration_seconds).
class RecordingMetrics final : public MetricsRecorder {
 public:
  struct NullSink final : DurationSink {
    void Observe(ExtensionPoint, Code, std::chrono::nanoseconds) override {}
  };
  DurationSink& ExtensionPointDurations(std::string_view) override { return sink_; }
  DurationSink& PluginDurations(std::string_view) override { return sink_; }
  int plugin_sample_percent() const override { return 0; }
  void ObservePermitWait(Code result, std::chrono::nanoseconds elapsed) override {
    waits.emplace_back(result, elapsed);
  }
  std::vector<std::pair<Code, std::chrono::nanoseconds>> waits;  // the test reads it after the wait

 private:
  NullSink sink_;
};

}  // namespace

TEST_CASE("WaitOnPermit reports how long the pod waited and how it ended", "[framework][runtime][metrics]") {
  RecordingMetrics recorder;
  {
    PermitFixture fixture({{kPermitPlugin, 10s}}, &recorder);
    std::thread other([&] {
      std::this_thread::sleep_for(50ms);
      fixture.OnWaitingPod("pod-uid", [](WaitingPod& pod) { pod.Allow(kPermitPlugin); });
    });
    CheckStatus(fixture.framework->WaitOnPermit(*TestPod()), Status());
    other.join();
  }
  {
    PermitFixture fixture({{kPermitPlugin, 100ms}}, &recorder);  // times out: rejected
    CHECK(fixture.framework->WaitOnPermit(*TestPod()).code() == Code::kUnschedulable);
    // A pod that does not wait is not reported.
    CheckStatus(fixture.framework->WaitOnPermit(*TestPod()), Status());
  }
  REQUIRE(recorder.waits.size() == 2);
  CHECK(recorder.waits[0].first == Code::kSuccess);
  CHECK(recorder.waits[0].second >= 40ms);
  CHECK(recorder.waits[1].first == Code::kUnschedulable);
  CHECK(recorder.waits[1].second >= 90ms);
}

TEST_CASE("plugin evaluations are counted as upstream's instrumented plugins count them",
          "[framework][runtime][metrics]") {
  Registry registry;
  ProfileConfig profile = Profile();
  // "skipping" skips PreFilter (so its Filter does not run) and PreScore (so its Score does not);
  // "rejecting" turns every node down after "passing" accepted it.
  const std::vector<std::pair<std::string, Inj>> plugins = {
      {"passing", Inj{}},
      {"skipping", Inj{.pre_filter_status = Code::kSkip, .pre_score_status = Code::kSkip}},
      {"rejecting", Inj{.filter_status = Code::kUnschedulable}},
  };
  for (const auto& [name, inj] : plugins) {
    Register<FakePlugin>(registry, name, nullptr);
    SetArgs(profile, name, inj);
    for (PluginSet PluginsConfig::*point : {&PluginsConfig::pre_filter, &PluginsConfig::filter,
                                            &PluginsConfig::pre_score, &PluginsConfig::score}) {
      (profile.plugins.*point).enabled.push_back(PluginRef{name, 1});
    }
  }
  using Counts = std::vector<std::tuple<std::string, std::string, std::uint64_t>>;
  auto counts = [](const Framework& framework) {
    Counts out;
    for (const Framework::PluginEvaluations& e : framework.PluginEvaluationCounts()) {
      out.emplace_back(std::string(e.plugin), std::string(ExtensionPointName(e.point)), e.count);
    }
    return out;
  };
  {
    Env env;  // no recorder: nothing counted
    CHECK(env.Build(registry, profile)->PluginEvaluationCounts().empty());
  }
  RecordingMetrics recorder;
  Env env;
  env.metrics_recorder = &recorder;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CHECK(counts(*framework) == Counts{{"passing", "PreFilter", 0}, {"skipping", "PreFilter", 0},
                                     {"rejecting", "PreFilter", 0}, {"passing", "Filter", 0},
                                     {"skipping", "Filter", 0},     {"rejecting", "Filter", 0},
                                     {"passing", "PreScore", 0},    {"skipping", "PreScore", 0},
                                     {"rejecting", "PreScore", 0},  {"passing", "Score", 0},
                                     {"skipping", "Score", 0},      {"rejecting", "Score", 0}});
  CycleState state;
  NameSet with_nodes;
  REQUIRE(framework->RunPreFilterPlugins(state, *TestPod(), with_nodes).second.IsSuccess());
  for (const NodeInfo* node : env.Nodes()) {
    CHECK(framework->RunFilterPlugins(state, *TestPod(), *node).code() == Code::kUnschedulable);
  }
  REQUIRE(framework->RunPreScorePlugins(state, *TestPod(), env.Nodes()).IsSuccess());
  REQUIRE(framework->RunScorePlugins(state, *TestPod(), env.Nodes()).ok());
  CHECK(counts(*framework) == Counts{{"passing", "PreFilter", 1}, {"skipping", "PreFilter", 0},
                                     {"rejecting", "PreFilter", 1}, {"passing", "Filter", 2},
                                     {"skipping", "Filter", 0},     {"rejecting", "Filter", 2},
                                     {"passing", "PreScore", 1},    {"skipping", "PreScore", 0},
                                     {"rejecting", "PreScore", 1},  {"passing", "Score", 2},
                                     {"skipping", "Score", 0},      {"rejecting", "Score", 2}});
}

TEST_CASE("a Permit wait times out with upstream's message", "[framework][runtime]") {
  struct Case {
    std::chrono::milliseconds timeout;
    const char* want_text;
  };
  for (const Case& c : {Case{100ms, "100ms"}, Case{1000ms, "1s"}}) {
    CAPTURE(c.want_text);
    // Before the fixture: its Permit call starts the plugin's timer, so the wait measured from
    // after it falls short of the timeout by the fixture's own time (98.4ms of 100ms seen under
    // ASan with detect_stack_use_after_return).
    const auto start = std::chrono::steady_clock::now();
    PermitFixture fixture({{"other", 10s}, {kPermitPlugin, c.timeout}});
    const Status got = fixture.framework->WaitOnPermit(*TestPod());
    CHECK(std::chrono::steady_clock::now() - start >= c.timeout);
    CheckStatus(got, NewStatus(Code::kUnschedulable,
                               {std::string("rejected due to timeout after waiting ") + c.want_text +
                                " at plugin permit-plugin"},
                               kPermitPlugin));
  }
}

TEST_CASE("a Permit deadline that passed before anyone waited rejects, even if Allow came later",
          "[framework][runtime]") {
  PermitFixture fixture({{kPermitPlugin, 50ms}});
  std::this_thread::sleep_for(150ms);
  CHECK(fixture.OnWaitingPod("pod-uid", [](WaitingPod& pod) { pod.Allow(kPermitPlugin); }));
  CheckStatus(fixture.framework->WaitOnPermit(*TestPod()),
              NewStatus(Code::kUnschedulable, {"rejected due to timeout after waiting 50ms at plugin permit-plugin"},
                        kPermitPlugin));
}

TEST_CASE("WaitOnPermit without a waiting pod returns success at once, RejectWaitingPod",
          "[framework][runtime]") {
  SECTION("no waiting pod") {
    Env env;
    std::unique_ptr<Framework> framework = env.Build(Registry(), Profile());
    CheckStatus(framework->WaitOnPermit(*TestPod()), Status());
    CHECK_FALSE(framework->RejectWaitingPod("pod-uid"));
  }
  SECTION("RejectWaitingPod rejects by UID with 'removed'") {
    PermitFixture fixture({{kPermitPlugin, 10s}});
    CHECK_FALSE(fixture.framework->RejectWaitingPod("unknown-uid"));
    CHECK(fixture.framework->RejectWaitingPod("pod-uid"));
    CheckStatus(fixture.framework->WaitOnPermit(*TestPod()), NewStatus(Code::kUnschedulable, {"removed"}));
    CHECK_FALSE(fixture.framework->RejectWaitingPod("pod-uid"));
  }
  SECTION("the first of Reject and Allow wins") {
    PermitFixture fixture({{kPermitPlugin, 10s}});
    fixture.OnWaitingPod("pod-uid", [](WaitingPod& pod) {
      pod.Reject("someone", "first");
      pod.Allow(kPermitPlugin);
    });
    CheckStatus(fixture.framework->WaitOnPermit(*TestPod()), NewStatus(Code::kUnschedulable, {"first"}, "someone"));
  }
}

TEST_CASE("RunPreBindPlugins stops at the first failure (TestPreBindPlugins)", "[framework][runtime]") {
  struct Case {
    const char* name;
    std::vector<Spec> plugins;
    Status want;
  };
  auto pre_bind = [](Code code) { return Inj{.pre_bind_status = code}; };
  const std::vector<Case> cases = {
      {"NoPreBindPlugin", {}, Status()},
      {"SuccessPreBindPlugins", {{"TestPlugin", pre_bind(Code::kSuccess)}}, Status()},
      {"UnschedulablePreBindPlugin", {{"TestPlugin", pre_bind(Code::kUnschedulable)}},
       NewStatus(Code::kUnschedulable, {kInjectReason}, "TestPlugin")},
      {"ErrorPreBindPlugin", {{"TestPlugin", pre_bind(Code::kError)}},
       ErrorStatus("running PreBind plugin \"TestPlugin\": injected status", "TestPlugin")},
      {"SuccessErrorPreBindPlugins", {{"TestPlugin", pre_bind(Code::kSuccess)}, {"TestPlugin 1", pre_bind(Code::kError)}},
       ErrorStatus("running PreBind plugin \"TestPlugin 1\": injected status", "TestPlugin 1")},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Registry registry;
    ProfileConfig profile = Profile();
    AddFakes(registry, profile, &PluginsConfig::pre_bind, c.plugins);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CycleState state;
    CheckStatus(framework->RunPreBindPlugins(state, *TestPod(), "node1"), c.want);
  }
}

namespace {

// Upstream's TestRunBindPlugins cases: the Bind plugins' injected statuses, the result, and how
// many plugins were called.
struct BindCase {
  const char* name;
  std::vector<Code> injects;
  Code want;
  std::size_t want_calls;
};

const std::vector<BindCase>& BindCases() {
  static const std::vector<BindCase> cases = {
      {"simple success", {Code::kSuccess}, Code::kSuccess, 1},
      {"error on second", {Code::kSkip, Code::kError, Code::kSuccess}, Code::kError, 2},
      {"all skip", {Code::kSkip, Code::kSkip, Code::kSkip}, Code::kSkip, 3},
      {"error on third, but not reached", {Code::kSkip, Code::kSuccess, Code::kError}, Code::kSuccess, 2},
      {"invalid status", {Code::kUnschedulable}, Code::kUnschedulable, 1},
      {"simple error", {Code::kError}, Code::kError, 1},
      {"success on second, returns success", {Code::kSkip, Code::kSuccess}, Code::kSuccess, 2},
      {"invalid status, returns error", {Code::kSkip, Code::kUnschedulableAndUnresolvable},
       Code::kUnschedulableAndUnresolvable, 2},
      {"error after success status, returns success", {Code::kSuccess, Code::kError}, Code::kSuccess, 1},
      {"success after error status, returns error", {Code::kError, Code::kSuccess}, Code::kError, 1},
  };
  return cases;
}

void CheckBindOutcome(const BindCase& c, const Status& status, const CallLog& log) {
  CHECK(status.code() == c.want);
  std::vector<std::string> want_calls;
  for (std::size_t i = 0; i < c.want_calls; ++i) want_calls.push_back("Bind node1:bind-" + std::to_string(i));
  CHECK(log.calls() == want_calls);
  const std::string last = "bind-" + std::to_string(c.want_calls - 1);
  if (c.want == Code::kError) {
    CheckStatus(status, ErrorStatus("running Bind plugin \"" + last + "\": injected status", last));
  } else if (c.want == Code::kUnschedulable || c.want == Code::kUnschedulableAndUnresolvable) {
    CheckStatus(status, NewStatus(c.want, {kInjectReason}, last));
  }
}

}  // namespace

TEST_CASE("RunBindPlugins: Skip falls through to the next binder (TestRunBindPlugins)", "[framework][runtime]") {
  for (const BindCase& c : BindCases()) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    std::vector<Spec> specs;
    for (std::size_t i = 0; i < c.injects.size(); ++i) {
      specs.push_back(Spec{"bind-" + std::to_string(i), Inj{.bind_status = c.injects[i]}});
    }
    AddFakes(registry, profile, &PluginsConfig::bind, specs, &log);
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    CHECK_FALSE(framework->BindsWithoutBlocking());  // the fakes bind only by blocking
    CycleState state;
    CheckBindOutcome(c, framework->RunBindPlugins(state, *TestPod(), "node1"), log);
  }
}

TEST_CASE("RunBindPluginsAsync answers as RunBindPlugins, from the plugins' threads",
          "[framework][runtime]") {
  for (const BindCase& c : BindCases()) {
    CAPTURE(c.name);
    CallLog log;
    Registry registry;
    ProfileConfig profile = Profile();
    for (std::size_t i = 0; i < c.injects.size(); ++i) {
      const std::string name = "bind-" + std::to_string(i);
      Register<FakeAsyncBind>(registry, name, &log);
      SetArgs(profile, name, Inj{.bind_status = c.injects[i]});
      profile.plugins.bind.enabled.push_back(PluginRef{name});
    }
    Env env;
    std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
    REQUIRE(framework->BindsWithoutBlocking());
    CycleState state;
    const std::string node = "node1";
    std::promise<Status> answered;
    framework->RunBindPluginsAsync(state, *TestPod(), node,
                                   [&answered](Status status) { answered.set_value(std::move(status)); });
    std::future<Status> result = answered.get_future();
    REQUIRE(result.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    CheckBindOutcome(c, result.get(), log);
  }
}

TEST_CASE("BindsWithoutBlocking: only asynchronous binders, no PreBind or PostBind, a ClusterApi",
          "[framework][runtime]") {
  auto build = [](std::vector<std::string> binders, bool pre_bind, bool post_bind,
                  bool with_cluster_api) {
    Registry registry;
    Register<FakeAsyncBind>(registry, "async-bind");
    Register<FakeAsyncBind>(registry, "async-bind-2");
    Register<FakeBind>(registry, "blocking-bind");
    Register<FakePlugin>(registry, kTestPlugin);
    Register<FakeQueueSort>(registry, kQueueSortPlugin);
    ProfileConfig profile = Profile();
    profile.plugins.queue_sort.enabled.push_back(PluginRef{kQueueSortPlugin});
    for (const std::string& binder : binders) profile.plugins.bind.enabled.push_back(PluginRef{binder});
    if (pre_bind) profile.plugins.pre_bind.enabled.push_back(PluginRef{kTestPlugin});
    if (post_bind) profile.plugins.post_bind.enabled.push_back(PluginRef{kTestPlugin});
    Env env;
    FrameworkServices services;
    services.parallelizer = &env.parallelizer;
    services.cluster_api = with_cluster_api ? &env.cluster_api : nullptr;
    services.event_recorder = &env.recorder;
    absl::StatusOr<std::unique_ptr<Framework>> framework = Framework::Create(registry, profile, services);
    INFO(framework.status().ToString());
    REQUIRE(framework.ok());
    return (*framework)->BindsWithoutBlocking();
  };
  CHECK(build({"async-bind"}, false, false, true));
  CHECK(build({"async-bind", "async-bind-2"}, false, false, true));
  CHECK_FALSE(build({"async-bind", "blocking-bind"}, false, false, true));
  CHECK_FALSE(build({"blocking-bind"}, false, false, true));
  CHECK_FALSE(build({"async-bind"}, true, false, true));
  CHECK_FALSE(build({"async-bind"}, false, true, true));
  CHECK_FALSE(build({"async-bind"}, false, false, false));
}

TEST_CASE("BindsWithoutBlocking with PreBind PreFlights: the pod's PreFlights decide (RunPreBindPreFlights)", "[framework][runtime]") {
  Registry registry;
  Register<FakeAsyncBind>(registry, "async-bind");
  Register<FakePreFlightPreBind>(registry, "pre-flight");
  Register<FakeQueueSort>(registry, kQueueSortPlugin);
  ProfileConfig profile = Profile();
  profile.plugins.queue_sort.enabled.push_back(PluginRef{kQueueSortPlugin});
  profile.plugins.bind.enabled.push_back(PluginRef{"async-bind"});
  profile.plugins.pre_bind.enabled.push_back(PluginRef{"pre-flight"});
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CHECK(framework->BindsWithoutBlocking());
  CHECK(framework->HasPreBindPlugins());
  CycleState state;
  std::uint64_t skipped = 0;
  CHECK(framework->RunPreBindPreFlights(state, *TestPod(), "node-skip", skipped).IsSkip());
  CHECK(skipped == 1);
  CHECK(framework->RunPreBindPreFlights(state, *TestPod(), "node1", skipped).IsSuccess());
  CHECK(skipped == 0);
}

TEST_CASE("RunPostBindPlugins calls every PostBind plugin in order", "[framework][runtime]") {
  CallLog log;
  Registry registry;
  ProfileConfig profile = Profile();
  AddFakes(registry, profile, &PluginsConfig::post_bind, {{"a", {}}, {"b", {}}}, &log);
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);
  CycleState state;
  framework->RunPostBindPlugins(state, *TestPod(), "node2");
  CHECK(log.calls() == std::vector<std::string>{"PostBind node2:a", "PostBind node2:b"});
}

// ------------------------------------------------------------------------------------------------
// Scheduling-cycle-only state

namespace {

// Writes "PreFilter<name>" at PreFilter and "PreScore<name>" at PreScore; a Reserve plugin too.
class FakeStateWriter final : public FakeBase,
                              public PreFilterPlugin,
                              public PreScorePlugin,
                              public ReservePlugin {
 public:
  using FakeBase::FakeBase;
  std::pair<PreFilterResult, Status> PreFilter(CycleState& state, const api::Pod&,
                                               const std::vector<NodeInfo*>&) override {
    state.Write("PreFilter" + name_, std::make_unique<Marker>());
    return {PreFilterResult{}, Status()};
  }
  Status PreScore(CycleState& state, const api::Pod&, const std::vector<const NodeInfo*>&) override {
    state.Write("PreScore" + name_, std::make_unique<Marker>());
    return Status();
  }
  Status Reserve(CycleState&, const api::Pod&, const std::string&) override { return Status(); }
  void Unreserve(CycleState&, const api::Pod&, const std::string&) override {}
};

}  // namespace

TEST_CASE("the state of plugins without binding-cycle points is dropped before the binding cycle",
          "[framework][runtime][cycle_state]") {
  Registry registry;
  ProfileConfig profile = Profile();
  // "filter-only" runs at PreFilter and PreScore only; "reserving" at Reserve too, so its state
  // may be read by Unreserve in the binding cycle.
  for (const char* name : {"filter-only", "reserving"}) {
    Register<FakeStateWriter>(registry, name);
    profile.plugins.pre_filter.enabled.push_back(PluginRef{name});
    profile.plugins.pre_score.enabled.push_back(PluginRef{name});
  }
  profile.plugins.reserve.enabled.push_back(PluginRef{"reserving"});
  Env env;
  std::unique_ptr<Framework> framework = env.Build(std::move(registry), profile);

  CycleState state;
  NameSet with_nodes;
  REQUIRE(framework->RunPreFilterPlugins(state, *TestPod(), with_nodes).second.IsSuccess());
  REQUIRE(framework->RunPreScorePlugins(state, *TestPod(), env.Nodes()).IsSuccess());
  state.Write("WrittenElsewhere", std::make_unique<Marker>());  // outside any plugin call: kept
  for (const char* key : {"PreFilterfilter-only", "PreScorefilter-only", "PreFilterreserving",
                          "PreScorereserving", "WrittenElsewhere"}) {
    CAPTURE(key);
    CHECK(state.Read(key) != nullptr);
  }

  // The skip sets and the filter plan serve Filter and Score only: dropped too.
  state.skip_filter_plugins().insert("filter-only");
  state.skip_score_plugins().insert("filter-only");
  const int owner = 0;
  state.set_filter_plan(&owner, {0, 1});

  // A clone keeps the marks.
  std::unique_ptr<CycleState> clone = state.Clone();
  REQUIRE(clone->filter_plan(&owner) != nullptr);
  for (CycleState* s : {&state, clone.get()}) {
    s->DropSchedulingCycleOnlyData();
    CHECK(s->Read("PreFilterfilter-only") == nullptr);
    CHECK(s->Read("PreScorefilter-only") == nullptr);
    CHECK(s->Read("PreFilterreserving") != nullptr);
    CHECK(s->Read("PreScorereserving") != nullptr);
    CHECK(s->Read("WrittenElsewhere") != nullptr);
    CHECK(s->skip_filter_plugins().empty());
    CHECK(s->skip_score_plugins().empty());
    CHECK(s->filter_plan(&owner) == nullptr);
  }
}

}  // namespace ksched::framework
