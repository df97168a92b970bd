// RestEventRecorder against an AnsweringTransport: the requests it makes (exact bodies), series
// keying and writing, the sweeps, retries, the bounded buffer and Stop.
#include "scheduler/event_recorder.h"

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "answering_transport.h"
#include "api/protobuf_wire.h"

namespace {

using ksched::api::Pod;
using ksched::api::Time;
using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::scheduler::EventRecorderOptions;
using ksched::scheduler::RestEventRecorder;
using ksched::scheduler::testing::AnsweringTransport;
using ksched::scheduler::testing::InstantClient;
using ksched::scheduler::testing::Response;
using ksched::scheduler::testing::StatusResponse;
using namespace std::chrono_literals;

// 2026-11-30T12:00:00.123456789Z; UnixNano 0x18ecd0dd41c04d15.
const Time kStart = Time(std::chrono::seconds(1796040000)) + 123456789ns;
constexpr char kEvents[] = "/apis/events.k8s.io/v1/namespaces/ns1/events";
constexpr char kFirstEvent[] = "/apis/events.k8s.io/v1/namespaces/ns1/events/p1.18ecd0dd41c04d15";

class WallClock {
 public:
  std::function<Time()> Function() {
    return [this] { return kStart + std::chrono::nanoseconds(offset_ns_.load()); };
  }
  void Advance(std::chrono::nanoseconds step) { offset_ns_ += step.count(); }

 private:
  std::atomic<std::int64_t> offset_ns_{0};
};

Pod MakePod(std::string name = "p1", std::string ns = "ns1", std::string uid = "uid-1", std::string rv = "42") {
  Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = std::move(ns);
  pod.metadata.uid = std::move(uid);
  pod.metadata.resource_version = std::move(rv);
  return pod;
}

// Answers requests from a script, in order; 201 once it is used up.
class Script {
 public:
  explicit Script(std::vector<absl::StatusOr<HttpResponse>> answers) : answers_(answers.begin(), answers.end()) {}
  absl::StatusOr<HttpResponse> operator()(const HttpRequest& /*request*/) {
    std::lock_guard lock(mu_);
    if (answers_.empty()) return Response(201);
    absl::StatusOr<HttpResponse> answer = answers_.front();
    answers_.pop_front();
    return answer;
  }

 private:
  std::mutex mu_;
  std::deque<absl::StatusOr<HttpResponse>> answers_;
};

struct Fixture {
  std::shared_ptr<AnsweringTransport> transport = std::make_shared<AnsweringTransport>();
  WallClock clock;

  EventRecorderOptions Options() {
    EventRecorderOptions options;
    options.now = clock.Function();
    options.retry_interval = 1ms;
    options.max_attempts = 3;
    return options;
  }
  std::unique_ptr<RestEventRecorder> Recorder(EventRecorderOptions options) {
    return std::make_unique<RestEventRecorder>(InstantClient(transport), "default-scheduler", "host1",
                                               std::move(options));
  }
  std::unique_ptr<RestEventRecorder> Recorder() { return Recorder(Options()); }

  void Failed(RestEventRecorder& recorder, const Pod& pod, std::string note = "0/3 nodes are available") {
    recorder.Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", std::move(note));
  }
  std::vector<HttpRequest> Requests() const { return transport->requests(); }
};

std::string Methods(const std::vector<HttpRequest>& requests) {
  std::string methods;
  for (const HttpRequest& request : requests) {
    if (!methods.empty()) methods += ' ';
    methods += request.method == HttpMethod::kPost ? "POST" : request.method == HttpMethod::kPatch ? "PATCH" : "?";
  }
  return methods;
}

// Polls `condition` for up to 5 s.
template <typename Condition>
bool Eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return condition();
}

}  // namespace

TEST_CASE("an event is POSTed as an events.k8s.io/v1 Event", "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  CHECK(recorder->reporting_instance() == "default-scheduler-host1");
  const Pod preemptor = MakePod("big", "ns1", "uid-2", "7");
  f.Failed(*recorder, MakePod());
  f.clock.Advance(1s);
  recorder->Eventf(MakePod(), &preemptor, "Normal", "Preempted", "Preempting", "Preempted by pod uid-2 on node n1");
  REQUIRE(recorder->WaitForIdle(5s));

  const auto requests = f.Requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == HttpMethod::kPost);
  CHECK(requests[0].target == kEvents);
  CHECK(requests[0].content_type == "application/json");
  CHECK(requests[0].body ==
        R"({"apiVersion":"events.k8s.io/v1","kind":"Event",)"
        R"("metadata":{"name":"p1.18ecd0dd41c04d15","namespace":"ns1"},)"
        R"("eventTime":"2026-11-30T12:00:00.123456Z","reportingController":"default-scheduler",)"
        R"("reportingInstance":"default-scheduler-host1","action":"Scheduling","reason":"FailedScheduling",)"
        R"("regarding":{"kind":"Pod","namespace":"ns1","name":"p1","uid":"uid-1","apiVersion":"v1",)"
        R"("resourceVersion":"42"},"note":"0/3 nodes are available","type":"Warning"})");
  CHECK(requests[1].body ==
        R"({"apiVersion":"events.k8s.io/v1","kind":"Event",)"
        R"("metadata":{"name":"p1.18ecd0dd7d5b1715","namespace":"ns1"},)"
        R"("eventTime":"2026-11-30T12:00:01.123456Z","reportingController":"default-scheduler",)"
        R"("reportingInstance":"default-scheduler-host1","action":"Preempting","reason":"Preempted",)"
        R"("regarding":{"kind":"Pod","namespace":"ns1","name":"p1","uid":"uid-1","apiVersion":"v1",)"
        R"("resourceVersion":"42"},"related":{"kind":"Pod","namespace":"ns1","name":"big","uid":"uid-2",)"
        R"("apiVersion":"v1","resourceVersion":"7"},"note":"Preempted by pod uid-2 on node n1","type":"Normal"})");
  const auto stats = recorder->stats();
  CHECK(stats.accepted == 2);
  CHECK(stats.created == 2);
  CHECK(stats.failed == 0);
}

TEST_CASE("on a protobuf client the event is POSTed as protobuf, a series PATCH stays JSON", "[event_recorder]") {
  Fixture f;
  auto recorder = std::make_unique<RestEventRecorder>(InstantClient(f.transport, /*protobuf_writes=*/true),
                                                      "default-scheduler", "host1", f.Options());
  f.Failed(*recorder, MakePod());
  REQUIRE(recorder->WaitForIdle(5s));
  f.Failed(*recorder, MakePod());  // a repeat: the series patch
  REQUIRE(recorder->WaitForIdle(5s));
  const auto requests = f.Requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == HttpMethod::kPost);
  CHECK(requests[0].content_type == "application/vnd.kubernetes.protobuf");
  CHECK(requests[0].accept == "application/vnd.kubernetes.protobuf, */*");
  // The body's field layout is EventProtobuf's (event_object_test); here: it is that encoding, of
  // this event.
  const auto unwrapped = ksched::api::protobuf::Unwrap(requests[0].body);
  REQUIRE(unwrapped.ok());
  CHECK(unwrapped->kind == "Event");
  CHECK(unwrapped->api_version == "events.k8s.io/v1");
  for (const char* text : {"p1.18ecd0dd41c04d15", "default-scheduler-host1", "FailedScheduling", "uid-1",
                           "0/3 nodes are available", "Warning"}) {
    CHECK(unwrapped->raw.find(text) != std::string_view::npos);
  }
  CHECK(requests[1].method == HttpMethod::kPatch);
  CHECK(requests[1].content_type == "application/strategic-merge-patch+json");
  CHECK(recorder->stats().failed == 0);
}

TEST_CASE("the note is truncated, a pod without namespace reports into default", "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  f.Failed(*recorder, MakePod("p1", ""), std::string(2000, 'x'));
  REQUIRE(recorder->WaitForIdle(5s));
  const auto requests = f.Requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].target == "/apis/events.k8s.io/v1/namespaces/default/events");
  CHECK(requests[0].body.find(R"("namespace":"default"})") != std::string::npos);
  CHECK(requests[0].body.find(R"("note":")" + std::string(1020, 'x') + R"( ...")") != std::string::npos);
}

TEST_CASE("a repeat PATCHes the series of the first event, later ones are counted, then written at Stop",
          "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  f.Failed(*recorder, MakePod());
  f.clock.Advance(1s);
  f.Failed(*recorder, MakePod(), "a different note is the same series");
  REQUIRE(recorder->WaitForIdle(5s));
  auto requests = f.Requests();
  REQUIRE(Methods(requests) == "POST PATCH");
  CHECK(requests[1].target == kFirstEvent);
  CHECK(requests[1].content_type == "application/strategic-merge-patch+json");
  CHECK(requests[1].body == R"({"series":{"count":2,"lastObservedTime":"2026-11-30T12:00:01.123456Z"}})");

  f.clock.Advance(1s);
  f.Failed(*recorder, MakePod());
  REQUIRE(recorder->WaitForIdle(5s));
  CHECK(f.Requests().size() == 2);  // counted only

  recorder->Stop();
  requests = f.Requests();
  REQUIRE(Methods(requests) == "POST PATCH PATCH");
  CHECK(requests[2].target == kFirstEvent);
  CHECK(requests[2].body == R"({"series":{"count":3,"lastObservedTime":"2026-11-30T12:00:02.123456Z"}})");
  const auto stats = recorder->stats();
  CHECK(stats.accepted == 3);
  CHECK(stats.created == 1);
  CHECK(stats.series_written == 2);
}

TEST_CASE("events that differ in type, action, reason, related or regarding are not a series", "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  const Pod pod = MakePod();
  const Pod other = MakePod("p2", "ns1", "uid-2");
  recorder->Eventf(pod, nullptr, "Warning", "FailedScheduling", "Scheduling", "n");
  recorder->Eventf(pod, nullptr, "Normal", "FailedScheduling", "Scheduling", "n");
  recorder->Eventf(pod, nullptr, "Warning", "Scheduled", "Scheduling", "n");
  recorder->Eventf(pod, nullptr, "Warning", "FailedScheduling", "Binding", "n");
  recorder->Eventf(pod, &other, "Warning", "FailedScheduling", "Scheduling", "n");
  recorder->Eventf(MakePod("p1", "ns1", "uid-1", "43"), nullptr, "Warning", "FailedScheduling", "Scheduling", "n");
  REQUIRE(recorder->WaitForIdle(5s));
  CHECK(Methods(f.Requests()) == "POST POST POST POST POST POST");
}

TEST_CASE("a key last seen more than the finish time ago starts a new event", "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  SECTION("a series: its count is written first") {
    f.Failed(*recorder, MakePod());
    f.clock.Advance(1s);
    f.Failed(*recorder, MakePod());
    f.clock.Advance(1s);
    f.Failed(*recorder, MakePod());
    f.clock.Advance(6min + 1s);
    f.Failed(*recorder, MakePod());
    REQUIRE(recorder->WaitForIdle(5s));
    const auto requests = f.Requests();
    REQUIRE(Methods(requests) == "POST PATCH PATCH POST");
    CHECK(requests[2].body == R"({"series":{"count":3,"lastObservedTime":"2026-11-30T12:00:02.123456Z"}})");
    CHECK(requests[3].body.find(R"("eventTime":"2026-11-30T12:06:03.123456Z")") != std::string::npos);
    recorder->Stop();
    CHECK(f.Requests().size() == 4);  // nothing left unwritten
  }
  SECTION("a single event") {
    f.Failed(*recorder, MakePod());
    f.clock.Advance(6min);
    f.Failed(*recorder, MakePod());  // exactly the finish time: still a series
    f.clock.Advance(6min + 1ns);
    f.Failed(*recorder, MakePod());
    REQUIRE(recorder->WaitForIdle(5s));
    CHECK(Methods(f.Requests()) == "POST PATCH POST");
  }
}

TEST_CASE("the sweeps write series counts: refresh periodically, finish once", "[event_recorder]") {
  Fixture f;
  SECTION("refresh") {
    EventRecorderOptions options = f.Options();
    options.series_refresh_interval = 50ms;
    auto recorder = f.Recorder(options);
    f.Failed(*recorder, MakePod());
    f.Failed(*recorder, MakePod());
    f.Failed(*recorder, MakePod());
    const std::string count3 = R"({"series":{"count":3,"lastObservedTime":"2026-11-30T12:00:00.123456Z"}})";
    auto patches_of_count3 = [&] {
      int n = 0;
      for (const HttpRequest& request : f.Requests()) n += request.body == count3 ? 1 : 0;
      return n;
    };
    CHECK(Eventually([&] { return patches_of_count3() >= 2; }));  // refreshed again and again
  }
  SECTION("finish") {
    EventRecorderOptions options = f.Options();
    options.series_finish_time = 50ms;
    auto recorder = f.Recorder(options);
    f.Failed(*recorder, MakePod());
    f.Failed(*recorder, MakePod());
    f.Failed(*recorder, MakePod());
    REQUIRE(recorder->WaitForIdle(5s));
    f.clock.Advance(1s);  // the series is over; the next sweep writes it and forgets it
    CHECK(Eventually([&] { return f.Requests().size() == 3; }));
    CHECK(f.Requests().back().body ==
          R"({"series":{"count":3,"lastObservedTime":"2026-11-30T12:00:00.123456Z"}})");
    f.Failed(*recorder, MakePod());
    REQUIRE(recorder->WaitForIdle(5s));
    CHECK(Methods(f.Requests()) == "POST PATCH PATCH POST");
  }
}

TEST_CASE("write failures: retried or given up as client-go does", "[event_recorder]") {
  struct Case {
    const char* name;
    int events;  // of the same key
    std::vector<absl::StatusOr<HttpResponse>> answers;
    const char* methods;
    std::uint64_t created, series_written, retries, failed;
  };
  const std::vector<Case> cases = {
      {"500 is retried", 1, {StatusResponse(500, "InternalError")}, "POST POST", 1, 0, 1, 0},
      {"503 until out of attempts", 1,
       {StatusResponse(503, "ServiceUnavailable"), StatusResponse(503, "ServiceUnavailable"),
        StatusResponse(503, "ServiceUnavailable")},
       "POST POST POST", 0, 0, 2, 1},
      {"a transport failure is retried", 1, {absl::UnavailableError("connection reset")}, "POST POST", 1, 0, 1, 0},
      {"422 is final", 1, {StatusResponse(422, "Invalid")}, "POST", 0, 0, 0, 1},
      {"403 is final", 1, {StatusResponse(403, "Forbidden")}, "POST", 0, 0, 0, 1},
      {"AlreadyExists on a first POST is final", 1, {StatusResponse(409, "AlreadyExists")}, "POST", 0, 0, 0, 1},
      {"AlreadyExists after a retried 500: our first attempt landed", 1,
       {StatusResponse(500, "InternalError"), StatusResponse(409, "AlreadyExists")}, "POST POST", 1, 0, 1, 0},
      {"a series PATCH answered 404 becomes a POST with the series", 2,
       {Response(201), StatusResponse(404, "NotFound")}, "POST PATCH POST", 1, 1, 0, 0},
      {"AlreadyExists on a series POST is retried", 2,
       {Response(201), StatusResponse(404, "NotFound"), StatusResponse(409, "AlreadyExists")},
       "POST PATCH POST PATCH", 1, 1, 1, 0},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      Fixture f;
      auto script = std::make_shared<Script>(c.answers);
      f.transport->set_responder([script](const HttpRequest& request) { return (*script)(request); });
      auto recorder = f.Recorder();
      for (int i = 0; i < c.events; ++i) f.Failed(*recorder, MakePod());
      REQUIRE(recorder->WaitForIdle(5s));
      const auto requests = f.Requests();
      CHECK(Methods(requests) == c.methods);
      const auto stats = recorder->stats();
      CHECK(stats.created == c.created);
      CHECK(stats.series_written == c.series_written);
      CHECK(stats.retries == c.retries);
      CHECK(stats.failed == c.failed);
      if (std::string(c.methods) == "POST PATCH POST") {
        CHECK(requests[2].target == kEvents);
        CHECK(requests[2].body.find(R"("series":{"count":2,)") != std::string::npos);
        CHECK(requests[2].body.find(R"("name":"p1.18ecd0dd41c04d15")") != std::string::npos);
      }
    }
  }
}

// The cache keeps an event as its key plus the rest; the event it writes again must be whole.
TEST_CASE("a series POSTed after a 404 is the first event, related object included, plus its series",
          "[event_recorder]") {
  Fixture f;
  auto script = std::make_shared<Script>(std::vector<absl::StatusOr<HttpResponse>>{
      Response(201), StatusResponse(404, "NotFound")});
  f.transport->set_responder([script](const HttpRequest& request) { return (*script)(request); });
  auto recorder = f.Recorder();
  const Pod pod = MakePod();
  const Pod related = MakePod("victim", "ns2", "uid-9", "77");
  recorder->Eventf(pod, &related, "Normal", "Preempted", "Preempting", "first note");
  f.clock.Advance(1s);
  recorder->Eventf(pod, &related, "Normal", "Preempted", "Preempting", "second note, same series");
  REQUIRE(recorder->WaitForIdle(5s));
  const auto requests = f.Requests();
  REQUIRE(Methods(requests) == "POST PATCH POST");
  const std::string series = R"("series":{"count":2,"lastObservedTime":"2026-11-30T12:00:01.123456Z"},)";
  std::string expected = requests[0].body;
  const std::size_t after_time = expected.find(R"("reportingController")");
  REQUIRE(after_time != std::string::npos);
  expected.insert(after_time, series);
  CHECK(requests[2].body == expected);
  CHECK(requests[2].body.find(R"("related":{"kind":"Pod","namespace":"ns2","name":"victim","uid":"uid-9")") !=
        std::string::npos);
  CHECK(requests[2].body.find(R"("note":"first note")") != std::string::npos);
}

TEST_CASE("the buffer holds buffer_size events, more are dropped without blocking", "[event_recorder]") {
  Fixture f;
  EventRecorderOptions options = f.Options();
  options.buffer_size = 3;
  auto recorder = f.Recorder(options);
  f.transport->Hold(true);
  const Pod pod = MakePod();
  for (const char* reason : {"A", "B", "C", "D", "E", "F", "G", "H"}) {
    const auto start = std::chrono::steady_clock::now();
    recorder->Eventf(pod, nullptr, "Warning", reason, "Scheduling", "n");
    CHECK(std::chrono::steady_clock::now() - start < 1s);
  }
  CHECK(Eventually([&] { return f.transport->held() == 3; }));
  CHECK(recorder->stats().accepted == 3);
  CHECK(recorder->stats().dropped == 5);

  f.transport->Hold(false);
  f.transport->Release();
  REQUIRE(recorder->WaitForIdle(5s));
  recorder->Eventf(pod, nullptr, "Warning", "I", "Scheduling", "n");  // room again
  REQUIRE(recorder->WaitForIdle(5s));
  CHECK(recorder->stats().created == 4);
  CHECK(recorder->stats().dropped == 5);
}

TEST_CASE("Stop writes what is queued, then gives up at its deadline", "[event_recorder]") {
  Fixture f;
  SECTION("everything queued is written") {
    auto recorder = f.Recorder();
    const Pod pod = MakePod();
    for (int i = 0; i < 50; ++i) {
      recorder->Eventf(pod, nullptr, "Warning", "Reason" + std::to_string(i), "Scheduling", "n");
    }
    recorder->Stop();
    CHECK(recorder->stats().created == 50);
    CHECK(f.Requests().size() == 50);
  }
  SECTION("unanswered writes are abandoned at the deadline") {
    EventRecorderOptions options = f.Options();
    options.stop_timeout = 100ms;
    auto recorder = f.Recorder(options);
    f.transport->Hold(true);
    f.Failed(*recorder, MakePod("p1"));
    f.Failed(*recorder, MakePod("p2"));
    REQUIRE(Eventually([&] { return f.transport->held() == 2; }));
    const auto start = std::chrono::steady_clock::now();
    recorder->Stop();
    CHECK(std::chrono::steady_clock::now() - start < 2s);
    CHECK(recorder->stats().failed == 2);
    recorder.reset();
    f.transport->Release();  // late answers reach nobody, safely
  }
  SECTION("retries wait no longer once stopping") {
    EventRecorderOptions options = f.Options();
    options.retry_interval = 1h;
    auto recorder = f.Recorder(options);
    auto script = std::make_shared<Script>(std::vector<absl::StatusOr<HttpResponse>>{StatusResponse(500, "InternalError")});
    f.transport->set_responder([script](const HttpRequest& request) { return (*script)(request); });
    f.Failed(*recorder, MakePod());
    REQUIRE(Eventually([&] { return recorder->stats().retries == 1; }));
    recorder->Stop();
    CHECK(recorder->stats().created == 1);
  }
}

TEST_CASE("unsupported event types and events after Stop are dropped", "[event_recorder]") {
  Fixture f;
  auto recorder = f.Recorder();
  recorder->Eventf(MakePod(), nullptr, "Info", "FailedScheduling", "Scheduling", "n");
  recorder->Stop();
  f.Failed(*recorder, MakePod());
  CHECK(recorder->stats().dropped == 2);
  CHECK(recorder->stats().accepted == 0);
  CHECK(f.Requests().empty());
}
