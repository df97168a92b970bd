// DefaultPreemption: the pure helpers (victim order, PDB split, candidate choice, candidate count,
// args) with upstream's table cases, and the plugin in a real framework runtime beside
// NodeResourcesFit: victims chosen, the node nominated, victims evicted asynchronously with the
// Preempted event, the preemptor gated while that runs, and upstream's messages when preemption
// cannot help.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "framework/cycle_state.h"
#include "framework/framework.h"
#include "framework/interface.h"
#include "framework/parallelizer.h"
#include "framework/profile_config.h"
#include "framework/raw_plugin_args.h"
#include "framework/snapshot.h"
#include "framework/status.h"
#include "plugins/default_preemption/args.h"
#include "plugins/default_preemption/candidates.h"
#include "plugins/default_preemption/default_preemption.h"
#include "plugins/in_tree_registry.h"
#include "fake_handle.h"
#include "node_resources_test_util.h"

namespace {

using ksched::api::Pod;
using ksched::api::PodDisruptionBudget;
using ksched::api::Time;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::NodeToStatus;
using ksched::framework::PodInfo;
using ksched::framework::PodInfoPtr;
using ksched::framework::Status;
using ksched::plugins::default_preemption::Candidate;
using ksched::plugins::default_preemption::CompileDisruptionBudgets;
using ksched::plugins::default_preemption::DefaultPreemption;
using ksched::plugins::default_preemption::DefaultPreemptionArgs;
using ksched::plugins::default_preemption::MoreImportantPod;
using ksched::plugins::default_preemption::NumCandidates;
using ksched::plugins::default_preemption::ParseDefaultPreemptionArgs;
using ksched::plugins::default_preemption::PickOneNodeForPreemption;
using ksched::plugins::default_preemption::SplitByPdbViolation;
using ksched::plugins::testing::CapacityNode;
using ksched::plugins::testing::RequestPod;

const Time kNow = Time(std::chrono::hours(24 * 365 * 50));

Pod NamedPod(std::string name, std::int32_t priority, std::string cpu = "1", std::string node = "") {
  Pod pod = RequestPod({{{"cpu", std::move(cpu)}}}, std::move(node));
  pod.metadata.name = name;
  pod.metadata.uid = "uid-" + name;
  pod.metadata.namespace_ = "default";
  pod.spec.priority = priority;
  pod.spec.scheduler_name = "default-scheduler";
  return pod;
}

PodInfoPtr Info(Pod pod) { return PodInfo::CreateOrDie(std::make_shared<const Pod>(std::move(pod))); }

std::vector<std::string> Names(const std::vector<PodInfoPtr>& pods) {
  std::vector<std::string> names;
  for (const PodInfoPtr& pod : pods) names.push_back(pod->pod().metadata.name);
  return names;
}

std::shared_ptr<const PodDisruptionBudget> Pdb(std::string ns, ksched::api::Labels match,
                                               std::int32_t allowed,
                                               std::vector<std::string> disrupted = {}) {
  auto pdb = std::make_shared<PodDisruptionBudget>();
  pdb->metadata.name = "pdb";
  pdb->metadata.namespace_ = std::move(ns);
  pdb->spec.selector = ksched::api::LabelSelector{std::move(match), {}};
  pdb->status.disruptions_allowed = allowed;
  pdb->status.disrupted_pods = std::move(disrupted);
  return pdb;
}

}  // namespace

TEST_CASE("DefaultPreemption: victims by importance, priority then start time",
          "[plugins][default_preemption]") {
  Pod high = NamedPod("high", 10);
  Pod low_early = NamedPod("low-early", 1);
  low_early.status.start_time = kNow - std::chrono::hours(2);
  Pod low_late = NamedPod("low-late", 1);
  low_late.status.start_time = kNow - std::chrono::hours(1);
  Pod low_unstarted = NamedPod("low-unstarted", 1);  // counts as started now
  CHECK(MoreImportantPod(high, low_early, kNow));
  CHECK_FALSE(MoreImportantPod(low_early, high, kNow));
  CHECK(MoreImportantPod(low_early, low_late, kNow));
  CHECK(MoreImportantPod(low_late, low_unstarted, kNow));
  CHECK_FALSE(MoreImportantPod(low_unstarted, low_unstarted, kNow));
}

TEST_CASE("DefaultPreemption: pods split by PodDisruptionBudget violation",
          "[plugins][default_preemption]") {
  auto labelled = [](std::string name, std::string ns = "default") {
    Pod pod = NamedPod(std::move(name), 0);
    pod.metadata.namespace_ = std::move(ns);
    pod.metadata.labels.Set("app", "web");
    return Info(pod);
  };
  std::vector<PodInfoPtr> violating;
  std::vector<PodInfoPtr> clean;

  SECTION("the budget allows one: the second matching pod violates, order kept") {
    const std::vector<PodInfoPtr> pods{labelled("a"), labelled("b"), Info(NamedPod("no-labels", 0)),
                                       labelled("c")};
    SplitByPdbViolation(pods, CompileDisruptionBudgets({Pdb("default", {{"app", "web"}}, 1)}),
                        violating, clean);
    CHECK(Names(violating) == std::vector<std::string>{"b", "c"});
    CHECK(Names(clean) == std::vector<std::string>{"a", "no-labels"});
  }
  SECTION("a pod already in disruptedPods is not charged") {
    SplitByPdbViolation({labelled("a"), labelled("b")},
                        CompileDisruptionBudgets({Pdb("default", {{"app", "web"}}, 0, {"a"})}),
                        violating, clean);
    CHECK(Names(violating) == std::vector<std::string>{"b"});
    CHECK(Names(clean) == std::vector<std::string>{"a"});
  }
  SECTION("other namespaces, empty and missing selectors match nothing") {
    auto no_selector = std::make_shared<PodDisruptionBudget>(*Pdb("default", {}, 0));
    no_selector->spec.selector.reset();
    SplitByPdbViolation({labelled("a"), labelled("b", "other")},
                        CompileDisruptionBudgets({Pdb("other-ns", {{"app", "web"}}, 0),
                                                  Pdb("default", {}, 0), no_selector}),
                        violating, clean);
    CHECK(violating.empty());
    CHECK(Names(clean) == std::vector<std::string>{"a", "b"});
  }
}

TEST_CASE("DefaultPreemption: one candidate node by upstream's criteria",
          "[plugins][default_preemption]") {
  auto candidate = [](std::string node, std::vector<Pod> victims, std::int64_t violations = 0) {
    Candidate c{std::move(node), {}, violations};
    for (Pod& pod : victims) c.victims.push_back(Info(std::move(pod)));
    return c;
  };
  auto started = [](Pod pod, int hours_ago) {
    pod.status.start_time = kNow - std::chrono::hours(hours_ago);
    return pod;
  };
  CHECK(PickOneNodeForPreemption({}, kNow) == -1);
  // Fewest PDB violations first, whatever the rest.
  CHECK(PickOneNodeForPreemption({candidate("a", {NamedPod("x", 1)}, 1),
                                  candidate("b", {NamedPod("y", 5), NamedPod("z", 5)}, 0)},
                                 kNow) == 1);
  // Lowest highest priority.
  CHECK(PickOneNodeForPreemption({candidate("a", {NamedPod("x", 5)}),
                                  candidate("b", {NamedPod("y", 2), NamedPod("z", 1)})},
                                 kNow) == 1);
  // Then the lowest sum of priorities (shifted, so that more victims weigh more).
  CHECK(PickOneNodeForPreemption({candidate("a", {NamedPod("x", 2), NamedPod("y", 2)}),
                                  candidate("b", {NamedPod("z", 2), NamedPod("w", 1)})},
                                 kNow) == 1);
  // A negative priority still adds to the shifted sum: two victims weigh more than one.
  CHECK(PickOneNodeForPreemption({candidate("a", {NamedPod("x", 0), NamedPod("y", -5)}),
                                  candidate("b", {NamedPod("z", 0)})},
                                 kNow) == 1);
  // Then the latest start among the most important victims.
  CHECK(PickOneNodeForPreemption({candidate("a", {started(NamedPod("x", 3), 5)}),
                                  candidate("b", {started(NamedPod("y", 3), 1)})},
                                 kNow) == 1);
  // Full ties: the first.
  CHECK(PickOneNodeForPreemption({candidate("a", {NamedPod("x", 3)}), candidate("b", {NamedPod("y", 3)})},
                                 kNow) == 0);
}

TEST_CASE("DefaultPreemption: candidate count and args", "[plugins][default_preemption]") {
  CHECK(NumCandidates(5000, 10, 100) == 500);
  CHECK(NumCandidates(500, 10, 100) == 100);
  CHECK(NumCandidates(50, 10, 100) == 50);
  CHECK(NumCandidates(1000, 0, 3) == 3);

  auto defaults = ParseDefaultPreemptionArgs("");
  REQUIRE(defaults.ok());
  CHECK(defaults->min_candidate_nodes_percentage == 10);
  CHECK(defaults->min_candidate_nodes_absolute == 100);
  auto set = ParseDefaultPreemptionArgs(
      R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"DefaultPreemptionArgs","minCandidateNodesAbsolute":3,"minCandidateNodesPercentage":50})");
  REQUIRE(set.ok());
  CHECK(set->min_candidate_nodes_percentage == 50);
  CHECK(set->min_candidate_nodes_absolute == 3);
  auto bad = ParseDefaultPreemptionArgs(R"({"minCandidateNodesPercentage":101})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() ==
        "DefaultPreemption args: minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]");
  auto zeros = ParseDefaultPreemptionArgs(R"({"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":0})");
  REQUIRE_FALSE(zeros.ok());
  CHECK(std::string(zeros.status().message()).find("cannot be zero at the same time") != std::string::npos);
  CHECK_FALSE(ParseDefaultPreemptionArgs(R"({"minCandidateNodesAbsolute":"x"})").ok());
}

namespace {

// Records evictions, nomination clears and events; an eviction may be held until released.
class RecordingApi final : public ksched::framework::ClusterApi,
                           public ksched::framework::EventRecorder {
 public:
  Status BindPod(const Pod& /*pod*/, const std::string& /*node*/) override { return Status(); }
  Status EvictVictim(const Pod& victim, const std::string& message) override {
    std::unique_lock lock(mu_);
    ++arrived_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !hold_; });
    if (fail_evictions_) return Status::FromError("evictions refused");
    evicted_.push_back(victim.metadata.name);
    messages_.push_back(message);
    changed_.notify_all();
    return Status();
  }
  void FailEvictions(bool fail) {
    std::lock_guard lock(mu_);
    fail_evictions_ = fail;
  }
  Status ClearNominatedNodeName(const Pod& pod) override {
    std::lock_guard lock(mu_);
    cleared_.push_back(pod.metadata.name);
    return Status();
  }
  void Eventf(const Pod& regarding, const Pod* related, std::string_view type, std::string_view reason,
              std::string_view action, std::string note) override {
    std::lock_guard lock(mu_);
    events_.push_back(regarding.metadata.name + "|" + (related ? related->metadata.name : "") + "|" +
                      std::string(type) + "|" + std::string(reason) + "|" + std::string(action) + "|" +
                      note);
  }

  void Hold(bool hold) {
    std::lock_guard lock(mu_);
    hold_ = hold;
    changed_.notify_all();
  }
  // Waits (up to 10 s) until `n` evictions arrived / completed.
  bool WaitArrived(int n) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return arrived_ >= n; });
  }
  bool WaitEvicted(std::size_t n) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return evicted_.size() >= n; });
  }
  int arrived() const { std::lock_guard lock(mu_); return arrived_; }
  std::vector<std::string> evicted() const { std::lock_guard lock(mu_); return evicted_; }
  std::vector<std::string> messages() const { std::lock_guard lock(mu_); return messages_; }
  std::vector<std::string> events() const { std::lock_guard lock(mu_); return events_; }

 private:
  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool hold_ = false;
  bool fail_evictions_ = false;
  int arrived_ = 0;
  std::vector<std::string> evicted_, messages_, cleared_, events_;
};

// Keeps what preemption reports to the metrics (thread-safe: the goroutine's report comes from the
// executor thread).
class PreemptionMetrics final : public ksched::plugins::testing::NullMetricsRecorder {
 public:
  void ObservePreemptionVictims(int victims) override {
    std::lock_guard lock(mu_);
    victims_.push_back(victims);
  }
  void ObservePreemptionGoroutine(bool failed, std::chrono::nanoseconds /*elapsed*/) override {
    std::lock_guard lock(mu_);
    goroutines_.push_back(failed);
    done_.notify_all();
  }
  // The goroutines' outcomes (true: failed) once `n` were reported, waiting up to 10 s.
  std::vector<bool> WaitGoroutines(std::size_t n) {
    std::unique_lock lock(mu_);
    done_.wait_for(lock, std::chrono::seconds(10), [&] { return goroutines_.size() >= n; });
    return goroutines_;
  }
  std::vector<int> victims() const {
    std::lock_guard lock(mu_);
    return victims_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable done_;
  std::vector<bool> goroutines_;
  std::vector<int> victims_;
};

// A NodeResourcesFit profile, its snapshot, and DefaultPreemption over it.
struct Runtime {
  ksched::framework::Parallelizer parallelizer{2};
  RecordingApi api;
  PreemptionMetrics metrics;
  std::unique_ptr<ksched::framework::Framework> framework;
  std::unique_ptr<ksched::framework::Snapshot> snapshot;
  std::vector<std::shared_ptr<const PodDisruptionBudget>> pdbs;
  std::unique_ptr<DefaultPreemption> plugin;
  // The pod informer's view for Handle::PodExists; unset: every pod exists.
  std::function<bool(std::string_view, std::string_view)> pod_exists;

  Runtime(std::vector<std::shared_ptr<const ksched::api::Node>> nodes, std::vector<Pod> pods,
          DefaultPreemptionArgs args = {}, std::vector<ksched::framework::PreemptionExtender*> extenders = {}) {
    ksched::framework::FrameworkServices services;
    services.preemption_extenders = std::move(extenders);
    services.parallelizer = &parallelizer;
    services.cluster_api = &api;
    services.event_recorder = &api;
    services.metrics_recorder = &metrics;
    services.pod_disruption_budgets = [this] { return pdbs; };
    services.pod_exists = [this](std::string_view ns, std::string_view name) {
      return pod_exists ? pod_exists(ns, name) : true;
    };
    ksched::framework::ProfileConfig profile;
    profile.plugins.queue_sort.enabled = {{"PrioritySort", 0}};
    profile.plugins.pre_filter.enabled = {{"NodeResourcesFit", 0}};
    profile.plugins.filter.enabled = {{"NodeResourcesFit", 0}};
    profile.plugins.bind.enabled = {{"DefaultBinder", 0}};
    auto created = ksched::framework::Framework::Create(ksched::plugins::NewInTreeRegistry(), profile,
                                                        services);
    REQUIRE(created.ok());
    framework = *std::move(created);
    std::vector<PodInfoPtr> infos;
    for (Pod& pod : pods) infos.push_back(Info(std::move(pod)));
    snapshot = ksched::framework::Snapshot::FromObjects(nodes, infos);
    framework->SetSnapshot(snapshot.get());
    plugin = std::make_unique<DefaultPreemption>(args, *framework);
    plugin->SeedForTest(1);
  }

  // PreFilter, Filter on every node (the statuses PostFilter gets), then PostFilter.
  std::pair<ksched::framework::PostFilterResult, Status> Preempt(const Pod& pod,
                                                                 NodeToStatus* given = nullptr) {
    CycleState state;
    std::set<std::string, std::less<>> narrowed;
    REQUIRE(framework->RunPreFilterPlugins(state, pod, narrowed).second.IsSuccess());
    NodeToStatus statuses;
    if (given != nullptr) {
      statuses = *given;
    } else {
      for (const auto* node : snapshot->nodes()) {
        Status status = framework->RunFilterPlugins(state, pod, *node);
        REQUIRE_FALSE(status.IsSuccess());
        statuses.Set(node->name(), std::move(status));
      }
    }
    return plugin->PostFilter(state, pod, statuses);
  }
};

}  // namespace

TEST_CASE("DefaultPreemption: the fewest, least important victims on the best node",
          "[plugins][default_preemption]") {
  // n1: three low-priority pods filling it; n2: one pod of higher priority than the preemptor.
  Pod keep_important = NamedPod("keep-prio-1", 1, "1", "n1");
  Pod keep_early = NamedPod("keep-early", 0, "1", "n1");
  keep_early.status.start_time = kNow - std::chrono::hours(3);
  Pod evict_late = NamedPod("evict-late", 0, "2", "n1");
  evict_late.status.start_time = kNow - std::chrono::hours(1);
  Pod protected_pod = NamedPod("protected", 100, "4", "n2");
  Runtime rt({CapacityNode("n1", {{"cpu", "4"}}), CapacityNode("n2", {{"cpu", "4"}})},
             {keep_important, keep_early, evict_late, protected_pod});

  const Pod preemptor = NamedPod("preemptor", 10, "2");
  auto [result, status] = rt.Preempt(preemptor);
  INFO(status.ToString());
  REQUIRE(status.IsSuccess());
  // v1.37.2 (kubernetes#140180): success carries the placement (upstream TestPostFilter's
  // wantStatus).
  CHECK(status.Message() ==
        "preemption: found a potential placement for pod on node n1, preempting 1 victims");
  CHECK(result.nominating_info.nominated_node_name == "n1");
  CHECK(result.nominating_info.mode == ksched::framework::NominatingMode::kOverride);
  REQUIRE(rt.api.WaitEvicted(1));
  CHECK(rt.api.evicted() == std::vector<std::string>{"evict-late"});
  CHECK(rt.api.messages() ==
        std::vector<std::string>{"default-scheduler: preempting to accommodate a higher priority pod"});
  // The event follows the eviction on the executor thread.
  for (int i = 0; i < 1000 && rt.api.events().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(rt.api.events() == std::vector<std::string>{
                               "evict-late|preemptor|Normal|Preempted|Preempting|Preempted by pod "
                               "uid-preemptor on node n1"});
  CHECK(rt.metrics.victims() == std::vector<int>{1});
  CHECK(rt.metrics.WaitGoroutines(1) == std::vector<bool>{false});
}

TEST_CASE("DefaultPreemption: a failed eviction is reported as the preemption goroutine's error",
          "[plugins][default_preemption]") {
  Runtime rt({CapacityNode("n1", {{"cpu", "2"}})}, {NamedPod("v1", 0, "2", "n1")});
  rt.api.FailEvictions(true);
  auto [result, status] = rt.Preempt(NamedPod("preemptor", 10, "2"));
  REQUIRE(status.IsSuccess());
  CHECK(rt.metrics.WaitGoroutines(1) == std::vector<bool>{true});
  CHECK(rt.api.evicted().empty());
}

TEST_CASE("DefaultPreemption: the preemptor is gated until its last victim goes",
          "[plugins][default_preemption]") {
  Runtime rt({CapacityNode("n1", {{"cpu", "2"}})},
             {NamedPod("v1", 0, "1", "n1"), NamedPod("v2", 0, "1", "n1")});
  const Pod preemptor = NamedPod("preemptor", 10, "2");
  CHECK(rt.plugin->PreEnqueue(preemptor).IsSuccess());
  rt.api.Hold(true);
  auto [result, status] = rt.Preempt(preemptor);
  REQUIRE(status.IsSuccess());
  REQUIRE(rt.api.WaitArrived(1));
  // The first victim's eviction is in flight: the preemptor waits.
  const Status gated = rt.plugin->PreEnqueue(preemptor);
  CHECK(gated.code() == Code::kUnschedulableAndUnresolvable);
  CHECK(gated.Message() == "waiting for the preemption for this pod to be finished");
  CHECK(rt.plugin->PreEnqueue(NamedPod("other", 10)).IsSuccess());
  rt.api.Hold(false);
  REQUIRE(rt.api.WaitEvicted(2));
  CHECK(rt.api.evicted().size() == 2);
  for (int i = 0; i < 1000 && rt.plugin->IsPreempting(preemptor.metadata.uid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(rt.plugin->PreEnqueue(preemptor).IsSuccess());
}

TEST_CASE("DefaultPreemption: the gate opens once the last victim is gone from the informer (v1.37)",
          "[plugins][default_preemption]") {
  Runtime rt({CapacityNode("n1", {{"cpu", "2"}})}, {NamedPod("v1", 0, "2", "n1")});
  std::atomic<bool> victim_gone{false};
  rt.pod_exists = [&](std::string_view, std::string_view name) {
    return !(name == "v1" && victim_gone.load());
  };
  const Pod preemptor = NamedPod("preemptor", 10, "2");
  rt.api.Hold(true);
  auto [result, status] = rt.Preempt(preemptor);
  REQUIRE(status.IsSuccess());
  REQUIRE(rt.api.WaitArrived(1));
  // The last (only) victim's eviction is in flight and the victim still there: gated.
  CHECK(rt.plugin->PreEnqueue(preemptor).code() == Code::kUnschedulableAndUnresolvable);
  // Its deletion reached the informer before the API call returned: no longer gated.
  victim_gone = true;
  CHECK(rt.plugin->PreEnqueue(preemptor).IsSuccess());
  rt.api.Hold(false);
  REQUIRE(rt.api.WaitEvicted(1));
}

TEST_CASE("DefaultPreemption: victims already being deleted get no API call (v1.37)",
          "[plugins][default_preemption]") {
  Pod terminating = NamedPod("terminating", 0, "2", "n1");
  terminating.metadata.deletion_timestamp = kNow;
  Runtime rt({CapacityNode("n1", {{"cpu", "2"}})}, {terminating});
  const Pod preemptor = NamedPod("preemptor", 10, "2");
  auto [result, status] = rt.Preempt(preemptor);
  REQUIRE(status.IsSuccess());
  CHECK(status.Message() ==
        "preemption: found a potential placement for pod on node n1, preempting 1 victims");
  CHECK(result.nominating_info.nominated_node_name == "n1");
  // Nothing to do: no preparation runs, and the preemptor is not gated.
  CHECK_FALSE(rt.plugin->IsPreempting(preemptor.metadata.uid));
  CHECK(rt.plugin->PreEnqueue(preemptor).IsSuccess());
  CHECK(rt.metrics.victims() == std::vector<int>{1});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(rt.api.arrived() == 0);
}

TEST_CASE("DefaultPreemption: a failed eviction skips the last victim (v1.37)",
          "[plugins][default_preemption]") {
  Runtime rt({CapacityNode("n1", {{"cpu", "2"}})},
             {NamedPod("v1", 0, "1", "n1"), NamedPod("v2", 0, "1", "n1")});
  rt.api.FailEvictions(true);
  auto [result, status] = rt.Preempt(NamedPod("preemptor", 10, "2"));
  REQUIRE(status.IsSuccess());
  CHECK(rt.metrics.WaitGoroutines(1) == std::vector<bool>{true});
  CHECK(rt.api.arrived() == 1);
}

TEST_CASE("DefaultPreemption: a PodDisruptionBudget steers the choice", "[plugins][default_preemption]") {
  Pod guarded = NamedPod("guarded", 0, "4", "n1");
  guarded.metadata.labels.Set("app", "db");
  Runtime rt({CapacityNode("n1", {{"cpu", "4"}}), CapacityNode("n2", {{"cpu", "4"}})},
             {guarded, NamedPod("free", 0, "4", "n2")});
  rt.pdbs = {Pdb("default", {{"app", "db"}}, 0)};
  auto [result, status] = rt.Preempt(NamedPod("preemptor", 10, "2"));
  REQUIRE(status.IsSuccess());
  CHECK(result.nominating_info.nominated_node_name == "n2");
  REQUIRE(rt.api.WaitEvicted(1));
  CHECK(rt.api.evicted() == std::vector<std::string>{"free"});
}

TEST_CASE("DefaultPreemption: upstream's messages when preemption cannot help",
          "[plugins][default_preemption]") {
  Runtime rt({CapacityNode("n1", {{"cpu", "4"}}), CapacityNode("n2", {{"cpu", "4"}})},
             {NamedPod("higher", 20, "4", "n1"), NamedPod("low", 0, "1", "n2"),
              NamedPod("higher-2", 20, "1", "n2")});

  SECTION("preemptionPolicy Never") {
    Pod never = NamedPod("never", 10, "4");
    never.spec.preemption_policy = "Never";
    auto [result, status] = rt.Preempt(never);
    CHECK(status.code() == Code::kUnschedulable);
    CHECK(status.Message() == "preemption: not eligible due to preemptionPolicy=Never.");
    CHECK(result.nominating_info.mode == ksched::framework::NominatingMode::kNoop);
  }
  SECTION("no victims, or not enough room even without them") {
    // n1 holds only a higher-priority pod; on n2 the pod fits not even without the low one.
    auto [result, status] = rt.Preempt(NamedPod("big", 10, "4"));
    CHECK(status.code() == Code::kUnschedulable);
    CHECK(status.Message() ==
          "preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 No preemption victims found "
          "for incoming pod.");
    CHECK(result.nominating_info.mode == ksched::framework::NominatingMode::kOverride);
    CHECK(result.nominating_info.nominated_node_name.empty());
    CHECK(rt.api.evicted().empty());
  }
  SECTION("more than any node has: NodeResourcesFit says unresolvable") {
    auto [result, status] = rt.Preempt(NamedPod("huge", 10, "5"));
    CHECK(status.Message() ==
          "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  }
  SECTION("every node unresolvable") {
    NodeToStatus statuses;
    statuses.Set("n1", Status(Code::kUnschedulableAndUnresolvable, {"node(s) didn't match"}));
    statuses.Set("n2", Status(Code::kUnschedulableAndUnresolvable, {"node(s) didn't match"}));
    auto [result, status] = rt.Preempt(NamedPod("p", 10, "1"), &statuses);
    CHECK(status.Message() ==
          "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  }
  SECTION("a pod nominated where a victim is still terminating waits") {
    Runtime busy({CapacityNode("n1", {{"cpu", "1"}})}, {[] {
                   Pod terminating = NamedPod("terminating", 0, "1", "n1");
                   terminating.metadata.deletion_timestamp = kNow;
                   ksched::api::PodCondition condition;
                   condition.type = std::string(ksched::api::kDisruptionTarget);
                   condition.status = std::string(ksched::api::kConditionTrue);
                   condition.reason = std::string("PreemptionByScheduler");
                   terminating.status.conditions.push_back(std::move(condition));
                   return terminating;
                 }()});
    Pod nominated = NamedPod("nominated", 10, "1");
    nominated.status.nominated_node_name = "n1";
    auto [result, status] = busy.Preempt(nominated);
    CHECK(status.Message() == "preemption: not eligible due to a terminating pod on the nominated node.");
  }
}

namespace {

// An extender with a preemptVerb answering from a function (upstream's fake extender's
// ProcessPreemption).
class FakePreemptionExtender final : public ksched::framework::PreemptionExtender {
 public:
  using Fn = std::function<absl::StatusOr<ksched::framework::NodeVictims>(const ksched::framework::NodeVictims&)>;
  FakePreemptionExtender(Fn fn, bool ignorable) : fn_(std::move(fn)), ignorable_(ignorable) {}
  const std::string& name() const override { return name_; }
  bool SupportsPreemption() const override { return true; }
  bool IsInterested(const Pod&) const override { return true; }
  bool IsIgnorable() const override { return ignorable_; }
  absl::StatusOr<ksched::framework::NodeVictims> ProcessPreemption(const Pod&, const ksched::framework::NodeVictims& victims,
                                                                   const ksched::framework::Snapshot&) override {
    seen.push_back(victims.size());
    return fn_(victims);
  }
  std::vector<std::size_t> seen;  // how many candidate nodes each call got

 private:
  std::string name_ = "http://fake";
  Fn fn_;
  bool ignorable_;
};

FakePreemptionExtender::Fn Keep(std::string node) {
  return [node](const ksched::framework::NodeVictims& victims) -> absl::StatusOr<ksched::framework::NodeVictims> {
    ksched::framework::NodeVictims kept;
    if (auto it = victims.find(node); it != victims.end()) kept.emplace(node, it->second);
    return kept;
  };
}

}  // namespace

TEST_CASE("DefaultPreemption: extenders with a preemptVerb narrow the candidates (upstream callExtenders)",
          "[plugins][default_preemption]") {
  // n1 and n2 are alike (one low-priority pod each); left alone the choice would be n1.
  auto nodes = [] { return std::vector{CapacityNode("n1", {{"cpu", "4"}}), CapacityNode("n2", {{"cpu", "4"}})}; };
  auto pods = [] { return std::vector{NamedPod("on-n1", 0, "4", "n1"), NamedPod("on-n2", 0, "4", "n2")}; };
  const Pod preemptor = NamedPod("preemptor", 10, "2");

  SECTION("the extender's choice stands; a failing ignorable one is skipped") {
    FakePreemptionExtender broken([](const auto&) -> absl::StatusOr<ksched::framework::NodeVictims> {
      return absl::UnavailableError("down");
    }, true);
    FakePreemptionExtender keep_n2(Keep("n2"), false);
    Runtime rt(nodes(), pods(), {}, {&broken, &keep_n2});
    auto [result, status] = rt.Preempt(preemptor);
    INFO(status.ToString());
    REQUIRE(status.IsSuccess());
    CHECK(status.Message() ==
          "preemption: found a potential placement for pod on node n2, preempting 1 victims");
    CHECK(result.nominating_info.nominated_node_name == "n2");
    CHECK(keep_n2.seen == std::vector<std::size_t>{2});
    REQUIRE(rt.api.WaitEvicted(1));
    CHECK(rt.api.evicted() == std::vector<std::string>{"on-n2"});
  }
  SECTION("an error of an extender that is not ignorable fails the preemption") {
    FakePreemptionExtender broken([](const auto&) -> absl::StatusOr<ksched::framework::NodeVictims> {
      return absl::UnavailableError("failed preempt with extender at URL http://fake/preempt, code 500");
    }, false);
    Runtime rt(nodes(), pods(), {}, {&broken});
    auto [result, status] = rt.Preempt(preemptor);
    CHECK(status.code() == Code::kError);
    CHECK(status.Message() == "preemption: failed preempt with extender at URL http://fake/preempt, code 500");
  }
  SECTION("a node without victims: an error, or dropped by an ignorable extender") {
    auto empty_n1 = [](const ksched::framework::NodeVictims& victims) -> absl::StatusOr<ksched::framework::NodeVictims> {
      ksched::framework::NodeVictims kept = victims;
      kept["n1"].pods.clear();
      return kept;
    };
    FakePreemptionExtender strict(empty_n1, false);
    Runtime strict_rt(nodes(), pods(), {}, {&strict});
    auto [unused, status] = strict_rt.Preempt(preemptor);
    CHECK(status.Message() == "preemption: expected at least one victim pod on node \"n1\"");

    FakePreemptionExtender lenient(empty_n1, true);
    Runtime lenient_rt(nodes(), pods(), {}, {&lenient});
    auto [result, ok] = lenient_rt.Preempt(preemptor);
    REQUIRE(ok.IsSuccess());
    CHECK(result.nominating_info.nominated_node_name == "n2");
  }
  SECTION("no candidate left: no preemption, and the later extenders are not asked") {
    FakePreemptionExtender none([](const auto&) -> absl::StatusOr<ksched::framework::NodeVictims> {
      return ksched::framework::NodeVictims{};
    }, false);
    FakePreemptionExtender later(Keep("n1"), false);
    Runtime rt(nodes(), pods(), {}, {&none, &later});
    auto [result, status] = rt.Preempt(preemptor);
    CHECK(status.code() == Code::kUnschedulable);
    CHECK(status.Message() == "preemption: no candidate node for preemption");
    CHECK(later.seen.empty());
    CHECK(rt.api.evicted().empty());
  }
}

