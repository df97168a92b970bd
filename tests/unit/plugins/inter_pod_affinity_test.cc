// InterPodAffinity: ported from upstream interpodaffinity/{filtering,scoring,plugin}_test.go
// (v1.34.4) with the same pods, nodes, statuses and scores, plus the args validation of
// apis/config/validation (ValidateInterPodAffinityArgs), the per-cycle namespace-labels cache and
// a larger cluster that exercises the parallel PreFilter/PreScore merge.
#include "plugins/inter_pod_affinity/inter_pod_affinity.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/field_errors.h"
#include "fake_handle.h"
#include "framework/parallelizer.h"
#include "plugins/inter_pod_affinity/args.h"
#include "plugins/inter_pod_affinity/filtering_state.h"
#include "plugins/inter_pod_affinity/incremental_counts.h"
#include "test_objects.h"

namespace {

using ksched::api::Affinity;
using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using ksched::api::Labels;
using ksched::api::Node;
using ksched::api::Pod;
using ksched::api::PodAffinityTerm;
using ksched::api::WeightedPodAffinityTerm;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::NodeInfo;
using ksched::framework::NodeScore;
using ksched::framework::PluginArgs;
using ksched::framework::PodInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace ipa = ksched::plugins::inter_pod_affinity;
using ipa::InterPodAffinity;
using ipa::InterPodAffinityArgs;
using ipa::PreFilterState;
using ipa::TopologyCounts;

using NamespaceMap = std::map<std::string, Labels, std::less<>>;
using CountMap = std::map<std::pair<std::string, std::string>, std::int64_t>;

// "<prefix><n>", built by appending (GCC 12 warns falsely on `"literal" + std::to_string(n)`).
std::string Numbered(std::string prefix, int n) {
  prefix += std::to_string(n);
  return prefix;
}

// ---- Objects (the counterparts of upstream's st.MakePod / st.MakeNode) --------------------------

LabelSelectorRequirement In(std::string key, std::vector<std::string> values) {
  return {std::move(key), "In", std::move(values)};
}
LabelSelectorRequirement NotIn(std::string key, std::vector<std::string> values) {
  return {std::move(key), "NotIn", std::move(values)};
}
LabelSelectorRequirement Exists(std::string key) { return {std::move(key), "Exists", {}}; }
LabelSelectorRequirement DoesNotExist(std::string key) {
  return {std::move(key), "DoesNotExist", {}};
}
LabelSelector Selector(std::vector<LabelSelectorRequirement> expressions) {
  LabelSelector selector;
  selector.match_expressions = std::move(expressions);
  return selector;
}
PodAffinityTerm Term(LabelSelector selector, std::string topology_key,
                     std::vector<std::string> namespaces = {},
                     std::optional<LabelSelector> namespace_selector = std::nullopt) {
  PodAffinityTerm term;
  term.label_selector = std::move(selector);
  term.topology_key = std::move(topology_key);
  term.namespaces = std::move(namespaces);
  term.namespace_selector = std::move(namespace_selector);
  return term;
}
WeightedPodAffinityTerm Weighted(std::int32_t weight, PodAffinityTerm term) {
  return WeightedPodAffinityTerm{weight, std::move(term)};
}

// Pods start in the namespace "" without a name, as st.MakePod(); each gets a unique UID.
class PodBuilder {
 public:
  PodBuilder() {
    static int next_uid = 0;
    pod_.metadata.uid = Numbered("uid-", ++next_uid);
  }
  PodBuilder& Name(std::string name) {
    pod_.metadata.name = std::move(name);
    return *this;
  }
  PodBuilder& Uid(std::string uid) {
    pod_.metadata.uid = std::move(uid);
    return *this;
  }
  PodBuilder& Namespace(std::string ns) {
    pod_.metadata.namespace_ = std::move(ns);
    return *this;
  }
  PodBuilder& Node(std::string node) {
    pod_.spec.node_name = std::move(node);
    return *this;
  }
  PodBuilder& NominatedNodeName(std::string node) {
    pod_.status.nominated_node_name = std::move(node);
    return *this;
  }
  PodBuilder& Label(std::string key, std::string value) {
    pod_.metadata.labels.Set(std::move(key), std::move(value));
    return *this;
  }
  PodBuilder& Labels(ksched::api::Labels labels) {
    pod_.metadata.labels = std::move(labels);
    return *this;
  }
  PodBuilder& WithAffinity(Affinity affinity) {
    pod_.spec.affinity = std::move(affinity);
    return *this;
  }
  PodBuilder& RequiredAffinity(PodAffinityTerm term) {
    pod_.spec.affinity.pod_affinity.required.push_back(std::move(term));
    return *this;
  }
  PodBuilder& RequiredAntiAffinity(PodAffinityTerm term) {
    pod_.spec.affinity.pod_anti_affinity.required.push_back(std::move(term));
    return *this;
  }
  // st.PodAffinityIn(..., st.PodAffinityWithRequiredReq) and friends.
  PodBuilder& PodAffinityIn(std::string key, std::string topology,
                            std::vector<std::string> values) {
    return RequiredAffinity(Term(Selector({In(std::move(key), std::move(values))}), topology));
  }
  PodBuilder& PodAffinityNotIn(std::string key, std::string topology,
                               std::vector<std::string> values) {
    return RequiredAffinity(Term(Selector({NotIn(std::move(key), std::move(values))}), topology));
  }
  PodBuilder& PodAffinityExists(std::string key, std::string topology) {
    return RequiredAffinity(Term(Selector({Exists(std::move(key))}), std::move(topology)));
  }
  PodBuilder& PodAntiAffinityIn(std::string key, std::string topology,
                                std::vector<std::string> values) {
    return RequiredAntiAffinity(Term(Selector({In(std::move(key), std::move(values))}), topology));
  }
  PodBuilder& PodAntiAffinityNotIn(std::string key, std::string topology,
                                   std::vector<std::string> values) {
    return RequiredAntiAffinity(
        Term(Selector({NotIn(std::move(key), std::move(values))}), std::move(topology)));
  }
  PodBuilder& PodAntiAffinityExists(std::string key, std::string topology) {
    return RequiredAntiAffinity(Term(Selector({Exists(std::move(key))}), std::move(topology)));
  }
  Pod Obj() const { return pod_; }

 private:
  Pod pod_;
};

PodBuilder MakePod() { return PodBuilder(); }

// upstream createPodWithAffinityTerms.
Pod PodWithAffinityTerms(std::string ns, Labels labels, std::vector<PodAffinityTerm> affinity,
                         std::vector<PodAffinityTerm> anti_affinity) {
  Pod pod = MakePod().Namespace(std::move(ns)).Labels(std::move(labels)).Obj();
  pod.spec.affinity.pod_affinity.required = std::move(affinity);
  pod.spec.affinity.pod_anti_affinity.required = std::move(anti_affinity);
  return pod;
}

std::shared_ptr<const Node> MakeNode(std::string name, Labels labels = {}) {
  return ksched::plugins::testing::MakeNode(std::move(name), std::move(labels));
}

// ---- The handle: a snapshot, a real parallelizer and namespace labels ---------------------------

class AffinityHandle final : public ksched::framework::Handle {
 public:
  AffinityHandle(const std::vector<Pod>& pods,
                 const std::vector<std::shared_ptr<const Node>>& nodes, NamespaceMap namespaces)
      : namespaces_(std::move(namespaces)) {
    std::vector<ksched::framework::PodInfoPtr> infos;
    for (const Pod& pod : pods) infos.push_back(PodInfo::CreateOrDie(std::make_shared<Pod>(pod)));
    snapshot_ = ksched::framework::Snapshot::FromObjects(nodes, infos);
  }

  const ksched::framework::Snapshot& snapshot() const override { return *snapshot_; }
  ksched::framework::ClusterApi& cluster_api() override { return cluster_api_; }
  ksched::framework::EventRecorder& event_recorder() override { return event_recorder_; }
  ksched::framework::Parallelizer& parallelizer() override { return parallelizer_; }
  const std::string& profile_name() const override { return profile_name_; }
  std::optional<Labels> NamespaceLabels(std::string_view name) const override {
    lookups_.fetch_add(1);
    auto it = namespaces_.find(name);
    if (it == namespaces_.end()) return std::nullopt;
    return it->second;
  }
  void IterateOverWaitingPods(
      const std::function<void(ksched::framework::WaitingPod&)>& /*fn*/) override {}
  bool RejectWaitingPod(std::string_view /*uid*/) override { return false; }

  int lookups() const { return lookups_.load(); }

 private:
  std::unique_ptr<ksched::framework::Snapshot> snapshot_;
  NamespaceMap namespaces_;
  ksched::framework::Parallelizer parallelizer_{4};
  ksched::plugins::testing::FakeClusterApi cluster_api_;
  ksched::plugins::testing::DiscardingEventRecorder event_recorder_;
  std::string profile_name_ = "default-scheduler";
  mutable std::atomic<int> lookups_{0};
};

struct Setup {
  std::unique_ptr<AffinityHandle> handle;
  std::unique_ptr<ksched::framework::Plugin> owner;
  InterPodAffinity* plugin = nullptr;

  const NodeInfo& Node(const std::string& name) const {
    const NodeInfo* info = handle->snapshot().Get(name);
    REQUIRE(info != nullptr);
    return *info;
  }
  std::pair<ksched::framework::PreFilterResult, Status> PreFilter(CycleState& state,
                                                                  const Pod& pod) const {
    return plugin->PreFilter(state, pod, handle->snapshot().nodes());
  }
};

Setup MakeSetup(const std::vector<Pod>& pods, const std::vector<std::shared_ptr<const Node>>& nodes,
                const InterPodAffinityArgs& args = {}, NamespaceMap namespaces = {}) {
  Setup setup;
  setup.handle = std::make_unique<AffinityHandle>(pods, nodes, std::move(namespaces));
  auto built = ksched::plugins::testing::Build<InterPodAffinity>(
      ipa::New, static_cast<const PluginArgs*>(&args), *setup.handle);
  setup.owner = std::move(built.owner);
  setup.plugin = built.plugin;
  return setup;
}

// upstream scoring_test.go `namespaces`, also used by TestRequiredAffinitySingleNode.
const NamespaceMap kNamespaces = {
    {"subteam1.team1", {{"team", "team1"}}},
    {"subteam2.team1", {{"team", "team1"}}},
    {"subteam1.team2", {{"team", "team2"}}},
    {"subteam2.team2", {{"team", "team2"}}},
};

const Status kOk;
// The plugin names itself on its Filter rejections (constants it returns per node).
Status StampedByPlugin(Status status) {
  if (!status.IsSuccess()) status.WithPlugin("InterPodAffinity");
  return status;
}
const Status kSkip(Code::kSkip);
const Status kAffinityRejected(Code::kUnschedulableAndUnresolvable,
                               {"node(s) didn't match pod affinity rules"});
const Status kAntiAffinityRejected(Code::kUnschedulable,
                                   {"node(s) didn't match pod anti-affinity rules"});
const Status kExistingAntiAffinityRejected(
    Code::kUnschedulable, {"node(s) didn't satisfy existing pods anti-affinity rules"});

const std::string kBadValueParseError =
    "parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: \"{{.bad-value.}}\": a "
    "valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// ---- Filtering ----------------------------------------------------------------------------------

struct SingleNodeCase {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  Status want_pre_filter;
  Status want_filter;
};

TEST_CASE("InterPodAffinity required affinity on a single node", "[plugins][inter_pod_affinity]") {
  const Labels pod_label{{"service", "securityscan"}};
  const Pod pod = MakePod().Labels(pod_label).Node("node1").Obj();
  const Labels pod_label2{{"security", "S1"}};
  const auto node1 = MakeNode("node1", {{"region", "r1"}, {"zone", "z11"}});
  const std::string ns;  // upstream defaultNamespace

  const PodAffinityTerm service_in_securityscan_region_team1 =
      Term(Selector({In("service", {"securityscan", "value2"})}), "region", {},
           Selector({In("team", {"team1"})}));
  const PodAffinityTerm service_in_securityscan_zone_team1 =
      Term(Selector({In("service", {"securityscan", "value2"})}), "zone", {},
           Selector({In("team", {"team1"})}));

  const std::vector<SingleNodeCase> cases = {
      {"A pod that has no required pod affinity scheduling rules can schedule onto a node with no "
       "existing pods",
       Pod(), {}, kSkip, kOk},
      {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In "
       "operator that matches the existing pod",
       MakePod().Namespace(ns).Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}).Obj(),
       {pod}, kOk, kOk},
      {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using "
       "not in operator in labelSelector that matches the existing pod",
       MakePod().Namespace(ns).Labels(pod_label2)
           .PodAffinityNotIn("service", "region", {"securityscan3", "value3"}).Obj(),
       {pod}, kOk, kOk},
      {"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
       PodWithAffinityTerms(
           ns, pod_label2,
           {Term(Selector({In("service", {"securityscan", "value2"})}), "", {"DiffNameSpace"})},
           {}),
       {MakePod().Namespace("ns").Label("service", "securityscan").Node("node1").Obj()}, kOk,
       kAffinityRejected},
      {"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAffinityIn("service", "", {"antivirusscan", "value2"}).Obj(),
       {pod}, kOk, kAffinityRejected},
      {"satisfies the PodAffinity with different label Operators in multiple "
       "RequiredDuringSchedulingIgnoredDuringExecution",
       PodWithAffinityTerms(
           ns, pod_label2,
           {Term(Selector({Exists("service"), DoesNotExist("wrongkey")}), "region"),
            Term(Selector({In("service", {"securityscan"}), NotIn("service", {"WrongValue"})}),
                 "region")},
           {}),
       {pod}, kOk, kOk},
      {"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot "
       "schedule onto the node because one of the matchExpression item don't match.",
       PodWithAffinityTerms(
           ns, pod_label2,
           {Term(Selector({Exists("service"), DoesNotExist("wrongkey")}), "region"),
            Term(Selector({In("service", {"securityscan2"}), NotIn("service", {"WrongValue"})}),
                 "region")},
           {}),
       {pod}, kOk, kAffinityRejected},
      {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
       MakePod().Namespace(ns).Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"})
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}).Obj(),
       {pod}, kOk, kOk},
      {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the "
       "existing pod",
       MakePod().Namespace(ns).Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"})
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}).Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label)
            .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}).Obj()},
       kOk, kOk},
      {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
       MakePod().Namespace(ns).Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"})
           .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}).Obj(),
       {pod}, kOk, kAntiAffinityRejected},
      {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry "
       "with the existing pod",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAffinityIn("service", "region", {"securityscan", "value2"})
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}).Obj(),
       {MakePod().Namespace(ns).Labels(pod_label).Node("node1")
            .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}).Obj()},
       kOk, kExistingAntiAffinityRejected},
      {"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAffinityNotIn("service", "region", {"securityscan", "value2"}).Obj(),
       {MakePod().Label("service", "securityscan").Node("node2").Obj()}, kOk, kAffinityRejected},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity "
       "constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
       MakePod().Labels(pod_label).Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label)
            .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}).Obj()},
       kOk, kExistingAntiAffinityRejected},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity "
       "constraints. satisfy PodAntiAffinity symmetry with the existing pod",
       MakePod().Labels(pod_label).Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label)
            .PodAntiAffinityNotIn("service", "zone", {"securityscan", "value2"}).Obj()},
       kSkip, kOk},
      {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity "
       "symmetry with incoming pod",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAntiAffinityExists("service", "region")
           .PodAntiAffinityExists("security", "region").Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label2)
            .PodAntiAffinityExists("security", "zone").Obj()},
       kOk, kAntiAffinityRejected},
      {"PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAntiAffinityExists("service", "zone")
           .PodAntiAffinityExists("security", "zone").Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label2)
            .PodAntiAffinityExists("security", "zone").Obj()},
       kOk, kAntiAffinityRejected},
      {"PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       MakePod().Namespace(ns).Labels(pod_label2).PodAntiAffinityExists("security", "zone").Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels(pod_label)
            .PodAntiAffinityExists("service", "zone")
            .PodAntiAffinityExists("security", "zone").Obj()},
       kOk, kExistingAntiAffinityRejected},
      {"PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       MakePod().Namespace(ns).Labels({{"abc", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone")
           .PodAntiAffinityExists("def", "zone").Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels({{"def", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone")
            .PodAntiAffinityExists("def", "zone").Obj()},
       kOk, kAntiAffinityRejected},
      {"PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       MakePod().Namespace(ns).Labels({{"def", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone")
           .PodAntiAffinityExists("def", "zone").Obj(),
       {MakePod().Namespace(ns).Node("node1").Labels({{"abc", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone")
            .PodAntiAffinityExists("def", "zone").Obj()},
       kOk, kAntiAffinityRejected},
      {"PodAffinity fails PreFilter with an invalid affinity label syntax",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAffinityIn("service", "region", {"{{.bad-value.}}"})
           .PodAffinityIn("service", "node", {"antivirusscan", "value2"}).Obj(),
       {}, Status(Code::kUnschedulableAndUnresolvable, {kBadValueParseError}), kOk},
      {"PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
       MakePod().Namespace(ns).Labels(pod_label)
           .PodAffinityIn("service", "region", {"foo"})
           .PodAffinityIn("service", "node", {"{{.bad-value.}}"}).Obj(),
       {}, Status(Code::kUnschedulableAndUnresolvable, {kBadValueParseError}), kOk},
      {"affinity with NamespaceSelector",
       PodWithAffinityTerms(ns, pod_label2, {service_in_securityscan_region_team1}, {}),
       {MakePod().Node("node1").Namespace("subteam1.team1").Labels(pod_label).Obj()}, kOk, kOk},
      {"affinity with non-matching NamespaceSelector",
       PodWithAffinityTerms(ns, pod_label2, {service_in_securityscan_region_team1}, {}),
       {MakePod().Node("node1").Namespace("subteam1.team2").Labels(pod_label).Obj()}, kOk,
       kAffinityRejected},
      {"anti-affinity with matching NamespaceSelector",
       PodWithAffinityTerms("subteam1.team1", pod_label2, {}, {service_in_securityscan_zone_team1}),
       {MakePod().Node("node1").Namespace("subteam2.team1").Labels(pod_label).Obj()}, kOk,
       kAntiAffinityRejected},
      {"anti-affinity with matching all NamespaceSelector",
       PodWithAffinityTerms(
           "subteam1.team1", pod_label2, {},
           {Term(Selector({In("service", {"securityscan", "value2"})}), "zone", {},
                 LabelSelector())}),
       {MakePod().Node("node1").Namespace("subteam2.team1").Labels(pod_label).Obj()}, kOk,
       kAntiAffinityRejected},
      {"anti-affinity with non-matching NamespaceSelector",
       PodWithAffinityTerms("subteam1.team1", pod_label2, {}, {service_in_securityscan_zone_team1}),
       {MakePod().Node("node1").Namespace("subteam1.team2").Labels(pod_label).Obj()}, kOk, kOk},
  };

  for (const SingleNodeCase& test : cases) {
    CAPTURE(test.name);
    const Setup setup = MakeSetup(test.pods, {node1}, {}, kNamespaces);
    CycleState state;
    const auto [result, pre_filter_status] = setup.PreFilter(state, test.pod);
    CHECK(pre_filter_status.ToString() == test.want_pre_filter.ToString());
    CHECK(result.AllNodes());
    if (!pre_filter_status.IsSuccess()) continue;
    const Status status = setup.plugin->Filter(state, test.pod, setup.Node("node1"));
    CHECK(status.ToString() == StampedByPlugin(test.want_filter).ToString());
  }
}

struct MultipleNodesCase {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<std::shared_ptr<const Node>> nodes;
  std::vector<Status> want_filter;
  Status want_pre_filter;
};

TEST_CASE("InterPodAffinity required affinity over several nodes",
          "[plugins][inter_pod_affinity]") {
  const Labels rg_china{{"region", "China"}};
  const Labels rg_china_az1{{"region", "China"}, {"az", "az1"}};
  const Labels rg_india{{"region", "India"}};
  const std::string ns;  // upstream defaultNamespace
  auto node_abc = [](const std::string& zone_b) {
    return std::vector<std::shared_ptr<const Node>>{
        MakeNode("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
        MakeNode("nodeB", {{"region", "r1"}, {"zone", zone_b}, {"hostname", "nodeB"}})};
  };

  const std::vector<MultipleNodesCase> cases = {
      {"A pod can be scheduled onto all the nodes that have the same topology key & label value "
       "with one of them has an existing pod that matches the affinity rules",
       MakePod().Namespace(ns).PodAffinityIn("foo", "region", {"bar"}).Obj(),
       {MakePod().Name("p1").Node("node1").Labels({{"foo", "bar"}}).Obj()},
       {MakeNode("node1", rg_china), MakeNode("node2", rg_china_az1), MakeNode("node3", rg_india)},
       {kOk, kOk, kAffinityRejected},
       kOk},
      {"The affinity rule is to schedule all of the pods of this collection to the same zone. The "
       "first pod of the collection should not be blocked from being scheduled onto any node, even "
       "there's no existing pod that matches the rule anywhere.",
       MakePod().Namespace(ns).Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityIn("foo", "zone", {"bar"})
           .PodAffinityIn("service", "zone", {"securityscan"}).Obj(),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {MakeNode("nodeA", {{"zone", "az1"}, {"hostname", "h1"}}),
        MakeNode("nodeB", {{"zone", "az2"}, {"hostname", "h2"}})},
       {kOk, kOk},
       kOk},
      {"The first pod of the collection can only be scheduled on nodes labelled with the requested "
       "topology keys",
       MakePod().Namespace(ns).Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityIn("foo", "zone", {"bar"})
           .PodAffinityIn("service", "zone", {"securityscan"}).Obj(),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {MakeNode("nodeA", {{"zoneLabel", "az1"}, {"hostname", "h1"}}),
        MakeNode("nodeB", {{"zoneLabel", "az2"}, {"hostname", "h2"}})},
       {kAffinityRejected, kAffinityRejected},
       kOk},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
       "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
       MakePod().Namespace(ns).PodAntiAffinityIn("foo", "region", {"abc"}).Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       {MakeNode("nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}),
        MakeNode("nodeB", {{"region", "r1"}, {"hostname", "nodeB"}})},
       {kAntiAffinityRejected, kAntiAffinityRejected},
       kOk},
      {"This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule "
       "matches a pod.",
       MakePod().Namespace(ns).PodAntiAffinityIn("foo", "region", {"abc"})
           .PodAntiAffinityIn("service", "zone", {"securityscan"}).Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", "abc"}, {"service", "securityscan"}}).Obj()},
       node_abc("z2"),
       {kAntiAffinityRejected, kAntiAffinityRejected},
       kOk},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
       "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but "
       "can be scheduled onto nodeC",
       MakePod().Namespace(ns).PodAntiAffinityIn("foo", "region", {"abc"}).Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       {MakeNode("nodeA", rg_china), MakeNode("nodeB", rg_china_az1), MakeNode("nodeC", rg_india)},
       {kAntiAffinityRejected, kAntiAffinityRejected, kOk},
       kOk},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
       "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but "
       "can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity "
       "rule but in different namespace)",
       MakePod().Namespace("NS1").Labels({{"foo", "123"}})
           .PodAntiAffinityIn("foo", "region", {"bar"}).Obj(),
       {MakePod().Node("nodeA").Namespace("NS1").Labels({{"foo", "bar"}}).Obj(),
        MakePod().Node("nodeC").Namespace("NS2").PodAntiAffinityIn("foo", "region", {"123"}).Obj()},
       {MakeNode("nodeA", rg_china), MakeNode("nodeB", rg_china_az1), MakeNode("nodeC", rg_india)},
       {kAntiAffinityRejected, kAntiAffinityRejected, kOk},
       kOk},
      {"Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, "
       "labelSelector of the term is firstly checked, and then topologyKey of the term is also "
       "checked",
       MakePod().Label("foo", "").Obj(),
       {MakePod().Node("nodeA").Namespace(ns)
            .PodAntiAffinityExists("foo", "invalid-node-label").Obj()},
       node_abc("z1"),
       {kOk, kOk},
       kSkip},
      {"Test incoming pod's anti-affinity: even if labelSelector matches, we still check if "
       "topologyKey matches",
       MakePod().Node("nodeA").Namespace(ns)
           .PodAntiAffinityExists("foo", "invalid-node-label").Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", ""}}).Obj()},
       node_abc("z1"),
       {kOk, kOk},
       kOk},
      {"Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it "
       "violates each existingPod's terms on all nodes",
       MakePod().Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Node("nodeA").Namespace(ns).PodAntiAffinityExists("foo", "zone").Obj(),
        MakePod().Node("nodeA").Namespace(ns).PodAntiAffinityExists("bar", "region").Obj()},
       node_abc("z2"),
       {kExistingAntiAffinityRejected, kExistingAntiAffinityRejected},
       kOk},
      {"Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at "
       "least violates one anti-affinity rule of existingPod",
       MakePod().Namespace(ns).PodAntiAffinityExists("foo", "zone")
           .PodAntiAffinityExists("bar", "region").Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", ""}}).Obj(),
        MakePod().Node("nodeB").Labels({{"bar", ""}}).Obj()},
       node_abc("z2"),
       {kAntiAffinityRejected, kAntiAffinityRejected},
       kOk},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, "
       "it's counted as a single term match - case when one term has invalid topologyKey",
       MakePod().Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Node("nodeA").Namespace(ns)
            .PodAntiAffinityExists("foo", "invalid-node-label")
            .PodAntiAffinityExists("bar", "zone").Obj()},
       node_abc("z2"),
       {kExistingAntiAffinityRejected, kOk},
       kOk},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, "
       "it's counted as a single term match - case when one term has invalid topologyKey",
       MakePod().Namespace(ns).PodAntiAffinityExists("foo", "invalid-node-label")
           .PodAntiAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("podA").Node("nodeA").Labels({{"foo", ""}, {"bar", ""}}).Obj()},
       node_abc("z2"),
       {kAntiAffinityRejected, kOk},
       kOk},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, "
       "it's counted as a single term match - case when all terms have valid topologyKey",
       MakePod().Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Namespace(ns).Node("nodeA").PodAntiAffinityExists("foo", "region")
            .PodAntiAffinityExists("bar", "zone").Obj()},
       node_abc("z2"),
       {kExistingAntiAffinityRejected, kExistingAntiAffinityRejected},
       kOk},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, "
       "it's counted as a single term match - case when all terms have valid topologyKey",
       MakePod().Namespace(ns).PodAntiAffinityExists("foo", "region")
           .PodAntiAffinityExists("bar", "zone").Obj(),
       {MakePod().Node("nodeA").Labels({{"foo", ""}, {"bar", ""}}).Obj()},
       node_abc("z2"),
       {kAntiAffinityRejected, kAntiAffinityRejected},
       kOk},
      {"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one "
       "anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
       MakePod().Label("foo", "").Label("bar", "").Obj(),
       {MakePod().Node("nodeA").Namespace(ns).PodAntiAffinityExists("foo", "zone")
            .PodAntiAffinityExists("labelA", "zone").Obj(),
        MakePod().Node("nodeB").Namespace(ns).PodAntiAffinityExists("bar", "zone")
            .PodAntiAffinityExists("labelB", "zone").Obj()},
       {MakeNode("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
        MakeNode("nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}),
        MakeNode("nodeC", {{"region", "r1"}, {"zone", "z3"}, {"hostname", "nodeC"}})},
       {kExistingAntiAffinityRejected, kExistingAntiAffinityRejected, kOk},
       kOk},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if "
       "all topologyKeys match",
       MakePod().Namespace(ns).PodAffinityExists("foo", "region")
           .PodAffinityExists("bar", "zone").Obj(),
       {MakePod().Name("pod1").Labels({{"foo", ""}, {"bar", ""}}).Node("nodeA").Obj()},
       node_abc("z1"),
       {kOk, kOk},
       kOk},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if "
       "all topologyKeys match, and the match logic should be satisfied on the same pod",
       MakePod().Namespace(ns).PodAffinityExists("foo", "region")
           .PodAffinityExists("bar", "zone").Obj(),
       {MakePod().Node("nodeA").Name("pod1").Namespace(ns).Labels({{"foo", ""}}).Obj(),
        MakePod().Node("nodeB").Name("pod2").Namespace(ns).Labels({{"bar", ""}}).Obj()},
       node_abc("z2"),
       {kAffinityRejected, kAffinityRejected},
       kOk},
  };

  for (const MultipleNodesCase& test : cases) {
    CAPTURE(test.name);
    const Setup setup = MakeSetup(test.pods, test.nodes, {}, {{"NS1", {}}});
    CycleState state;
    const Status pre_filter_status = setup.PreFilter(state, test.pod).second;
    CHECK(pre_filter_status.ToString() == test.want_pre_filter.ToString());
    if (pre_filter_status.IsSkip()) continue;
    REQUIRE(test.want_filter.size() == test.nodes.size());
    for (std::size_t i = 0; i < test.nodes.size(); ++i) {
      CAPTURE(test.nodes[i]->metadata.name);
      const Status status =
          setup.plugin->Filter(state, test.pod, setup.Node(test.nodes[i]->metadata.name));
      CHECK(status.ToString() == StampedByPlugin(test.want_filter[i]).ToString());
    }
  }
}

TEST_CASE("InterPodAffinity Filter without PreFilter state is an error",
          "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup({}, {MakeNode("node", {})});
  CycleState state;
  const Status status = setup.plugin->Filter(state, Pod(), setup.Node("node"));
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() ==
        "error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
}

// The three counts of a PreFilter state, compared as a whole through Describe (which a failed
// CHECK prints).
struct StateCounts {
  CountMap existing_anti_affinity;
  CountMap affinity;
  CountMap anti_affinity;
};

StateCounts CountsOf(const PreFilterState& state) {
  return {state.existing_anti_affinity_counts().ToMap(), state.affinity_counts().ToMap(),
          state.anti_affinity_counts().ToMap()};
}

std::string Describe(const StateCounts& counts) {
  std::string out;
  auto add = [&out](const char* name, const CountMap& map) {
    out += name;
    out += "{";
    for (const auto& [pair, count] : map) {
      out += pair.first + "=" + pair.second + ":" + std::to_string(count) + " ";
    }
    out += "} ";
  };
  add("existingAnti", counts.existing_anti_affinity);
  add("affinity", counts.affinity);
  add("anti", counts.anti_affinity);
  return out;
}

TEST_CASE("InterPodAffinity PreFilter state follows AddPod and RemovePod",
          "[plugins][inter_pod_affinity]") {
  const Labels label1{{"region", "r1"}, {"zone", "z11"}};
  const Labels label2{{"region", "r1"}, {"zone", "z12"}};
  const Labels label3{{"region", "r2"}, {"zone", "z21"}};
  const Labels selector1{{"foo", "bar"}};
  Affinity anti_affinity_foo_bar;
  anti_affinity_foo_bar.pod_anti_affinity.required = {
      Term(Selector({In("foo", {"bar"})}), "region")};
  const std::vector<PodAffinityTerm> complex_terms = {
      Term(Selector({In("foo", {"bar", "buzz"})}), "region"),
      Term(Selector({NotIn("service", {"bar", "security", "test"})}), "zone")};
  Affinity anti_affinity_complex;
  anti_affinity_complex.pod_anti_affinity.required = complex_terms;
  Affinity affinity_complex;
  affinity_complex.pod_affinity.required = complex_terms;
  Affinity anti_foo_bar_and_affinity_complex = anti_affinity_foo_bar;
  anti_foo_bar_and_affinity_complex.pod_affinity.required = complex_terms;

  const std::vector<std::shared_ptr<const Node>> nodes = {
      MakeNode("nodeA", label1), MakeNode("nodeB", label2), MakeNode("nodeC", label3)};

  struct Case {
    std::string name;
    Pod pending;
    std::vector<Pod> existing;
    Pod added;
    CountMap want_anti_affinity;
    CountMap want_affinity;
  };
  const std::vector<Case> cases = {
      {"preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
       MakePod().Name("pending").Labels(selector1).WithAffinity(anti_affinity_foo_bar).Obj(),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        MakePod().Name("p2").Node("nodeC").WithAffinity(anti_affinity_foo_bar).Obj()},
       MakePod().Name("addedPod").Labels(selector1).Node("nodeB")
           .WithAffinity(anti_affinity_foo_bar).Obj(),
       {{{"region", "r1"}, 2}},
       {}},
      {"preFilterState anti-affinity terms are updated correctly after adding and removing a pod "
       "(complex terms)",
       MakePod().Name("pending").Labels(selector1).WithAffinity(anti_affinity_complex).Obj(),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        MakePod().Name("p2").Node("nodeC").WithAffinity(anti_affinity_foo_bar).Obj()},
       MakePod().Name("addedPod").Labels(selector1).Node("nodeA")
           .WithAffinity(anti_affinity_complex).Obj(),
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}, {{"zone", "z21"}, 1}},
       {}},
      {"preFilterState matching pod affinity and anti-affinity are updated correctly after adding "
       "and removing a pod",
       MakePod().Name("pending").Labels(selector1).WithAffinity(affinity_complex).Obj(),
       {MakePod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        MakePod().Name("p2").Node("nodeC").WithAffinity(anti_foo_bar_and_affinity_complex).Obj()},
       MakePod().Name("addedPod").Labels(selector1).Node("nodeA")
           .WithAffinity(anti_affinity_complex).Obj(),
       {},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}}},
  };

  for (const Case& test : cases) {
    CAPTURE(test.name);
    // The state PreFilter produces when the added pod is already in the cluster.
    std::vector<Pod> all_pods = test.existing;
    all_pods.push_back(test.added);
    const Setup all_setup = MakeSetup(all_pods, nodes);
    CycleState all_state;
    REQUIRE(all_setup.PreFilter(all_state, test.pending).second.IsSuccess());
    const auto* all = all_state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE(all != nullptr);

    const Setup setup = MakeSetup(test.existing, nodes);
    CycleState state;
    REQUIRE(setup.PreFilter(state, test.pending).second.IsSuccess());
    const auto* before = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE(before != nullptr);
    const StateCounts original = CountsOf(*before);

    const auto added = PodInfo::CreateOrDie(std::make_shared<Pod>(test.added));
    const NodeInfo& node = setup.Node(test.added.spec.node_name);
    REQUIRE(setup.plugin->AddPod(state, test.pending, added, node).IsSuccess());
    const auto* after = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE(after != nullptr);
    CHECK(after->anti_affinity_counts().ToMap() == test.want_anti_affinity);
    CHECK(after->affinity_counts().ToMap() == test.want_affinity);
    CHECK(Describe(CountsOf(*after)) == Describe(CountsOf(*all)));

    REQUIRE(setup.plugin->RemovePod(state, test.pending, added, node).IsSuccess());
    CHECK(Describe(CountsOf(*after)) == Describe(original));
  }
}

TEST_CASE("InterPodAffinity PreFilter state clones deeply", "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup(
      {MakePod().Node("node1").Label("app", "web").Obj(),
       MakePod().Node("node2").PodAntiAffinityExists("team", "name").Obj()},
      {MakeNode("node1", {{"name", "node1"}}), MakeNode("node2", {{"name", "node2"}})});
  const Pod pod = MakePod().Label("team", "a").PodAffinityExists("app", "name")
                      .PodAntiAffinityExists("app", "name").Obj();
  CycleState state;
  REQUIRE(setup.PreFilter(state, pod).second.IsSuccess());
  const auto* source = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
  REQUIRE(source != nullptr);
  const StateCounts want{{{{"name", "node2"}, 1}}, {{{"name", "node1"}, 1}},
                         {{{"name", "node1"}, 1}}};
  CHECK(Describe(CountsOf(*source)) == Describe(want));

  std::unique_ptr<ksched::framework::StateData> clone_data = source->Clone();
  auto* clone = dynamic_cast<PreFilterState*>(clone_data.get());
  REQUIRE(clone != nullptr);
  CHECK(clone != source);
  CHECK(Describe(CountsOf(*clone)) == Describe(CountsOf(*source)));
  // Updating the clone leaves the source alone.
  REQUIRE(setup.Node("node2").node() != nullptr);
  clone->UpdateWithPod(*PodInfo::CreateOrDie(std::make_shared<Pod>(
                           MakePod().Node("node2").Label("app", "web").Obj())),
                       *setup.Node("node2").node(), 1);
  CHECK(clone->affinity_counts().ToMap() ==
        CountMap{{{"name", "node1"}, 1}, {{"name", "node2"}, 1}});
  CHECK(Describe(CountsOf(*source)) == Describe(want));
}

TEST_CASE("InterPodAffinity PreFilter counts pods matching the incoming pod's terms",
          "[plugins][inter_pod_affinity]") {
  // upstream TestGetTPMapMatchingIncomingAffinityAntiAffinity, read through the PreFilter state.
  auto normal_pod = [](std::vector<std::string> labels) {
    PodBuilder builder = MakePod().Name("normal").Node("nodeA");
    for (std::string& label : labels) builder.Label(std::move(label), "");
    return builder.Obj();
  };
  const Pod normal_a = normal_pod({"aaa"});
  const Pod normal_b = normal_pod({"bbb"});
  const Pod normal_ab = normal_pod({"aaa", "bbb"});
  const auto node_a = MakeNode("nodeA", {{"hostname", "nodeA"}});

  struct Case {
    std::string name;
    std::vector<Pod> existing;
    Pod pod;
    CountMap want_affinity;
    CountMap want_anti_affinity;
  };
  const std::vector<Case> cases = {
      {"no pod has label that violates incoming pod's affinity and anti-affinity",
       {normal_b},
       MakePod().Name("aaa-anti").PodAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("aaa", "hostname").Obj(),
       {}, {}},
      {"existing pod matches incoming pod's affinity and anti-affinity - single term case",
       {normal_a},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("aaa", "hostname").Obj(),
       {{{"hostname", "nodeA"}, 1}}, {{{"hostname", "nodeA"}, 1}}},
      {"existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
       {normal_ab},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname").PodAntiAffinityExists("aaa", "hostname").Obj(),
       {{{"hostname", "nodeA"}, 2}}, {{{"hostname", "nodeA"}, 1}}},
      {"existing pod not match incoming pod's affinity but matches anti-affinity",
       {normal_a},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname").PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("bbb", "hostname").Obj(),
       {}, {{{"hostname", "nodeA"}, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod violates partial term "
       "- case 1",
       {normal_ab},
       MakePod().Name("anaffi-antiaffiti").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("ccc", "hostname").PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("ccc", "hostname").Obj(),
       {}, {{{"hostname", "nodeA"}, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod violates partial term "
       "- case 2",
       {normal_b},
       MakePod().Name("affi-antiaffi").PodAffinityExists("aaa", "hostname")
           .PodAffinityExists("bbb", "hostname").PodAntiAffinityExists("aaa", "hostname")
           .PodAntiAffinityExists("bbb", "hostname").Obj(),
       {}, {{{"hostname", "nodeA"}, 1}}},
  };
  for (const Case& test : cases) {
    CAPTURE(test.name);
    const Setup setup = MakeSetup(test.existing, {node_a});
    CycleState state;
    REQUIRE(setup.PreFilter(state, test.pod).second.IsSuccess());
    const auto* pre_filter = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE(pre_filter != nullptr);
    CHECK(pre_filter->affinity_counts().ToMap() == test.want_affinity);
    CHECK(pre_filter->anti_affinity_counts().ToMap() == test.want_anti_affinity);
  }

  // upstream "nil test" and "incoming pod without affinity/anti-affinity causes a no-op": no
  // terms and no existing anti-affinity, so PreFilter skips and writes nothing.
  for (const std::vector<Pod>& existing : {std::vector<Pod>{}, std::vector<Pod>{normal_a}}) {
    const Setup setup = MakeSetup(existing, {node_a});
    CycleState state;
    CHECK(setup.PreFilter(state, MakePod().Name("aaa-normal").Obj()).second.code() == Code::kSkip);
    CHECK(state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey) == nullptr);
  }
}

TEST_CASE("InterPodAffinity lets the first pod of a group in until a member exists",
          "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup(
      {}, {MakeNode("a", {{"zone", "z1"}}), MakeNode("b", {{"zone", "z2"}}), MakeNode("c", {})});
  const Pod pod = MakePod().Label("app", "db").PodAffinityIn("app", "zone", {"db"}).Obj();
  CycleState state;
  REQUIRE(setup.PreFilter(state, pod).second.IsSuccess());
  // No pod matches anywhere and the pod matches its own term: any node with the key will do.
  CHECK(setup.plugin->Filter(state, pod, setup.Node("a")).IsSuccess());
  CHECK(setup.plugin->Filter(state, pod, setup.Node("b")).IsSuccess());
  CHECK(setup.plugin->Filter(state, pod, setup.Node("c")).ToString() ==
        StampedByPlugin(kAffinityRejected).ToString());

  // A nominated member in z1 (AddPod on a clone) binds the group to z1.
  std::unique_ptr<CycleState> with_member = state.Clone();
  const auto member = PodInfo::CreateOrDie(
      std::make_shared<Pod>(MakePod().Node("a").Label("app", "db").Obj()));
  REQUIRE(setup.plugin->AddPod(*with_member, pod, member, setup.Node("a")).IsSuccess());
  CHECK(setup.plugin->Filter(*with_member, pod, setup.Node("a")).IsSuccess());
  CHECK(setup.plugin->Filter(*with_member, pod, setup.Node("b")).ToString() ==
        StampedByPlugin(kAffinityRejected).ToString());
  // The original state did not change.
  CHECK(setup.plugin->Filter(state, pod, setup.Node("b")).IsSuccess());

  // A pod that does not match its own term gets no such exception.
  const Pod outsider = MakePod().Label("app", "web").PodAffinityIn("app", "zone", {"db"}).Obj();
  CycleState outsider_state;
  REQUIRE(setup.PreFilter(outsider_state, outsider).second.IsSuccess());
  CHECK(setup.plugin->Filter(outsider_state, outsider, setup.Node("a")).ToString() ==
        StampedByPlugin(kAffinityRejected).ToString());

  // Extensions without a PreFilter state are errors.
  CycleState empty;
  CHECK(setup.plugin->AddPod(empty, pod, member, setup.Node("a")).code() == Code::kError);
  CHECK(setup.plugin->RemovePod(empty, pod, member, setup.Node("a")).code() == Code::kError);
}

TEST_CASE("InterPodAffinity PreFilter over many nodes merges the parallel counts",
          "[plugins][inter_pod_affinity]") {
  // 300 nodes in 10 zones, node i holding i % 3 pods labelled app=web; two of them also run a pod
  // that refuses app=db pods in its zone.
  std::vector<std::shared_ptr<const Node>> nodes;
  std::vector<Pod> pods;
  std::map<std::string, std::int64_t> web_per_zone;
  for (int i = 0; i < 300; ++i) {
    const std::string name = Numbered("node-", i);
    const std::string zone = Numbered("z", i % 10);
    nodes.push_back(MakeNode(name, {{"zone", zone}, {"hostname", name}}));
    for (int j = 0; j < i % 3; ++j) {
      pods.push_back(MakePod().Node(name).Label("app", "web").Obj());
      ++web_per_zone[zone];
    }
  }
  pods.push_back(MakePod().Node("node-13").PodAntiAffinityIn("app", "zone", {"db"}).Obj());
  pods.push_back(MakePod().Node("node-27").PodAntiAffinityIn("app", "hostname", {"db"}).Obj());
  const Setup setup = MakeSetup(pods, nodes);

  const Pod pod = MakePod().Label("app", "db").PodAffinityIn("app", "zone", {"web"})
                      .PodAntiAffinityIn("app", "zone", {"web"}).Obj();
  CycleState state;
  REQUIRE(setup.PreFilter(state, pod).second.IsSuccess());
  const auto* pre_filter = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
  REQUIRE(pre_filter != nullptr);
  CountMap want_zone_counts;
  for (const auto& [zone, count] : web_per_zone) want_zone_counts[{"zone", zone}] = count;
  CHECK(pre_filter->affinity_counts().ToMap() == want_zone_counts);
  CHECK(pre_filter->anti_affinity_counts().ToMap() == want_zone_counts);
  CHECK(pre_filter->existing_anti_affinity_counts().ToMap() ==
        CountMap{{{"zone", "z3"}, 1}, {{"hostname", "node-27"}, 1}});
}

TEST_CASE("TopologyCounts keeps its own strings through inserts, copies and moves",
          "[plugins][inter_pod_affinity]") {
  // Random Add / Update / copy / move against a std::map model. The caller's strings die right
  // after each call and long values overflow the storage blocks, so a view into anything but the
  // counts' own storage would read freed memory.
  std::mt19937 rng(7);
  CountMap model;
  auto counts = std::make_unique<TopologyCounts>();
  const std::vector<std::string> keys{"kubernetes.io/hostname", "topology.kubernetes.io/zone", "rack", ""};
  auto random_value = [&]() {
    const int length = std::uniform_int_distribution<int>(0, 9)(rng) == 0
                           ? std::uniform_int_distribution<int>(100, 70000)(rng)
                           : std::uniform_int_distribution<int>(0, 30)(rng);
    std::string value(static_cast<std::size_t>(length), 'v');
    for (char& c : value) c = static_cast<char>('a' + std::uniform_int_distribution<int>(0, 3)(rng));
    return value;
  };
  for (int step = 0; step < 3000; ++step) {
    const int action = std::uniform_int_distribution<int>(0, 19)(rng);
    if (action == 0) {  // copy, then drop the original
      auto copy = std::make_unique<TopologyCounts>(*counts);
      counts = std::move(copy);
    } else if (action == 1) {  // move-construct
      auto moved = std::make_unique<TopologyCounts>(std::move(*counts));
      counts = std::move(moved);
    } else if (action == 2) {  // copy-assign over a non-empty one
      TopologyCounts other;
      other.Add("stale", "entry", 1);
      other = *counts;
      *counts = std::move(other);
    } else {
      std::string key = keys[static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 3)(rng))];
      std::string value = random_value();
      const std::int64_t delta = std::uniform_int_distribution<int>(-2, 3)(rng);
      if (action < 12) {
        counts->Add(key, value, delta);
        model[{key, value}] += delta;
      } else {
        const auto node = MakeNode("n", {{key, value}});
        counts->Update(*node, key, delta);
        auto it = model.find({key, value});
        if (it == model.end()) {
          if (delta != 0) model[{key, value}] = delta;
        } else if ((it->second += delta) == 0) {
          model.erase(it);
        }
      }
    }
    if (step % 100 == 0) REQUIRE(counts->ToMap() == model);
  }
  CHECK(counts->ToMap() == model);
  CHECK(counts->size() == model.size());
  for (const auto& [pair, count] : model) CHECK(counts->Get(pair.first, pair.second) == count);
  CHECK(counts->Get("rack", "no-such-rack") == 0);
  const TopologyCounts copy = *counts;
  CHECK(copy == *counts);
  // keys(): each key once, and every present pair's key among them (Filter probes with them).
  std::set<std::string> listed;
  for (const std::string_view key : copy.keys()) CHECK(listed.insert(std::string(key)).second);
  for (const auto& [pair, count] : model) CHECK(listed.count(pair.first) == 1);
}

// ---- Scoring ------------------------------------------------------------------------------------

struct ScoreCase {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<std::shared_ptr<const Node>> nodes;
  std::vector<std::int64_t> want_scores;
  // Code and a substring of the message when PreScore does not succeed.
  std::optional<std::pair<Code, std::string>> want_status;
  InterPodAffinityArgs args;
};

void RunScoreCase(const ScoreCase& test, const NamespaceMap& namespaces) {
  CAPTURE(test.name);
  const Setup setup = MakeSetup(test.pods, test.nodes, test.args, namespaces);
  const std::vector<ksched::framework::NodeInfo*>& infos = setup.handle->snapshot().nodes();
  const std::vector<const NodeInfo*> feasible(infos.begin(), infos.end());
  CycleState state;
  const Status status = setup.plugin->PreScore(state, test.pod, feasible);
  if (test.want_status.has_value()) {
    CHECK(status.code() == test.want_status->first);
    CHECK_THAT(status.Message(), Catch::Contains(test.want_status->second));
    return;
  }
  REQUIRE(status.ToString() == "Success");
  std::vector<NodeScore> scores;
  for (const NodeInfo* info : feasible) {
    auto [score, score_status] = setup.plugin->Score(state, test.pod, *info);
    CHECK(score_status.IsSuccess());
    scores.push_back(NodeScore{info, score});
  }
  REQUIRE(setup.plugin->NormalizeScore(state, test.pod, scores).IsSuccess());
  std::vector<std::int64_t> got;
  for (const NodeScore& score : scores) got.push_back(score.score);
  CHECK(got == test.want_scores);
}

TEST_CASE("InterPodAffinity preferred affinity scores", "[plugins][inter_pod_affinity]") {
  const Labels rg_china{{"region", "China"}};
  const Labels rg_india{{"region", "India"}};
  const Labels az1{{"az", "az1"}};
  const Labels az2{{"az", "az2"}};
  const Labels rg_china_az1{{"region", "China"}, {"az", "az1"}};
  const Labels s1{{"security", "S1"}};
  const Labels s2{{"security", "S2"}};

  Affinity stay_with_s1_in_region;
  stay_with_s1_in_region.pod_affinity.preferred = {
      Weighted(5, Term(Selector({In("security", {"S1"})}), "region"))};
  Affinity stay_with_s2_in_region;
  stay_with_s2_in_region.pod_affinity.preferred = {
      Weighted(6, Term(Selector({In("security", {"S2"})}), "region"))};
  Affinity affinity3;
  affinity3.pod_affinity.preferred = {
      Weighted(8, Term(Selector({NotIn("security", {"S1"}), In("security", {"S2"})}), "region")),
      Weighted(2, Term(Selector({Exists("security"), DoesNotExist("wrongkey")}), "region"))};
  Affinity hard_affinity;
  hard_affinity.pod_affinity.required = {
      Term(Selector({In("security", {"S1", "value2"})}), "region"),
      Term(Selector({Exists("security"), DoesNotExist("wrongkey")}), "region")};
  Affinity away_from_s1_in_az;
  away_from_s1_in_az.pod_anti_affinity.preferred = {
      Weighted(5, Term(Selector({In("security", {"S1"})}), "az"))};
  Affinity away_from_s2_in_az;
  away_from_s2_in_az.pod_anti_affinity.preferred = {
      Weighted(5, Term(Selector({In("security", {"S2"})}), "az"))};
  Affinity stay_with_s1_away_from_s2;
  stay_with_s1_away_from_s2.pod_affinity.preferred = {
      Weighted(8, Term(Selector({In("security", {"S1"})}), "region"))};
  stay_with_s1_away_from_s2.pod_anti_affinity.preferred = {
      Weighted(5, Term(Selector({In("security", {"S2"})}), "az"))};
  const PodAffinityTerm namespace_selector_term =
      Term(Selector({In("security", {"S1"})}), "region", {"subteam2.team2"},
           Selector({In("team", {"team1"})}));
  Affinity affinity_namespace_selector;
  affinity_namespace_selector.pod_affinity.preferred = {Weighted(5, namespace_selector_term)};
  Affinity anti_affinity_namespace_selector;
  anti_affinity_namespace_selector.pod_anti_affinity.preferred = {
      Weighted(5, namespace_selector_term)};
  Affinity invalid_affinity_labels;
  invalid_affinity_labels.pod_affinity.preferred = {
      Weighted(8, Term(Selector({In("security", {"{{.bad-value.}}"})}), "region"))};
  Affinity invalid_anti_affinity_labels;
  invalid_anti_affinity_labels.pod_anti_affinity.preferred = {
      Weighted(5, Term(Selector({In("security", {"{{.bad-value.}}"})}), "az"))};

  auto pod = [](Labels labels, Affinity affinity = {}, std::string ns = "") {
    return MakePod().Namespace(std::move(ns)).Labels(std::move(labels))
        .WithAffinity(std::move(affinity)).Obj();
  };
  auto on = [](std::string node, Labels labels, Affinity affinity = {}, std::string ns = "") {
    return MakePod().Node(std::move(node)).Namespace(std::move(ns)).Labels(std::move(labels))
        .WithAffinity(std::move(affinity)).Obj();
  };
  auto nodes = [](std::vector<Labels> labels) {
    std::vector<std::shared_ptr<const Node>> out;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      out.push_back(MakeNode(Numbered("node", i + 1), labels[i]));
    }
    return out;
  };
  const auto skip = std::make_pair(Code::kSkip, std::string());
  const std::string bad_value = "Invalid value: \"{{.bad-value.}}\"";
  InterPodAffinityArgs ignore_existing;
  ignore_existing.ignore_preferred_terms_of_existing_pods = true;

  std::vector<ScoreCase> cases = {
      {"all nodes are same priority as Affinity is nil", pod(s1), {},
       nodes({rg_china, rg_india, az1}), {}, skip, {}},
      {"Affinity: pod that matches topology key & pods in nodes will get high score comparing to "
       "others which doesn't match either pods in nodes or in topology key",
       pod(s1, stay_with_s1_in_region),
       {on("node1", s1), on("node2", s2), on("node3", s1)},
       nodes({rg_china, rg_india, az1}), {100, 0, 0}, std::nullopt, {}},
      {"All the nodes that have the same topology key & label value with one of them has an "
       "existing pod that match the affinity rules, have the same score",
       pod({}, stay_with_s1_in_region), {on("node1", s1)},
       nodes({rg_china, rg_china_az1, rg_india}), {100, 100, 0}, std::nullopt, {}},
      {"Affinity: nodes in one region has more matching pods comparing to other region, so the "
       "region which has more matches will get high score",
       pod(s1, stay_with_s2_in_region),
       {on("node1", s2), on("node1", s2), on("node2", s2), on("node3", s2), on("node4", s2),
        on("node5", s2)},
       nodes({rg_china, rg_india, rg_china, rg_china, rg_india}), {100, 0, 100, 100, 0},
       std::nullopt, {}},
      {"Affinity: different Label operators and values for pod affinity scheduling preference, "
       "including some match failures",
       pod(s1, affinity3), {on("node1", s1), on("node2", s2), on("node3", s1)},
       nodes({rg_china, rg_india, az1}), {20, 100, 0}, std::nullopt, {}},
      {"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in "
       "pod affinity symmetry",
       pod(s2), {on("node1", s1, stay_with_s1_in_region), on("node2", s2, stay_with_s2_in_region)},
       nodes({rg_china, rg_india, az1}), {0, 100, 0}, std::nullopt, {}},
      {"Affinity symmetry with namespace selector", pod(s1, {}, "subteam1.team1"),
       {on("node1", s1, affinity_namespace_selector), on("node2", s2, stay_with_s2_in_region)},
       nodes({rg_china, rg_india, az1}), {100, 0, 0}, std::nullopt, {}},
      {"AntiAffinity symmetry with namespace selector", pod(s1, {}, "subteam1.team1"),
       {on("node1", s1, anti_affinity_namespace_selector),
        on("node2", s2, stay_with_s2_in_region)},
       nodes({rg_china, rg_india, az1}), {0, 100, 100}, std::nullopt, {}},
      {"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod "
       "affinity symmetry",
       pod(s1), {on("node1", s1, hard_affinity), on("node2", s2, hard_affinity)},
       nodes({rg_china, rg_india, az1}), {100, 100, 0}, std::nullopt, {}},
      {"Anti Affinity: pod that does not match existing pods in node will get high score",
       pod(s1, away_from_s1_in_az), {on("node1", s1), on("node2", s2)}, nodes({az1, rg_china}),
       {0, 100}, std::nullopt, {}},
      {"Anti Affinity: pod that does not match topology key & match the pods in nodes will get "
       "higher score comparing to others",
       pod(s1, away_from_s1_in_az), {on("node1", s1), on("node2", s1)}, nodes({az1, rg_china}),
       {0, 100}, std::nullopt, {}},
      {"Anti Affinity: one node has more matching pods comparing to other node, so the node which "
       "has more unmatches will get high score",
       pod(s1, away_from_s1_in_az), {on("node1", s1), on("node1", s1), on("node2", s2)},
       nodes({az1, rg_india}), {0, 100}, std::nullopt, {}},
      {"Anti Affinity symmetry: the existing pods in node which has anti affinity match will get "
       "high score",
       pod(s2), {on("node1", s1, away_from_s2_in_az), on("node2", s2, away_from_s1_in_az)},
       nodes({az1, az2}), {0, 100}, std::nullopt, {}},
      {"Affinity and Anti Affinity: considered only "
       "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
       pod(s1, stay_with_s1_away_from_s2), {on("node1", s1), on("node2", s1)},
       nodes({rg_china, az1}), {100, 0}, std::nullopt, {}},
      {"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to "
       "schedule and existing pods have the same labels",
       pod(s1, stay_with_s1_away_from_s2),
       {on("node1", s1), on("node1", s1), on("node2", s1), on("node3", s1), on("node3", s1),
        on("node4", s1), on("node5", s1)},
       nodes({rg_china_az1, rg_india, rg_china, rg_china, rg_india}), {100, 0, 100, 100, 0},
       std::nullopt, {}},
      {"Affinity and Anti Affinity and symmetry: considered only "
       "preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & "
       "symmetry",
       pod(s1, stay_with_s1_away_from_s2),
       {on("node1", s1), on("node2", s2), on("node3", {}, stay_with_s1_away_from_s2),
        on("node4", {}, away_from_s1_in_az)},
       nodes({rg_china, az1, rg_india, az2}), {100, 0, 100, 0}, std::nullopt, {}},
      {"Avoid panic when partial nodes in a topology don't have pods with affinity", pod(s1),
       {on("node1", s1), on("node2", {}, stay_with_s1_away_from_s2)}, nodes({rg_china, rg_china}),
       {0, 0}, std::nullopt, {}},
      {"invalid Affinity fails PreScore", pod({}, invalid_affinity_labels), {},
       nodes({rg_china, rg_china}), {}, std::make_pair(Code::kError, bad_value), {}},
      {"invalid AntiAffinity fails PreScore", pod({}, invalid_anti_affinity_labels), {},
       nodes({rg_china, rg_china}), {}, std::make_pair(Code::kError, bad_value), {}},
      {"Affinity with pods matching NamespaceSelector",
       pod(s1, affinity_namespace_selector, "subteam1.team1"),
       {on("node1", s1, {}, "subteam1.team1"), on("node1", s1, {}, "subteam1.team1"),
        on("node1", s1, {}, "subteam1.team2"), on("node2", s1, {}, "subteam2.team1")},
       nodes({rg_china, rg_india}), {100, 0}, std::nullopt, {}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces fields",
       pod(s1, affinity_namespace_selector, "subteam1.team1"),
       {on("node1", s1, {}, "subteam1.team1"), on("node1", s1, {}, "subteam1.team1"),
        on("node1", s1, {}, "subteam2.team2"), on("node2", s1, {}, "subteam2.team1")},
       nodes({rg_china, rg_india}), {100, 0}, std::nullopt, {}},
      {"Anti-affinity with pods matching NamespaceSelector",
       pod(s1, anti_affinity_namespace_selector, "subteam1.team1"),
       {on("node1", s1, {}, "subteam1.team1"), on("node1", s1, {}, "subteam1.team1"),
        on("node1", s1, {}, "subteam1.team2"), on("node2", s1, {}, "subteam2.team1")},
       nodes({rg_china, rg_india}), {0, 100}, std::nullopt, {}},
      {"Anti-affinity with pods matching both NamespaceSelector and Namespaces fields",
       pod(s1, anti_affinity_namespace_selector, "subteam1.team1"),
       {on("node1", s1, {}, "subteam1.team1"), on("node1", s1, {}, "subteam1.team1"),
        on("node1", s1, {}, "subteam2.team2"), on("node2", s1, {}, "subteam2.team1")},
       nodes({rg_china, rg_india}), {0, 100}, std::nullopt, {}},
      {"Ignore preferred terms of existing pods", pod(s2),
       {on("node1", s1, stay_with_s1_away_from_s2), on("node2", s2, stay_with_s2_in_region)},
       nodes({rg_china, rg_india}), {}, skip, ignore_existing},
      {"Do not ignore preferred terms of existing pods", pod(s2),
       {on("node1", s1, stay_with_s1_away_from_s2), on("node2", s2, stay_with_s2_in_region)},
       nodes({rg_china, rg_india}), {0, 100}, std::nullopt, {}},
      {"No nodes to score", pod(s2), {}, {}, {}, skip, {}},
  };
  for (const ScoreCase& test : cases) RunScoreCase(test, kNamespaces);
}

TEST_CASE("InterPodAffinity scores existing pods' required affinity with hardPodAffinityWeight",
          "[plugins][inter_pod_affinity]") {
  const Labels service_s1{{"service", "S1"}};
  Affinity hard_pod_affinity;
  hard_pod_affinity.pod_affinity.required = {
      Term(Selector({In("service", {"S1"})}), "region", {"", "subteam2.team2"},
           Selector({In("team", {"team1"})}))};
  const std::vector<Pod> pods = {
      MakePod().Node("node1").WithAffinity(hard_pod_affinity).Obj(),
      MakePod().Node("node2").WithAffinity(hard_pod_affinity).Obj()};
  const std::vector<std::shared_ptr<const Node>> nodes = {MakeNode("node1", {{"region", "China"}}),
                                                          MakeNode("node2", {{"region", "India"}}),
                                                          MakeNode("node3", {{"az", "az1"}})};
  auto incoming = [&service_s1](std::string ns) {
    return MakePod().Namespace(std::move(ns)).Labels(service_s1).Obj();
  };
  auto weight = [](std::int32_t value) {
    InterPodAffinityArgs args;
    args.hard_pod_affinity_weight = value;
    return args;
  };
  const auto skip = std::make_pair(Code::kSkip, std::string());
  const std::vector<ScoreCase> cases = {
      {"with default weight", incoming(""), pods, nodes, {100, 100, 0}, std::nullopt, weight(1)},
      {"with zero weight", incoming(""), pods, nodes, {}, skip, weight(0)},
      {"with no matching namespace", incoming("subteam1.team2"), pods, nodes, {}, skip, weight(1)},
      {"with matching NamespaceSelector", incoming("subteam1.team1"), pods, nodes, {100, 100, 0},
       std::nullopt, weight(1)},
      {"with matching Namespaces", incoming("subteam2.team2"), pods, nodes, {100, 100, 0},
       std::nullopt, weight(1)},
  };
  for (const ScoreCase& test : cases) RunScoreCase(test, kNamespaces);
}

TEST_CASE("InterPodAffinity Score and NormalizeScore without PreScore state are errors",
          "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup({}, {MakeNode("node", {})});
  CycleState state;
  CHECK(setup.plugin->Score(state, Pod(), setup.Node("node")).second.code() == Code::kError);
  std::vector<NodeScore> scores{{&setup.Node("node"), 3}};
  CHECK(setup.plugin->NormalizeScore(state, Pod(), scores).code() == Code::kError);
}

TEST_CASE("InterPodAffinity looks each namespace up once per cycle",
          "[plugins][inter_pod_affinity]") {
  std::vector<Pod> pods;
  for (int i = 0; i < 50; ++i) {
    pods.push_back(MakePod().Node(Numbered("node", i % 5)).Namespace("subteam1.team1")
                       .Label("app", "web").Obj());
    pods.push_back(MakePod().Node(Numbered("node", i % 5)).Namespace("subteam1.team2")
                       .Label("app", "web").Obj());
  }
  std::vector<std::shared_ptr<const Node>> nodes;
  for (int i = 0; i < 5; ++i) {
    nodes.push_back(MakeNode(Numbered("node", i), {{"zone", Numbered("z", i % 2)}}));
  }
  const Setup setup = MakeSetup(pods, nodes, {}, kNamespaces);
  const PodAffinityTerm team1_web =
      Term(Selector({In("app", {"web"})}), "zone", {}, Selector({In("team", {"team1"})}));
  Pod pod = MakePod().Namespace("other").Obj();
  pod.spec.affinity.pod_anti_affinity.required = {team1_web};
  pod.spec.affinity.pod_affinity.preferred = {Weighted(3, team1_web)};

  CycleState state;
  REQUIRE(setup.PreFilter(state, pod).second.IsSuccess());
  const std::vector<ksched::framework::NodeInfo*>& infos = setup.handle->snapshot().nodes();
  REQUIRE(setup.plugin->PreScore(state, pod, {infos.begin(), infos.end()}).IsSuccess());
  // "other" (the pod's own, unknown), subteam1.team1 and subteam1.team2: once each, although 100
  // pods were matched in PreFilter and again in PreScore.
  CHECK(setup.handle->lookups() == 3);
  const auto* pre_filter = state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
  REQUIRE(pre_filter != nullptr);
  // Only the team1 pods count: 30 in z0 (node0, node2, node4), 20 in z1.
  CHECK(pre_filter->anti_affinity_counts().ToMap() ==
        CountMap{{{"zone", "z0"}, 30}, {{"zone", "z1"}, 20}});
  CHECK(setup.plugin->Score(state, pod, setup.Node("node0")).first == 90);
  CHECK(setup.plugin->Score(state, pod, setup.Node("node1")).first == 60);
}

// ---- Events and queueing hints ------------------------------------------------------------------

TEST_CASE("InterPodAffinity registers pod and node events", "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup({}, {});
  const std::vector<ksched::framework::ClusterEventWithHint> events =
      setup.plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == EventResource::kPod);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdatePodLabel | action::kDelete));
  CHECK(events[0].event.label == "Pod");
  CHECK(static_cast<bool>(events[0].hint));
  CHECK(events[1].event.resource == EventResource::kNode);
  CHECK(events[1].event.action == (action::kAdd | action::kUpdateNodeLabel));
  CHECK(events[1].event.label == "Node");
  CHECK(static_cast<bool>(events[1].hint));

  // The registered hints are the plugin's.
  const Pod pod =
      MakePod().Name("p").PodAntiAffinityIn("service", "region", {"securityscan"}).Obj();
  const Pod deleted = MakePod().Node("n").Label("service", "securityscan").Obj();
  EventObjects objects;
  objects.old_pod = &deleted;
  auto hint = events[0].hint(pod, objects);
  REQUIRE(hint.ok());
  CHECK(*hint == QueueingHint::kQueue);
}

TEST_CASE("InterPodAffinity pod event hint", "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup({}, {});
  const Pod affinity_pod =
      MakePod().Name("p").PodAffinityIn("service", "region", {"securityscan", "value2"}).Obj();
  const Pod two_terms_pod = MakePod().Name("p").PodAffinityExists("aaa", "hostname")
                                .PodAffinityExists("bbb", "hostname").Obj();
  const Pod anti_pod =
      MakePod().Name("p").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}).Obj();
  const Pod two_anti_terms_pod = MakePod().Name("p")
                                     .PodAntiAffinityIn("service", "region", {"securityscan"})
                                     .PodAntiAffinityIn("app", "region", {"web"}).Obj();
  struct Case {
    std::string name;
    Pod pod;
    std::optional<Pod> old_pod;
    std::optional<Pod> new_pod;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"add a pod which matches the pod affinity", affinity_pod, std::nullopt,
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kQueue},
      {"add an un-scheduled pod", affinity_pod, std::nullopt,
       MakePod().Label("service", "securityscan").Obj(), QueueingHint::kQueueSkip},
      {"add a pod which doesn't match the pod affinity", affinity_pod, std::nullopt,
       MakePod().Node("fake-node").Label("aaa", "a").Obj(), QueueingHint::kQueueSkip},
      {"update a pod from non-match to match pod affinity", affinity_pod,
       MakePod().Node("fake-node").Label("aaa", "a").Obj(),
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kQueue},
      {"the updating pod matches target pod's affinity both before and after label changes",
       affinity_pod, MakePod().Node("fake-node").Label("service", "value2").Obj(),
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       QueueingHint::kQueueSkip},
      {"update an un-scheduled pod", affinity_pod,
       MakePod().Label("service", "securityscan").Obj(),
       MakePod().Label("service", "securityscan").Obj(), QueueingHint::kQueueSkip},
      {"update a pod from match to non-match the pod affinity", affinity_pod,
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       MakePod().Node("fake-node").Label("aaa", "a").Obj(), QueueingHint::kQueueSkip},
      {"update a pod from match to non-match pod's affinity - multiple terms case", two_terms_pod,
       MakePod().Node("fake-node").Label("aaa", "a").Obj(),
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       QueueingHint::kQueueSkip},
      {"update a pod from non-match to match pod's affinity - multiple terms case", two_terms_pod,
       MakePod().Node("fake-node").Label("aaa", "a").Obj(),
       MakePod().Node("fake-node").Label("aaa", "").Label("bbb", "").Obj(), QueueingHint::kQueue},
      {"modify pod label to change it from satisfying pod anti-affinity to not satisfying "
       "anti-affinity",
       anti_pod, MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       MakePod().Node("fake-node").Label("service", "aaaa").Obj(), QueueingHint::kQueue},
      {"modify pod label to change it from not satisfying pod anti-affinity to satisfying "
       "anti-affinity",
       anti_pod, MakePod().Node("fake-node").Label("service", "bbb").Obj(),
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       QueueingHint::kQueueSkip},
      {"delete a pod which doesn't match pod's anti-affinity", anti_pod,
       MakePod().Node("fake-node").Label("aaa", "a").Obj(), std::nullopt,
       QueueingHint::kQueueSkip},
      {"delete a pod which matches pod's anti-affinity", anti_pod,
       MakePod().Node("fake-node").Label("service", "securityscan").Obj(), std::nullopt,
       QueueingHint::kQueue},
      // v1.37.2 (Test_isSchedulableAfterAssignedPodChange): the deleted pod's own anti-affinity,
      // nominated pods, and anti-affinity terms matched one at a time.
      {"delete a pod with anti-affinity that matches pending pod",
       MakePod().Name("p").Label("service", "securityscan").Obj(),
       MakePod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}).Obj(),
       std::nullopt, QueueingHint::kQueue},
      {"delete a pod with anti-affinity that doesn't match pending pod",
       MakePod().Name("p").Label("service", "foo").Obj(),
       MakePod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}).Obj(),
       std::nullopt, QueueingHint::kQueueSkip},
      {"delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that "
       "doesn't match pending pod",
       MakePod().Name("p").PodAntiAffinityIn("service", "region", {"securityscan", "value2"})
           .Label("service", "foo").Obj(),
       MakePod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"})
           .Label("service", "foo").Obj(),
       std::nullopt, QueueingHint::kQueueSkip},
      {"delete a nominated pod which doesn't match pod's anti-affinity", anti_pod,
       MakePod().NominatedNodeName("fake-node").Label("aaa", "a").Obj(), std::nullopt,
       QueueingHint::kQueueSkip},
      {"delete a nominated pod which matches pod's anti-affinity", anti_pod,
       MakePod().NominatedNodeName("fake-node").Label("service", "securityscan").Obj(),
       std::nullopt, QueueingHint::kQueue},
      {"modify pod label to change it from matching only one of target pod's anti-affinity terms "
       "to matching none",
       two_anti_terms_pod,
       MakePod().Node("fake-node").Label("service", "securityscan").Label("app", "bar").Obj(),
       MakePod().Node("fake-node").Label("service", "foo").Label("app", "bar").Obj(),
       QueueingHint::kQueue},
      {"modify pod label but it still matches one of target pod's anti-affinity terms",
       two_anti_terms_pod,
       MakePod().Node("fake-node").Label("service", "securityscan").Label("app", "bar").Obj(),
       MakePod().Node("fake-node").Label("service", "foo").Label("app", "web").Obj(),
       QueueingHint::kQueueSkip},
      {"delete a pod which matches only one of target pod's anti-affinity terms",
       two_anti_terms_pod, MakePod().Node("fake-node").Label("service", "securityscan").Obj(),
       std::nullopt, QueueingHint::kQueue},
      {"delete a pod with anti-affinity that matches pending pod on only one term",
       MakePod().Name("p").Label("service", "securityscan").Obj(),
       MakePod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan"})
           .PodAntiAffinityIn("app", "region", {"web"}).Obj(),
       std::nullopt, QueueingHint::kQueue},
      // v1.37 (#135394, isSchedulableAfterTargetPodUpdateLabel): the pending pod's own labels
      // changed; another pod's anti-affinity may no longer match it.
      {"the target pod's labels change", MakePod().Uid("target").Name("p").Label("service", "new").Obj(),
       MakePod().Uid("target").Name("p").Label("service", "securityscan").Obj(),
       MakePod().Uid("target").Name("p").Label("service", "new").Obj(), QueueingHint::kQueue},
      {"another unscheduled pod's labels change", MakePod().Name("p").Obj(),
       MakePod().Name("q").Label("service", "securityscan").Obj(),
       MakePod().Name("q").Label("service", "new").Obj(), QueueingHint::kQueueSkip},
  };
  for (const Case& test : cases) {
    CAPTURE(test.name);
    EventObjects objects;
    if (test.old_pod.has_value()) objects.old_pod = &*test.old_pod;
    if (test.new_pod.has_value()) objects.new_pod = &*test.new_pod;
    const auto hint = setup.plugin->IsSchedulableAfterPodChange(test.pod, objects);
    REQUIRE(hint.ok());
    CHECK(*hint == test.want);
  }

  // A pod with an invalid selector cannot be judged: an error (which the queue treats as Queue).
  const Pod invalid =
      MakePod().Name("p").PodAffinityIn("service", "region", {"{{.bad-value.}}"}).Obj();
  const Pod added = MakePod().Node("fake-node").Obj();
  EventObjects objects;
  objects.new_pod = &added;
  CHECK_FALSE(setup.plugin->IsSchedulableAfterPodChange(invalid, objects).ok());
}

TEST_CASE("InterPodAffinity node event hint", "[plugins][inter_pod_affinity]") {
  const Setup setup = MakeSetup({}, {});
  const Pod affinity_zone =
      MakePod().Name("p").PodAffinityIn("service", "zone", {"securityscan", "value2"}).Obj();
  const Pod affinity_region =
      MakePod().Name("p").PodAffinityIn("service", "region", {"securityscan", "value2"}).Obj();
  LabelSelector another_label;
  another_label.match_labels = {{"another", "label"}};
  const Pod anti_zone = MakePod().Name("p").RequiredAntiAffinity(Term(another_label, "zone")).Obj();
  struct Case {
    std::string name;
    Pod pod;
    std::shared_ptr<const Node> old_node;
    std::shared_ptr<const Node> new_node;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"add a new node with matched pod affinity topologyKey", affinity_zone, nullptr,
       MakeNode("node-a", {{"zone", "zone1"}}), QueueingHint::kQueue},
      {"add a new node without matched topologyKey", affinity_region, nullptr,
       MakeNode("node-a", {{"zone", "zone1"}}), QueueingHint::kQueueSkip},
      {"update node label but not topologyKey", affinity_zone, MakeNode("node-a", {{"aaa", "a"}}),
       MakeNode("node-a", {{"aaa", "b"}}), QueueingHint::kQueueSkip},
      {"update node label that isn't related to the pod affinity", affinity_zone,
       MakeNode("node-a", {{"zone", "zone1"}}),
       MakeNode("node-a", {{"zone", "zone1"}, {"unrelated-label", "unrelated"}}),
       QueueingHint::kQueueSkip},
      {"update node with different affinity topologyKey value", affinity_zone,
       MakeNode("node-a", {{"zone", "zone1"}}), MakeNode("node-a", {{"zone", "zone2"}}),
       QueueingHint::kQueue},
      {"update node to have the affinity topology label", affinity_zone,
       MakeNode("node-a", {{"aaa", "a"}}), MakeNode("node-a", {{"zone", "zone1"}}),
       QueueingHint::kQueue},
      {"add a new node with matched pod anti-affinity topologyKey", anti_zone, nullptr,
       MakeNode("node-a", {{"zone", "zone1"}}), QueueingHint::kQueue},
      {"add a new node without matched pod anti-affinity topologyKey", anti_zone, nullptr,
       MakeNode("node-a", {}), QueueingHint::kQueue},
      {"update node label that isn't related to the pod anti-affinity", anti_zone,
       MakeNode("node-a", {{"zone", "zone1"}}),
       MakeNode("node-a", {{"zone", "zone1"}, {"unrelated-label", "unrelated"}}),
       QueueingHint::kQueueSkip},
      {"update node with different anti-affinity topologyKey value", anti_zone,
       MakeNode("node-a", {{"zone", "zone1"}}), MakeNode("node-a", {{"zone", "zone2"}}),
       QueueingHint::kQueue},
      {"update node to have the anti-affinity topology label", anti_zone,
       MakeNode("node-a", {{"aaa", "a"}}), MakeNode("node-a", {{"zone", "zone1"}}),
       QueueingHint::kQueueSkip},
      {"update node label not to have anti-affinity topology label", anti_zone,
       MakeNode("node-a", {{"zone", "zone1"}}), MakeNode("node-a", {{"aaa", "a"}}),
       QueueingHint::kQueue},
  };
  for (const Case& test : cases) {
    CAPTURE(test.name);
    EventObjects objects;
    objects.old_node = test.old_node.get();
    objects.new_node = test.new_node.get();
    const auto hint = setup.plugin->IsSchedulableAfterNodeChange(test.pod, objects);
    REQUIRE(hint.ok());
    CHECK(*hint == test.want);
  }
}

// ---- Args and factory ---------------------------------------------------------------------------

TEST_CASE("InterPodAffinityArgs validation", "[plugins][inter_pod_affinity]") {
  InterPodAffinityArgs args;
  CHECK(args.hard_pod_affinity_weight == 1);
  CHECK_FALSE(args.ignore_preferred_terms_of_existing_pods);
  CHECK(ipa::ValidateInterPodAffinityArgs({}, args).ok());
  args.hard_pod_affinity_weight = 10;
  CHECK(ipa::ValidateInterPodAffinityArgs({}, args).ok());
  args.hard_pod_affinity_weight = 0;
  CHECK(ipa::ValidateInterPodAffinityArgs({}, args).ok());
  args.hard_pod_affinity_weight = 100;
  CHECK(ipa::ValidateInterPodAffinityArgs({}, args).ok());

  args.hard_pod_affinity_weight = -1;
  absl::Status status = ipa::ValidateInterPodAffinityArgs({}, args);
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(status.message() ==
        "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]");
  args.hard_pod_affinity_weight = 101;
  status = ipa::ValidateInterPodAffinityArgs(
      ksched::api::FieldPath("profiles[0].pluginConfig[0].args"), args);
  CHECK(status.message() ==
        "profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid "
        "range [0, 100]");
}

TEST_CASE("InterPodAffinity factory takes defaults, validates and refuses foreign args",
          "[plugins][inter_pod_affinity]") {
  AffinityHandle handle({}, {}, {});
  auto built = ipa::New(nullptr, handle);
  REQUIRE(built.ok());
  auto* plugin = dynamic_cast<InterPodAffinity*>(built->get());
  REQUIRE(plugin != nullptr);
  CHECK(plugin->Name() == "InterPodAffinity");
  CHECK(plugin->args().hard_pod_affinity_weight == 1);
  CHECK(plugin->GetPreFilterExtensions() != nullptr);
  CHECK(plugin->GetScoreExtensions() != nullptr);

  InterPodAffinityArgs invalid;
  invalid.hard_pod_affinity_weight = 101;
  auto refused = ipa::New(&invalid, handle);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() ==
        "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]");

  struct OtherArgs final : PluginArgs {};
  const OtherArgs other;
  CHECK_FALSE(ipa::New(&other, handle).ok());
}

// ---- Counts carried across cycles ---------------------------------------------------------------

// A handle whose snapshot evolves as the scheduler's cache updates it (scheduler/cache.cc
// UpdateSnapshot): changed NodeInfos assigned in place and recorded, the generation moved, the
// node list rebuilt only when nodes come.
class EvolvingHandle final : public ksched::framework::Handle {
 public:
  void SetNode(std::shared_ptr<const Node> node) {
    const std::string name = node->metadata.name;
    if (!truth_.contains(name)) order_.push_back(name);
    truth_[name].SetNode(std::move(node));
  }
  void AddPod(const Pod& pod) {
    truth_[pod.spec.node_name].AddPod(PodInfo::CreateOrDie(std::make_shared<Pod>(pod)));
  }
  bool RemovePod(const std::string& node, const std::string& uid) {
    return truth_[node].RemovePod(uid);
  }
  const NodeInfo& Truth(const std::string& node) { return truth_.at(node); }
  const std::vector<std::string>& node_names() const { return order_; }

  void UpdateSnapshot() {
    ksched::framework::Snapshot& snapshot = *snapshot_;
    const std::int64_t from = snapshot.generation();
    snapshot.BeginUpdate();
    std::int64_t generation = from;
    bool new_nodes = false;
    for (const auto& [name, info] : truth_) {
      if (info.generation() <= from) continue;
      ksched::framework::NodeInfo* copy = snapshot.GetMutable(name);
      if (copy == nullptr) {
        new_nodes = true;
        copy = snapshot.GetOrCreate(name);
      }
      *copy = info;
      snapshot.NoteUpdated(copy);
      generation = std::max(generation, info.generation());
    }
    snapshot.set_generation(generation);
    if (new_nodes) {
      snapshot.RebuildLists(order_);
    } else {
      snapshot.RebuildAffinityLists();
    }
  }

  const ksched::framework::Snapshot& snapshot() const override { return *snapshot_; }
  ksched::framework::ClusterApi& cluster_api() override { return cluster_api_; }
  ksched::framework::EventRecorder& event_recorder() override { return event_recorder_; }
  ksched::framework::Parallelizer& parallelizer() override { return parallelizer_; }
  const std::string& profile_name() const override { return profile_name_; }
  std::optional<Labels> NamespaceLabels(std::string_view name) const override {
    if (name == "team-a") return Labels{{"team", "a"}};
    return std::nullopt;
  }
  void IterateOverWaitingPods(
      const std::function<void(ksched::framework::WaitingPod&)>& /*fn*/) override {}
  bool RejectWaitingPod(std::string_view /*uid*/) override { return false; }

 private:
  std::map<std::string, NodeInfo> truth_;  // the cache's NodeInfos
  std::vector<std::string> order_;
  std::unique_ptr<ksched::framework::Snapshot> snapshot_ =
      std::make_unique<ksched::framework::Snapshot>();
  ksched::framework::Parallelizer parallelizer_{4};
  ksched::plugins::testing::FakeClusterApi cluster_api_;
  ksched::plugins::testing::DiscardingEventRecorder event_recorder_;
  std::string profile_name_ = "default-scheduler";
};

std::unique_ptr<ksched::framework::Plugin> NewPlugin(ksched::framework::Handle& handle) {
  auto built = ipa::New(nullptr, handle);
  REQUIRE(built.ok());
  return *std::move(built);
}

TEST_CASE("InterPodAffinity PreFilter counts carried across cycles equal a fresh count",
          "[plugins][inter_pod_affinity]") {
  // A cluster that changes between cycles the way a scheduler's does (pods bound and deleted,
  // nodes relabelled and added), scheduled with a few pod shapes in runs. After every cycle the
  // plugin's counts must equal those of a plugin that never saw an earlier cycle.
  std::mt19937 random(20261201);
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  EvolvingHandle handle;
  int next_node = 0;
  auto add_node = [&] {
    const std::string name = Numbered("node-", next_node);
    handle.SetNode(MakeNode(name, {{"zone", Numbered("z", next_node % 4)}, {"hostname", name}}));
    ++next_node;
  };
  for (int i = 0; i < 40; ++i) add_node();

  // Existing pods: web, db, and pods with anti-affinity to db (per zone or per host) or to web.
  auto existing_pod = [&](const std::string& node) {
    PodBuilder pod;
    pod.Node(node).Namespace(pick(5) == 0 ? "team-a" : "default");
    switch (pick(5)) {
      case 0: pod.Label("app", "web"); break;
      case 1: pod.Label("app", "db"); break;
      case 2: pod.Label("app", "cache").PodAntiAffinityIn("app", "zone", {"db"}); break;
      case 3: pod.Label("app", "db").PodAntiAffinityIn("app", "hostname", {"db"}); break;
      default: pod.Label("app", "batch").PodAntiAffinityIn("app", "hostname", {"web"}); break;
    }
    return pod.Obj();
  };
  std::vector<std::pair<std::string, std::string>> placed;  // (node, uid)
  auto place = [&](const Pod& pod) {
    handle.AddPod(pod);
    placed.emplace_back(pod.spec.node_name, pod.metadata.uid);
  };
  for (int i = 0; i < 120; ++i) place(existing_pod(handle.node_names()[pick(40)]));

  // The pods being scheduled, one shape per run of cycles.
  const std::vector<Pod> incoming = {
      MakePod().Namespace("default").Label("app", "db").PodAffinityIn("app", "zone", {"web"})
          .PodAntiAffinityIn("app", "hostname", {"db"}).Obj(),
      MakePod().Namespace("default").Label("app", "web").Obj(),
      MakePod().Namespace("team-a").Label("app", "db").PodAntiAffinityIn("app", "zone", {"cache"})
          .Obj(),
      // A real namespace selector: counted afresh every cycle.
      MakePod().Namespace("default").Label("app", "db")
          .RequiredAffinity(Term(Selector({In("app", {"web"})}), "zone", {},
                                 Selector({In("team", {"a"})}))).Obj(),
  };

  handle.UpdateSnapshot();
  std::unique_ptr<ksched::framework::Plugin> owner = NewPlugin(handle);
  auto* plugin = dynamic_cast<InterPodAffinity*>(owner.get());
  REQUIRE(plugin != nullptr);

  // States kept from earlier cycles (as preemption or a slow binding might), with what they held.
  std::vector<std::pair<std::unique_ptr<CycleState>, StateCounts>> kept;
  std::size_t shape = 0;
  for (int cycle = 0; cycle < 300; ++cycle) {
    CAPTURE(cycle);
    if (cycle % 25 == 0) shape = static_cast<std::size_t>(pick(static_cast<int>(incoming.size())));
    const Pod& pod = incoming[shape];

    // What changed since the last cycle: usually the last pod's bind, sometimes more.
    const int changes = pick(4) == 0 ? 1 + pick(6) : 1;
    for (int c = 0; c < changes; ++c) {
      const int what = pick(20);
      if (what < 12 || placed.empty()) {
        place(existing_pod(handle.node_names()[pick(next_node)]));
      } else if (what < 17) {
        const std::size_t victim = static_cast<std::size_t>(pick(static_cast<int>(placed.size())));
        REQUIRE(handle.RemovePod(placed[victim].first, placed[victim].second));
        placed.erase(placed.begin() + static_cast<std::ptrdiff_t>(victim));
      } else if (what < 19) {
        const std::string& name = handle.node_names()[pick(next_node)];
        handle.SetNode(MakeNode(name, {{"zone", Numbered("z", pick(5))}, {"hostname", name}}));
      } else {
        add_node();
      }
    }
    handle.UpdateSnapshot();
    if (pick(10) == 0) handle.UpdateSnapshot();  // an update that changed nothing

    auto state = std::make_unique<CycleState>();
    const Status status = plugin->PreFilter(*state, pod, handle.snapshot().nodes()).second;
    std::unique_ptr<ksched::framework::Plugin> fresh_owner = NewPlugin(handle);
    auto* fresh = dynamic_cast<InterPodAffinity*>(fresh_owner.get());
    CycleState fresh_state;
    const Status fresh_status = fresh->PreFilter(fresh_state, pod, handle.snapshot().nodes()).second;
    REQUIRE(status.code() == fresh_status.code());
    const auto* got = state->ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    const auto* want = fresh_state.ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE((got == nullptr) == (want == nullptr));
    if (got != nullptr) {
      CHECK(Describe(CountsOf(*got)) == Describe(CountsOf(*want)));
      if (pick(8) == 0) kept.emplace_back(std::move(state), CountsOf(*got));
    }
    if (!kept.empty() && pick(6) == 0) {
      kept.erase(kept.begin() + pick(static_cast<int>(kept.size())));
    }
  }
  // Kept states never saw later cycles' changes.
  for (const auto& [state, counts] : kept) {
    const auto* held = state->ReadAs<PreFilterState>(ipa::kPreFilterStateKey);
    REQUIRE(held != nullptr);
    CHECK(Describe(CountsOf(*held)) == Describe(counts));
  }
  // The counts were patched, not recounted, in most cycles.
  const auto existing = plugin->existing_anti_affinity_stats();
  const auto incoming_stats = plugin->incoming_stats();
  CHECK(existing.patched_nodes > 200);
  CHECK(existing.rebuilds < 100);
  CHECK(incoming_stats.patched_nodes > 50);
}

TEST_CASE("IncrementalCounts copies a sum a state still holds, and patches the copy",
          "[plugins][inter_pod_affinity]") {
  // One zone pair per pod with app=db on the node; the first sum is held across a change, so
  // the change must copy it (the holder keeps its view), and later patches must work on the copy
  // once the holder is gone (its storage freed).
  EvolvingHandle handle;
  handle.SetNode(MakeNode("a", {{"zone", "z1"}}));
  handle.SetNode(MakeNode("b", {{"zone", "z2"}}));
  const Pod db_a = MakePod().Node("a").Label("app", "db").Obj();
  const Pod db_b = MakePod().Node("b").Label("app", "db").Obj();
  handle.AddPod(db_a);
  handle.UpdateSnapshot();
  ipa::IncrementalCounts counts(1);
  auto contribute = [](const NodeInfo& info, ipa::IncrementalCounts::Sink& sink) {
    for (const auto& pod : info.pods()) {
      if (pod->pod().metadata.labels.Get("app") == "db") {
        sink.AppendIfLabeled(0, *info.node(), "zone", 1);
      }
    }
  };
  auto sync = [&] {
    counts.Sync(handle.snapshot(), false, handle.snapshot().nodes(), handle.parallelizer(),
                contribute);
  };
  sync();
  CHECK(counts.stats().rebuilds == 1);
  auto held = std::make_unique<std::shared_ptr<const TopologyCounts>>(counts.counts(0));
  CHECK((*held)->ToMap() == CountMap{{{"zone", "z1"}, 1}});

  handle.AddPod(db_b);
  handle.UpdateSnapshot();
  sync();
  CHECK(counts.stats().patched_nodes == 1);
  CHECK((*held)->ToMap() == CountMap{{{"zone", "z1"}, 1}});
  CHECK(counts.counts(0)->ToMap() == CountMap{{{"zone", "z1"}, 1}, {{"zone", "z2"}, 1}});

  held.reset();  // the old sum's strings go with it
  REQUIRE(handle.RemovePod("a", db_a.metadata.uid));
  handle.SetNode(MakeNode("b", {{"zone", "z3"}}));
  handle.UpdateSnapshot();
  sync();
  CHECK(counts.stats().rebuilds == 1);
  CHECK(counts.counts(0)->ToMap() == CountMap{{{"zone", "z3"}, 1}});
  // Nothing changed: read back.
  handle.UpdateSnapshot();
  sync();
  CHECK(counts.stats().reused == 1);
  // A caller's new key: a rebuild.
  counts.Sync(handle.snapshot(), true, handle.snapshot().nodes(), handle.parallelizer(), contribute);
  CHECK(counts.stats().rebuilds == 2);
  CHECK(counts.counts(0)->ToMap() == CountMap{{{"zone", "z3"}, 1}});
}

TEST_CASE("InterPodAffinity recounts for a snapshot that records no updates",
          "[plugins][inter_pod_affinity]") {
  // Snapshots built from objects (tests, tools) have generation 0: nothing can be carried over.
  const Setup setup = MakeSetup({MakePod().Node("n1").PodAntiAffinityIn("app", "zone", {"db"}).Obj()},
                                {MakeNode("n1", {{"zone", "z1"}})});
  const Pod pod = MakePod().Label("app", "db").Obj();
  for (int i = 0; i < 3; ++i) {
    CycleState state;
    REQUIRE(setup.PreFilter(state, pod).second.IsSuccess());
  }
  CHECK(setup.plugin->existing_anti_affinity_stats().rebuilds == 3);
  CHECK(setup.plugin->existing_anti_affinity_stats().patched_nodes == 0);
}

}  // namespace
