// Scheduler: the scheduling loop end to end (upstream schedule_one_test.go TestSchedulerScheduleOne
// and handleSchedulingFailure, v1.37) over a real Cache, SchedulingQueue (FakeClock) and framework
// runtimes of fake plugins, with a fake ClusterApi, recording event recorders and status writer,
// and an informer lookup over a map. Driven by ScheduleOne() and DrainBindings().
#include "scheduler/scheduler.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "queue_test_support.h"
#include "scheduler_harness.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::Status;
using testing::Harness;
using testing::PodBuilder;
using testing::ProfileBuilder;
using testing::RecordedEvent;
using testing::WrittenCondition;

// Records Reserve and Unreserve calls as "pod@node".
struct ReserveLog {
  std::mutex mu;
  std::vector<std::string> reserved;
  std::vector<std::string> unreserved;

  testing::FakeReserve::ReserveFn Reserve(Status answer = Status()) {
    return [this, answer](const api::Pod& pod, const std::string& node) {
      std::lock_guard lock(mu);
      reserved.push_back(pod.metadata.name + "@" + node);
      return answer;
    };
  }
  testing::FakeReserve::UnreserveFn Unreserve() {
    return [this](const api::Pod& pod, const std::string& node) {
      std::lock_guard lock(mu);
      unreserved.push_back(pod.metadata.name + "@" + node);
    };
  }
  std::vector<std::string> Unreserved() {
    std::lock_guard lock(mu);
    return unreserved;
  }
};

Status TrueFilter(const api::Pod&, const NodeInfo&) { return Status(); }

Status Injected(const api::Pod& pod) {
  return Status(Code::kUnschedulable, {"injecting failure for pod " + pod.metadata.name});
}
Status RejectAll(const api::Pod& pod, const NodeInfo&) { return Injected(pod); }

RecordedEvent FailedScheduling(const std::string& pod, std::string note) {
  return RecordedEvent{pod, "Warning", "FailedScheduling", "Scheduling", std::move(note)};
}
RecordedEvent Scheduled(const std::string& pod, const std::string& node) {
  return RecordedEvent{pod, "Normal", "Scheduled", "Binding",
                       "Successfully assigned " + pod + " to " + node};
}

// The single PodScheduled=False condition written for `pod`.
void CheckCondition(const Harness& harness, const std::string& pod, const std::string& reason,
                    const std::string& message, std::int64_t generation = 0) {
  const std::vector<WrittenCondition> written = harness.writer().written();
  REQUIRE(written.size() == 1);
  CHECK(written[0].pod == pod);
  CHECK(written[0].condition.type == "PodScheduled");
  CHECK(written[0].condition.status == "False");
  CHECK(written[0].condition.reason == reason);
  CHECK(written[0].condition.message == message);
  CHECK(written[0].condition.observed_generation == generation);
}

TEST_CASE("Scheduler: a schedulable pod is assumed, bound, then confirmed by the informer",
          "[scheduler]") {
  // Both ways of binding: on the pool's threads, and asynchronously from the ClusterApi's thread.
  const testing::BindMode mode = GENERATE(testing::BindMode::kBlocking, testing::BindMode::kAsync);
  ReserveLog reserve;
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .Reserve("FakeReserve", reserve.Reserve(), reserve.Unreserve())},
                  {}, mode);
  CHECK(harness.Profile().BindsWithoutBlocking() == (mode == testing::BindMode::kAsync));
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);

  harness.ScheduleOne();
  // Assumed by the scheduling cycle, whatever the binding cycle's progress.
  CHECK(harness.cache().AssumedPodCount() == 1);
  harness.DrainBindings();

  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
  CHECK(harness.Events() == std::vector<RecordedEvent>{Scheduled("ns1/p", "node1")});
  CHECK(harness.writer().written().empty());
  CHECK(reserve.reserved == std::vector<std::string>{"p@node1"});
  CHECK(reserve.Unreserved().empty());
  CHECK(harness.scheduler().stats().attempts == 1);
  CHECK(harness.scheduler().stats().scheduled == 1);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());

  // The bind finished but only the informer's Add confirms the pod.
  api::Pod bound = pod;
  bound.spec.node_name = "node1";
  REQUIRE(harness.cache().IsAssumedPod(bound));
  REQUIRE(harness.cache()
              .AddPod(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(bound)))
              .ok());
  CHECK_FALSE(harness.cache().IsAssumedPod(bound));
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.cache().PodCount() == 1);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().size() == 1);
}

TEST_CASE("Scheduler: an unschedulable pod gets FailedScheduling, PodScheduled=False and waits "
          "in the unschedulable pool",
          "[scheduler]") {
  const std::string fit_message = "0/2 nodes are available: 2 injecting failure for pod p.";
  api::Pod pod = PodBuilder("p").Obj();
  pod.metadata.generation = 3;

  SECTION("without PostFilter") {
    Harness harness({ProfileBuilder().Filter("FakeFilter", RejectAll)});
    harness.AddNode("node1");
    harness.AddNode("node2");
    harness.AddPod(pod);
    harness.ScheduleOne();

    CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", fit_message)});
    CheckCondition(harness, "ns1/p", "Unschedulable", fit_message, 3);
    // v1.37 clears a nomination without PostFilter too (v1.34 left it: no NominatingInfo).
    const std::optional<framework::NominatingInfo> nominating = harness.writer().written()[0].nominating;
    REQUIRE(nominating.has_value());
    CHECK(nominating->mode == framework::NominatingMode::kOverride);
    CHECK(nominating->nominated_node_name.empty());
    CHECK(harness.Where(pod) == QueuedIn::kUnschedulable);
    const std::optional<framework::QueuedPodInfo> queued = harness.queue().GetPod("ns1", "p");
    REQUIRE(queued.has_value());
    CHECK(queued->unschedulable_plugins == std::set<std::string, std::less<>>{"FakeFilter"});
    CHECK(harness.queue().InFlightPods().empty());
    CHECK(harness.scheduler().stats().unschedulable == 1);
    CHECK(harness.cache().AssumedPodCount() == 0);
    CHECK(harness.cluster_api().binds().empty());
  }
  SECTION("PostFilter's message follows the FitError's") {
    const std::string post =
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
    Harness harness({ProfileBuilder()
                         .Filter("FakeFilter", RejectAll)
                         .PostFilter("FakePostFilter",
                                     [&](const api::Pod&, const framework::NodeToStatus&) {
                                       return std::make_pair(framework::PostFilterResult{},
                                                             Status(Code::kUnschedulable, {post}));
                                     })});
    harness.AddNode("node1");
    harness.AddNode("node2");
    harness.AddPod(pod);
    harness.ScheduleOne();
    CHECK(harness.Events() ==
          std::vector<RecordedEvent>{FailedScheduling("ns1/p", fit_message + " " + post)});
    CheckCondition(harness, "ns1/p", "Unschedulable", fit_message + " " + post, 3);
    CHECK(harness.Where(pod) == QueuedIn::kUnschedulable);
  }
  SECTION("PostFilter nominating a node: the nomination is written and known to the queue") {
    Harness harness({ProfileBuilder()
                         .Filter("FakeFilter", RejectAll)
                         .PostFilter("FakePostFilter",
                                     [](const api::Pod&, const framework::NodeToStatus&) {
                                       framework::PostFilterResult result;
                                       result.nominating_info = {
                                           "node2", framework::NominatingMode::kOverride};
                                       return std::make_pair(result, Status());
                                     })});
    harness.AddNode("node1");
    harness.AddNode("node2");
    harness.AddPod(pod);
    harness.ScheduleOne();
    CheckCondition(harness, "ns1/p", "Unschedulable", fit_message, 3);
    const std::optional<framework::NominatingInfo> nominating =
        harness.writer().written()[0].nominating;
    REQUIRE(nominating.has_value());
    CHECK(nominating->nominated_node_name == "node2");
    CHECK(nominating->mode == framework::NominatingMode::kOverride);
    const std::vector<framework::PodInfoPtr> nominated = harness.queue().NominatedPodsForNode("node2");
    REQUIRE(nominated.size() == 1);
    CHECK(nominated[0]->pod().metadata.name == "p");
  }
}

TEST_CASE("Scheduler: an error is reported as SchedulerError and retried after the error backoff",
          "[scheduler]") {
  Harness harness({ProfileBuilder().Filter("FakeFilter", [](const api::Pod&, const NodeInfo&) {
    return Status::FromError("boom");
  })});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();

  const std::string message = "running \"FakeFilter\" filter plugin: boom";
  CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
  CheckCondition(harness, "ns1/p", "SchedulerError", message);
  // The nominated node is cleared on errors.
  const std::optional<framework::NominatingInfo> nominating = harness.writer().written()[0].nominating;
  REQUIRE(nominating.has_value());
  CHECK(nominating->mode == framework::NominatingMode::kOverride);
  CHECK(nominating->nominated_node_name.empty());
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
  CHECK(harness.queue().GetPod("ns1", "p")->consecutive_errors == 1);
  CHECK(harness.scheduler().stats().errors == 1);
}

TEST_CASE("Scheduler: no nodes at all", "[scheduler]") {
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter)});
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();
  CHECK(harness.Events() ==
        std::vector<RecordedEvent>{FailedScheduling("ns1/p", "no nodes available to schedule pods")});
  CheckCondition(harness, "ns1/p", "Unschedulable", "no nodes available to schedule pods");
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
}

TEST_CASE("Scheduler: Reserve and Permit failures in the scheduling cycle undo the assumption",
          "[scheduler]") {
  struct Case {
    const char* name;
    Status reserve;
    Status permit;
    std::string reason;
    std::string message;
    QueuedIn where;
  };
  const std::vector<Case> cases = {
      {"Reserve error", Status::FromError("reserve error"), Status(), "SchedulerError",
       "running Reserve plugin \"FakeReserve\": reserve error", QueuedIn::kBackoff},
      {"Reserve rejection", Status(Code::kUnschedulable, {"rejected on reserve"}), Status(),
       "Unschedulable", "0/1 nodes are available: 1 rejected on reserve.", QueuedIn::kUnschedulable},
      {"Permit error", Status(), Status::FromError("permit error"), "SchedulerError",
       "running Permit plugin \"FakePermit\": permit error", QueuedIn::kBackoff},
      {"Permit rejection", Status(), Status(Code::kUnschedulable, {"rejected on permit"}),
       "Unschedulable", "0/1 nodes are available: 1 rejected on permit.", QueuedIn::kUnschedulable},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    ReserveLog reserve;
    const Status permit = c.permit;
    Harness harness({ProfileBuilder()
                         .Filter("TrueFilter", TrueFilter)
                         .Reserve("FakeReserve", reserve.Reserve(c.reserve), reserve.Unreserve())
                         .Permit("FakePermit", [permit](const api::Pod&, const std::string&) {
                           return std::make_pair(permit, std::chrono::milliseconds(0));
                         })});
    harness.AddNode("node1");
    const api::Pod pod = PodBuilder("p").Obj();
    harness.AddPod(pod);
    harness.ScheduleOne();
    harness.DrainBindings();

    CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", c.message)});
    CheckCondition(harness, "ns1/p", c.reason, c.message);
    CHECK(reserve.Unreserved() == std::vector<std::string>{"p@node1"});
    CHECK(harness.cache().AssumedPodCount() == 0);
    CHECK(harness.cache().GetNodeInfo("node1")->pods().empty());
    CHECK(harness.cluster_api().binds().empty());
    CHECK(harness.Where(pod) == c.where);
    if (c.where == QueuedIn::kUnschedulable) {
      const std::string plugin = c.reserve.IsSuccess() ? "FakePermit" : "FakeReserve";
      CHECK(harness.queue().GetPod("ns1", "p")->unschedulable_plugins ==
            std::set<std::string, std::less<>>{plugin});
    }
  }
}

TEST_CASE("Scheduler: a failed bind unreserves, forgets the pod, requeues it and raises "
          "AssignedPodDelete",
          "[scheduler]") {
  const testing::BindMode mode = GENERATE(testing::BindMode::kBlocking, testing::BindMode::kAsync);
  ReserveLog reserve;
  // The filter turns "waiter" down until an assigned pod goes away.
  framework::ClusterEventWithHint assigned_pod_delete{
      framework::ClusterEvent{framework::EventResource::kAssignedPod, framework::action::kDelete,
                              "AssignedPodDelete"},
      nullptr};
  Harness harness(
      {ProfileBuilder()
           .Filter("FakeFilter",
                   [](const api::Pod& pod, const NodeInfo&) {
                     return pod.metadata.name == "waiter" ? Injected(pod) : Status();
                   },
                   {assigned_pod_delete})
           .Reserve("FakeReserve", reserve.Reserve(), reserve.Unreserve())},
      [](const api::Pod&, const std::string&) {
        return Status::FromError("etcdserver: request timed out");
      },
      mode);
  harness.AddNode("node1");
  const api::Pod waiter = PodBuilder("waiter").Obj();
  harness.AddPod(waiter);
  harness.ScheduleOne();
  REQUIRE(harness.Where(waiter) == QueuedIn::kUnschedulable);

  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();

  const std::string message = "running Bind plugin \"DefaultBinder\": etcdserver: request timed out";
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
  CHECK(reserve.Unreserved() == std::vector<std::string>{"p@node1"});
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.cache().PodCount() == 0);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().empty());
  const std::vector<RecordedEvent> events = harness.Events();
  REQUIRE(events.size() == 2);
  CHECK(events[1] == FailedScheduling("ns1/p", message));
  const std::vector<WrittenCondition> written = harness.writer().written();
  REQUIRE(written.size() == 2);
  CHECK(written[1].condition.reason == "SchedulerError");
  CHECK(written[1].condition.message == message);
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
  CHECK(harness.queue().InFlightPods().empty());
  // The room the assumed pod held is free again: the waiter retries.
  CHECK(harness.Where(waiter) != QueuedIn::kUnschedulable);
  CHECK(harness.Where(waiter) != QueuedIn::kNowhere);
}

TEST_CASE("Scheduler: a failed pod is requeued only while the informer shows it pending",
          "[scheduler]") {
  Harness harness({ProfileBuilder().Filter("FakeFilter", RejectAll)});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  const std::string message = "0/1 nodes are available: 1 injecting failure for pod p.";
  bool reported = true;

  SECTION("deleted meanwhile") {
    harness.RemoveInformerPod(pod);
  }
  SECTION("re-created meanwhile under the same name: v1.37 reports nothing either") {
    harness.SetInformerPod(PodBuilder("p").Uid("another-uid").Obj());
    reported = false;
  }
  SECTION("bound meanwhile (by another scheduler)") {
    harness.SetInformerPod(PodBuilder("p").Node("node9").Obj());
  }
  harness.ScheduleOne();
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());
  if (!reported) {
    CHECK(harness.Events().empty());
    CHECK(harness.writer().written().empty());
    return;
  }
  // The attempt is still reported.
  CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
  CheckCondition(harness, "ns1/p", "Unschedulable", message);
}

TEST_CASE("Scheduler: a bind conflict on a pod the informer shows bound is not retried",
          "[scheduler]") {
  const std::string conflict =
      "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node "
      "\"node2\"";
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter)},
                  [&](const api::Pod&, const std::string&) { return Status::FromError(conflict); });
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.SetInformerPod(PodBuilder("p").Node("node2").Obj());
  harness.ScheduleOne();
  harness.DrainBindings();

  const std::string message = "running Bind plugin \"DefaultBinder\": " + conflict;
  CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
  CheckCondition(harness, "ns1/p", "SchedulerError", message);
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());
}

TEST_CASE("Scheduler: a pod being deleted is skipped", "[scheduler]") {
  std::atomic<int> filter_calls{0};
  Harness harness({ProfileBuilder().Filter("CountingFilter", [&](const api::Pod&, const NodeInfo&) {
    filter_calls.fetch_add(1);
    return Status();
  })});
  harness.AddNode("node1");
  api::Pod pod = PodBuilder("p").Obj();
  pod.metadata.deletion_timestamp = api::Time(std::chrono::seconds(1700000000));
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();

  CHECK(harness.Events() ==
        std::vector<RecordedEvent>{FailedScheduling("ns1/p", "skip schedule deleting pod: ns1/p")});
  CHECK(harness.writer().written().empty());
  CHECK(filter_calls == 0);
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.scheduler().stats().skipped == 1);
  CHECK(harness.scheduler().stats().attempts == 0);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());
}

TEST_CASE("Scheduler: a pod of another scheduler name is never scheduled", "[scheduler]") {
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter)});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").SchedulerName("other-scheduler").Obj();
  CHECK_FALSE(harness.scheduler().Responsible(pod));
  CHECK(harness.scheduler().FrameworkForPod(pod) == nullptr);
  // Only a bug would queue it; the loop drops it.
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.Events().empty());
  CHECK(harness.writer().written().empty());
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());
}

TEST_CASE("Scheduler: each pod runs in the profile of its schedulerName", "[scheduler]") {
  auto only = [](std::string node) {
    return [node](const api::Pod& pod, const NodeInfo& info) {
      return info.name() == node ? Status() : Injected(pod);
    };
  };
  Harness harness({ProfileBuilder().Filter("OnlyNode1", only("node1")),
                   ProfileBuilder("second-scheduler").Filter("OnlyNode2", only("node2"))});
  harness.AddNode("node1");
  harness.AddNode("node2");
  const api::Pod a = PodBuilder("a").Obj();
  const api::Pod b = PodBuilder("b").SchedulerName("second-scheduler").Obj();
  CHECK(harness.scheduler().FrameworkForPod(a) == &harness.Profile());
  CHECK(harness.scheduler().FrameworkForPod(b) == &harness.Profile("second-scheduler"));
  harness.AddPod(a);
  harness.AddPod(b);
  harness.ScheduleOne();
  harness.ScheduleOne();
  harness.DrainBindings();

  std::vector<std::string> binds = harness.cluster_api().binds();
  std::sort(binds.begin(), binds.end());
  CHECK(binds == std::vector<std::string>{"ns1/a -> node1", "ns1/b -> node2"});
  CHECK(harness.Events() == std::vector<RecordedEvent>{Scheduled("ns1/a", "node1")});
  CHECK(harness.Events("second-scheduler") == std::vector<RecordedEvent>{Scheduled("ns1/b", "node2")});
}

TEST_CASE("Scheduler: a pod waiting at Permit binds once allowed, fails once rejected",
          "[scheduler]") {
  ReserveLog reserve;
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .Reserve("FakeReserve", reserve.Reserve(), reserve.Unreserve())
                       .Permit("FakePermit", [](const api::Pod&, const std::string&) {
                         return std::make_pair(Status(Code::kWait), std::chrono::milliseconds(10000));
                       })});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();

  // The binding cycle waits; the pod is assumed meanwhile.
  std::vector<std::vector<std::string>> pending;
  harness.Profile().IterateOverWaitingPods(
      [&](framework::WaitingPod& waiting) { pending.push_back(waiting.PendingPlugins()); });
  REQUIRE(pending == std::vector<std::vector<std::string>>{{"FakePermit"}});
  CHECK(harness.cache().AssumedPodCount() == 1);
  CHECK(harness.cluster_api().binds().empty());

  SECTION("Allow") {
    harness.Profile().IterateOverWaitingPods(
        [](framework::WaitingPod& waiting) { waiting.Allow("FakePermit"); });
    harness.DrainBindings();
    CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
    CHECK(harness.Events() == std::vector<RecordedEvent>{Scheduled("ns1/p", "node1")});
    CHECK(reserve.Unreserved().empty());
  }
  SECTION("Reject") {
    harness.Profile().IterateOverWaitingPods(
        [](framework::WaitingPod& waiting) { waiting.Reject("FakePermit", "not now"); });
    harness.DrainBindings();
    const std::string message = "0/1 nodes are available: 1 not now.";
    CHECK(harness.cluster_api().binds().empty());
    CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
    CheckCondition(harness, "ns1/p", "Unschedulable", message);
    CHECK(reserve.Unreserved() == std::vector<std::string>{"p@node1"});
    CHECK(harness.cache().AssumedPodCount() == 0);
    // Requeued with its rejector. Upstream handleBindingCycleError raises the AssignedPodDelete
    // of the forgotten pod after requeueing it and excludes the pod itself, which leaves it in the
    // unschedulable pool; here the event reaches it while in flight and sends it to the backoffQ
    // (SchedulingQueue::MoveAllToActiveOrBackoffQueue has no pre-check to exclude it).
    CHECK((harness.Where(pod) == QueuedIn::kUnschedulable || harness.Where(pod) == QueuedIn::kBackoff));
    CHECK(harness.queue().GetPod("ns1", "p")->unschedulable_plugins ==
          std::set<std::string, std::less<>>{"FakePermit"});
  }
}

TEST_CASE("Scheduler: an assumed pod is no longer nominated", "[scheduler]") {
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .Permit("FakePermit", [](const api::Pod&, const std::string&) {
                         return std::make_pair(Status(Code::kWait), std::chrono::milliseconds(10000));
                       })});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").NominatedNode("node1").Obj();
  harness.AddPod(pod);
  REQUIRE(harness.queue().NominatedPodsForNode("node1").size() == 1);
  harness.ScheduleOne();
  // upstream assume(): DeleteNominatedPodIfExists, so that other pods' filters do not count the
  // pod twice (assumed on its node and nominated to it) while it binds.
  CHECK(harness.queue().NominatedPodsForNode("node1").empty());
  harness.Profile().IterateOverWaitingPods(
      [](framework::WaitingPod& waiting) { waiting.Allow("FakePermit"); });
  harness.DrainBindings();
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
}

}  // namespace
}  // namespace ksched::scheduler
