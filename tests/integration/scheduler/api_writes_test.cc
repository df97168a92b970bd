// The scheduler's API writes against the real kube-apiserver: events.k8s.io/v1 events and their
// series (RestEventRecorder), the PodScheduled condition and nominatedNodeName patches
// (PatchPodScheduledCondition, RestClusterApi::ClearNominatedNodeName), binding and preempting a
// victim (RestClusterApi::BindPod, EvictVictim).
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api/json_decode.h"
#include "api/time.h"
#include "client/http_transport.h"
#include "client/resource_path.h"
#include "client/rest_client.h"
#include "controlplane_env.h"
#include "rapidjson/document.h"
#include "rapidjson/pointer.h"
#include "scheduler/cluster_api.h"
#include "scheduler/event_object.h"
#include "scheduler/event_recorder.h"

namespace {

using ksched::api::Pod;
using ksched::api::PodCondition;
using ksched::client::ResourcePath;
using ksched::client::RestClient;
using ksched::scheduler::RestClusterApi;
using ksched::scheduler::RestEventRecorder;
using ksched::testing::ControlPlane;
using namespace std::chrono_literals;

constexpr char kNamespace[] = "scheduler-api-writes";

// Counts the requests that reach the transport (retries included).
class CountingTransport final : public ksched::client::Transport {
 public:
  explicit CountingTransport(std::shared_ptr<ksched::client::Transport> inner) : inner_(std::move(inner)) {}
  void Send(ksched::client::HttpRequest request, Callback done) override {
    ++sent_;
    inner_->Send(std::move(request), std::move(done));
  }
  void SendAfter(std::chrono::steady_clock::duration delay, ksched::client::HttpRequest request,
                 Callback done) override {
    ++sent_;
    inner_->SendAfter(delay, std::move(request), std::move(done));
  }
  absl::StatusOr<std::unique_ptr<ksched::client::LineStream>> OpenLineStream(ksched::client::HttpRequest request) override {
    return inner_->OpenLineStream(std::move(request));
  }
  const std::string& server() const override { return inner_->server(); }
  int sent() const { return sent_.load(); }

 private:
  std::shared_ptr<ksched::client::Transport> inner_;
  std::atomic<int> sent_{0};
};

std::shared_ptr<CountingTransport> CountingAdminTransport() {
  const ksched::client::RestConfig config = ControlPlane::Get().AdminCertConfig();
  auto transport = ksched::client::HttpTransport::Create(config);
  if (!transport.ok()) throw std::runtime_error(transport.status().ToString());
  return std::make_shared<CountingTransport>(std::shared_ptr<ksched::client::HttpTransport>(std::move(*transport)));
}

std::shared_ptr<RestClient> Admin() {
  static std::shared_ptr<RestClient> client = [] {
    std::shared_ptr<RestClient> made = ksched::testing::AdminRestClient();
    auto ns = made->Create(ResourcePath().Resource("namespaces").String(),
                           std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") +
                               kNamespace + R"("}})");
    if (!ns.ok() && ns.status().code() != absl::StatusCode::kAlreadyExists) {
      throw std::runtime_error(ns.status().ToString());
    }
    return made;
  }();
  return client;
}

std::string PodPath(const std::string& name) {
  return ResourcePath().Namespace(kNamespace).Resource("pods").Name(name).String();
}

Pod MustDecode(const absl::StatusOr<std::string>& json) {
  INFO(json.status().ToString());
  REQUIRE(json.ok());
  absl::StatusOr<Pod> pod = ksched::api::DecodePod(*json);
  INFO(pod.status().ToString());
  REQUIRE(pod.ok());
  return *pod;
}

// A pending pod no scheduler picks up (schedulerName "none").
Pod CreatePod(const std::string& name) {
  return MustDecode(Admin()->Create(
      ResourcePath().Namespace(kNamespace).Resource("pods").String(),
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
          R"("},"spec":{"schedulerName":"none","containers":[{"name":"c","image":"busybox"}]}})"));
}

Pod GetPod(const std::string& name) { return MustDecode(Admin()->Get(PodPath(name))); }

const PodCondition* FindCondition(const Pod& pod, std::string_view type) { return pod.status.FindCondition(type); }

// The events of the namespace that regard `uid`, as JSON documents.
std::vector<std::shared_ptr<rapidjson::Document>> EventsRegarding(const std::string& uid) {
  const absl::StatusOr<std::string> list = Admin()->List(ksched::scheduler::EventsPath(kNamespace));
  INFO(list.status().ToString());
  REQUIRE(list.ok());
  rapidjson::Document document;
  REQUIRE(ksched::api::ParseJson(*list, document).ok());
  std::vector<std::shared_ptr<rapidjson::Document>> events;
  for (const rapidjson::Value& item : document["items"].GetArray()) {
    const rapidjson::Value* regarding_uid = rapidjson::Pointer("/regarding/uid").Get(item);
    if (regarding_uid == nullptr || uid != regarding_uid->GetString()) continue;
    auto copy = std::make_shared<rapidjson::Document>();
    copy->CopyFrom(item, copy->GetAllocator());
    events.push_back(std::move(copy));
  }
  return events;
}

std::string Text(const rapidjson::Value& value, const char* pointer) {
  const rapidjson::Value* found = rapidjson::Pointer(pointer).Get(value);
  if (found == nullptr || !found->IsString()) return "";
  return found->GetString();
}

std::int64_t Number(const rapidjson::Value& value, const char* pointer) {
  const rapidjson::Value* found = rapidjson::Pointer(pointer).Get(value);
  if (found == nullptr || !found->IsInt64()) return -1;
  return found->GetInt64();
}

ksched::scheduler::EventRecorderOptions FastRetries() {
  ksched::scheduler::EventRecorderOptions options;
  options.retry_interval = 100ms;
  return options;
}

PodCondition Unschedulable(const Pod& pod, std::string message) {
  PodCondition condition;
  condition.type = "PodScheduled";
  condition.status = "False";
  condition.reason = "Unschedulable";
  condition.message = std::move(message);
  condition.observed_generation = pod.metadata.generation;
  return condition;
}

}  // namespace

TEST_CASE("events are created with the fields kube-scheduler writes", "[events]") {
  // Both encodings of the POST body (the reads back are JSON either way).
  const std::string content_type = GENERATE("application/json", "application/vnd.kubernetes.protobuf");
  const std::string suffix = content_type == "application/json" ? "" : "-pb";
  const Pod pod = CreatePod("event-target" + suffix);
  const Pod preemptor = CreatePod("event-preemptor" + suffix);
  const auto writer = ksched::testing::AdminRestClient(content_type);
  REQUIRE(writer->WritesProtobuf() == !suffix.empty());
  const auto before = std::chrono::system_clock::now();
  RestEventRecorder recorder(writer, "default-scheduler", "it-host", FastRetries());
  recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", "0/3 nodes are available: 3 Insufficient cpu.");
  recorder.Eventf(pod, &preemptor, "Normal", "Preempted", "Preempting",
                  "Preempted by pod " + preemptor.metadata.uid + " on node n1");
  REQUIRE(recorder.WaitForIdle(10s));
  CHECK(recorder.stats().created == 2);
  CHECK(recorder.stats().failed == 0);

  const auto events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 2);
  for (const auto& event : events) {
    const rapidjson::Value& e = *event;
    INFO(Text(e, "/reason"));
    CHECK(Text(e, "/metadata/name").rfind("event-target" + suffix + ".", 0) == 0);
    CHECK(Text(e, "/metadata/namespace") == kNamespace);
    CHECK(Text(e, "/reportingController") == "default-scheduler");
    CHECK(Text(e, "/reportingInstance") == "default-scheduler-it-host");
    CHECK(Text(e, "/regarding/kind") == "Pod");
    CHECK(Text(e, "/regarding/name") == "event-target" + suffix);
    CHECK(Text(e, "/regarding/namespace") == kNamespace);
    CHECK(Text(e, "/regarding/uid") == pod.metadata.uid);
    CHECK(Text(e, "/regarding/apiVersion") == "v1");
    CHECK(Text(e, "/regarding/resourceVersion") == pod.metadata.resource_version);
    CHECK(Text(e, "/eventTime").size() == std::string("2026-11-30T12:00:00.123456Z").size());
    // The time the recorder stamped, to the microsecond the API keeps (protobuf: seconds + nanos).
    const absl::StatusOr<ksched::api::Time> stamped = ksched::api::ParseRfc3339(Text(e, "/eventTime"));
    REQUIRE(stamped.ok());
    CHECK(*stamped >= std::chrono::floor<std::chrono::microseconds>(before));
    CHECK(*stamped <= std::chrono::system_clock::now());
    if (Text(e, "/reason") == "FailedScheduling") {
      CHECK(Text(e, "/type") == "Warning");
      CHECK(Text(e, "/action") == "Scheduling");
      CHECK(Text(e, "/note") == "0/3 nodes are available: 3 Insufficient cpu.");
      CHECK(rapidjson::Pointer("/related").Get(e) == nullptr);
    } else {
      CHECK(Text(e, "/reason") == "Preempted");
      CHECK(Text(e, "/type") == "Normal");
      CHECK(Text(e, "/related/uid") == preemptor.metadata.uid);
      CHECK(Text(e, "/note") == "Preempted by pod " + preemptor.metadata.uid + " on node n1");
    }
  }
}

TEST_CASE("a note over 1024 bytes is truncated and accepted", "[events]") {
  const Pod pod = CreatePod("event-long-note");
  RestEventRecorder recorder(Admin(), "default-scheduler", "it-host", FastRetries());
  recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", std::string(3000, 'n'));
  REQUIRE(recorder.WaitForIdle(10s));
  CHECK(recorder.stats().created == 1);
  const auto events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  CHECK(Text(*events[0], "/note") == std::string(1020, 'n') + " ...");
}

TEST_CASE("a repeated event becomes a series: count 2 at once, the later count when written", "[events]") {
  const Pod pod = CreatePod("event-series");
  RestEventRecorder recorder(Admin(), "default-scheduler", "it-host", FastRetries());
  auto failed = [&](const std::string& note) {
    recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", note);
  };
  failed("first");
  REQUIRE(recorder.WaitForIdle(10s));
  failed("second: the note is not part of the series key");
  REQUIRE(recorder.WaitForIdle(10s));

  auto events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  CHECK(Number(*events[0], "/series/count") == 2);
  CHECK_FALSE(Text(*events[0], "/series/lastObservedTime").empty());
  CHECK(Text(*events[0], "/note") == "first");

  failed("third");
  REQUIRE(recorder.WaitForIdle(10s));
  events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  CHECK(Number(*events[0], "/series/count") == 2);  // counted, not written yet (as client-go)

  recorder.Stop();  // writes the count
  events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  CHECK(Number(*events[0], "/series/count") == 3);
  const auto stats = recorder.stats();
  CHECK(stats.created == 1);
  CHECK(stats.series_written == 2);
  CHECK(stats.failed == 0);
}

TEST_CASE("a series whose event was deleted is created again with its series", "[events]") {
  // The re-created event carries its series in the POST body: both encodings.
  const std::string content_type = GENERATE("application/json", "application/vnd.kubernetes.protobuf");
  const Pod pod = CreatePod(content_type == "application/json" ? "event-series-recreated" : "event-series-recreated-pb");
  RestEventRecorder recorder(ksched::testing::AdminRestClient(content_type), "default-scheduler", "it-host",
                             FastRetries());
  recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", "first");
  REQUIRE(recorder.WaitForIdle(10s));
  auto events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  const std::string name = Text(*events[0], "/metadata/name");
  REQUIRE(Admin()->Delete(ksched::scheduler::EventPath(kNamespace, name)).ok());

  recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", "second");
  REQUIRE(recorder.WaitForIdle(10s));
  events = EventsRegarding(pod.metadata.uid);
  REQUIRE(events.size() == 1);
  CHECK(Text(*events[0], "/metadata/name") == name);
  CHECK(Number(*events[0], "/series/count") == 2);
  CHECK_FALSE(Text(*events[0], "/series/lastObservedTime").empty());
  CHECK(recorder.stats().series_written == 1);
  CHECK(recorder.stats().failed == 0);
}

TEST_CASE("the PodScheduled condition is patched only when it changes", "[status]") {
  auto counting = CountingAdminTransport();
  RestClient client(counting, ksched::client::RestClientOptions::FromConfig(ControlPlane::Get().AdminCertConfig()));
  CreatePod("unschedulable");
  // A condition someone else owns, which the patch must keep.
  REQUIRE(Admin()
              ->Patch(PodPath("unschedulable") + "/status", ksched::client::PatchType::kStrategic,
                      R"({"status":{"conditions":[{"type":"example.com/gate","status":"True"}]}})")
              .ok());
  Pod pod = GetPod("unschedulable");
  REQUIRE(pod.status.conditions.size() == 1);

  const std::string message = "0/3 nodes are available: 3 node(s) had untolerated taint(s).";
  REQUIRE(ksched::scheduler::PatchPodScheduledCondition(client, pod, Unschedulable(pod, message), std::nullopt).ok());
  CHECK(counting->sent() == 1);
  pod = GetPod("unschedulable");
  REQUIRE(pod.status.conditions.size() == 2);
  CHECK(pod.status.conditions[0].type == "example.com/gate");
  const PodCondition* scheduled = FindCondition(pod, "PodScheduled");
  REQUIRE(scheduled != nullptr);
  CHECK(scheduled->status == "False");
  CHECK(scheduled->reason == "Unschedulable");
  CHECK(scheduled->message == message);
  CHECK(scheduled->observed_generation == pod.metadata.generation);
  REQUIRE(scheduled->last_transition_time.has_value());
  const ksched::api::Time transition = *scheduled->last_transition_time;

  SECTION("the same condition again: no request") {
    REQUIRE(ksched::scheduler::PatchPodScheduledCondition(client, pod, Unschedulable(pod, message), std::nullopt).ok());
    CHECK(counting->sent() == 1);
  }
  SECTION("a nominated node, then a new message, then clearing the nomination") {
    REQUIRE(ksched::scheduler::PatchPodScheduledCondition(client, pod, Unschedulable(pod, message),
                                                          std::string("node-7"))
                .ok());
    CHECK(counting->sent() == 2);
    pod = GetPod("unschedulable");
    CHECK(pod.status.nominated_node_name == "node-7");
    CHECK(FindCondition(pod, "PodScheduled")->last_transition_time == transition);

    REQUIRE(ksched::scheduler::PatchPodScheduledCondition(client, pod, Unschedulable(pod, "0/4 nodes are available."),
                                                          std::string("node-7"))
                .ok());
    CHECK(counting->sent() == 3);
    pod = GetPod("unschedulable");
    CHECK(FindCondition(pod, "PodScheduled")->message == "0/4 nodes are available.");
    CHECK(FindCondition(pod, "PodScheduled")->last_transition_time == transition);  // same status
    CHECK(pod.status.nominated_node_name == "node-7");
    CHECK(pod.status.conditions.size() == 2);

    RestClusterApi api(Admin());
    REQUIRE(api.ClearNominatedNodeName(pod).IsSuccess());
    pod = GetPod("unschedulable");
    CHECK(pod.status.nominated_node_name.empty());
    CHECK(FindCondition(pod, "PodScheduled")->message == "0/4 nodes are available.");
  }
  REQUIRE(Admin()->Delete(PodPath("unschedulable")).ok());
}

TEST_CASE("BindPod sets spec.nodeName; a second binding is refused", "[bind]") {
  const Pod pod = CreatePod("bind-target");
  RestClusterApi api(Admin());
  const ksched::framework::Status bound = api.BindPod(pod, "fake-node-1");
  INFO(bound.ToString());
  REQUIRE(bound.IsSuccess());
  const Pod got = GetPod("bind-target");
  CHECK(got.spec.node_name == "fake-node-1");
  const PodCondition* scheduled = FindCondition(got, "PodScheduled");
  REQUIRE(scheduled != nullptr);  // set by the API server on binding
  CHECK(scheduled->status == "True");

  const ksched::framework::Status again = api.BindPod(pod, "fake-node-2");
  CHECK(again.code() == ksched::framework::Code::kError);
  CHECK(again.Message().find("already assigned") != std::string::npos);
}

namespace {

// BindPodAsync's answer, waited for (it arrives on the transport's thread).
ksched::framework::Status BindAsyncAndWait(RestClusterApi& api, const Pod& pod, const std::string& node) {
  std::promise<ksched::framework::Status> answered;
  std::atomic<int> calls{0};
  api.BindPodAsync(pod, node, [&](ksched::framework::Status status) {
    if (calls.fetch_add(1) == 0) answered.set_value(std::move(status));
  });
  std::future<ksched::framework::Status> result = answered.get_future();
  REQUIRE(result.wait_for(30s) == std::future_status::ready);
  std::this_thread::sleep_for(100ms);  // a second answer would arrive by now
  CHECK(calls.load() == 1);
  return result.get();
}

}  // namespace

TEST_CASE("BindPodAsync binds without blocking; a second binding and a stale UID are refused", "[bind]") {
  const Pod pod = CreatePod("bind-async-target");
  RestClusterApi api(Admin());
  REQUIRE(api.BindsAsynchronously());
  const ksched::framework::Status bound = BindAsyncAndWait(api, pod, "fake-node-1");
  INFO(bound.ToString());
  REQUIRE(bound.IsSuccess());
  CHECK(GetPod("bind-async-target").spec.node_name == "fake-node-1");

  const ksched::framework::Status again = BindAsyncAndWait(api, pod, "fake-node-2");
  CHECK(again.code() == ksched::framework::Code::kError);
  CHECK(again.Message().find("already assigned") != std::string::npos);

  // The Binding carries the pod's UID: a pod re-created under the name is not bound by it.
  Pod stale = CreatePod("bind-async-stale");
  stale.metadata.uid = "00000000-0000-0000-0000-000000000000";
  const ksched::framework::Status refused = BindAsyncAndWait(api, stale, "fake-node-1");
  CHECK(refused.code() == ksched::framework::Code::kError);
  CHECK(GetPod("bind-async-stale").spec.node_name.empty());
}

TEST_CASE("EvictVictim marks the victim DisruptionTarget, then deletes it", "[preemption]") {
  RestClusterApi api(Admin());
  const std::string message = "default-scheduler: preempting to accommodate a higher priority pod";

  SECTION("a bound victim: the condition stays visible while it terminates") {
    Pod victim = CreatePod("victim-bound");
    REQUIRE(api.BindPod(victim, "fake-node-1").IsSuccess());
    victim = GetPod("victim-bound");
    const ksched::framework::Status evicted = api.EvictVictim(victim, message);
    INFO(evicted.ToString());
    REQUIRE(evicted.IsSuccess());
    const Pod got = GetPod("victim-bound");
    CHECK(got.metadata.deletion_timestamp.has_value());  // graceful: no kubelet confirms it
    const PodCondition* target = FindCondition(got, "DisruptionTarget");
    REQUIRE(target != nullptr);
    CHECK(target->status == "True");
    CHECK(target->reason == "PreemptionByScheduler");
    CHECK(target->message == message);
    CHECK(FindCondition(got, "PodScheduled") != nullptr);  // kept by the merge
    ksched::client::DeleteOptions now;
    now.grace_period_seconds = 0;
    CHECK(Admin()->Delete(PodPath("victim-bound"), now).ok());
  }
  SECTION("an unbound victim is gone at once; evicting it again is success") {
    const Pod victim = CreatePod("victim-pending");
    REQUIRE(api.EvictVictim(victim, message).IsSuccess());
    CHECK(Admin()->Get(PodPath("victim-pending")).status().code() == absl::StatusCode::kNotFound);
    CHECK(api.EvictVictim(victim, message).IsSuccess());
  }
  SECTION("a pod re-created under the victim's name is not deleted") {
    const Pod victim = CreatePod("victim-namesake");
    REQUIRE(Admin()->Delete(PodPath("victim-namesake")).ok());
    const Pod namesake = CreatePod("victim-namesake");
    REQUIRE(namesake.metadata.uid != victim.metadata.uid);
    CHECK(api.EvictVictim(victim, message).IsSuccess());
    const Pod got = GetPod("victim-namesake");
    CHECK(got.metadata.uid == namesake.metadata.uid);
    CHECK_FALSE(got.metadata.deletion_timestamp.has_value());
    CHECK(Admin()->Delete(PodPath("victim-namesake")).ok());
  }
}
