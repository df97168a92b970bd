// The /metrics families about events and concurrent work (scheduler/metrics/metrics.h), with
// upstream v1.34's names, help texts, label values and buckets, and what feeds them:
//   scheduler_event_handling_duration_seconds{event}  the informer event handlers
//   scheduler_inflight_events{event}                  InFlightEvents' counts, read at scrape time
//   scheduler_goroutines{operation}                   RunningGoroutines (Parallelizer runs, ...)
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <string>

#include "framework/parallelizer.h"
#include "framework/running_goroutines.h"
#include "queue_test_support.h"
#include "scheduler/event_handlers.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/metrics/metrics.h"
#include "metrics_test_support.h"
#include "scheduler_harness.h"

namespace ksched::scheduler {
namespace {

using framework::GoroutineOperation;
using metrics::Metrics;
using metrics::MetricsOptions;
using testing::Harness;
using testing::PodBuilder;
using testing::ProfileBuilder;

using testing::HasLine;
using testing::NoProcess;

bool Mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

api::Pod WithResourceVersion(api::Pod pod, std::string version) {
  pod.metadata.resource_version = std::move(version);
  return pod;
}

TEST_CASE("scheduler_event_handling_duration_seconds: upstream's help, buckets and labels",
          "[metrics][event_families]") {
  Metrics metrics(NoProcess());
  CHECK_FALSE(Mentions(metrics.SerializeText(), "scheduler_event_handling_duration_seconds"));
  metrics.ObserveEventHandling("NodeAdd", std::chrono::microseconds(150));
  metrics.ObserveEventHandling("NodeAdd", std::chrono::milliseconds(300));
  const std::string text = metrics.SerializeText();
  CHECK(HasLine(text, "# HELP scheduler_event_handling_duration_seconds [ALPHA] Event handling "
                      "latency in seconds."));
  CHECK(HasLine(text, "# TYPE scheduler_event_handling_duration_seconds histogram"));
  CHECK(HasLine(text, "scheduler_event_handling_duration_seconds_bucket{event=\"NodeAdd\",le=\"0.0001\"} 0"));
  CHECK(HasLine(text, "scheduler_event_handling_duration_seconds_bucket{event=\"NodeAdd\",le=\"0.0002\"} 1"));
  // ExponentialBuckets(0.0001, 2, 12): the last boundary is 0.2048.
  CHECK(HasLine(text, "scheduler_event_handling_duration_seconds_bucket{event=\"NodeAdd\",le=\"0.2048\"} 1"));
  CHECK(HasLine(text, "scheduler_event_handling_duration_seconds_bucket{event=\"NodeAdd\",le=\"+Inf\"} 2"));
  CHECK(HasLine(text, "scheduler_event_handling_duration_seconds_count{event=\"NodeAdd\"} 2"));
}

std::string EventCount(const std::string& event, int count) {
  return "scheduler_event_handling_duration_seconds_count{event=\"" + event + "\"} " +
         std::to_string(count);
}

TEST_CASE("event handlers time node events under upstream's labels", "[metrics][event_families]") {
  Harness harness({ProfileBuilder()});
  Metrics metrics(NoProcess());
  NodeEventHandler handler(harness.cache(), harness.queue(), &metrics);
  api::Node node;
  node.metadata.name = "n1";
  handler.OnAdd(node);
  api::Node labelled = node;
  labelled.metadata.labels.Set("zone", "a");
  handler.OnUpdate(node, labelled);
  handler.OnUpdate(labelled, labelled);  // nothing relevant changed: not timed
  handler.OnDelete(labelled);
  const std::string text = metrics.SerializeText();
  CHECK(HasLine(text, EventCount("NodeAdd", 1)));
  CHECK(HasLine(text, EventCount("NodeUpdateNodeLabel", 1)));
  CHECK(HasLine(text, EventCount("NodeDelete", 1)));
  CHECK_FALSE(Mentions(text, "event=\"NodeUpdate\""));
}

TEST_CASE("event handlers time pod events under upstream's labels", "[metrics][event_families]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  Metrics metrics(NoProcess());
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler(), &metrics);
  const api::Pod pending = WithResourceVersion(PodBuilder("p").Obj(), "1");
  handler.OnAdd(pending);
  handler.OnUpdate(pending, pending);  // same resourceVersion: skipped, not timed
  api::Pod relabelled = WithResourceVersion(pending, "2");
  relabelled.metadata.labels.Set("app", "x");
  handler.OnUpdate(pending, relabelled);
  const api::Pod bound = WithResourceVersion(PodBuilder("p").Node("node1").Obj(), "3");
  handler.OnUpdate(relabelled, bound);
  handler.OnAdd(PodBuilder("foreign").SchedulerName("other").Obj());  // not ours: not timed
  handler.OnDelete(bound);
  const std::string text = metrics.SerializeText();
  CHECK(HasLine(text, EventCount("UnscheduledPodAdd", 1)));
  CHECK(HasLine(text, EventCount("UnscheduledPodUpdate", 1)));
  CHECK(HasLine(text, EventCount("UnscheduledPodUpdatePodLabel", 1)));
  CHECK(HasLine(text, EventCount("UnscheduledPodDelete", 1)));  // bound: leaves the queue
  CHECK(HasLine(text, EventCount("AssignedPodAdd", 1)));
  CHECK(HasLine(text, EventCount("AssignedPodDelete", 1)));
}

TEST_CASE("scheduler_inflight_events: the in-flight list's counts by label, PodPopped included",
          "[metrics][event_families]") {
  InFlightEvents in_flight;
  Metrics metrics(NoProcess());
  metrics.SetInFlightEventsSource([&in_flight] { return in_flight.CountsByLabel(); });
  CHECK_FALSE(Mentions(metrics.SerializeText(), "scheduler_inflight_events"));

  REQUIRE(in_flight.AddPod(std::make_shared<const api::Pod>(PodBuilder("a").Obj())));
  REQUIRE(in_flight.AddEventIfAnyInFlight(testing::NodeAdd(), {}));
  REQUIRE(in_flight.AddEventIfAnyInFlight(testing::NodeAdd(), {}));
  std::string text = metrics.SerializeText();
  CHECK(HasLine(text, "# HELP scheduler_inflight_events [ALPHA] Number of events currently "
                      "tracked in the scheduling queue."));
  CHECK(HasLine(text, "# TYPE scheduler_inflight_events gauge"));
  CHECK(HasLine(text, "scheduler_inflight_events{event=\"NodeAdd\"} 2"));
  CHECK(HasLine(text, "scheduler_inflight_events{event=\"PodPopped\"} 1"));

  // Idle: every label ever tracked stays, at 0 (as upstream's gauge once flushed).
  in_flight.Done(PodBuilder("a").Obj().metadata.uid);
  text = metrics.SerializeText();
  CHECK(HasLine(text, "scheduler_inflight_events{event=\"NodeAdd\"} 0"));
  CHECK(HasLine(text, "scheduler_inflight_events{event=\"PodPopped\"} 0"));
  metrics.SetInFlightEventsSource(nullptr);
}

TEST_CASE("InFlightEvents counts an event until no pod in flight precedes it",
          "[metrics][event_families]") {
  InFlightEvents in_flight;
  const auto count_of = [&in_flight](std::string_view label) -> std::int64_t {
    for (const auto& [name, count] : in_flight.CountsByLabel()) {
      if (name == label) return count;
    }
    return -1;
  };
  const api::Pod a = PodBuilder("a").Obj();
  const api::Pod b = PodBuilder("b").Obj();
  REQUIRE(in_flight.AddPod(std::make_shared<const api::Pod>(a)));
  REQUIRE(in_flight.AddPod(std::make_shared<const api::Pod>(b)));
  CHECK_FALSE(in_flight.AddPod(std::make_shared<const api::Pod>(b)));  // not counted twice
  REQUIRE(in_flight.AddEventIfAnyInFlight(testing::NodeAdd(), {}));
  CHECK(count_of(kPodPoppedLabel) == 2);
  in_flight.Done(a.metadata.uid);  // b still precedes the event
  CHECK(count_of("NodeAdd") == 1);
  CHECK(count_of(kPodPoppedLabel) == 1);
  in_flight.Done(b.metadata.uid);
  CHECK(count_of("NodeAdd") == 0);
  CHECK(count_of(kPodPoppedLabel) == 0);
}

TEST_CASE("scheduler_goroutines: operations counted by the Parallelizer and by hand",
          "[metrics][event_families]") {
  Metrics metrics(NoProcess());
  CHECK_FALSE(Mentions(metrics.SerializeText(), "scheduler_goroutines"));
  framework::Parallelizer parallelizer(16, 2);
  parallelizer.CountGoroutinesIn(&metrics.goroutines());
  std::string during;
  // 100 pieces at parallelism 16: chunks of 7, 15 chunks, so upstream starts 15 workers.
  parallelizer.Until(100, [&](std::size_t i, framework::Parallelizer::Run&) {
    if (i == 0) during = metrics.SerializeText();
  }, GoroutineOperation::kFilter);
  CHECK(HasLine(during, "scheduler_goroutines{operation=\"Filter\"} 15"));
  parallelizer.Until(0, [](std::size_t, framework::Parallelizer::Run&) {}, GoroutineOperation::kScore);
  {
    const framework::CountedGoroutines binding(&metrics.goroutines(), GoroutineOperation::kBinding);
    CHECK(HasLine(metrics.SerializeText(), "scheduler_goroutines{operation=\"binding\"} 1"));
  }
  const std::string text = metrics.SerializeText();
  CHECK(HasLine(text, "# HELP scheduler_goroutines [BETA] Number of running goroutines split by "
                      "the work they do such as binding."));
  CHECK(HasLine(text, "# TYPE scheduler_goroutines gauge"));
  CHECK(HasLine(text, "scheduler_goroutines{operation=\"Filter\"} 0"));
  CHECK(HasLine(text, "scheduler_goroutines{operation=\"Score\"} 0"));  // an empty run counts too
  CHECK(HasLine(text, "scheduler_goroutines{operation=\"binding\"} 0"));
  CHECK_FALSE(Mentions(text, "operation=\"prioritizing_extender\""));  // never counted
}

}  // namespace
}  // namespace ksched::scheduler
