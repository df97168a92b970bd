// Scheduler extenders: upstream extender_test.go and schedule_one_test.go's extender cases
// (v1.34: TestSchedulerWithExtenders' filter / prioritize / ignorable / error rows,
// TestIsInterested, TestBind's extender rows), on fake extenders for the flow (FilterWithExtenders,
// AddExtenderScores, BindWithExtenders, ScheduleAlgorithm with extenders) and on an answering
// transport for HttpExtender's wire format (requests, answers, Go's case-insensitive keys, errors).
#include "scheduler/extender.h"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "answering_transport.h"
#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "queue_test_support.h"
#include "schedule_algorithm_support.h"
#include "rapidjson/document.h"
#include "scheduler/http_extender.h"
#include "scheduler/schedule_algorithm.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::Status;
using testing::PodBuilder;
using testing::ProfileBuilder;
using Nodes = std::vector<const NodeInfo*>;

// An extender answering from functions; records the nodes it was asked about.
class FakeExtender final : public Extender {
 public:
  using FilterFn = std::function<absl::StatusOr<ExtenderFilterResult>(const Nodes&)>;
  using PrioritizeFn = std::function<absl::StatusOr<std::vector<ExtenderHostScore>>(const Nodes&)>;

  std::string url = "http://fake";
  FilterFn filter;
  PrioritizeFn prioritize;
  std::function<absl::Status(const std::string&)> bind;
  std::int64_t weight_value = 1;
  bool ignorable = false;
  std::vector<std::string> managed;
  std::vector<std::string> bound;  // "pod@node"
  int filter_calls = 0;

  const std::string& name() const override { return url; }
  bool IsFilter() const override { return static_cast<bool>(filter); }
  bool IsPrioritizer() const override { return static_cast<bool>(prioritize); }
  bool IsBinder() const override { return static_cast<bool>(bind); }
  bool IsIgnorable() const override { return ignorable; }
  std::int64_t weight() const override { return weight_value; }
  bool IsInterested(const api::Pod& pod) const override { return PodUsesManagedResource(pod, managed); }
  absl::StatusOr<ExtenderFilterResult> Filter(const api::Pod&, const Nodes& nodes) override {
    ++filter_calls;
    return filter(nodes);
  }
  absl::StatusOr<std::vector<ExtenderHostScore>> Prioritize(const api::Pod&, const Nodes& nodes) override {
    return prioritize(nodes);
  }
  bool SupportsPreemption() const override { return false; }
  absl::StatusOr<framework::NodeVictims> ProcessPreemption(const api::Pod&, const framework::NodeVictims&,
                                                           const framework::Snapshot&) override {
    return absl::UnimplementedError("no preemptVerb");
  }
  absl::Status Bind(const api::Pod& pod, const std::string& node) override {
    absl::Status status = bind(node);
    if (status.ok()) bound.push_back(pod.metadata.name + "@" + node);
    return status;
  }
};

// A filter keeping the nodes not in `rejected` (reason "<name> rejected") nor in `unresolvable`.
FakeExtender::FilterFn Rejecting(std::set<std::string> rejected, std::set<std::string> unresolvable = {}) {
  return [=](const Nodes& nodes) -> absl::StatusOr<ExtenderFilterResult> {
    ExtenderFilterResult result;
    for (const NodeInfo* node : nodes) {
      if (rejected.count(node->name()) > 0) {
        result.failed.emplace_back(node->name(), "rejected by extender");
      } else if (unresolvable.count(node->name()) > 0) {
        result.failed_unresolvable.emplace_back(node->name(), "unresolvable by extender");
      } else {
        result.feasible.push_back(node);
      }
    }
    return result;
  };
}

FakeExtender::PrioritizeFn Favouring(std::string favourite) {
  return [favourite](const Nodes& nodes) -> absl::StatusOr<std::vector<ExtenderHostScore>> {
    std::vector<ExtenderHostScore> scores;
    for (const NodeInfo* node : nodes) scores.push_back({node->name(), node->name() == favourite ? 10 : 0});
    return scores;
  };
}

using Services = testing::AlgorithmServices;
using testing::Schedule;
using testing::SnapshotOf;

api::Pod PodRequesting(std::string name, std::string resource) {
  api::Pod pod = PodBuilder(std::move(name)).Obj();
  api::Container container;
  container.name = "c";
  container.resources.limits.Set(std::move(resource), api::Quantity::FromInt(1, api::QuantityFormat::kDecimalSI));
  pod.spec.containers.push_back(container);
  return pod;
}

TEST_CASE("Extenders: interest follows managed resources (upstream TestIsInterested)", "[extender]") {
  const std::vector<std::string> managed{"example.com/foo"};
  CHECK(PodUsesManagedResource(PodBuilder("p").Obj(), {}));
  CHECK_FALSE(PodUsesManagedResource(PodBuilder("p").Obj(), managed));
  CHECK(PodUsesManagedResource(PodRequesting("p", "example.com/foo"), managed));
  CHECK_FALSE(PodUsesManagedResource(PodRequesting("p", "example.com/bar"), managed));
  api::Pod init = PodBuilder("p").Obj();
  api::Container container;
  container.resources.requests.Set("example.com/foo", api::Quantity::FromInt(1, api::QuantityFormat::kDecimalSI));
  init.spec.init_containers.push_back(container);
  CHECK(PodUsesManagedResource(init, managed));
}

TEST_CASE("Extenders: filtering narrows the feasible nodes in turn and records the reasons", "[extender]") {
  const auto snapshot = SnapshotOf(4);
  Nodes feasible(snapshot->nodes().begin(), snapshot->nodes().end());
  FakeExtender first;
  first.filter = Rejecting({"node1"});
  FakeExtender second;
  Nodes second_saw;
  second.filter = [&](const Nodes& nodes) {
    second_saw = nodes;
    return Rejecting({}, {"node2"})(nodes);
  };
  FakeExtender broken;
  broken.filter = [](const Nodes&) -> absl::StatusOr<ExtenderFilterResult> { return absl::UnavailableError("down"); };
  broken.ignorable = true;
  FakeExtender uninterested;
  uninterested.filter = Rejecting({"node3", "node4"});
  uninterested.managed = {"example.com/foo"};
  std::vector<Extender*> extenders{&first, &broken, &second, &uninterested};
  Diagnosis diagnosis;
  const api::Pod pod = PodBuilder("p").Obj();
  REQUIRE(FilterWithExtenders(extenders, pod, feasible, diagnosis).IsSuccess());
  CHECK(second_saw.size() == 3);  // node1 already gone
  REQUIRE(feasible.size() == 2);
  CHECK(feasible[0]->name() == "node3");
  CHECK(uninterested.filter_calls == 0);
  CHECK(diagnosis.node_to_status.Get("node1") == Status(Code::kUnschedulable, {"rejected by extender"}));
  CHECK(diagnosis.node_to_status.Get("node2") ==
        Status(Code::kUnschedulableAndUnresolvable, {"unresolvable by extender"}));
  CHECK(diagnosis.unschedulable_plugins.count("Extender") == 1);

  SECTION("a node in both maps is unresolvable") {
    FakeExtender both;
    both.filter = [](const Nodes&) -> absl::StatusOr<ExtenderFilterResult> {
      ExtenderFilterResult result;
      result.failed.emplace_back("node3", "failed");
      result.failed_unresolvable.emplace_back("node3", "unresolvable");
      return result;
    };
    std::vector<Extender*> one{&both};
    Diagnosis d;
    REQUIRE(FilterWithExtenders(one, pod, feasible, d).IsSuccess());
    CHECK(feasible.empty());
    CHECK(d.node_to_status.Get("node3") == Status(Code::kUnschedulableAndUnresolvable, {"unresolvable"}));
  }
  SECTION("an extender that keeps every node adds no Extender rejector") {
    FakeExtender keeping;
    keeping.filter = Rejecting({});
    std::vector<Extender*> one{&keeping};
    Diagnosis d;
    REQUIRE(FilterWithExtenders(one, pod, feasible, d).IsSuccess());
    CHECK(d.unschedulable_plugins.empty());
  }
  SECTION("an error of an extender that is not ignorable fails the cycle") {
    broken.ignorable = false;
    Nodes all(snapshot->nodes().begin(), snapshot->nodes().end());
    Diagnosis d;
    const Status status = FilterWithExtenders(extenders, pod, all, d);
    CHECK(status.code() == Code::kError);
    CHECK(status.Message() == "down");
  }
}

TEST_CASE("Extenders: scores are weighted and scaled to MaxNodeScore, errors lose only that extender's",
          "[extender]") {
  const auto snapshot = SnapshotOf(3);
  Nodes nodes(snapshot->nodes().begin(), snapshot->nodes().end());
  std::vector<framework::NodePluginScores> scores;
  for (const NodeInfo* node : nodes) scores.push_back({node, 5});
  FakeExtender favour2;
  favour2.prioritize = Favouring("node2");
  favour2.weight_value = 2;
  FakeExtender favour3;
  favour3.prioritize = Favouring("node3");
  FakeExtender failing;
  failing.prioritize = [](const Nodes&) -> absl::StatusOr<std::vector<ExtenderHostScore>> {
    return absl::UnavailableError("down");
  };
  FakeExtender stranger;  // scores a node it was not asked about
  stranger.prioritize = [](const Nodes&) -> absl::StatusOr<std::vector<ExtenderHostScore>> {
    return std::vector<ExtenderHostScore>{{"elsewhere", 10}};
  };
  std::vector<Extender*> extenders{&favour2, &failing, &favour3, &stranger};
  AddExtenderScores(extenders, PodBuilder("p").Obj(), nodes, scores);
  CHECK(scores[0].total_score == 5);
  CHECK(scores[1].total_score == 5 + 10 * 2 * 10);
  CHECK(scores[2].total_score == 5 + 10 * 1 * 10);
}

TEST_CASE("Extenders: the first interested binder binds, an ignorable failure hands over", "[extender]") {
  const api::Pod pod = PodBuilder("p").Obj();
  FakeExtender failing;
  failing.bind = [](const std::string&) { return absl::UnavailableError("bind failed"); };
  failing.ignorable = true;
  FakeExtender binder;
  binder.bind = [](const std::string&) { return absl::OkStatus(); };
  FakeExtender uninterested;
  uninterested.bind = [](const std::string&) { return absl::OkStatus(); };
  uninterested.managed = {"example.com/foo"};
  std::vector<Extender*> extenders{&uninterested, &failing, &binder};
  CHECK(ExtenderBindsPod(extenders, pod));
  auto [bound, status] = BindWithExtenders(extenders, pod, "node1");
  CHECK(bound);
  CHECK(status.IsSuccess());
  CHECK(binder.bound == std::vector<std::string>{"p@node1"});
  CHECK(uninterested.bound.empty());

  failing.ignorable = false;
  auto [tried, error] = BindWithExtenders(extenders, pod, "node1");
  CHECK(tried);
  CHECK(error.code() == Code::kError);
  CHECK(error.Message() == "bind failed");

  std::vector<Extender*> none{&uninterested};
  CHECK_FALSE(ExtenderBindsPod(none, pod));
  CHECK_FALSE(BindWithExtenders(none, pod, "node1").first);
}

TEST_CASE("ScheduleAlgorithm with extenders: their filter and scores decide with the plugins'",
          "[extender][schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(4);
  const api::Pod pod = PodBuilder("p").Obj();
  FakeExtender extender;
  extender.filter = Rejecting({"node1"}, {"node2"});
  extender.prioritize = Favouring("node4");

  SECTION("the favourite wins over the plugins' preference") {
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", [](const api::Pod&, const NodeInfo&) { return Status(); })
                         .Score("PreferNode3",
                                [](const api::Pod&, const NodeInfo& node) -> std::int64_t {
                                  return node.name() == "node3" ? 100 : 0;
                                })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 7);
    algorithm.set_extenders({&extender});
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.status.IsSuccess());
    CHECK(outcome.result.suggested_host == "node4");
    CHECK(outcome.result.feasible_nodes == 2);
    CHECK(outcome.result.evaluated_nodes == 4);
  }
  SECTION("without Score plugins the extender's scores alone rank the nodes") {
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", [](const api::Pod&, const NodeInfo&) { return Status(); })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 7);
    algorithm.set_extenders({&extender});
    for (int i = 0; i < 20; ++i) {
      const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
      REQUIRE(outcome.status.IsSuccess());
      CHECK(outcome.result.suggested_host == "node4");
      CHECK(outcome.result.feasible_nodes == 2);  // every node was filtered: a filter extender exists
    }
  }
  SECTION("no node left: the FitError counts the extender's reasons") {
    extender.filter = Rejecting({"node1", "node3"}, {"node2", "node4"});
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", [](const api::Pod&, const NodeInfo&) { return Status(); })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 7);
    algorithm.set_extenders({&extender});
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.fit_error.has_value());
    CHECK(outcome.fit_error->Message() ==
          "0/4 nodes are available: 2 rejected by extender, 2 unresolvable by extender.");
    CHECK(outcome.fit_error->diagnosis.unschedulable_plugins.count("Extender") == 1);
  }
  SECTION("an extender error is the cycle's error") {
    extender.filter = [](const Nodes&) -> absl::StatusOr<ExtenderFilterResult> {
      return absl::UnavailableError("failed filter with extender at URL http://fake/filter, code 500");
    };
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", [](const api::Pod&, const NodeInfo&) { return Status(); })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 7);
    algorithm.set_extenders({&extender});
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kError);
    CHECK(outcome.status.Message() == "failed filter with extender at URL http://fake/filter, code 500");
  }
}

// What HttpExtender is sent as objects.
class FakeObjects final : public ExtenderObjects {
 public:
  absl::StatusOr<std::string> PodJson(const api::Pod& pod) override {
    if (pod.metadata.name == "gone") return absl::NotFoundError("pods \"gone\" not found");
    return R"({"metadata":{"name":")" + pod.metadata.name + R"("}})";
  }
  absl::StatusOr<std::vector<NodeJson>> NodesJson(std::span<const NodeVersion> nodes) override {
    std::vector<NodeJson> out;
    for (const NodeVersion& node : nodes) {
      out.push_back(std::make_shared<const std::string>(R"({"metadata":{"name":")" + std::string(node.name) + R"("}})"));
    }
    return out;
  }
};

struct Wire {
  FakeObjects objects;
  testing::AnsweringTransport* transport = nullptr;
  std::unique_ptr<HttpExtender> extender;
  explicit Wire(config::Extender config) {
    auto owned = std::make_unique<testing::AnsweringTransport>();
    transport = owned.get();
    extender = std::make_unique<HttpExtender>(config, std::move(owned), objects);
  }
  void Answer(int status, std::string body) {
    transport->set_responder([status, body](const client::HttpRequest&) -> absl::StatusOr<client::HttpResponse> {
      return testing::Response(status, body);
    });
  }
  rapidjson::Document LastBody() const {
    rapidjson::Document document;
    const std::string body = transport->requests().back().body;
    document.Parse(body.data(), body.size());
    return document;
  }
};

config::Extender Config(bool node_cache_capable) {
  config::Extender config;
  config.url_prefix = "http://127.0.0.1:1/ext/";
  config.filter_verb = "filter";
  config.prioritize_verb = "prioritize";
  config.bind_verb = "bind";
  config.weight = 3;
  config.node_cache_capable = node_cache_capable;
  return config;
}

TEST_CASE("HttpExtender: ExtenderArgs carry NodeNames or Nodes, as nodeCacheCapable says", "[extender]") {
  const auto snapshot = SnapshotOf(2);
  const Nodes nodes(snapshot->nodes().begin(), snapshot->nodes().end());
  const api::Pod pod = PodBuilder("p").Obj();

  Wire cache_capable(Config(true));
  cache_capable.Answer(200, R"({"NodeNames":["node2"],"FailedNodes":{"node1":"no"}})");
  absl::StatusOr<ExtenderFilterResult> filtered = cache_capable.extender->Filter(pod, nodes);
  REQUIRE(filtered.ok());
  const client::HttpRequest request = cache_capable.transport->requests().back();
  CHECK(request.method == client::HttpMethod::kPost);
  CHECK(request.target == "/filter");
  CHECK(request.content_type == "application/json");
  CHECK(request.body == R"({"Pod":{"metadata":{"name":"p"}},"Nodes":null,"NodeNames":["node1","node2"]})");
  REQUIRE(filtered->feasible.size() == 1);
  CHECK(filtered->feasible[0]->name() == "node2");
  CHECK(filtered->failed == std::vector<std::pair<std::string, std::string>>{{"node1", "no"}});

  Wire full(Config(false));
  full.Answer(200, R"({"nodes":{"items":[{"metadata":{"name":"node1"}}]},"failedandunresolvablenodes":{"node2":"gone"}})");
  filtered = full.extender->Filter(pod, nodes);
  REQUIRE(filtered.ok());
  CHECK(full.transport->requests().back().body ==
        R"({"Pod":{"metadata":{"name":"p"}},"Nodes":{"metadata":{},"items":[{"metadata":{"name":"node1"}},)"
        R"({"metadata":{"name":"node2"}}]},"NodeNames":null})");
  REQUIRE(filtered->feasible.size() == 1);
  CHECK(filtered->feasible[0]->name() == "node1");
  CHECK(filtered->failed_unresolvable == std::vector<std::pair<std::string, std::string>>{{"node2", "gone"}});
}

TEST_CASE("HttpExtender: answers that fail the call", "[extender]") {
  const auto snapshot = SnapshotOf(2);
  const Nodes nodes(snapshot->nodes().begin(), snapshot->nodes().end());
  const api::Pod pod = PodBuilder("p").Obj();
  Wire wire(Config(true));

  wire.Answer(500, "boom");
  CHECK(wire.extender->Filter(pod, nodes).status().message() ==
        "failed filter with extender at URL http://127.0.0.1:1/ext/filter, code 500");
  wire.Answer(200, R"({"Error":"no GPU left"})");
  CHECK(wire.extender->Filter(pod, nodes).status().message() == "no GPU left");
  wire.Answer(200, R"({"NodeNames":["node9"]})");
  CHECK(wire.extender->Filter(pod, nodes).status().message() ==
        "extender \"http://127.0.0.1:1/ext/\" claims a filtered node \"node9\" which is not found in the input "
        "node list");
  wire.Answer(200, R"({"NodeNames":"node1"})");
  CHECK(wire.extender->Filter(pod, nodes).status().message() ==
        "json: cannot unmarshal string into Go struct field ExtenderFilterResult.NodeNames of type []string");
  wire.Answer(200, "");
  CHECK(wire.extender->Filter(pod, nodes).status().message() == "EOF");
  // No NodeNames and no Nodes: no node passes (Go leaves both nil).
  wire.Answer(200, R"({"FailedNodes":{}})");
  CHECK(wire.extender->Filter(pod, nodes).value().feasible.empty());
  wire.transport->set_responder(
      [](const client::HttpRequest&) -> absl::StatusOr<client::HttpResponse> {
        return absl::UnavailableError("connection refused");
      });
  CHECK(wire.extender->Filter(pod, nodes).status().message() ==
        "Post \"http://127.0.0.1:1/ext/filter\": connection refused");
}

TEST_CASE("HttpExtender: prioritize and bind", "[extender]") {
  const auto snapshot = SnapshotOf(2);
  const Nodes nodes(snapshot->nodes().begin(), snapshot->nodes().end());
  api::Pod pod = PodBuilder("p").Uid("uid-1").Obj();
  Wire wire(Config(true));
  wire.Answer(200, R"([{"Host":"node1","Score":3},{"host":"node2","score":7}])");
  absl::StatusOr<std::vector<ExtenderHostScore>> scores = wire.extender->Prioritize(pod, nodes);
  REQUIRE(scores.ok());
  REQUIRE(scores->size() == 2);
  CHECK(scores->at(1).host == "node2");
  CHECK(scores->at(1).score == 7);
  CHECK(wire.transport->requests().back().target == "/prioritize");
  CHECK(wire.extender->weight() == 3);

  wire.Answer(200, "{}");
  REQUIRE(wire.extender->Bind(pod, "node2").ok());
  CHECK(wire.transport->requests().back().target == "/bind");
  CHECK(wire.transport->requests().back().body ==
        R"({"PodName":"p","PodNamespace":")" + pod.metadata.namespace_ + R"(","PodUID":"uid-1","Node":"node2"})");
  wire.Answer(200, R"({"Error":"node full"})");
  CHECK(wire.extender->Bind(pod, "node2").message() == "node full");

  // Verbs left empty are not called.
  config::Extender quiet = Config(true);
  quiet.filter_verb.clear();
  quiet.prioritize_verb.clear();
  Wire none(quiet);
  CHECK(none.extender->Filter(pod, nodes).value().feasible.size() == 2);
  CHECK(none.extender->Prioritize(pod, nodes).value().empty());
  CHECK(none.transport->requests().empty());
  CHECK_FALSE(none.extender->IsFilter());
  CHECK(none.extender->IsBinder());
}

TEST_CASE("HttpExtender: preempt sends the victims (UIDs when nodeCacheCapable) and maps the answer back",
          "[extender]") {
  // node1 holds v1 and v2, node2 holds v3.
  std::vector<std::shared_ptr<const api::Node>> node_objects{testing::MakeNode("node1"), testing::MakeNode("node2")};
  std::vector<framework::PodInfoPtr> pods;
  for (const auto& [name, node] : std::vector<std::pair<std::string, std::string>>{
           {"v1", "node1"}, {"v2", "node1"}, {"v3", "node2"}}) {
    pods.push_back(framework::PodInfo::CreateOrDie(
        std::make_shared<const api::Pod>(PodBuilder(name).Uid(name + "-uid").Node(node).Obj())));
  }
  const auto snapshot = framework::Snapshot::FromObjects(node_objects, pods);
  framework::NodeVictims victims;
  victims["node1"] = {{pods[0], pods[1]}, 1};
  victims["node2"] = {{pods[2]}, 0};
  const api::Pod preemptor = PodBuilder("p").Obj();
  config::Extender config = Config(true);
  config.preempt_verb = "preempt";

  Wire meta(config);
  CHECK(meta.extender->SupportsPreemption());
  meta.Answer(200, R"({"NodeNameToMetaVictims":{"node1":{"Pods":[{"UID":"v2-uid"}],"NumPDBViolations":0}}})");
  absl::StatusOr<framework::NodeVictims> kept = meta.extender->ProcessPreemption(preemptor, victims, *snapshot);
  REQUIRE(kept.ok());
  CHECK(meta.transport->requests().back().target == "/preempt");
  CHECK(meta.transport->requests().back().body ==
        R"({"Pod":{"metadata":{"name":"p"}},"NodeNameToVictims":null,"NodeNameToMetaVictims":{"node1":{"Pods":)"
        R"([{"UID":"v1-uid"},{"UID":"v2-uid"}],"NumPDBViolations":1},"node2":{"Pods":[{"UID":"v3-uid"}],)"
        R"("NumPDBViolations":0}}})");
  REQUIRE(kept->size() == 1);
  REQUIRE(kept->at("node1").pods.size() == 1);
  CHECK(kept->at("node1").pods[0] == pods[1]);  // the snapshot's own PodInfo

  meta.Answer(200, R"({"NodeNameToMetaVictims":{"node2":{"Pods":[{"UID":"v1-uid"}]}}})");
  CHECK(meta.extender->ProcessPreemption(preemptor, victims, *snapshot).status().message() ==
        "extender: http://127.0.0.1:1/ext/ claims to preempt pod (UID: &{v1-uid}) on node: node2, but the pod is "
        "not found on that node");
  meta.Answer(200, R"({"NodeNameToMetaVictims":{"node7":{"Pods":[]}}})");
  CHECK(meta.extender->ProcessPreemption(preemptor, victims, *snapshot).status().message() ==
        "nodeinfo not found for node name \"node7\"");
  meta.Answer(200, R"({})");
  CHECK(meta.extender->ProcessPreemption(preemptor, victims, *snapshot).value().empty());

  config.node_cache_capable = false;
  Wire full(config);
  full.Answer(200, R"({"nodeNameToMetaVictims":{"node2":{"pods":[{"uid":"v3-uid"}],"numPDBViolations":0}}})");
  kept = full.extender->ProcessPreemption(preemptor, victims, *snapshot);
  REQUIRE(kept.ok());
  CHECK(kept->at("node2").pods.at(0) == pods[2]);
  CHECK(full.transport->requests().back().body ==
        R"({"Pod":{"metadata":{"name":"p"}},"NodeNameToVictims":{"node1":{"Pods":[{"metadata":{"name":"v1"}},)"
        R"({"metadata":{"name":"v2"}}],"NumPDBViolations":1},"node2":{"Pods":[{"metadata":{"name":"v3"}}],)"
        R"("NumPDBViolations":0}},"NodeNameToMetaVictims":null})");
}

}  // namespace
}  // namespace ksched::scheduler
