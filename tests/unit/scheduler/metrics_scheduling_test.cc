// Metrics recorded by a scheduling cycle: the runtime (extension points, sampled plugins), the
// scheduling loop (attempts, durations, SLI) and the queue (incoming pods, pending pods,
// unschedulable pods by plugin), read back from the /metrics text. And the path without metrics.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "framework/parallelizer.h"
#include "queue_test_support.h"
#include "scheduler/cache.h"
#include "scheduler/clock.h"
#include "scheduler/cluster_events.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_queue.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

using testing::FakeClusterApi;
using testing::FakeEventRecorder;
using testing::MakeNode;
using testing::PodBuilder;
using testing::ProfileBuilder;

constexpr const char* kProfile = "default-scheduler";

class NullStatusWriter final : public PodStatusWriter {
 public:
  void UpdatePodScheduledCondition(std::shared_ptr<const api::Pod> /*pod*/,
                                   api::PodCondition /*condition*/,
                                   std::optional<framework::NominatingInfo> /*nominating*/) override {}
  absl::Status SetNominatedNodeName(const api::Pod& /*pod*/, const std::string& /*node_name*/) override {
    return absl::OkStatus();
  }
};

// One profile, a real cache and queue (FakeClock) and the loop, all reporting to `metrics`
// (nullptr: no metrics anywhere).
class MetricsHarness {
 public:
  MetricsHarness(const ProfileBuilder& builder, metrics::Metrics* metrics,
                 SchedulingQueue::PreEnqueueFn pre_enqueue = nullptr,
                 testing::BindMode bind_mode = testing::BindMode::kAsync)
      : metrics_(metrics), cluster_api_({}, bind_mode) {
    framework::FrameworkServices services;
    services.parallelizer = &parallelizer_;
    services.cluster_api = &cluster_api_;
    services.event_recorder = &recorder_;
    services.metrics_recorder = metrics;
    framework_ = builder.Build(services);
    QueueingHintRegistrations hints;
    hints[framework_->profile_name()] = framework_->registered_events();
    SchedulingQueueOptions queue_options;
    queue_options.metrics = metrics;
    if (!pre_enqueue) {
      pre_enqueue = [this](const api::Pod& pod) { return framework_->RunPreEnqueuePlugins(pod); };
    }
    const framework::QueueSortPlugin& sort = framework_->queue_sort();
    queue_ = std::make_unique<SchedulingQueue>(
        queue_options, clock_,
        [&sort](const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) {
          return sort.Less(a, b);
        },
        std::move(pre_enqueue), std::move(hints));
    framework_->SetNominator(queue_.get());
    SchedulerOptions options;
    options.binding_threads = 1;
    options.seed = 1;
    options.metrics = metrics;
    options.clock = &clock_;
    std::map<std::string, framework::Framework*, std::less<>> profiles;
    profiles[framework_->profile_name()] = framework_.get();
    scheduler_ = std::make_unique<Scheduler>(
        options, cache_, *queue_, std::move(profiles),
        [this](std::string_view ns, std::string_view name) -> std::shared_ptr<const api::Pod> {
          auto it = informer_.find(std::string(ns) + "/" + std::string(name));
          return it == informer_.end() ? nullptr : it->second;
        },
        writer_);
  }
  ~MetricsHarness() { queue_->Close(); }

  void AddNode(const std::string& name) { cache_.AddNode(MakeNode(name)); }
  void AddPod(const api::Pod& pod) {
    informer_[pod.metadata.namespace_ + "/" + pod.metadata.name] = std::make_shared<const api::Pod>(pod);
    queue_->Add(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod)));
  }
  // One cycle and its binding; fails instead of blocking when nothing is queued.
  void ScheduleOne() {
    std::future<bool> ran = std::async(std::launch::async, [this] { return scheduler_->ScheduleOne(); });
    if (ran.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      queue_->Close();
      FAIL("ScheduleOne found nothing to schedule");
    }
    REQUIRE(ran.get());
    scheduler_->DrainBindings();
  }
  std::string Text() const { return metrics_->SerializeText(); }

  FakeClock& clock() { return clock_; }
  SchedulingQueue& queue() { return *queue_; }
  framework::Framework& framework() { return *framework_; }
  const FakeClusterApi& cluster_api() const { return cluster_api_; }

 private:
  metrics::Metrics* metrics_;
  FakeClock clock_;
  framework::Parallelizer parallelizer_{2};
  FakeClusterApi cluster_api_;
  FakeEventRecorder recorder_;
  std::unique_ptr<framework::Framework> framework_;
  Cache cache_;
  NullStatusWriter writer_;
  std::map<std::string, std::shared_ptr<const api::Pod>> informer_;  // test thread only
  std::unique_ptr<SchedulingQueue> queue_;
  std::unique_ptr<Scheduler> scheduler_;
};

metrics::MetricsOptions Options(int sample_percent) {
  metrics::MetricsOptions options;
  options.plugin_sample_percent = sample_percent;
  options.proc_self.clear();
  return options;
}

// The value of the series line starting with `series` + " ", or -1 when absent.
double ValueOf(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

std::string ExtensionPoint(const std::string& point, const std::string& status,
                           const std::string& suffix = "_count") {
  return "scheduler_framework_extension_point_duration_seconds" + suffix + "{extension_point=\"" +
         point + "\",profile=\"" + kProfile + "\",status=\"" + status + "\"}";
}

std::string Plugin(const std::string& plugin, const std::string& point, const std::string& status) {
  return "scheduler_plugin_execution_duration_seconds_count{extension_point=\"" + point +
         "\",plugin=\"" + plugin + "\",status=\"" + status + "\"}";
}

std::string Incoming(const std::string& queue, const std::string& event) {
  return "scheduler_queue_incoming_pods_total{event=\"" + event + "\",queue=\"" + queue + "\"}";
}

std::string Pending(const std::string& queue) {
  return "scheduler_pending_pods{queue=\"" + queue + "\"}";
}

ProfileBuilder FittingProfile() {
  ProfileBuilder builder;
  builder
      .PreFilter("FakePreFilter",
                 [](const api::Pod&) {
                   return std::pair<framework::PreFilterResult, framework::Status>{};
                 })
      .Filter("FakeFilter", [](const api::Pod&, const framework::NodeInfo&) { return framework::Status(); })
      .Score("FakeScore", [](const api::Pod&, const framework::NodeInfo&) { return 10; })
      .Reserve("FakeReserve", [](const api::Pod&, const std::string&) { return framework::Status(); },
               [](const api::Pod&, const std::string&) {})
      .Permit("FakePermit", [](const api::Pod&, const std::string&) {
        return std::pair<framework::Status, std::chrono::milliseconds>{};
      });
  return builder;
}

TEST_CASE("a scheduled pod is recorded by the loop, the runtime and the queue") {
  // Bound on the pool's thread or asynchronously: the same series.
  const testing::BindMode mode = GENERATE(testing::BindMode::kBlocking, testing::BindMode::kAsync);
  metrics::Metrics metrics(Options(100));  // every cycle sampled
  MetricsHarness harness(FittingProfile(), &metrics, nullptr, mode);
  harness.AddNode("node-a");
  harness.AddNode("node-b");
  harness.AddPod(PodBuilder("p1").Obj());
  harness.clock().Step(std::chrono::seconds(3));  // the SLI runs from the queue's first add
  harness.ScheduleOne();
  REQUIRE(harness.cluster_api().binds().size() == 1);

  const std::string text = harness.Text();
  INFO(text);
  // The loop.
  CHECK(ValueOf(text, "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"}") == 1);
  CHECK(ValueOf(text, "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\","
                      "result=\"scheduled\"}") == 1);
  CHECK(ValueOf(text, "scheduler_scheduling_algorithm_duration_seconds_count") == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_attempts_count") == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_attempts_bucket{le=\"1\"}") == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"}") == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_sli_duration_seconds_sum{attempts=\"1\"}") == Approx(3.0));
  CHECK(ValueOf(text, "scheduler_pod_scheduling_sli_duration_seconds_bucket{attempts=\"1\",le=\"2.56\"}") == 0);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_sli_duration_seconds_bucket{attempts=\"1\",le=\"5.12\"}") == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_sli_duration_seconds_bucket{attempts=\"1\",le=\"5242.88\"}") == 1);
  CHECK(text.find("# HELP scheduler_pod_scheduling_sli_duration_seconds [BETA] E2e latency for a pod "
                  "being scheduled, from the time the pod enters the scheduling queue and might "
                  "involve multiple scheduling attempts.\n") != std::string::npos);
  CHECK(text.find("scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"}") ==
        std::string::npos);

  // The runtime: every extension point of the cycle, once, with its status.
  for (const char* point : {"PreEnqueue", "PreFilter", "Filter", "PreScore", "Score", "Reserve",
                            "Permit", "PreBind", "Bind", "PostBind"}) {
    INFO(point);
    CHECK(ValueOf(text, ExtensionPoint(point, "Success")) == 1);
  }
  // v1.35+: the PreFlights run for every pod; without PreBind plugins they all "skip".
  CHECK(ValueOf(text, ExtensionPoint("PreBindPreFlight", "Skip")) == 1);
  // Upstream's buckets: 0.1 ms doubling, 12 of them.
  for (const char* le : {"0.0001", "0.0002", "0.0004", "0.0008", "0.0016", "0.0032", "0.0064",
                         "0.0128", "0.0256", "0.0512", "0.1024", "0.2048", "+Inf"}) {
    INFO(le);
    CHECK(ValueOf(text, "scheduler_framework_extension_point_duration_seconds_bucket{extension_point="
                        "\"Bind\",profile=\"default-scheduler\",status=\"Success\",le=\"" +
                            std::string(le) + "\"}") >= 0);
  }
  CHECK(ValueOf(text, "scheduler_plugin_execution_duration_seconds_bucket{extension_point=\"Bind\","
                      "plugin=\"DefaultBinder\",status=\"Success\",le=\"+Inf\"}") == 1);
  // Plugins, timed in this sampled cycle: Filter and Score once per node.
  CHECK(ValueOf(text, Plugin("FakePreFilter", "PreFilter", "Success")) == 1);
  CHECK(ValueOf(text, Plugin("FakeFilter", "Filter", "Success")) == 2);
  CHECK(ValueOf(text, Plugin("FakeScore", "Score", "Success")) == 2);
  CHECK(ValueOf(text, Plugin("FakeReserve", "Reserve", "Success")) == 1);
  CHECK(ValueOf(text, Plugin("FakePermit", "Permit", "Success")) == 1);
  CHECK(ValueOf(text, Plugin("DefaultBinder", "Bind", "Success")) == 1);
  // 0.01 ms growing by 1.5, 20 buckets, with the le strings upstream prints (Go's shortest
  // round-trip formatting of the same doubles).
  for (const char* le : {"1e-05", "1.5000000000000002e-05", "2.2500000000000005e-05",
                         "3.375000000000001e-05", "0.00011390625000000003", "0.0029192926025390638",
                         "0.014778918800354007", "0.02216837820053101", "+Inf"}) {
    INFO(le);
    // Present (cumulative counts depend on how long the bind took).
    CHECK(ValueOf(text, "scheduler_plugin_execution_duration_seconds_bucket{extension_point="
                        "\"Bind\",plugin=\"DefaultBinder\",status=\"Success\",le=\"" +
                            std::string(le) + "\"}") >= 0);
  }

  // The queue.
  CHECK(ValueOf(text, Incoming("active", "UnscheduledPodAdd")) == 1);
  CHECK(ValueOf(text, Pending("active")) == 0);
  CHECK(ValueOf(text, Pending("unschedulable")) == 0);
}

TEST_CASE("an unschedulable pod is recorded by plugin and queue, and leaves the gauge when popped") {
  metrics::Metrics metrics(Options(100));
  ProfileBuilder builder;
  builder.Filter("Picky", [](const api::Pod&, const framework::NodeInfo&) {
    return framework::Status(framework::Code::kUnschedulable, {"no"});
  });
  MetricsHarness harness(builder, &metrics);
  harness.AddNode("node-a");
  harness.AddNode("node-b");
  harness.AddPod(PodBuilder("p1").Obj());
  harness.ScheduleOne();

  std::string text = harness.Text();
  INFO(text);
  CHECK(ValueOf(text, "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"}") == 1);
  CHECK(ValueOf(text, "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\","
                      "result=\"unschedulable\"}") == 1);
  CHECK(ValueOf(text, "scheduler_scheduling_algorithm_duration_seconds_count") == 1);
  // Filter as a whole succeeded (it found no node; no plugin erred); each node's call said no.
  CHECK(ValueOf(text, ExtensionPoint("Filter", "Success")) == 1);
  CHECK(ValueOf(text, Plugin("Picky", "Filter", "Unschedulable")) == 2);
  CHECK(ValueOf(text, "scheduler_unschedulable_pods{plugin=\"Picky\",profile=\"default-scheduler\"}") == 1);
  CHECK(ValueOf(text, Incoming("unschedulable", "ScheduleAttemptFailure")) == 1);
  CHECK(ValueOf(text, Pending("unschedulable")) == 1);
  CHECK(ValueOf(text, "scheduler_pod_scheduling_attempts_count") == 0);

  // A node event the plugin registered for (the wildcard) moves it to the backoffQ (the fake clock
  // keeps it backing off); the pool does not count it as incoming again.
  harness.queue().MoveAllToActiveOrBackoffQueue(
      MakeClusterEvent(framework::EventResource::kNode, framework::action::kAdd),
      framework::EventObjects{});
  text = harness.Text();
  CHECK(ValueOf(text, Incoming("backoff", "NodeAdd")) == 1);
  // The plugin has no hint function: upstream's default one (Queue) is timed all the same.
  CHECK(ValueOf(text, "scheduler_queueing_hint_execution_duration_seconds_count{event=\"NodeAdd\",hint=\"Queue\","
                      "plugin=\"Picky\"}") == 1);
  CHECK(ValueOf(text, Pending("backoff")) == 1);
  CHECK(ValueOf(text, Pending("unschedulable")) == 0);
  CHECK(ValueOf(text, Incoming("unschedulable", "ScheduleAttemptFailure")) == 1);

  // activeQ is empty: the next cycle pops it from the backoffQ early; its rejectors are cleared.
  harness.ScheduleOne();
  text = harness.Text();
  CHECK(ValueOf(text, Incoming("active", "PopFromBackoffQ")) == 1);
  CHECK(ValueOf(text, "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"}") == 2);
  // Popped (-1) and rejected again (+1).
  CHECK(ValueOf(text, "scheduler_unschedulable_pods{plugin=\"Picky\",profile=\"default-scheduler\"}") == 1);

  // v1.37 (k/k #138482): deleted from the queue, it leaves the gauge (wherever it was queued).
  harness.queue().Delete(PodBuilder("p1").Obj());
  text = harness.Text();
  CHECK(ValueOf(text, "scheduler_unschedulable_pods{plugin=\"Picky\",profile=\"default-scheduler\"}") == 0);
}

TEST_CASE("a gated pod counts as gated and unschedulable by its gating plugin") {
  metrics::Metrics metrics(Options(0));
  MetricsHarness harness(FittingProfile(), &metrics, [](const api::Pod&) {
    return framework::Status(framework::Code::kUnschedulableAndUnresolvable, {"gated"})
        .WithPlugin("SchedulingGates");
  });
  harness.AddPod(PodBuilder("p1").Obj());
  const std::string text = harness.Text();
  INFO(text);
  CHECK(ValueOf(text, Pending("gated")) == 1);
  CHECK(ValueOf(text, Pending("unschedulable")) == 0);
  CHECK(ValueOf(text, Pending("active")) == 0);
  CHECK(ValueOf(text, Incoming("unschedulable", "UnscheduledPodAdd")) == 1);
  CHECK(ValueOf(text,
                "scheduler_unschedulable_pods{plugin=\"SchedulingGates\",profile=\"default-scheduler\"}") == 1);
  harness.queue().Delete(PodBuilder("p1").Obj());
  CHECK(ValueOf(harness.Text(),
                "scheduler_unschedulable_pods{plugin=\"SchedulingGates\",profile=\"default-scheduler\"}") == 0);
}

TEST_CASE("unsampled cycles time extension points but not plugins") {
  metrics::Metrics metrics(Options(0));
  MetricsHarness harness(FittingProfile(), &metrics);
  REQUIRE(harness.framework().records_metrics());
  harness.AddNode("node-a");
  harness.AddPod(PodBuilder("p1").Obj());
  harness.ScheduleOne();
  const std::string text = harness.Text();
  INFO(text);
  CHECK(ValueOf(text, ExtensionPoint("Filter", "Success")) == 1);
  CHECK(ValueOf(text, ExtensionPoint("Bind", "Success")) == 1);
  CHECK(text.find("scheduler_plugin_execution_duration_seconds") == std::string::npos);
}

TEST_CASE("without metrics the runtime, queue and loop schedule as before") {
  MetricsHarness harness(FittingProfile(), nullptr);
  CHECK_FALSE(harness.framework().records_metrics());
  // A no-op, not a crash.
  harness.framework().ObserveExtensionPoint(framework::ExtensionPoint::kFilter,
                                            framework::Code::kSuccess,
                                            std::chrono::steady_clock::now());
  harness.AddNode("node-a");
  harness.AddPod(PodBuilder("p1").Obj());
  harness.ScheduleOne();
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p1 -> node-a"});
  CHECK(harness.queue().Counts().active == 0);
}

}  // namespace
}  // namespace ksched::scheduler
