// PodTopologySpread: ported from upstream podtopologyspread/{filtering,scoring,plugin}_test.go
// (v1.34.4) and the ValidatePodTopologySpreadArgs table of apis/config/validation.
//
// The case tables are upstream's, transcribed with the same builder names (st::MakePod,
// st::MakeNode, st::MakeLabelSelector) so that each case can be compared with its source. v1.34
// runs with NodeInclusionPolicyInPodTopologySpread and MatchLabelKeysInPodTopologySpread on; the
// upstream cases that turn a gate off are ported only where the gate makes no difference (the
// `enable_*` fields are kept as documentation and ignored), and the two cases whose result depends
// on MatchLabelKeysInPodTopologySpread being off are left out (marked below).
#include "plugins/pod_topology_spread/pod_topology_spread.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/field_errors.h"
#include "api/label_selector.h"
#include "fake_handle.h"
#include "framework/parallelizer.h"
#include "framework/spread_selector_lister.h"
#include "plugins/pod_topology_spread/args.h"
#include "plugins/pod_topology_spread/state.h"

namespace {

namespace api = ksched::api;
namespace framework = ksched::framework;
namespace pts = ksched::plugins::pod_topology_spread;
using framework::Code;
using framework::QueueingHint;
using framework::Status;

// --- Upstream's constants, under their package names ----------------------------------------

namespace v1 {
constexpr const char* kDoNotSchedule = "DoNotSchedule";
constexpr const char* kScheduleAnyway = "ScheduleAnyway";
constexpr const char* kLabelHostname = "kubernetes.io/hostname";
constexpr const char* kLabelTopologyZone = "topology.kubernetes.io/zone";
constexpr const char* kNodeInclusionPolicyHonor = "Honor";
constexpr const char* kNodeInclusionPolicyIgnore = "Ignore";
constexpr const char* kTaintNodeUnschedulable = "node.kubernetes.io/unschedulable";
constexpr const char* kTaintEffectNoSchedule = "NoSchedule";
}  // namespace v1

namespace fwk {
constexpr Code kSuccess = Code::kSuccess;
constexpr Code kUnschedulable = Code::kUnschedulable;
constexpr Code kUnschedulableAndUnresolvable = Code::kUnschedulableAndUnresolvable;
constexpr Code kSkip = Code::kSkip;
constexpr QueueingHint kQueue = QueueingHint::kQueue;
constexpr QueueingHint kQueueSkip = QueueingHint::kQueueSkip;
Status NewStatus(Code code) { return Status(code); }
}  // namespace fwk

namespace config {
constexpr const char* kListDefaulting = "List";
constexpr const char* kSystemDefaulting = "System";
}  // namespace config

constexpr const char* kIgnorePolicy = v1::kNodeInclusionPolicyIgnore;
constexpr const char* kHonorPolicy = v1::kNodeInclusionPolicyHonor;

using Labels = api::Labels;
using Strings = std::vector<std::string>;
using Nodes = std::vector<std::shared_ptr<const api::Node>>;
using Pods = std::vector<api::Pod>;
// Aggregates with every member initialized, so that designated initializers may omit members.
struct TaintW {
  std::string key{};
  std::string value{};
  std::string effect{};
};
using Taints = std::vector<TaintW>;
struct TscW {
  std::int32_t max_skew{};
  std::string topology_key{};
  std::string when_unsatisfiable{};
  std::optional<api::LabelSelector> label_selector{};
};
using TSCs = std::vector<TscW>;
constexpr int kMaxInt32 = std::numeric_limits<std::int32_t>::max();

api::TopologySpreadConstraint ToApi(const TscW& w) {
  api::TopologySpreadConstraint c;
  c.max_skew = w.max_skew;
  c.topology_key = w.topology_key;
  c.when_unsatisfiable = w.when_unsatisfiable;
  c.label_selector = w.label_selector;
  return c;
}
using CodeMap = std::map<std::string, Code>;
using CountMaps = std::vector<std::map<std::string, int>>;
using PodCountMaps = std::vector<std::map<std::string, std::int64_t>>;
using Floats = std::vector<double>;
using StringSet = std::set<std::string>;

template <typename... Names>
StringSet StringSetOf(Names... names) {
  return StringSet{std::string(names)...};
}

// --- Builders (upstream pkg/scheduler/testing wrappers) -------------------------------------

// A labelSelector argument that may be nil.
struct OptSelector {
  OptSelector(std::nullptr_t) {}  // NOLINT(google-explicit-constructor): mirrors Go's nil
  OptSelector(api::LabelSelector s) : value(std::move(s)) {}  // NOLINT
  std::optional<api::LabelSelector> value;
};
// A *int32 argument that may be nil.
struct OptInt {
  OptInt(std::nullptr_t) {}  // NOLINT
  OptInt(std::int32_t v) : value(v) {}  // NOLINT
  std::optional<std::int32_t> value;
};
// A []string argument that may be nil.
struct OptKeys {
  OptKeys(std::nullptr_t) {}  // NOLINT
  OptKeys(Strings v) : value(std::move(v)) {}  // NOLINT
  Strings value;
};

enum class NodeSelectorType { kMatchExpressions };

namespace st {

constexpr NodeSelectorType kNodeSelectorTypeMatchExpressions = NodeSelectorType::kMatchExpressions;

class LabelSelectorWrapper {
 public:
  LabelSelectorWrapper& Label(std::string key, std::string value) {
    selector_.match_labels.Set(std::move(key), std::move(value));
    return *this;
  }
  LabelSelectorWrapper& Exists(std::string key) {
    selector_.match_expressions.push_back({std::move(key), "Exists", {}});
    return *this;
  }
  api::LabelSelector Obj() const { return selector_; }

 private:
  api::LabelSelector selector_;
};
LabelSelectorWrapper MakeLabelSelector() { return {}; }

class PodWrapper {
 public:
  PodWrapper& Name(std::string name) {
    pod_.metadata.name = std::move(name);
    return *this;
  }
  PodWrapper& UID(std::string uid) {
    pod_.metadata.uid = std::move(uid);
    return *this;
  }
  PodWrapper& Namespace(std::string ns) {
    pod_.metadata.namespace_ = std::move(ns);
    return *this;
  }
  PodWrapper& Node(std::string node) {
    pod_.spec.node_name = std::move(node);
    return *this;
  }
  PodWrapper& NominatedNodeName(std::string node) {
    pod_.status.nominated_node_name = std::move(node);
    return *this;
  }
  PodWrapper& Label(std::string key, std::string value) {
    pod_.metadata.labels.Set(std::move(key), std::move(value));
    return *this;
  }
  PodWrapper& NodeSelector(Labels selector) {
    pod_.spec.node_selector = std::move(selector);
    return *this;
  }
  PodWrapper& NodeAffinityIn(std::string key, Strings values, NodeSelectorType /*type*/) {
    pod_.spec.affinity.node_affinity.required =
        api::NodeSelector{{api::NodeSelectorTerm{{{std::move(key), "In", std::move(values)}}, {}}}};
    return *this;
  }
  PodWrapper& NodeAffinityNotIn(std::string key, Strings values) {
    pod_.spec.affinity.node_affinity.required = api::NodeSelector{
        {api::NodeSelectorTerm{{{std::move(key), "NotIn", std::move(values)}}, {}}}};
    return *this;
  }
  PodWrapper& Toleration(std::string key) {
    pod_.spec.tolerations.push_back(api::Toleration{std::move(key), "Exists", "", "", {}});
    return *this;
  }
  PodWrapper& Terminating() {
    pod_.metadata.deletion_timestamp =
        std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
    return *this;
  }
  PodWrapper& OwnerReference(std::string name, std::string api_version, std::string kind) {
    pod_.metadata.owner_references = {
        api::OwnerReference{std::move(api_version), std::move(kind), std::move(name), "", true}};
    return *this;
  }
  PodWrapper& SpreadConstraint(std::int32_t max_skew, std::string key, std::string mode,
                               OptSelector selector, OptInt min_domains,
                               const char* node_affinity_policy, const char* node_taints_policy,
                               OptKeys match_label_keys) {
    api::TopologySpreadConstraint c;
    c.max_skew = max_skew;
    c.topology_key = std::move(key);
    c.when_unsatisfiable = std::move(mode);
    c.label_selector = std::move(selector.value);
    c.min_domains = min_domains.value;
    c.node_affinity_policy = node_affinity_policy != nullptr ? node_affinity_policy : "";
    c.node_taints_policy = node_taints_policy != nullptr ? node_taints_policy : "";
    c.match_label_keys = std::move(match_label_keys.value);
    pod_.spec.topology_spread_constraints.push_back(std::move(c));
    return *this;
  }
  // Upstream's pods have no UID unless set; NodeInfo needs distinct ones.
  api::Pod Obj() const {
    api::Pod pod = pod_;
    if (pod.metadata.uid.empty()) {
      pod.metadata.uid = "uid-" + pod.metadata.namespace_ + "/" + pod.metadata.name;
    }
    return pod;
  }

 private:
  api::Pod pod_;
};
PodWrapper MakePod() { return {}; }

class NodeWrapper {
 public:
  NodeWrapper& Name(std::string name) {
    node_.metadata.name = std::move(name);
    return *this;
  }
  NodeWrapper& Label(std::string key, std::string value) {
    node_.metadata.labels.Set(std::move(key), std::move(value));
    return *this;
  }
  NodeWrapper& Taints(const Taints& taints) {
    node_.spec.taints.clear();
    for (const TaintW& t : taints) node_.spec.taints.push_back({t.key, t.value, t.effect, {}});
    return *this;
  }
  std::shared_ptr<api::Node> Obj() const { return std::make_shared<api::Node>(node_); }

 private:
  api::Node node_;
};
NodeWrapper MakeNode() { return {}; }

}  // namespace st

const api::LabelSelector kFooSelector = st::MakeLabelSelector().Exists("foo").Obj();
const api::LabelSelector kBarSelector = st::MakeLabelSelector().Exists("bar").Obj();
const Taints kTaints = {{.key = v1::kTaintNodeUnschedulable, .value = "", .effect = v1::kTaintEffectNoSchedule}};

// --- Workload objects and the lister (upstream helper.DefaultSelector over fake informers) ----

struct WorkloadObject {
  std::string kind;  // "Service" or "ReplicaSet"
  std::string namespace_;
  std::string name;
  Labels service_selector;
  std::optional<api::LabelSelector> selector;
};
using Objects = std::vector<WorkloadObject>;

namespace st {
// A Service without namespace, as upstream's test objects.
WorkloadObject Service(Labels selector) { return {"Service", "", "", std::move(selector), {}}; }
WorkloadObject ReplicaSet(std::string ns, std::string name, api::LabelSelector selector) {
  return {"ReplicaSet", std::move(ns), std::move(name), {}, std::move(selector)};
}
}  // namespace st

class FakeSpreadSelectorLister final : public framework::SpreadSelectorLister {
 public:
  explicit FakeSpreadSelectorLister(Objects objects) : objects_(std::move(objects)) {}

  api::CompiledLabelSelector DefaultSelector(const api::Pod& pod) const override {
    Labels label_set;
    for (const WorkloadObject& o : objects_) {
      if (o.kind != "Service" || o.namespace_ != pod.metadata.namespace_) continue;
      if (!api::CompiledLabelSelector::FromSet(o.service_selector).Matches(pod.metadata.labels)) {
        continue;
      }
      for (const auto& [key, value] : o.service_selector) label_set.Set(key, value);
    }
    api::CompiledLabelSelector selector = api::CompiledLabelSelector::FromSet(label_set);
    const api::OwnerReference* owner = pod.metadata.ControllerRef();
    if (owner == nullptr || owner->api_version != "apps/v1" || owner->kind != "ReplicaSet") {
      return selector;
    }
    for (const WorkloadObject& o : objects_) {
      if (o.kind != "ReplicaSet" || o.namespace_ != pod.metadata.namespace_ ||
          o.name != owner->name) {
        continue;
      }
      absl::StatusOr<api::CompiledLabelSelector> other = api::CompiledLabelSelector::Compile(
          o.selector.has_value() ? &*o.selector : nullptr);
      if (!other.ok() || other->MatchesNothing()) return selector;
      std::vector<api::LabelRequirement> requirements(selector.requirements().begin(),
                                                      selector.requirements().end());
      requirements.insert(requirements.end(), other->requirements().begin(),
                          other->requirements().end());
      return api::CompiledLabelSelector::FromRequirements(std::move(requirements));
    }
    return selector;
  }

 private:
  Objects objects_;
};

// A Handle with a snapshot of the test's objects, a real two-way parallelizer (PreFilter and
// PreScore count in parallel) and an optional lister built from workload objects.
class SpreadHandle final : public framework::Handle {
 public:
  SpreadHandle(const Nodes& nodes, const Pods& pods, const Objects* objects = nullptr)
      : parallelizer_(2) {
    std::vector<framework::PodInfoPtr> infos;
    for (const api::Pod& pod : pods) {
      infos.push_back(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod)));
    }
    snapshot_ = framework::Snapshot::FromObjects(nodes, infos);
    if (objects != nullptr) lister_.emplace(*objects);
  }

  const framework::Snapshot& snapshot() const override { return *snapshot_; }
  framework::ClusterApi& cluster_api() override { return cluster_api_; }
  framework::EventRecorder& event_recorder() override { return event_recorder_; }
  framework::Parallelizer& parallelizer() override { return parallelizer_; }
  const std::string& profile_name() const override { return profile_name_; }
  std::optional<api::Labels> NamespaceLabels(std::string_view /*name*/) const override {
    return std::nullopt;
  }
  void IterateOverWaitingPods(const std::function<void(framework::WaitingPod&)>& /*fn*/) override {}
  bool RejectWaitingPod(std::string_view /*uid*/) override { return false; }
  const framework::SpreadSelectorLister* spread_selector_lister() const override {
    return lister_.has_value() ? &*lister_ : nullptr;
  }

  const framework::NodeInfo& NodeInfo(const std::string& name) const {
    const framework::NodeInfo* info = snapshot_->Get(name);
    REQUIRE(info != nullptr);
    return *info;
  }
  std::vector<const framework::NodeInfo*> NodeInfos(const Nodes& nodes) const {
    std::vector<const framework::NodeInfo*> infos;
    for (const auto& node : nodes) infos.push_back(&NodeInfo(node->metadata.name));
    return infos;
  }

 private:
  std::unique_ptr<framework::Snapshot> snapshot_;
  framework::Parallelizer parallelizer_;
  ksched::plugins::testing::FakeClusterApi cluster_api_;
  ksched::plugins::testing::DiscardingEventRecorder event_recorder_;
  std::optional<FakeSpreadSelectorLister> lister_;
  std::string profile_name_ = "default-scheduler";
};

// --- Expected states (upstream's preFilterState / preScoreState literals) --------------------

// A compiled selector as text: "<nothing>" for labels.Nothing(), else Selector.String().
std::string SelectorText(const api::CompiledLabelSelector& selector) {
  if (selector.MatchesNothing()) return "<nothing>";
  std::string text = "{";
  text += selector.ToString();
  text += "}";
  return text;
}
// upstream mustConvertLabelSelectorAsSelector.
std::string SelectorOf(const OptSelector& selector) {
  absl::StatusOr<api::CompiledLabelSelector> compiled = api::CompiledLabelSelector::Compile(
      selector.value.has_value() ? &*selector.value : nullptr);
  REQUIRE(compiled.ok());
  return SelectorText(*compiled);
}
const std::string kNothingSelector = "<nothing>";

struct WantConstraint {
  std::int32_t max_skew{};
  std::string topology_key{};
  std::string selector{};
  std::int32_t min_domains{};
  std::string node_affinity_policy{};
  std::string node_taints_policy{};
};
using WantConstraints = std::vector<WantConstraint>;

struct WantPath {
  std::string topology_value{};
  int match_num{};
};
struct WantPaths {
  WantPath first{};
  WantPath second{};
};
using WantPathsList = std::vector<WantPaths>;

WantPaths NewCriticalPaths() {
  return {{"", std::numeric_limits<std::int32_t>::max()},
          {"", std::numeric_limits<std::int32_t>::max()}};
}

struct WantPreFilter {
  WantConstraints constraints{};
  WantPathsList critical_paths{};
  CountMaps tp_value_to_match_num{};
};

struct WantPreScore {
  WantConstraints constraints{};
  StringSet ignored_nodes{};
  PodCountMaps topology_value_to_pod_counts{};
  Floats topology_normalizing_weight{};
};

struct WantScore {
  std::string name{};
  std::int64_t score{};
  friend bool operator==(const WantScore&, const WantScore&) = default;
};
using WantScores = std::vector<WantScore>;

// upstream topologyNormalizingWeight.
double NormalizingWeight(int size) { return std::log(static_cast<double>(size + 2)); }

struct ArgsW {
  TSCs default_constraints{};
  std::string defaulting_type{};
};

pts::PodTopologySpreadArgs ToArgs(const ArgsW& w) {
  pts::PodTopologySpreadArgs args;
  for (const TscW& c : w.default_constraints) args.default_constraints.push_back(ToApi(c));
  args.defaulting_type = w.defaulting_type;
  return args;
}

std::unique_ptr<pts::PodTopologySpread> NewPlugin(const ArgsW& args, framework::Handle& handle) {
  absl::StatusOr<std::unique_ptr<pts::PodTopologySpread>> plugin =
      pts::PodTopologySpread::Create(ToArgs(args), handle);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

std::string PolicyText(pts::NodeInclusionPolicy policy) {
  return policy == pts::NodeInclusionPolicy::kHonor ? "Honor" : "Ignore";
}

void CheckConstraints(const std::vector<pts::SpreadConstraint>& got, const WantConstraints& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("constraint " << i);
    CHECK(got[i].max_skew == want[i].max_skew);
    CHECK(got[i].topology_key == want[i].topology_key);
    CHECK(SelectorText(got[i].selector) == want[i].selector);
    CHECK(got[i].min_domains == want[i].min_domains);
    CHECK(PolicyText(got[i].node_affinity_policy) == want[i].node_affinity_policy);
    CHECK(PolicyText(got[i].node_taints_policy) == want[i].node_taints_policy);
  }
}

// upstream criticalPaths.sort: domains with equal counts are compared in name order.
WantPaths Sorted(WantPaths paths) {
  if (paths.first.match_num == paths.second.match_num &&
      paths.first.topology_value > paths.second.topology_value) {
    std::swap(paths.first.topology_value, paths.second.topology_value);
  }
  return paths;
}

template <typename Map>
std::map<std::string, typename Map::mapped_type> Ordered(const Map& map) {
  return {map.begin(), map.end()};
}

void CheckPreFilterState(const pts::PreFilterState& got, const WantPreFilter& want) {
  CheckConstraints(got.constraints(), want.constraints);
  REQUIRE(got.critical_paths().size() == want.critical_paths.size());
  for (std::size_t i = 0; i < want.critical_paths.size(); ++i) {
    INFO("critical paths " << i);
    const WantPaths g = Sorted({{got.critical_paths()[i][0].topology_value,
                                 got.critical_paths()[i][0].match_num},
                                {got.critical_paths()[i][1].topology_value,
                                 got.critical_paths()[i][1].match_num}});
    const WantPaths w = Sorted(want.critical_paths[i]);
    CHECK(g.first.topology_value == w.first.topology_value);
    CHECK(g.first.match_num == w.first.match_num);
    CHECK(g.second.topology_value == w.second.topology_value);
    CHECK(g.second.match_num == w.second.match_num);
  }
  REQUIRE(got.tp_value_to_match_num().size() == want.tp_value_to_match_num.size());
  for (std::size_t i = 0; i < want.tp_value_to_match_num.size(); ++i) {
    INFO("match counts " << i);
    CHECK(Ordered(got.tp_value_to_match_num()[i]) == want.tp_value_to_match_num[i]);
  }
}

void CheckPreScoreState(const pts::PreScoreState& got, const WantPreScore& want) {
  CheckConstraints(got.constraints(), want.constraints);
  CHECK(StringSet(got.ignored_nodes().begin(), got.ignored_nodes().end()) == want.ignored_nodes);
  REQUIRE(got.topology_value_to_pod_counts().size() == want.topology_value_to_pod_counts.size());
  for (std::size_t i = 0; i < want.topology_value_to_pod_counts.size(); ++i) {
    INFO("pod counts " << i);
    CHECK(Ordered(got.topology_value_to_pod_counts()[i]) == want.topology_value_to_pod_counts[i]);
  }
  CHECK(got.topology_normalizing_weight() == want.topology_normalizing_weight);
}

framework::PodInfoPtr InfoOf(const api::Pod& pod) {
  return framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod));
}

// The reason upstream attaches to each rejection code of Filter.
std::vector<std::string> ReasonsFor(Code code) {
  if (code == Code::kUnschedulable) return {std::string(pts::kErrReasonConstraintsNotMatch)};
  if (code == Code::kUnschedulableAndUnresolvable) {
    return {std::string(pts::kErrReasonNodeLabelNotMatch)};
  }
  return {};
}

// Filters every node and checks the codes (and the user-facing reasons).
void CheckFilterCodes(const Nodes& nodes, const Pods& existing, const api::Pod& pod,
                      const CodeMap& want) {
  SpreadHandle handle(nodes, existing);
  auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
  framework::CycleState state;
  auto [result, status] = plugin->PreFilter(state, pod, handle.snapshot().nodes());
  REQUIRE(status.IsSuccess());
  CHECK(result.AllNodes());
  for (const auto& node : nodes) {
    INFO("node " << node->metadata.name);
    const Status got = plugin->Filter(state, pod, handle.NodeInfo(node->metadata.name));
    auto it = want.find(node->metadata.name);
    const Code want_code = it == want.end() ? Code::kSuccess : it->second;
    CHECK(got.code() == want_code);
    CHECK(got.Reasons() == ReasonsFor(want_code));
  }
}

}  // namespace

TEST_CASE("PodTopologySpread PreFilter state", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Nodes nodes;
    Pods existing_pods;
    Objects objs;
    TSCs default_constraints;
    WantPreFilter want;
    Status want_prefilter_status;
    bool enable_node_inclusion_policy = true;  // always on in v1.34 (documentation only)
    bool enable_match_label_keys = true;       // on by default in v1.34 (documentation only)
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "clean cluster with one spreadConstraint";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(5, "zone", v1::kDoNotSchedule, st::MakeLabelSelector().Label("foo", "bar").Obj(), nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 5,
          .topology_key = "zone",
          .selector = SelectorOf(st::MakeLabelSelector().Label("foo", "bar").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 0}, {"zone2", 0}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 0},
        {"zone2", 0},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "normal case with one spreadConstraint";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 2}, {"zone1", 3}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 3},
        {"zone2", 2},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "normal case with null label selector";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, nullptr, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = kNothingSelector,
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 0}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 0},
        {"zone2", 0},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "normal case with one spreadConstraint, on a 3-zone cluster";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
      st::MakeNode().Name("node-o").Label("zone", "zone3").Label("node", "node-o").Obj(),
      st::MakeNode().Name("node-p").Label("zone", "zone3").Label("node", "node-p").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone3", 0}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 3},
        {"zone2", 2},
        {"zone3", 0},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "namespace mismatch doesn't count";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Namespace("ns2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 2},
        {"zone2", 1},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "normal case with two spreadConstraints";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 3}, {"zone2", 4}}, {{"node-x", 0}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 4},
        },
        {
          {"node-a", 2},
          {"node-b", 1},
          {"node-x", 0},
          {"node-y", 4},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "soft spreadConstraints should be bypassed";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 1}, {"node-a", 2}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 4},
        },
        {
          {"node-a", 2},
          {"node-b", 1},
          {"node-y", 4},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "different labelSelectors - simple version";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 1}}, {{"node-a", 0}, {"node-y", 0}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 1},
          {"zone2", 0},
        },
        {
          {"node-a", 0},
          {"node-b", 1},
          {"node-y", 0},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "different labelSelectors - complex pods";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 4},
        },
        {
          {"node-a", 1},
          {"node-b", 0},
          {"node-y", 2},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two spreadConstraints, and with podAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityNotIn("node", Strings{"node-x"}). // exclude node-x
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 1}, {"node-a", 2}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 4},
        },
        {
          {"node-a", 2},
          {"node-b", 1},
          {"node-y", 4},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a service";
    c.pod = st::MakePod().Name("p").Label("foo", "bar").Label("baz", "kar").Obj();
    c.default_constraints = TSCs{
      {.max_skew = 3, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule},
      {.max_skew = 2, .topology_key = "node", .when_unsatisfiable = v1::kScheduleAnyway},
      {.max_skew = 5, .topology_key = "rack", .when_unsatisfiable = v1::kDoNotSchedule},
    };
    c.objs = Objects{
      st::Service(Labels{{"foo", "bar"}}),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 3,
          .topology_key = "node",
          .selector = SelectorOf(st::MakeLabelSelector().Label("foo", "bar").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 5,
          .topology_key = "rack",
          .selector = SelectorOf(st::MakeLabelSelector().Label("foo", "bar").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{NewCriticalPaths(), NewCriticalPaths()},
      .tp_value_to_match_num = CountMaps{{}, {}},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a service that doesn't match";
    c.pod = st::MakePod().Name("p").Label("foo", "bar").Obj();
    c.default_constraints = TSCs{
      {.max_skew = 3, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule},
    };
    c.objs = Objects{
      st::Service(Labels{{"baz", "kep"}}),
    };
    c.want_prefilter_status = fwk::NewStatus(fwk::kSkip);
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a service, but pod has constraints";
    c.pod = st::MakePod().Name("p").Label("foo", "bar").Label("baz", "tar").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, st::MakeLabelSelector().Label("baz", "tar").Obj(), nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(2, "planet", v1::kScheduleAnyway, st::MakeLabelSelector().Label("fot", "rok").Obj(), nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.default_constraints = TSCs{
      {.max_skew = 2, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule},
    };
    c.objs = Objects{
      st::Service(Labels{{"foo", "bar"}}),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(st::MakeLabelSelector().Label("baz", "tar").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{NewCriticalPaths()},
      .tp_value_to_match_num = CountMaps{{}},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default soft constraints and a service";
    c.pod = st::MakePod().Name("p").Label("foo", "bar").Obj();
    c.default_constraints = TSCs{
      {.max_skew = 2, .topology_key = "node", .when_unsatisfiable = v1::kScheduleAnyway},
    };
    c.objs = Objects{
      st::Service(Labels{{"foo", "bar"}}),
    };
    c.want_prefilter_status = fwk::NewStatus(fwk::kSkip);
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "TpKeyToDomainsNum is calculated when MinDomains is enabled";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 3}, {"zone2", 4}}, {{"node-x", 0}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 4},
        },
        {
          {"node-a", 2},
          {"node-b", 1},
          {"node-x", 0},
          {"node-y", 4},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "feature gate disabled with NodeAffinityPolicy";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-a", 1}, {"node-b", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-a", 1}, {"node-b", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-c", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
        {"node-c", 0},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-e").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-a", 1}, {"node-b", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-c", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
        {"node-c", 0},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "feature gate disabled with NodeTaintsPolicy";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-c", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
        {"node-c", 0},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy ignored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"node-c", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
        {"node-c", 0},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy honored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyHonor,
        },
      },
      .critical_paths = WantPathsList{{{"node-a", 1}, {"node-b", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy honored with tolerated taints";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      Toleration(v1::kTaintNodeUnschedulable).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Label("bar", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-d").Node("node-c").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyHonor,
        },
      },
      .critical_paths = WantPathsList{{{"node-c", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 2},
        {"node-c", 0},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 0}, {"zone2", 1}}, {{"node-a", 0}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 0},
          {"zone2", 1},
        },
        {
          {"node-a", 0},
          {"node-b", 2},
          {"node-x", 1},
        },
      },
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two node inclusion Constraints, zone: honor/honor, node: honor/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Taints(kTaints).Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyHonor,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 0}, {"zone2", 1}}, {{"node-a", 0}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 0},
          {"zone2", 1},
        },
        {
          {"node-a", 0},
          {"node-b", 2},
          {"node-x", 1},
        },
      },
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Taints(kTaints).Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 0}, {"zone2", 1}}, {{"node-b", 0}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 0},
          {"zone2", 1},
        },
        {
          {"node-b", 0},
          {"node-x", 1},
        },
      },
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Taints(kTaints).Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyHonor,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 2}, {"zone2", 3}}, {{"node-y", 1}, {"node-x", 2}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 2},
          {"zone2", 3},
        },
        {
          {"node-x", 2},
          {"node-y", 1},
        },
      },
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  // Not ported (its result needs MatchLabelKeysInPodTopologySpread off): "matchLabelKeys ignored when feature gate disabled"
  {
    Case c;
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "a").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, Strings{"bar"}).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "a").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "a").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(st::MakeLabelSelector().Exists("foo").Label("bar", "a").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 1},
      }},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty";
    c.pod = st::MakePod().Name("p").Label("foo", "a").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, st::MakeLabelSelector().Obj(), nullptr, nullptr, nullptr, Strings{"foo"}).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(st::MakeLabelSelector().Label("foo", "a").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 2}, {"zone1", 3}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 3},
        {"zone2", 2},
      }},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, nullptr, nullptr, nullptr, nullptr, Strings{"bar"}).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(nullptr),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 0}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 0},
        {"zone2", 0},
      }},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "no pod is matched when LabelSelector is nil when feature gate disabled";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, nullptr, nullptr, nullptr, nullptr, Strings{"bar"}).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(nullptr),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 0}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 0},
        {"zone2", 0},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "key in matchLabelKeys is ignored when it isn't exist in pod.labels";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, Strings{"bar"}).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 2}, {"zone1", 3}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 3},
        {"zone2", 2},
      }},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two spreadConstraints with the same topologyKey";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 2}}, {{"zone1", 1}, {"zone2", 3}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 2},
          {"zone2", 1},
        },
        {
          {"zone1", 1},
          {"zone2", 3},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "skip if not specified";
    c.pod = st::MakePod().Name("p").Label("foo", "").Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
    };
    c.want_prefilter_status = fwk::NewStatus(fwk::kSkip);
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle(c.nodes, c.existing_pods, &c.objs);
      auto plugin = NewPlugin({c.default_constraints, config::kListDefaulting}, handle);
      framework::CycleState state;
      auto [result, status] = plugin->PreFilter(state, c.pod, handle.snapshot().nodes());
      CHECK(status == c.want_prefilter_status);
      CHECK(result.AllNodes());
      if (!status.IsSuccess()) {
        CHECK(state.Read(pts::kPreFilterStateKey) == nullptr);
        continue;
      }
      const auto* got = state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
      REQUIRE(got != nullptr);
      CheckPreFilterState(*got, c.want);
    }
  }
}

TEST_CASE("PodTopologySpread PreFilter state after AddPod", "[pod_topology_spread]") {
  WantConstraint node_constraint{.max_skew = 1,
                                 .topology_key = "node",
                                 .selector = SelectorOf(kFooSelector),
                                 .min_domains = 1,
                                 .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
                                 .node_taints_policy = v1::kNodeInclusionPolicyIgnore};
  WantConstraint zone_constraint = node_constraint;
  zone_constraint.topology_key = "zone";
  struct Case {
    std::string name;
    api::Pod preemptor;
    api::Pod added_pod;
    Pods existing_pods;
    std::size_t node_idx = 0;  // the node of added_pod
    Nodes nodes;
    WantPreFilter want;
    bool enable_node_inclusion_policy = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "node a and b both impact current min match";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();  // it's an empty cluster
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{node_constraint},
      .critical_paths = WantPathsList{{{"node-b", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 0},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "only node a impacts current min match";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{node_constraint},
      .critical_paths = WantPathsList{{{"node-a", 1}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 1},
        {"node-b", 1},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{node_constraint},
      .critical_paths = WantPathsList{{{"node-a", 0}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 0},
        {"node-b", 1},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add pod on non-critical node won't trigger re-calculation";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
    };
    c.node_idx = 1;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{node_constraint},
      .critical_paths = WantPathsList{{{"node-a", 0}, {"node-b", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"node-a", 0},
        {"node-b", 2},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "node a and x both impact topologyKeyToMinPodsMap on zone and node";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();  // it's an empty cluster
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint, node_constraint},
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 1}}, {{"node-x", 0}, {"node-a", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 1},
          {"zone2", 0},
        },
        {
          {"node-a", 1},
          {"node-x", 0},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "only node a impacts topologyKeyToMinPodsMap on zone and node";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint, node_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 1}}, {{"node-a", 1}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 1},
          {"zone2", 1},
        },
        {
          {"node-a", 1},
          {"node-x", 1},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint, node_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 3}}, {{"node-a", 1}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 1},
        },
        {
          {"node-a", 1},
          {"node-b", 2},
          {"node-x", 1},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-x2").Node("node-x").Label("bar", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        zone_constraint,
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 2}}, {{"node-a", 0}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 2},
          {"zone2", 1},
        },
        {
          {"node-a", 0},
          {"node-b", 1},
          {"node-x", 2},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-x2").Node("node-x").Label("bar", "").Obj(),
    };
    c.node_idx = 0;
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{
        zone_constraint,
        {
          .max_skew = 1,
          .topology_key = "node",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 1}}, {{"node-a", 1}, {"node-b", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 1},
          {"zone2", 1},
        },
        {
          {"node-a", 1},
          {"node-b", 1},
          {"node-x", 2},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").NodeAffinityNotIn("foo", Strings{"bar"}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 0;
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {.match_num = kMaxInt32}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 1},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").NodeAffinityNotIn("foo", Strings{"bar"}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 0;
    c.added_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {.match_num = kMaxInt32}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 1},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.added_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 2},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.added_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 2},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a label selector not matched pod when with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.added_pod = st::MakePod().Name("p-b1").Node("node-b").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 1},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.added_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Taints(kTaints).Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 2},
        {"zone1", 1},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").Toleration(v1::kTaintNodeUnschedulable).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.added_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Taints(kTaints).Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 2},
        {"zone1", 1},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle(c.nodes, c.existing_pods);
      auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
      framework::CycleState state;
      REQUIRE(plugin->PreFilter(state, c.preemptor, handle.snapshot().nodes()).second.IsSuccess());
      const framework::NodeInfo& node = handle.NodeInfo(c.nodes[c.node_idx]->metadata.name);
      REQUIRE(plugin->AddPod(state, c.preemptor, InfoOf(c.added_pod), node).IsSuccess());
      const auto* got = state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
      REQUIRE(got != nullptr);
      CheckPreFilterState(*got, c.want);
    }
  }
}

TEST_CASE("PodTopologySpread PreFilter state after RemovePod", "[pod_topology_spread]") {
  WantConstraint node_constraint{.max_skew = 1,
                                 .topology_key = "node",
                                 .selector = SelectorOf(kFooSelector),
                                 .min_domains = 1,
                                 .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
                                 .node_taints_policy = v1::kNodeInclusionPolicyIgnore};
  WantConstraint zone_constraint = node_constraint;
  zone_constraint.topology_key = "zone";
  struct Case {
    std::string name;
    api::Pod preemptor;
    Nodes nodes;
    Pods existing_pods;
    int deleted_pod_idx = 0;  // reuses existing_pods[i]
    api::Pod deleted_pod;     // used only when deleted_pod_idx is out of range
    std::size_t node_idx = 0;  // the node of the deleted pod
    WantPreFilter want;
    bool enable_node_inclusion_policy = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    // A high priority pod may not be scheduled due to node taints or resource shortage.
    // So preemption is triggered.
    c.name = "one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
    };
    c.deleted_pod_idx = 0;  // remove pod "p-a1"
    c.node_idx = 0;  // node-a
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 1},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "one spreadConstraint on node, topologyKeyToMinPodsMap changed";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.deleted_pod_idx = 0;  // remove pod "p-a1"
    c.node_idx = 0;  // node-a
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 1}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 1},
        {"zone2", 2},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete an irrelevant pod won't help";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a0").Node("node-a").Label("bar", "").Obj(),
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.deleted_pod_idx = 0;  // remove pod "p-a0"
    c.node_idx = 0;  // node-a
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 2}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 2},
        {"zone2", 2},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete a non-existing pod won't help";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.deleted_pod_idx = -1;
    c.deleted_pod = st::MakePod().Name("p-a0").Node("node-a").Label("bar", "").Obj();
    c.node_idx = 0;  // node-a
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone1", 2}, {"zone2", 2}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone1", 2},
        {"zone2", 2},
      }},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two spreadConstraints";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
    };
    c.deleted_pod_idx = 3;  // remove pod "p-x1"
    c.node_idx = 2;  // node-x
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint, node_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {"zone1", 3}}, {{"node-b", 1}, {"node-x", 1}}},
      .tp_value_to_match_num = CountMaps{
        {
          {"zone1", 3},
          {"zone2", 1},
        },
        {
          {"node-a", 2},
          {"node-b", 1},
          {"node-x", 1},
        },
      },
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").NodeAffinityNotIn("foo", Strings{"bar"}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 0;
    c.deleted_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {.match_num = kMaxInt32}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 1},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").NodeAffinityNotIn("foo", Strings{"bar"}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 0;
    c.deleted_pod = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 1}, {.match_num = kMaxInt32}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 1},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.deleted_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 0},
        {"zone1", 1},
      }},
    };
    c.enable_node_inclusion_policy = false;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled";
    c.preemptor = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.node_idx = 1;
    c.deleted_pod = st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj(),
    };
    c.want = WantPreFilter{
      .constraints = WantConstraints{zone_constraint},
      .critical_paths = WantPathsList{{{"zone2", 0}, {"zone1", 1}}},
      .tp_value_to_match_num = CountMaps{{
        {"zone2", 0},
        {"zone1", 1},
      }},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle(c.nodes, c.existing_pods);
      auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
      framework::CycleState state;
      REQUIRE(plugin->PreFilter(state, c.preemptor, handle.snapshot().nodes()).second.IsSuccess());
      const api::Pod& deleted =
          c.deleted_pod_idx >= 0 &&
                  static_cast<std::size_t>(c.deleted_pod_idx) < c.existing_pods.size()
              ? c.existing_pods[static_cast<std::size_t>(c.deleted_pod_idx)]
              : c.deleted_pod;
      const framework::NodeInfo& node = handle.NodeInfo(c.nodes[c.node_idx]->metadata.name);
      REQUIRE(plugin->RemovePod(state, c.preemptor, InfoOf(deleted), node).IsSuccess());
      const auto* got = state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
      REQUIRE(got != nullptr);
      CheckPreFilterState(*got, c.want);
    }
  }
}

TEST_CASE("PodTopologySpread Filter with a single constraint", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Nodes nodes;
    Pods existing_pods;
    CodeMap want_status_code;
    bool enable_node_inclusion_policy = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "no existing pods";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "no existing pods, incoming pod doesn't match itself";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "existing pods in a different namespace do not count";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Namespace("ns2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "existing pods do not match null selector";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, nullptr, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across zones as 3/3, all nodes fit";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // TODO(Huang-Wei): maybe document this to remind users that typos on node labels
    // can cause unexpected behavior
    c.name = "pods spread across zones as 1/2 due to absence of label 'zone' on node-b";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zon", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kUnschedulableAndUnresolvable},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pod cannot be scheduled as all nodes don't have label 'rack'";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "rack", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulableAndUnresolvable},
      {"node-x", fwk::kUnschedulableAndUnresolvable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across nodes as 2/1/0/3, only node-x fits";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(2, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // not a desired case, but it can happen
    // TODO(Huang-Wei): document this "pod-not-match-itself" case
    // in this case, placement of the new pod doesn't change pod distribution of the cluster
    // as the incoming pod doesn't have label "foo"
    c.name = "pods spread across nodes as 2/1/0/3, but pod doesn't match itself";
    c.pod = st::MakePod().Name("p").Label("bar", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // only node-a and node-y are considered, so pods spread as 2/~1~/~0~/3
    // ps: '~num~' is a markdown symbol to denote a crossline through 'num'
    // but in this unit test, we don't run NodeAffinity/TaintToleration Predicate, so node-b and node-x are
    // still expected to be fits;
    // the fact that node-a fits can prove the underlying logic works
    c.name = "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("node", Strings{"node-a", "node-y"}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess}, // in real case, it's false
      {"node-x", fwk::kSuccess}, // in real case, it's false
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "terminating Pods should be excluded";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // In this unit test, NodeAffinity plugin is not involved, so node-b still fits
    c.name = "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityNotIn("node", Strings{"node-b"}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess}, // in real case, it's Unschedulable
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits";
    c.pod = st::MakePod().Name("p").Label("foo", "").SpreadConstraint(
      2,
      "node",
      v1::kDoNotSchedule,
      kFooSelector,
      (4), // larger than the number of domains(3)
      nullptr,
      nullptr,
      nullptr
    ).Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-c", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit";
    c.pod = st::MakePod().Name("p").Label("foo", "").SpreadConstraint(
      2,
      "node",
      v1::kDoNotSchedule,
      kFooSelector,
      (2), // smaller than the number of domains(3)
      nullptr,
      nullptr,
      nullptr
    ).Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-c", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit";
    c.pod = st::MakePod().Name("p").Label("foo", "").SpreadConstraint(
      2,
      "zone",
      v1::kDoNotSchedule,
      kFooSelector,
      (3), // larger than the number of domains(2)
      nullptr,
      nullptr,
      nullptr
    ).Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit";
    c.pod = st::MakePod().Name("p").Label("foo", "").SpreadConstraint(
      2,
      "zone",
      v1::kDoNotSchedule,
      kFooSelector,
      (1), // smaller than the number of domains(2)
      nullptr,
      nullptr,
      nullptr
    ).Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~0~
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess}, // in real case, when we disable NodeAffinity Plugin, node-y will be success.
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~1~
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~0~
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess}, // in real case, when we disable NodeAffinity Plugin, node-y will be success.
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~1~
    c.name = "NodeAffinityPolicy ignored with labelSelectors (second case of that name)";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~0~
    c.name = "NodeTaintsPolicy honored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess}, // in real case, when we disable TaintToleration Plugin, node-y will be success.
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // pods spread across node as 1/1/0/~1~
    c.name = "NodeTaintsPolicy ignored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("node", "node-y").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) { CheckFilterCodes(c.nodes, c.existing_pods, c.pod, c.want_status_code); }
  }
}

TEST_CASE("PodTopologySpread Filter with multiple constraints", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Nodes nodes;
    Pods existing_pods;
    CodeMap want_status_code;
    bool enable_node_inclusion_policy = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on any zone (hence any node)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-x
    // intersection of (1) and (2) returns node-x
    c.name = "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on zone1 (node-a or node-b)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-x
    // intersection of (1) and (2) returns no node
    c.name = "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on zone2 (node-x or node-y)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-a, node-b or node-x
    // intersection of (1) and (2) returns node-x
    c.name = "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on zone2 (node-x or node-y)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-a or node-b
    // intersection of (1) and (2) returns no node
    c.name = "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on zone1 (node-a or node-b)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-b or node-x
    // intersection of (1) and (2) returns node-b
    c.name = "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. pod doesn't match itself on "zone" constraint, so it can be put onto any zone
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-a or node-b
    // intersection of (1) and (2) returns node-a and node-b
    c.name = "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint";
    c.pod = st::MakePod().Name("p").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kSuccess},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, incoming pod can be placed on any zone (hence any node)
    // 2. to fulfil "node" constraint, incoming pod can be placed on node-b (node-x doesn't have the required label)
    // intersection of (1) and (2) returns node-b
    c.name = "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kUnschedulableAndUnresolvable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, pods spread across zones as 2/~0~
    // 2. to fulfil "node" constraint, pods spread across zones as 1/1/0/~1~
    // intersection of (1) and (2) returns node-x
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, pods spread across zones as 2/0
    // 2. to fulfil "node" constraint, pods spread across zones as 1/1/0/~1~
    // intersection of (1) and (2) returns node-x
    c.name = "two node inclusion Constraints, zone: honor/honor, node: honor/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, pods spread across zones as 1/~1~
    // 2. to fulfil "node" constraint, pods spread across zones as 1/0/0/~1~
    // intersection of (1) and (2) returns node-x
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kSuccess},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil "zone" constraint, pods spread across zones as 1/0
    // 2. to fulfil "node" constraint, pods spread across zones as 1/~1~/0/~1~
    // intersection of (1) and (2) returns node-x
    c.name = "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kUnschedulable},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil first "zone" constraint, incoming pod can be placed on zone2 (node-x or node-y)
    // 2. to fulfil second "zone" constraint, incoming pod can be placed on any zone
    // intersection of (1) and (2) returns node-x and node-y
    c.name = "two Constraints on zone, spreads = [3/3, 2/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kSuccess},
      {"node-y", fwk::kSuccess},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // 1. to fulfil first "zone" constraint, incoming pod can be placed on zone2 (node-x or node-y)
    // 2. to fulfil second "zone" constraint, incoming pod can be placed on zone1 (node-a or node-b)
    // intersection of (1) and (2) returns no node
    c.name = "two Constraints on zone, spreads = [3/4, 2/1]";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.want_status_code = CodeMap{
      {"node-a", fwk::kUnschedulable},
      {"node-b", fwk::kUnschedulable},
      {"node-x", fwk::kUnschedulable},
      {"node-y", fwk::kUnschedulable},
    };
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) { CheckFilterCodes(c.nodes, c.existing_pods, c.pod, c.want_status_code); }
  }
}

TEST_CASE("PodTopologySpread Filter and AddPod without PreFilter state", "[pod_topology_spread]") {
  // upstream TestPreFilterDisabled, plus the extensions and scoring without their state.
  SpreadHandle handle({st::MakeNode().Name("node-a").Obj()}, {});
  auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
  framework::CycleState state;
  const api::Pod pod = st::MakePod().Name("p").Obj();
  const framework::NodeInfo& node = handle.NodeInfo("node-a");
  CHECK(plugin->Filter(state, pod, node) ==
        Status::FromError("reading \"PreFilterPodTopologySpread\" from cycleState: not found"));
  CHECK(plugin->AddPod(state, pod, InfoOf(pod), node) ==
        Status::FromError("reading \"PreFilterPodTopologySpread\" from cycleState: not found"));
  CHECK(plugin->RemovePod(state, pod, InfoOf(pod), node) ==
        Status::FromError("reading \"PreFilterPodTopologySpread\" from cycleState: not found"));
  CHECK(plugin->Score(state, pod, node).second ==
        Status::FromError("error reading \"PreScorePodTopologySpread\" from cycleState: not found"));
}

TEST_CASE("PodTopologySpread PreFilter state is copied by Clone", "[pod_topology_spread]") {
  // Preemption evaluates each node on its own clone: AddPod on a clone must not leak.
  const Nodes nodes = {st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
                       st::MakeNode().Name("node-b").Label("node", "node-b").Obj()};
  SpreadHandle handle(nodes, {});
  auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
  const api::Pod pod = st::MakePod().Name("p").Label("foo", "")
                           .SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr,
                                             nullptr, nullptr, nullptr)
                           .Obj();
  framework::CycleState state;
  REQUIRE(plugin->PreFilter(state, pod, handle.snapshot().nodes()).second.IsSuccess());
  std::unique_ptr<framework::CycleState> clone = state.Clone();
  const api::Pod added = st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
  REQUIRE(plugin->AddPod(*clone, pod, InfoOf(added), handle.NodeInfo("node-a")).IsSuccess());
  // On the clone node-a now has 1 matching pod (skew 2 > 1); the original still fits.
  CHECK(plugin->Filter(*clone, pod, handle.NodeInfo("node-a")).code() == Code::kUnschedulable);
  CHECK(plugin->Filter(state, pod, handle.NodeInfo("node-a")).IsSuccess());
  const auto* original = state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
  REQUIRE(original != nullptr);
  CHECK(original->MatchNum(0, "node-a") == 0);
}

TEST_CASE("PodTopologySpread PreFilter rejects an invalid selector", "[pod_topology_spread]") {
  SpreadHandle handle({st::MakeNode().Name("node-a").Label("zone", "z").Obj()}, {});
  auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
  api::LabelSelector bad;
  bad.match_expressions.push_back({"foo", "Bogus", {}});
  const api::Pod pod = st::MakePod().Name("p")
                           .SpreadConstraint(1, "zone", v1::kDoNotSchedule, bad, nullptr, nullptr,
                                             nullptr, nullptr)
                           .SpreadConstraint(1, "zone", v1::kScheduleAnyway, bad, nullptr, nullptr,
                                             nullptr, nullptr)
                           .Obj();
  framework::CycleState state;
  CHECK(plugin->PreFilter(state, pod, handle.snapshot().nodes()).second ==
        Status::FromError("get constraints from pod: obtaining pod's hard topology spread "
                          "constraints: \"Bogus\" is not a valid label selector operator"));
  CHECK(plugin->PreScore(state, pod, handle.NodeInfos(
                                         {st::MakeNode().Name("node-a").Obj()})) ==
        Status::FromError("calculating preScoreState: obtaining pod's soft topology spread "
                          "constraints: \"Bogus\" is not a valid label selector operator"));
}

TEST_CASE("PodTopologySpread PreScore skips", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Nodes nodes;
    Objects objs;
    ArgsW config;
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "the pod doesn't have soft topology spread Constraints";
    c.pod = st::MakePod().Name("p").Namespace("default").Obj();
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a replicaset that doesn't match";
    c.pod = st::MakePod().Name("p").Namespace("default").Label("foo", "bar").Label("baz", "sup").OwnerReference("rs2", "apps/v1", "ReplicaSet").Obj();
    c.config = ArgsW{
      .default_constraints = TSCs{
        {
          .max_skew = 2,
          .topology_key = "planet",
          .when_unsatisfiable = v1::kScheduleAnyway,
        },
      },
      .defaulting_type = config::kListDefaulting,
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("planet", "mars").Obj(),
    };
    c.objs = Objects{
      st::ReplicaSet("default", "rs1", st::MakeLabelSelector().Exists("tar").Obj()),
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "no nodes in the snapshot";
    c.pod = st::MakePod().Name("p").Label("foo", "")
                .SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr,
                                  nullptr, nullptr)
                .Obj();
    c.config = ArgsW{.defaulting_type = config::kListDefaulting};
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle(c.nodes, {}, &c.objs);
      auto plugin = NewPlugin(c.config, handle);
      framework::CycleState state;
      CHECK(plugin->PreScore(state, c.pod, handle.NodeInfos(c.nodes)).IsSkip());
      CHECK(state.Read(pts::kPreScoreStateKey) == nullptr);
    }
  }
}

TEST_CASE("PodTopologySpread PreScore state", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Nodes nodes;
    Objects objs;
    ArgsW config;
    WantPreScore want;
    bool enable_node_inclusion_policy = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "normal case";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = v1::kLabelHostname,
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{
        {
          {"zone1", (0)},
          {"zone2", (0)},
        },
        {},
      },
      .topology_normalizing_weight = Floats{NormalizingWeight(2), NormalizingWeight(3)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "null selector";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, nullptr, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = kNothingSelector,
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "node-x doesn't have label zone";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 1,
          .topology_key = v1::kLabelHostname,
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf("node-x"),
      .topology_value_to_pod_counts = PodCountMaps{
        {
          {"zone1", (0)},
        },
        {},
      },
      .topology_normalizing_weight = Floats{NormalizingWeight(1), NormalizingWeight(2)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "system default constraints and a replicaset";
    c.pod = st::MakePod().Name("p").Namespace("default").Label("foo", "tar").Label("baz", "sup").OwnerReference("rs1", "apps/v1", "ReplicaSet").Obj();
    c.config = ArgsW{
      .defaulting_type = config::kSystemDefaulting,
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Label(v1::kLabelTopologyZone, "mars").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Label(v1::kLabelTopologyZone, "mars").Obj(),
      // Nodes with no zone are not excluded. They are considered a separate zone.
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.objs = Objects{
      st::ReplicaSet("default", "rs1", kFooSelector),
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 3,
          .topology_key = v1::kLabelHostname,
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 5,
          .topology_key = v1::kLabelTopologyZone,
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{
        {},
        {
          {"mars", (0)},
          {"", (0)},
        },
      },
      .topology_normalizing_weight = Floats{NormalizingWeight(4), NormalizingWeight(2)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a replicaset";
    c.pod = st::MakePod().Name("p").Namespace("default").Label("foo", "tar").Label("baz", "sup").OwnerReference("rs1", "apps/v1", "ReplicaSet").Obj();
    c.config = ArgsW{
      .default_constraints = TSCs{
        {
          .max_skew = 1,
          .topology_key = v1::kLabelHostname,
          .when_unsatisfiable = v1::kScheduleAnyway,
        },
        {.max_skew = 2,
          .topology_key = "rack",
          .when_unsatisfiable = v1::kDoNotSchedule,
        },
        {.max_skew = 2, .topology_key = "planet", .when_unsatisfiable = v1::kScheduleAnyway},
      },
      .defaulting_type = config::kListDefaulting,
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("rack", "rack1").Label(v1::kLabelHostname, "node-a").Label("planet", "mars").Obj(),
    };
    c.objs = Objects{
      st::ReplicaSet("default", "rs1", kFooSelector),
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = v1::kLabelHostname,
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
        {
          .max_skew = 2,
          .topology_key = "planet",
          .selector = SelectorOf(kFooSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{
        {},
        {
          {"mars", (0)},
        },
      },
      .topology_normalizing_weight = Floats{NormalizingWeight(1), NormalizingWeight(1)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "default constraints and a replicaset, but pod has constraints";
    c.pod = st::MakePod().Name("p").Namespace("default").Label("foo", "bar").Label("baz", "sup").
      OwnerReference("rs1", "apps/v1", "ReplicaSet").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(2, "planet", v1::kScheduleAnyway, st::MakeLabelSelector().Label("baz", "sup").Obj(), nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.config = ArgsW{
      .default_constraints = TSCs{
        {
          .max_skew = 2,
          .topology_key = "galaxy",
          .when_unsatisfiable = v1::kScheduleAnyway,
        },
      },
      .defaulting_type = config::kListDefaulting,
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("planet", "mars").Label("galaxy", "andromeda").Obj(),
    };
    c.objs = Objects{
      st::ReplicaSet("default", "rs1", kFooSelector),
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 2,
          .topology_key = "planet",
          .selector = SelectorOf(st::MakeLabelSelector().Label("baz", "sup").Obj()),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"mars", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(1)},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyIgnore,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy honored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Taints(kTaints).Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyHonor,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy ignored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Taints(kTaints).Obj(),
    };
    c.config = ArgsW{
      .defaulting_type = config::kListDefaulting,
    };
    c.want = WantPreScore{
      .constraints = WantConstraints{
        {
          .max_skew = 1,
          .topology_key = "zone",
          .selector = SelectorOf(kBarSelector),
          .min_domains = 1,
          .node_affinity_policy = v1::kNodeInclusionPolicyHonor,
          .node_taints_policy = v1::kNodeInclusionPolicyIgnore,
        },
      },
      .ignored_nodes = StringSetOf(),
      .topology_value_to_pod_counts = PodCountMaps{{
        {"zone1", (0)},
        {"zone2", (0)},
      }},
      .topology_normalizing_weight = Floats{NormalizingWeight(2)},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle(c.nodes, {}, &c.objs);
      auto plugin = NewPlugin(c.config, handle);
      framework::CycleState state;
      REQUIRE(plugin->PreScore(state, c.pod, handle.NodeInfos(c.nodes)).IsSuccess());
      const auto* got = state.ReadAs<pts::PreScoreState>(pts::kPreScoreStateKey);
      REQUIRE(got != nullptr);
      CheckPreScoreState(*got, c.want);
    }
  }
}

TEST_CASE("PodTopologySpread Score and NormalizeScore", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    Pods existing_pods;
    Nodes nodes;
    Nodes failed_nodes;  // nodes + failed_nodes = all nodes
    Objects objs;
    WantScores want;
    bool enable_node_inclusion_policy = true;  // documentation only
    bool enable_match_label_keys = true;       // documentation only
  };
  std::vector<Case> cases;
  // Legend: X/Y means X matching pods on node1 and Y on node2, both candidates; X/~Y~ means node2
  // is not a candidate; X/?Y? means node2 is a candidate without every topology key.
  // Explanation on the Legend:
  // a) X/Y means there are X matching pods on node1 and Y on node2, both nodes are candidates
  //   (i.e. they have passed all predicates)
  // b) X/~Y~ means there are X matching pods on node1 and Y on node2, but node Y is NOT a candidate
  // c) X/?Y? means there are X matching pods on node1 and Y on node2, both nodes are candidates
  //    but node2 doesn't have all required topologyKeys present.
  {
    Case c;
    c.name = "one constraint on node, no existing pods";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // if there is only one candidate node, it should be scored to 100
    c.name = "one constraint on node, only one node is candidate";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "one constraint on node, all nodes have the same number of matching pods";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // matching pods spread as 2/1/0/3.
    c.name = "one constraint on node, all 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.want = WantScores{
      {.name = "node-a", .score = 20},
      {.name = "node-b", .score = 60},
      {.name = "node-c", .score = 100},
      {.name = "node-d", .score = 0},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "one constraint on node, null selector";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, nullptr, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 100},
      {.name = "node-c", .score = 100},
      {.name = "node-d", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "one constraint on node, all 4 nodes are candidates, maxSkew=2";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(2, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    // matching pods spread as 2/1/0/3.
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
      st::MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.want = WantScores{
      {.name = "node-a", .score = 33}, // +13, compared to maxSkew=1
      {.name = "node-b", .score = 66}, // +6, compared to maxSkew=1
      {.name = "node-c", .score = 100},
      {.name = "node-d", .score = 16}, // +16, compared to maxSkew=1
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "one constraint on node, all 4 nodes are candidates, maxSkew=3";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(3, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      // matching pods spread as 4/3/2/1.
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.want = WantScores{
      {.name = "node-a", .score = 44}, // +16 compared to maxSkew=1
      {.name = "node-b", .score = 66}, // +9 compared to maxSkew=1
      {.name = "node-c", .score = 77}, // +6 compared to maxSkew=1
      {.name = "node-d", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "system defaulting, nodes don't have zone, pods match service";
    c.pod = st::MakePod().Name("p").Label("foo", "").Obj();
    c.existing_pods = Pods{
      // matching pods spread as 4/3/2/1.
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.objs = Objects{
      st::Service(Labels{{"foo", ""}}),
    };
    c.want = WantScores{
      // Same scores as if we were using one spreading constraint.
      {.name = "node-a", .score = 44},
      {.name = "node-b", .score = 66},
      {.name = "node-c", .score = 77},
      {.name = "node-d", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // matching pods spread as 4/2/1/~3~ (node4 is not a candidate)
    c.name = "one constraint on node, 3 out of 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-y").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 33},
      {.name = "node-b", .score = 83},
      {.name = "node-x", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // matching pods spread as 4/?2?/1/~3~, total = 4+?+1 = 5 (as node2 is problematic)
    c.name = "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("n", "node-b").Obj(), // label `n` doesn't match topologyKey
      st::MakeNode().Name("node-x").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-y").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 16},
      {.name = "node-b", .score = 0},
      {.name = "node-x", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // matching pods spread as 4/2/1/~3~
    c.name = "one constraint on zone, 3 out of 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 75},
      {.name = "node-b", .score = 75},
      {.name = "node-x", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // matching pods spread as 2/~1~/2/~4~.
    c.name = "two Constraints on zone and node, 2 out of 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-x", .score = 63},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "two Constraints on zone, 2 out of 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 85},
      {.name = "node-x", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // If Constraints hold different labelSelectors, it's a little complex.
    // +----------------------+------------------------+
    // |         zone1        |          zone2         |
    // +----------------------+------------------------+
    // | node-a |    node-b   | node-x |     node-y    |
    // +--------+-------------+--------+---------------+
    // | P{foo} | P{foo, bar} |        | P{foo} P{bar} |
    // +--------+-------------+--------+---------------+
    // For the first constraint (zone): the matching pods spread as 2/2/1/1
    // For the second constraint (node): the matching pods spread as 0/1/0/1
    c.name = "two Constraints on zone and node, with different labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.want = WantScores{
      {.name = "node-a", .score = 60},
      {.name = "node-b", .score = 20},
      {.name = "node-x", .score = 100},
      {.name = "node-y", .score = 60},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // For the first constraint (zone): the matching pods spread as 0/0/2/2
    // For the second constraint (node): the matching pods spread as 0/1/0/1
    c.name = "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-b1").Node("node-b").Label("bar", "").Obj(),
      st::MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.failed_nodes = Nodes{};
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 60},
      {.name = "node-x", .score = 40},
      {.name = "node-y", .score = 0},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // For the first constraint (zone): the matching pods spread as 2/2/1/~1~
    // For the second constraint (node): the matching pods spread as 0/1/0/~1~
    c.name = "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-x").Label("zone", "zone2").Label(v1::kLabelHostname, "node-x").Obj(),
    };
    c.failed_nodes = Nodes{
      st::MakeNode().Name("node-y").Label("zone", "zone2").Label(v1::kLabelHostname, "node-y").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 50},
      {.name = "node-b", .score = 25},
      {.name = "node-x", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "existing pods in a different namespace do not count";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 33},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "terminating Pods should be excluded";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label(v1::kLabelHostname, "node-b").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
      st::MakePod().Name("p-b").Node("node-b").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 100},
      {.name = "node-b", .score = 0},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    // This test is artificial. In the real world, API Server would fail a pod's creation
    // when non-default minDomains is specified along with SchedulingAnyway.
    c.name = "minDomains has no effect when ScheduleAnyway";
    c.pod = st::MakePod().Name("p").Label("foo", "").SpreadConstraint(
      2,
      "node",
      v1::kScheduleAnyway,
      kFooSelector,
      (10), // larger than the number of domains(3)
      nullptr,
      nullptr,
      nullptr
    ).Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 75},
      {.name = "node-b", .score = 75},
      {.name = "node-c", .score = 100},
    };
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honoed with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 0},
      {.name = "node-b", .score = 33},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeSelector(Labels{{"foo", ""}}).
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 66},
      {.name = "node-b", .score = 100},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy honoed with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 0},
      {.name = "node-b", .score = 33},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      NodeAffinityIn("foo", Strings{""}, st::kNodeSelectorTypeMatchExpressions).
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, kIgnorePolicy, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 66},
      {.name = "node-b", .score = 100},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy honored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, kHonorPolicy, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 0},
      {.name = "node-b", .score = 33},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "NodeTaintsPolicy ignored";
    c.pod = st::MakePod().Name("p").Label("foo", "").
      SpreadConstraint(1, "node", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("node", "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("node", "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("node", "node-c").Taints(kTaints).Obj(),
    };
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 66},
      {.name = "node-b", .score = 100},
      {.name = "node-c", .score = 100},
    };
    c.enable_node_inclusion_policy = true;
    cases.push_back(std::move(c));
  }
  // Not ported (its result needs MatchLabelKeysInPodTopologySpread off): "matchLabelKeys ignored when feature gate disabled"
  {
    Case c;
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, st::MakeLabelSelector().Obj(), nullptr, nullptr, nullptr, Strings{"foo"}).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, st::MakeLabelSelector().Obj(), nullptr, nullptr, nullptr, Strings{"bar"}).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
      st::MakePod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-y2").Node("node-c").Label("bar", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("zone", "zone2").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label("zone", "zone2").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 60},
      {.name = "node-b", .score = 20},
      {.name = "node-c", .score = 60},
      {.name = "node-d", .score = 100},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty";
    c.pod = st::MakePod().Name("p").Label("foo", "").Label("bar", "").Label("baz", "").
      SpreadConstraint(1, "zone", v1::kScheduleAnyway, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, v1::kLabelHostname, v1::kScheduleAnyway, kBarSelector, nullptr, nullptr, nullptr, Strings{"baz"}).
      Obj();
    c.existing_pods = Pods{
      st::MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
      st::MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Label("baz", "").Obj(),
      st::MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
      st::MakePod().Name("p-c2").Node("node-c").Label("bar", "").Obj(),
      st::MakePod().Name("p-d3").Node("node-c").Label("bar", "").Label("baz", "").Obj(),
    };
    c.nodes = Nodes{
      st::MakeNode().Name("node-a").Label("zone", "zone1").Label(v1::kLabelHostname, "node-a").Obj(),
      st::MakeNode().Name("node-b").Label("zone", "zone1").Label(v1::kLabelHostname, "node-b").Obj(),
      st::MakeNode().Name("node-c").Label("zone", "zone2").Label(v1::kLabelHostname, "node-c").Obj(),
      st::MakeNode().Name("node-d").Label("zone", "zone2").Label(v1::kLabelHostname, "node-d").Obj(),
    };
    c.want = WantScores{
      {.name = "node-a", .score = 60},
      {.name = "node-b", .score = 20},
      {.name = "node-c", .score = 60},
      {.name = "node-d", .score = 100},
    };
    c.enable_match_label_keys = true;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      Nodes all_nodes = c.nodes;
      all_nodes.insert(all_nodes.end(), c.failed_nodes.begin(), c.failed_nodes.end());
      SpreadHandle handle(all_nodes, c.existing_pods, &c.objs);
      auto plugin = NewPlugin({{}, config::kSystemDefaulting}, handle);
      framework::CycleState state;
      const std::vector<const framework::NodeInfo*> filtered = handle.NodeInfos(c.nodes);
      REQUIRE(plugin->PreScore(state, c.pod, filtered).IsSuccess());
      std::vector<framework::NodeScore> scores;
      for (const framework::NodeInfo* node : filtered) {
        auto [score, status] = plugin->Score(state, c.pod, *node);
        REQUIRE(status.IsSuccess());
        scores.push_back({node, score});
      }
      REQUIRE(plugin->NormalizeScore(state, c.pod, scores).IsSuccess());
      WantScores got;
      for (const framework::NodeScore& score : scores) got.push_back({score.node->name(), score.score});
      CHECK(got == c.want);
    }
  }
}

TEST_CASE("PodTopologySpread queueing hint for node events", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    std::shared_ptr<const api::Node> old_node;
    std::shared_ptr<const api::Node> new_node;
    QueueingHint expected_hint = QueueingHint::kQueue;
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "node updates label which matches topologyKey";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone2").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "node that doesn't match topologySpreadConstraints updates non-related label";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("foo", "bar1").Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("foo", "bar2").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "node that match topologySpreadConstraints adds non-related label";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Label("foo", "bar").Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "create node with non-related labels";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("foo", "bar").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "create node with related labels";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete node with non-related labels";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("foo", "bar").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete node with related labels";
    c.pod = st::MakePod().Name("p").SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add node with related labels that only match one of topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add node with related labels that match all topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update node with related labels that only match one of topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update node with related labels that match all topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node2").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update node with different taints that match all topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Taints(Taints{{.key = "aaa", .value = "bbb", .effect = v1::kTaintEffectNoSchedule}}).Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Taints(Taints{{.key = "ccc", .value = "bbb", .effect = v1::kTaintEffectNoSchedule}}).Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update node with different taints that only match one of topologySpreadConstraints";
    c.pod = st::MakePod().Name("p").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_node = st::MakeNode().Name("node-a").Label("node", "node1").Taints(Taints{{.key = "aaa", .value = "bbb", .effect = v1::kTaintEffectNoSchedule}}).Obj();
    c.new_node = st::MakeNode().Name("node-a").Label("node", "node1").Taints(Taints{{.key = "ccc", .value = "bbb", .effect = v1::kTaintEffectNoSchedule}}).Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle({}, {});
      auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
      framework::EventObjects objects;
      objects.old_node = c.old_node.get();
      objects.new_node = c.new_node.get();
      absl::StatusOr<QueueingHint> hint = plugin->IsSchedulableAfterNodeChange(c.pod, objects);
      REQUIRE(hint.ok());
      CHECK(*hint == c.expected_hint);
    }
  }
}

TEST_CASE("PodTopologySpread queueing hint for pod events", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    api::Pod pod;
    std::optional<api::Pod> old_pod;
    std::optional<api::Pod> new_pod;
    QueueingHint expected_hint = QueueingHint::kQueue;
    bool enable_node_inclusion_policy_in_pod_topology_spread = true;  // documentation only
  };
  std::vector<Case> cases;
  {
    Case c;
    c.name = "add pod with labels match topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add un-scheduled pod";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_pod = st::MakePod().UID("p2").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update un-scheduled pod";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_pod = st::MakePod().UID("p2").Label("foo", "").Obj();
    c.old_pod = st::MakePod().UID("p2").Label("bar", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete un-scheduled pod";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add pod with different namespace";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Namespace("fake-namespace").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add pod with labels don't match topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("bar", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete pod with labels that match topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete pod with labels that don't match topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("bar", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "update pod's non-related label";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar1").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add pod's label that matches topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "delete pod label that matches topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "change pod's label that matches topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "foo1").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "foo2").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "change pod's label that doesn't match topologySpreadConstraints selector";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar1").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("baz", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "").Obj();
    c.new_pod = st::MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, v1::kNodeInclusionPolicyHonor, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.new_pod = st::MakePod().UID("p").Name("p").Label("foo", "").Toleration(v1::kTaintNodeUnschedulable).Obj();
    c.expected_hint = fwk::kQueue;
    c.enable_node_inclusion_policy_in_pod_topology_spread = true;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new toleration";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, v1::kNodeInclusionPolicyIgnore, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.new_pod = st::MakePod().UID("p").Name("p").Label("foo", "").Toleration(v1::kTaintNodeUnschedulable).Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the constraint";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, v1::kNodeInclusionPolicyIgnore, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p").Name("p").Obj();
    c.new_pod = st::MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, v1::kNodeInclusionPolicyIgnore, nullptr).
      SpreadConstraint(1, "node", v1::kDoNotSchedule, kBarSelector, nullptr, nullptr, nullptr, nullptr).
      Obj();
    c.old_pod = st::MakePod().UID("p").Name("p").Obj();
    c.new_pod = st::MakePod().UID("p").Name("p").Label("unrelated", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  {
    // v1.37 (#135392): a nominated pod counts like an assigned one (its nomination released is
    // reported as its deletion).
    Case c;
    c.name = "a nominated pod matching the constraint's selector is deleted";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).Obj();
    c.old_pod = st::MakePod().UID("q").Name("q").NominatedNodeName("node-a").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueue;
    cases.push_back(std::move(c));
  }
  {
    Case c;
    c.name = "a pod neither assigned nor nominated is deleted";
    c.pod = st::MakePod().UID("p").Name("p").Label("foo", "").
      SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr, nullptr, nullptr, nullptr).Obj();
    c.old_pod = st::MakePod().UID("q").Name("q").Label("foo", "").Obj();
    c.expected_hint = fwk::kQueueSkip;
    cases.push_back(std::move(c));
  }
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      SpreadHandle handle({}, {});
      auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
      framework::EventObjects objects;
      objects.old_pod = c.old_pod.has_value() ? &*c.old_pod : nullptr;
      objects.new_pod = c.new_pod.has_value() ? &*c.new_pod : nullptr;
      absl::StatusOr<QueueingHint> hint = plugin->IsSchedulableAfterPodChange(c.pod, objects);
      REQUIRE(hint.ok());
      CHECK(*hint == c.expected_hint);
    }
  }
}

TEST_CASE("PodTopologySpread registers upstream's events", "[pod_topology_spread]") {
  SpreadHandle handle({}, {});
  auto plugin = NewPlugin({{}, config::kListDefaulting}, handle);
  const std::vector<framework::ClusterEventWithHint> events = plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  namespace action = framework::action;
  CHECK(events[0].event.resource == framework::EventResource::kPod);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdatePodLabel |
                                   action::kUpdatePodToleration | action::kDelete));
  CHECK(events[1].event.resource == framework::EventResource::kNode);
  CHECK(events[1].event.action == (action::kAdd | action::kDelete | action::kUpdateNodeLabel |
                                   action::kUpdateNodeTaint));
  // The hints are wired to the plugin's functions.
  const api::Pod pod = st::MakePod().Name("p")
                           .SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector, nullptr,
                                             nullptr, nullptr, nullptr)
                           .Obj();
  const auto node = st::MakeNode().Name("n").Label("zone", "z").Obj();
  framework::EventObjects node_added;
  node_added.new_node = node.get();
  REQUIRE(events[1].hint);
  CHECK(*events[1].hint(pod, node_added) == QueueingHint::kQueue);
  const api::Pod other = st::MakePod().Name("q").Node("n").Label("bar", "").Obj();
  framework::EventObjects pod_added;
  pod_added.new_pod = &other;
  REQUIRE(events[0].hint);
  CHECK(*events[0].hint(pod, pod_added) == QueueingHint::kQueueSkip);
}

TEST_CASE("PodTopologySpread default constraints need a spread selector lister",
          "[pod_topology_spread]") {
  // System defaulting with the pod's ReplicaSet known: hard constraints none (both system
  // defaults are ScheduleAnyway), soft ones spread by hostname and zone.
  const Nodes nodes = {st::MakeNode().Name("node-a").Label(v1::kLabelHostname, "node-a").Obj()};
  const api::Pod pod = st::MakePod().Name("p").Namespace("default").Label("foo", "")
                           .OwnerReference("rs1", "apps/v1", "ReplicaSet")
                           .Obj();
  const Objects objects = {st::ReplicaSet("default", "rs1", kFooSelector)};
  {
    SpreadHandle handle(nodes, {}, &objects);
    auto plugin = NewPlugin({{}, config::kSystemDefaulting}, handle);
    framework::CycleState state;
    CHECK(plugin->PreFilter(state, pod, handle.snapshot().nodes()).second.IsSkip());
    REQUIRE(plugin->PreScore(state, pod, handle.NodeInfos(nodes)).IsSuccess());
    const auto* got = state.ReadAs<pts::PreScoreState>(pts::kPreScoreStateKey);
    REQUIRE(got != nullptr);
    REQUIRE(got->constraints().size() == 2);
    CHECK(SelectorText(got->constraints()[0].selector) == "{foo}");
  }
  {
    // Without a lister (the scheduler layer does not provide one yet) no default applies.
    SpreadHandle handle(nodes, {});
    auto plugin = NewPlugin({{}, config::kSystemDefaulting}, handle);
    framework::CycleState state;
    CHECK(plugin->PreScore(state, pod, handle.NodeInfos(nodes)).IsSkip());
  }
}

TEST_CASE("PodTopologySpread factory", "[pod_topology_spread]") {
  SpreadHandle handle({}, {});
  SECTION("no args: system defaulting") {
    absl::StatusOr<std::unique_ptr<framework::Plugin>> plugin = pts::New(nullptr, handle);
    REQUIRE(plugin.ok());
    CHECK((*plugin)->Name() == "PodTopologySpread");
  }
  SECTION("invalid args are refused with upstream's message") {
    pts::PodTopologySpreadArgs args;
    args.default_constraints.push_back(
        ToApi({.max_skew = 1, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule}));
    absl::StatusOr<std::unique_ptr<framework::Plugin>> plugin = pts::New(&args, handle);
    REQUIRE_FALSE(plugin.ok());
    CHECK(plugin.status().message() ==
          "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty");
  }
  SECTION("args of another type") {
    struct OtherArgs final : framework::PluginArgs {};
    OtherArgs args;
    CHECK_FALSE(pts::New(&args, handle).ok());
  }
}

TEST_CASE("ValidatePodTopologySpreadArgs", "[pod_topology_spread]") {
  struct Case {
    std::string name;
    TSCs constraints;
    std::string defaulting_type;
    std::string want;  // "" = valid
  };
  const TscW with_selector{.max_skew = 1,
                           .topology_key = "key",
                           .when_unsatisfiable = v1::kDoNotSchedule,
                           .label_selector = api::LabelSelector{Labels{{"a", "b"}}, {}}};
  const std::vector<Case> cases = {
      {"valid config",
       {{.max_skew = 1, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule},
        {.max_skew = 2, .topology_key = "zone", .when_unsatisfiable = v1::kScheduleAnyway}},
       config::kListDefaulting,
       ""},
      {"maxSkew less than zero",
       {{.max_skew = -1, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule}},
       config::kListDefaulting,
       "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)"},
      {"empty topology key",
       {{.max_skew = 1, .topology_key = "", .when_unsatisfiable = v1::kDoNotSchedule}},
       config::kListDefaulting,
       "defaultConstraints[0].topologyKey: Required value: can not be empty"},
      {"invalid topology key",
       {{.max_skew = 1, .topology_key = "a b", .when_unsatisfiable = v1::kDoNotSchedule}},
       config::kListDefaulting,
       "defaultConstraints[0].topologyKey: Invalid value: \"a b\": name part must consist of "
       "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
       "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"whenUnsatisfiable is empty",
       {{.max_skew = 1, .topology_key = "node", .when_unsatisfiable = ""}},
       config::kListDefaulting,
       "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"},
      {"whenUnsatisfiable contains unsupported action",
       {{.max_skew = 1, .topology_key = "node", .when_unsatisfiable = "unknown action"}},
       config::kListDefaulting,
       "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"unknown action\": "
       "supported values: \"DoNotSchedule\", \"ScheduleAnyway\""},
      {"duplicated constraints",
       {{.max_skew = 1, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule},
        {.max_skew = 2, .topology_key = "node", .when_unsatisfiable = v1::kDoNotSchedule}},
       config::kListDefaulting,
       "defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\""},
      {"label selector present",
       {with_selector},
       config::kListDefaulting,
       "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, "
       "as they deduced for each pod"},
      {"list default constraints, no constraints", {}, config::kListDefaulting, ""},
      {"system default constraints", {}, config::kSystemDefaulting, ""},
      {"wrong constraints",
       {},
       "unknown",
       "defaultingType: Unsupported value: \"unknown\": supported values: \"System\", \"List\""},
      {"system default constraints, but has constraints",
       {{.max_skew = 1, .topology_key = "key", .when_unsatisfiable = v1::kDoNotSchedule}},
       config::kSystemDefaulting,
       "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"},
      {"several errors aggregate",
       {{.max_skew = 0, .topology_key = "", .when_unsatisfiable = ""}},
       config::kListDefaulting,
       "[defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf), "
       "defaultConstraints[0].topologyKey: Required value: can not be empty, "
       "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty]"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const pts::PodTopologySpreadArgs args = ToArgs({c.constraints, c.defaulting_type});
      const absl::Status status = pts::ValidatePodTopologySpreadArgs(api::FieldPath(), args);
      if (c.want.empty()) {
        CHECK(status.ok());
      } else {
        CHECK(status.message() == c.want);
      }
    }
  }
  SECTION("paths are relative to the given path") {
    pts::PodTopologySpreadArgs args;
    args.defaulting_type = "x";
    CHECK(pts::ValidatePodTopologySpreadArgs(api::FieldPath("args"), args).message() ==
          "args.defaultingType: Unsupported value: \"x\": supported values: \"System\", \"List\"");
  }
  SECTION("SetDefaults fills an empty defaultingType with System") {
    pts::PodTopologySpreadArgs args;
    args.defaulting_type.clear();
    pts::SetDefaults(args);
    CHECK(args.defaulting_type == "System");
    args.defaulting_type = "List";
    pts::SetDefaults(args);
    CHECK(args.defaulting_type == "List");
  }
}

// "<prefix><n>", built without operator+ (GCC 12's -Wrestrict misfires on it at -O3).
namespace {
std::string Numbered(std::string_view prefix, int n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}
}  // namespace

// The plugin keeps per-node match counts across cycles (plugins/pod_topology_spread/
// match_count_memo.h) and reads them back while a node's generation has not moved. Cycle after
// cycle, with pods added to and removed from nodes in place (as the scheduler cache does), its
// PreFilter and PreScore states must equal those of a plugin that has never counted before.
TEST_CASE("PodTopologySpread counts read back across cycles equal fresh counts",
          "[pod_topology_spread]") {
  Nodes nodes;
  for (int i = 0; i < 6; ++i) {
    const std::string name = Numbered("node-", i);
    nodes.push_back(st::MakeNode().Name(name).Label("zone", Numbered("zone-", i % 3))
                        .Label(v1::kLabelHostname, name).Obj());
  }
  Pods existing;
  for (int i = 0; i < 12; ++i) {
    st::PodWrapper pod = st::MakePod().Name(Numbered("p", i)).UID(Numbered("p", i))
                             .Node(Numbered("node-", i % 6));
    if (i % 2 == 0) pod.Label("foo", "");
    if (i % 3 == 0) pod.Label("bar", "");
    if (i == 4) pod.Namespace("other");
    if (i == 6) pod.Terminating();
    existing.push_back(pod.Obj());
  }
  SpreadHandle handle(nodes, existing);
  auto remembering = NewPlugin({{}, config::kListDefaulting}, handle);
  const api::Pod incoming = st::MakePod().Name("in").Label("foo", "").Label("bar", "")
                                .SpreadConstraint(1, "zone", v1::kDoNotSchedule, kFooSelector,
                                                  nullptr, nullptr, nullptr, nullptr)
                                .SpreadConstraint(1, v1::kLabelHostname, v1::kDoNotSchedule,
                                                  kBarSelector, nullptr, nullptr, nullptr, nullptr)
                                .SpreadConstraint(2, "zone", v1::kScheduleAnyway, kBarSelector,
                                                  nullptr, nullptr, nullptr, nullptr)
                                .Obj();
  api::Pod incoming_other = incoming;
  incoming_other.metadata.namespace_ = "other";

  const std::vector<framework::NodeInfo*>& infos = handle.snapshot().nodes();
  std::vector<const framework::NodeInfo*> filtered(infos.begin(), infos.end());
  std::uint32_t seed = 7;
  auto next = [&seed](std::uint32_t bound) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % bound;
  };
  int added = 0;
  for (int round = 0; round < 40; ++round) {
    INFO("round " << round);
    // Change one node in place: add a pod with random labels, or remove its first pod.
    framework::NodeInfo& changed = *infos[next(infos.size())];
    if (next(3) == 0 && !changed.pods().empty()) {
      REQUIRE(changed.RemovePod(changed.pods().front()->pod().metadata.uid));
    } else {
      const std::string name = Numbered("added-", added++);
      st::PodWrapper pod = st::MakePod().Name(name).UID(name).Node(changed.name());
      if (next(2) == 0) pod.Label("foo", "");
      if (next(2) == 0) pod.Label("bar", "");
      if (next(4) == 0) pod.Namespace("other");
      changed.AddPod(InfoOf(pod.Obj()));
    }
    // A node left unchanged must not be counted again: its generation stays.
    const api::Pod& pod = round % 5 == 4 ? incoming_other : incoming;
    auto fresh = NewPlugin({{}, config::kListDefaulting}, handle);
    framework::CycleState remembered_state;
    framework::CycleState fresh_state;
    REQUIRE(remembering->PreFilter(remembered_state, pod, infos).second.IsSuccess());
    REQUIRE(fresh->PreFilter(fresh_state, pod, infos).second.IsSuccess());
    const auto* got = remembered_state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
    const auto* want = fresh_state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
    REQUIRE(got != nullptr);
    REQUIRE(want != nullptr);
    REQUIRE(got->tp_value_to_match_num().size() == 2);
    for (std::size_t j = 0; j < 2; ++j) {
      CHECK(Ordered(got->tp_value_to_match_num()[j]) == Ordered(want->tp_value_to_match_num()[j]));
      CHECK(got->critical_paths()[j][0].match_num == want->critical_paths()[j][0].match_num);
      CHECK(got->critical_paths()[j][1].match_num == want->critical_paths()[j][1].match_num);
    }
    REQUIRE(remembering->PreScore(remembered_state, pod, filtered).IsSuccess());
    REQUIRE(fresh->PreScore(fresh_state, pod, filtered).IsSuccess());
    const auto* got_score = remembered_state.ReadAs<pts::PreScoreState>(pts::kPreScoreStateKey);
    const auto* want_score = fresh_state.ReadAs<pts::PreScoreState>(pts::kPreScoreStateKey);
    REQUIRE(got_score != nullptr);
    REQUIRE(want_score != nullptr);
    REQUIRE(got_score->topology_value_to_pod_counts().size() == 1);
    CHECK(Ordered(got_score->topology_value_to_pod_counts()[0]) ==
          Ordered(want_score->topology_value_to_pod_counts()[0]));
    // The fresh plugin's counts are the ground truth only if the sum is what the pods say.
    int foo_in_default = 0;
    for (const framework::NodeInfo* info : infos) {
      for (const framework::PodInfoPtr& p : info->pods()) {
        const api::Pod& q = p->pod();
        if (q.metadata.namespace_ == pod.metadata.namespace_ &&
            !q.metadata.deletion_timestamp.has_value() && q.metadata.labels.Has("foo")) {
          ++foo_in_default;
        }
      }
    }
    int foo_counted = 0;
    for (const auto& [zone, n] : got->tp_value_to_match_num()[0]) foo_counted += n;
    CHECK(foo_counted == foo_in_default);
  }
}
