// SchedulingQueue (upstream pkg/scheduler/backend/queue/scheduling_queue_test.go, v1.34): ordering,
// gating, backoff, the unschedulable pool and its flush, queueing hints, in-flight events, updates,
// deletes, activation, assigned-pod events, the nominator view and the flush thread.
//
// Time is a FakeClock starting on a whole second; with the default 1 s ordering window a backoff
// expiring at t completes once the clock reaches the next window (t + 1 s when t is whole).
#include "scheduler/scheduling_queue.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "queue_test_support.h"
#include "scheduler/cluster_events.h"

namespace ksched::scheduler {
namespace {

using namespace std::chrono_literals;
using framework::ClusterEventWithHint;
using framework::EventResource;
using framework::QueuedPodInfoPtr;
namespace action = framework::action;
using testing::Event;
using testing::Info;
using testing::NewQueue;
using testing::NodeAdd;
using testing::PodBuilder;
using testing::PopAndReject;
using testing::PopOrFail;
using testing::PvAdd;
using testing::QueueHint;
using testing::Registrations;
using testing::Requeue;
using testing::SkipHint;

QueuedIn WhereIs(const SchedulingQueue& queue, std::string_view name, std::string_view ns = "ns1") {
  return queue.Where(ns, name);
}

// A pod rejected by `plugin` at the current time, parked in the unschedulable pool.
void AddRejected(SchedulingQueue& queue, const PodBuilder& pod, std::string plugin) {
  queue.Add(pod.Info());
  Requeue(queue, PopAndReject(queue, pod.Obj().metadata.name, {std::move(plugin)}));
}

TEST_CASE("SchedulingQueue: pops in QueueSort order and nominates pods carrying a node",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  queue->Add(PodBuilder("mpp", "ns2").Priority(500).NominatedNode("node1").Info());
  queue->Add(PodBuilder("up").Priority(0).NominatedNode("node1").Info());
  queue->Add(PodBuilder("hpp").Priority(1000).Info());

  CHECK(queue->NominatedPodsForNode("node1").size() == 2);
  CHECK(PopOrFail(*queue)->pod().metadata.name == "hpp");
  CHECK(PopOrFail(*queue)->pod().metadata.name == "mpp");
  CHECK(PopOrFail(*queue)->pod().metadata.name == "up");
  // Popping does not drop nominations (upstream keeps them until the pod is bound or deleted).
  CHECK(queue->NominatedPodsForNode("node1").size() == 2);
}

TEST_CASE("SchedulingQueue: a gated pod's nomination is recorded (v1.37, k/k #139057)",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  queue->Add(PodBuilder("gated").Gates({"g"}).NominatedNode("node1").Info());
  REQUIRE(WhereIs(*queue, "gated") == QueuedIn::kGated);
  // Lower-priority pods keep off the nominated room while the pod waits at its gate.
  CHECK(queue->NominatedPodsForNode("node1").size() == 1);
  // An update that leaves the nomination keeps it.
  queue->Update(PodBuilder("gated").Gates({"g"}).NominatedNode("node1").Info(),
                PodBuilder("gated").Gates({"g"}).NominatedNode("node1").Label("a", "b").Info());
  CHECK(queue->NominatedPodsForNode("node1").size() == 1);
}

TEST_CASE("SchedulingQueue: equal priorities pop in arrival order", "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  queue->Add(PodBuilder("first").Info());
  clock.Step(1ms);
  queue->Add(PodBuilder("second").Info());
  clock.Step(1ms);
  queue->Add(PodBuilder("urgent").Priority(10).Info());
  CHECK(PopOrFail(*queue)->pod().metadata.name == "urgent");
  CHECK(PopOrFail(*queue)->pod().metadata.name == "first");
  CHECK(PopOrFail(*queue)->pod().metadata.name == "second");
}

TEST_CASE("SchedulingQueue: Pop blocks until a pod arrives, Close wakes it with nullptr",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());

  auto waiting = std::async(std::launch::async, [&] { return queue->Pop(); });
  queue->Add(PodBuilder("late").Info());
  REQUIRE(waiting.wait_for(5s) == std::future_status::ready);
  QueuedPodInfoPtr pod = waiting.get();
  REQUIRE(pod != nullptr);
  CHECK(pod->pod().metadata.name == "late");

  auto closed = std::async(std::launch::async, [&] { return queue->Pop(); });
  queue->Close();
  REQUIRE(closed.wait_for(5s) == std::future_status::ready);
  CHECK(closed.get() == nullptr);

  // Closed for good, even with pods queued; Close is idempotent.
  queue->Add(PodBuilder("after-close").Info());
  CHECK(queue->Pop() == nullptr);
  queue->Close();
}

TEST_CASE("SchedulingQueue: Pop counts attempts and cycles, a popped pod is in flight until Done",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  queue->Add(PodBuilder("p").Info());
  CHECK(queue->SchedulingCycle() == 0);

  QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {"P"});
  CHECK(pod->attempts == 1);
  CHECK(pod->has_initial_attempt);
  CHECK(queue->SchedulingCycle() == 1);
  REQUIRE(queue->InFlightPods().size() == 1);
  CHECK(queue->InFlightPods()[0]->metadata.name == "p");
  CHECK(WhereIs(*queue, "p") == QueuedIn::kNowhere);

  Requeue(*queue, std::move(pod));  // ends the in-flight period too
  CHECK(queue->InFlightPods().empty());
  CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);

  clock.Step(2s);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  pod = PopOrFail(*queue);
  CHECK(pod->attempts == 2);
  CHECK(queue->SchedulingCycle() == 2);
  // The new attempt records its own rejectors.
  CHECK(pod->unschedulable_plugins.empty());
  queue->Done(pod->pod().metadata.uid);
  CHECK(queue->InFlightPods().empty());
}

TEST_CASE("SchedulingQueue: a rejected pod waits for an event its rejecting plugin registered",
          "[scheduling_queue]") {
  struct Case {
    const char* name;
    framework::QueueingHintFn hint;
    QueuedIn want;
  };
  const std::vector<Case> cases = {
      {"hint Queue", QueueHint(), QueuedIn::kBackoff},
      {"hint QueueSkip", SkipHint(), QueuedIn::kUnschedulable},
      {"hint error counts as Queue", testing::ErrorHint(), QueuedIn::kBackoff},
      {"no hint function means Queue", nullptr, QueuedIn::kBackoff},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      FakeClock clock;
      auto queue = NewQueue(
          clock, Registrations({{"P", {NodeAdd(), c.hint}}, {"Q", {PvAdd(), QueueHint()}}}));
      AddRejected(*queue, PodBuilder("p"), "P");
      REQUIRE(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
      CHECK(queue->Counts().unschedulable == 1);

      // Only P's registrations matter: PvAdd interests Q, which did not reject the pod.
      queue->MoveAllToActiveOrBackoffQueue(PvAdd(), framework::EventObjects{});
      CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);

      // Still within its 1 s backoff: the backoffQ.
      queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
      CHECK(WhereIs(*queue, "p") == c.want);
    }
  }
}

TEST_CASE("SchedulingQueue: a pod whose backoff is over goes straight to activeQ on its event",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  AddRejected(*queue, PodBuilder("p"), "P");
  clock.Step(2s);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: only the hints of the rejecting plugins are called",
          "[scheduling_queue]") {
  FakeClock clock;
  int rejector_calls = 0;
  int bystander_calls = 0;
  auto queue = NewQueue(clock, Registrations({{"A", {NodeAdd(), SkipHint(&rejector_calls)}},
                                              {"B", {NodeAdd(), QueueHint(&bystander_calls)}}}));
  AddRejected(*queue, PodBuilder("p"), "A");
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  CHECK(rejector_calls == 1);
  CHECK(bystander_calls == 0);
  CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
}

TEST_CASE("SchedulingQueue: a plugin registered for the wildcard event requeues on any event",
          "[scheduling_queue]") {
  FakeClock clock;
  // What the runtime registers for a plugin that implements no EnqueueExtensions.
  auto queue = NewQueue(clock, Registrations({{"W", {Event(EventResource::kWildCard, action::kAll),
                                                     nullptr}}}));
  AddRejected(*queue, PodBuilder("p"), "W");
  queue->MoveAllToActiveOrBackoffQueue(PvAdd(), framework::EventObjects{});
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
}

TEST_CASE("SchedulingQueue: a generic update does not wake a plugin registered for a specific one",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"L", {Event(EventResource::kNode,
                                                           action::kUpdateNodeLabel),
                                                     QueueHint()}}}));
  AddRejected(*queue, PodBuilder("p"), "L");
  queue->MoveAllToActiveOrBackoffQueue(MakeClusterEvent(EventResource::kNode, action::kUpdate),
                                       framework::EventObjects{});
  CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
  queue->MoveAllToActiveOrBackoffQueue(
      MakeClusterEvent(EventResource::kNode, action::kUpdateNodeLabel), framework::EventObjects{});
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
}

TEST_CASE("SchedulingQueue: a Pending plugin's Queue skips the backoff", "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"Pend", {NodeAdd(), QueueHint()}}}));
  queue->Add(PodBuilder("p").Info());
  Requeue(*queue, PopAndReject(*queue, "p", {}, {"Pend"}));
  REQUIRE(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: backoff doubles per rejection and completes at window boundaries",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  AddRejected(*queue, PodBuilder("p"), "P");  // 1st rejection: 1 s
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  REQUIRE(WhereIs(*queue, "p") == QueuedIn::kBackoff);

  clock.Step(1s);  // expiry t0+1s is in the current window: still backing off
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  clock.Step(1s);
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);

  Requeue(*queue, PopAndReject(*queue, "p", {"P"}));  // 2nd rejection: 2 s
  CHECK(queue->GetPod("ns1", "p")->unschedulable_count == 2);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  REQUIRE(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  clock.Step(2s);
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  clock.Step(1s);
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: without ordering windows a backoff completes right after its expiry",
          "[scheduling_queue]") {
  FakeClock clock;
  SchedulingQueueOptions options;
  options.pop_from_backoff_q = false;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}), options);
  AddRejected(*queue, PodBuilder("p"), "P");
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  REQUIRE(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  clock.Step(1s);  // expiry == now still counts as backing off (upstream !expiry.Before(now))
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  clock.Step(1ms);
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: errors back off on their own count in the error backoffQ",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  queue->Add(PodBuilder("p").Priority(100).Info());

  // An error: no rejecting plugin. Straight to the (error) backoffQ, not the pool.
  Requeue(*queue, PopAndReject(*queue, "p", {}));
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  CHECK(queue->Counts().backoff == 1);
  CHECK(queue->GetPod("ns1", "p")->consecutive_errors == 1);
  CHECK(queue->GetPod("ns1", "p")->unschedulable_count == 0);

  // Never popped early, even with a higher priority than what activeQ holds.
  queue->Add(PodBuilder("other").Info());
  CHECK(PopOrFail(*queue)->pod().metadata.name == "other");
  CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);

  clock.Step(2s);
  queue->FlushBackoffQCompleted();
  REQUIRE(WhereIs(*queue, "p") == QueuedIn::kActive);

  // A rejection now: the rejection count starts at 1 and the error count resets.
  Requeue(*queue, PopAndReject(*queue, "p", {"P"}));
  CHECK(queue->GetPod("ns1", "p")->unschedulable_count == 1);
  CHECK(queue->GetPod("ns1", "p")->consecutive_errors == 0);

  // An error after a rejection backs off by the error count (1 s), not the rejections'.
  clock.Step(2s);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  Requeue(*queue, PopAndReject(*queue, "p", {"P"}));  // 2nd rejection (2 s backoff)
  clock.Step(3s);
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  Requeue(*queue, PopAndReject(*queue, "p", {}));  // then an error
  CHECK(queue->GetPod("ns1", "p")->consecutive_errors == 1);
  CHECK(queue->GetPod("ns1", "p")->unschedulable_count == 2);
  clock.Step(2s);
  queue->FlushBackoffQCompleted();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: Pop takes a backing-off rejected pod when activeQ is empty",
          "[scheduling_queue]") {
  FakeClock clock;
  auto hints = Registrations({{"P", {NodeAdd(), QueueHint()}}});

  SECTION("SchedulerPopFromBackoffQ on: the backoffQ head, higher priority first within a window") {
    auto queue = NewQueue(clock, hints);
    AddRejected(*queue, PodBuilder("low").Priority(1), "P");
    AddRejected(*queue, PodBuilder("high").Priority(9), "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    REQUIRE(queue->Counts().backoff == 2);
    QueuedPodInfoPtr pod = PopOrFail(*queue);
    CHECK(pod->pod().metadata.name == "high");
    CHECK(pod->attempts == 2);
    CHECK(PopOrFail(*queue)->pod().metadata.name == "low");
  }
  SECTION("SchedulerPopFromBackoffQ off: only activeQ pops") {
    SchedulingQueueOptions options;
    options.pop_from_backoff_q = false;
    auto queue = NewQueue(clock, hints, options);
    AddRejected(*queue, PodBuilder("waiting").Priority(9), "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    REQUIRE(WhereIs(*queue, "waiting") == QueuedIn::kBackoff);
    queue->Add(PodBuilder("fresh").Info());
    CHECK(PopOrFail(*queue)->pod().metadata.name == "fresh");
    CHECK(WhereIs(*queue, "waiting") == QueuedIn::kBackoff);
  }
}

TEST_CASE("SchedulingQueue: the unschedulable pool is flushed after the maximum stay",
          "[scheduling_queue]") {
  FakeClock clock;
  // The rejecting plugin never says Queue: only the timeout can move the pod.
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), SkipHint()}}}));
  AddRejected(*queue, PodBuilder("p"), "P");
  queue->Add(PodBuilder("gated").Gates({"g"}).Info());
  REQUIRE(WhereIs(*queue, "gated") == QueuedIn::kGated);

  clock.Step(5min);
  queue->FlushUnschedulablePodsLeftover();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);

  clock.Step(1s);
  queue->FlushUnschedulablePodsLeftover();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);  // its 1 s backoff is long over
  // The flush re-runs PreEnqueue for the gated pod too (v1.37); its gate is still there.
  CHECK(WhereIs(*queue, "gated") == QueuedIn::kGated);
  QueuedPodInfoPtr flushed = PopOrFail(*queue);
  CHECK(flushed->pod().metadata.name == "p");
  CHECK(flushed->was_flushed_from_unschedulable);  // counted in scheduler_pod_scheduled_after_flush_total if bound
  // Back after an attempt: no longer flushed.
  flushed->unschedulable_plugins.insert("P");
  REQUIRE(queue->AddUnschedulableIfNotPresent(std::move(flushed), queue->SchedulingCycle()).ok());
  CHECK_FALSE(queue->GetPod("ns1", "p")->was_flushed_from_unschedulable);
}

TEST_CASE("SchedulingQueue: the flush reaches gated pods, once per period (v1.37 FlushTimestamp)",
          "[scheduling_queue]") {
  FakeClock clock;
  // A PreEnqueue plugin whose ungating event never comes (a missed event): only the flush can
  // re-run it.
  int pre_enqueue_calls = 0;
  bool gate = true;
  SchedulingQueue queue(
      SchedulingQueueOptions{}, clock, testing::PrioritySortLess(),
      [&](const api::Pod&) {
        ++pre_enqueue_calls;
        return gate ? framework::Status(framework::Code::kUnschedulableAndUnresolvable, {"waiting"}).WithPlugin("G")
                    : framework::Status();
      },
      Registrations({{"G", {NodeAdd(), SkipHint()}}}));
  queue.Add(PodBuilder("g").Info());
  REQUIRE(WhereIs(queue, "g") == QueuedIn::kGated);
  REQUIRE(pre_enqueue_calls == 1);
  // An event the gate did not register for never re-runs it.
  queue.MoveAllToActiveOrBackoffQueue(Event(EventResource::kPersistentVolume, action::kAdd), framework::EventObjects{});
  CHECK(pre_enqueue_calls == 1);

  clock.Step(5min + 1s);
  queue.FlushUnschedulablePodsLeftover();
  CHECK(pre_enqueue_calls == 2);
  CHECK(WhereIs(queue, "g") == QueuedIn::kGated);
  // Still gated: not flushed again until a full period after that flush.
  clock.Step(30s);
  queue.FlushUnschedulablePodsLeftover();
  CHECK(pre_enqueue_calls == 2);
  clock.Step(5min);
  gate = false;  // what the missed event would have reported
  queue.FlushUnschedulablePodsLeftover();
  CHECK(pre_enqueue_calls == 3);
  CHECK(WhereIs(queue, "g") == QueuedIn::kActive);
  QueuedPodInfoPtr pod = PopOrFail(queue);
  CHECK(pod->was_flushed_from_unschedulable);
}

TEST_CASE("SchedulingQueue: the maximum stay is an option", "[scheduling_queue]") {
  FakeClock clock;
  SchedulingQueueOptions options;
  options.pod_max_in_unschedulable_pods_duration = 30s;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), SkipHint()}}}), options);
  AddRejected(*queue, PodBuilder("p"), "P");
  clock.Step(31s);
  queue->FlushUnschedulablePodsLeftover();
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: events during an attempt are replayed when the pod comes back",
          "[scheduling_queue]") {
  FakeClock clock;
  const framework::ClusterEvent pv_update =
      Event(EventResource::kPersistentVolume, action::kUpdate);

  SECTION("an event its plugin queues on: backoffQ") {
    auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
    queue->Add(PodBuilder("p").Info());
    QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {"P"});
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    CHECK(queue->InFlightEventCount() == 1);
    Requeue(*queue, std::move(pod));
    CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
    CHECK(queue->InFlightEventCount() == 0);  // nobody in flight needs it any more
  }
  SECTION("an event its plugin skips: the pool") {
    auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), SkipHint()}}}));
    queue->Add(PodBuilder("p").Info());
    QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {"P"});
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    Requeue(*queue, std::move(pod));
    CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
  }
  SECTION("an event before the pop does not count") {
    auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
    queue->Add(PodBuilder("p").Info());
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    CHECK(queue->InFlightEventCount() == 0);
    Requeue(*queue, PopAndReject(*queue, "p", {"P"}));
    CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
  }
  SECTION("an event no plugin registered for is not even recorded") {
    auto queue = NewQueue(clock, Registrations({{"P", {PvAdd(), QueueHint()}}}));
    queue->Add(PodBuilder("p").Info());
    QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {"P"});
    queue->MoveAllToActiveOrBackoffQueue(pv_update, framework::EventObjects{});
    CHECK(queue->InFlightEventCount() == 0);
    Requeue(*queue, std::move(pod));
    CHECK(WhereIs(*queue, "p") == QueuedIn::kUnschedulable);
  }
  SECTION("a Pending plugin's event: activeQ at once") {
    auto queue = NewQueue(clock, Registrations({{"Pend", {NodeAdd(), QueueHint()}}}));
    queue->Add(PodBuilder("p").Info());
    QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {}, {"Pend"});
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    Requeue(*queue, std::move(pod));
    CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
  }
  SECTION("the hint sees the event's objects, kept alive after the caller's are gone") {
    std::string seen;
    framework::QueueingHintFn hint = [&seen](const api::Pod&,
                                             const framework::EventObjects& objects)
        -> absl::StatusOr<framework::QueueingHint> {
      seen = objects.new_node != nullptr ? objects.new_node->metadata.name : "<none>";
      return framework::QueueingHint::kQueue;
    };
    auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), hint}}}));
    queue->Add(PodBuilder("p").Info());
    QueuedPodInfoPtr pod = PopAndReject(*queue, "p", {"P"});
    {
      api::Node node;
      node.metadata.name = "node-a";
      framework::EventObjects objects;
      objects.new_node = &node;
      queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), objects);
    }
    Requeue(*queue, std::move(pod));
    CHECK(seen == "node-a");
    CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
  }
}

TEST_CASE("SchedulingQueue: in-flight events live as long as the oldest attempt needs them",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}},
                                              {"Q", {PvAdd(), QueueHint()}}}));
  queue->Add(PodBuilder("a").Priority(2).Info());
  queue->Add(PodBuilder("b").Priority(1).Info());
  QueuedPodInfoPtr a = PopAndReject(*queue, "a", {"Q"});
  queue->MoveAllToActiveOrBackoffQueue(PvAdd(), framework::EventObjects{});  // a sees it
  QueuedPodInfoPtr b = PopAndReject(*queue, "b", {"Q"});
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});  // both see it
  CHECK(queue->InFlightEventCount() == 2);

  // b started after PvAdd: it only saw NodeAdd, which Q does not care about.
  Requeue(*queue, std::move(b));
  CHECK(WhereIs(*queue, "b") == QueuedIn::kUnschedulable);
  CHECK(queue->InFlightEventCount() == 2);  // a still needs both

  Requeue(*queue, std::move(a));
  CHECK(WhereIs(*queue, "a") == QueuedIn::kBackoff);
  CHECK(queue->InFlightEventCount() == 0);
  CHECK(queue->InFlightPods().empty());
}

TEST_CASE("SchedulingQueue: PreEnqueue gates pods until their gate's own event lifts it",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  const PodBuilder gated = PodBuilder("g").Gates({"one", "two"});
  queue->Add(gated.Info());
  CHECK(WhereIs(*queue, "g") == QueuedIn::kGated);
  PendingPodCounts counts = queue->Counts();
  CHECK(counts.gated == 1);
  CHECK(counts.unschedulable == 0);
  CHECK(counts.active == 0);
  std::optional<framework::QueuedPodInfo> record = queue->GetPod("ns1", "g");
  REQUIRE(record.has_value());
  CHECK(record->gating_plugin == "SchedulingGates");
  CHECK(record->unschedulable_plugins.count("SchedulingGates") == 1);

  // Events the gating plugin did not register for do not move it.
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  CHECK(WhereIs(*queue, "g") == QueuedIn::kGated);

  // One gate left: still gated (the update event is a generic one).
  const PodBuilder one_left = PodBuilder("g").Gates({"two"});
  queue->Update(gated.Info(), one_left.Info());
  CHECK(WhereIs(*queue, "g") == QueuedIn::kGated);
  CHECK(queue->GetPod("ns1", "g")->pod().spec.scheduling_gates.size() == 1);

  // The last gate removed: PreEnqueue passes; never attempted, so no backoff either.
  queue->Update(one_left.Info(), PodBuilder("g").Info());
  CHECK(WhereIs(*queue, "g") == QueuedIn::kActive);
  counts = queue->Counts();
  CHECK(counts.gated == 0);
  CHECK(counts.active == 1);
  QueuedPodInfoPtr pod = PopOrFail(*queue);
  CHECK(pod->attempts == 1);
  CHECK(pod->gating_plugin.empty());
}

TEST_CASE("SchedulingQueue: a PreEnqueue rejection without a plugin name still gates",
          "[scheduling_queue]") {
  FakeClock clock;
  SchedulingQueue queue(SchedulingQueueOptions{}, clock, testing::PrioritySortLess(),
                        [](const api::Pod&) { return framework::Status(framework::Code::kError); },
                        Registrations());
  queue.Add(PodBuilder("p").Info());
  CHECK(WhereIs(queue, "p") == QueuedIn::kGated);
}

TEST_CASE("SchedulingQueue: PreEnqueue runs on the way into the backoffQ, gating keeps the backoff",
          "[scheduling_queue]") {
  // A custom PreEnqueue plugin that can gate a pod after it was attempted (upstream k/k #126029).
  FakeClock clock;
  bool hold = false;
  SchedulingQueue queue(
      SchedulingQueueOptions{}, clock, testing::PrioritySortLess(),
      [&hold](const api::Pod&) {
        return hold ? framework::Status(framework::Code::kUnschedulable).WithPlugin("Hold")
                    : framework::Status();
      },
      Registrations({{"P", {NodeAdd(), QueueHint()}}, {"Hold", {PvAdd(), QueueHint()}}}));
  AddRejected(queue, PodBuilder("p"), "P");

  hold = true;
  queue.MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  CHECK(WhereIs(queue, "p") == QueuedIn::kGated);  // not the backoffQ, where Pop could take it
  CHECK(queue.GetPod("ns1", "p")->gating_plugin == "Hold");

  // Ungated within its backoff: the backoffQ, not activeQ.
  hold = false;
  queue.MoveAllToActiveOrBackoffQueue(PvAdd(), framework::EventObjects{});
  CHECK(WhereIs(queue, "p") == QueuedIn::kBackoff);
}

TEST_CASE("SchedulingQueue: Update of a pod in activeQ or backoffQ updates it in place",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));

  SECTION("activeQ: the new version is what pops, in its new place") {
    const PodBuilder low = PodBuilder("low").Priority(1);
    queue->Add(low.Info());
    queue->Add(PodBuilder("mid").Priority(5).Info());
    queue->Update(low.Info(), PodBuilder("low").Priority(10).Info());
    CHECK(WhereIs(*queue, "low") == QueuedIn::kActive);
    QueuedPodInfoPtr pod = PopOrFail(*queue);
    CHECK(pod->pod().metadata.name == "low");
    CHECK(pod->pod().spec.priority == 10);
  }
  SECTION("backoffQ: stays there, updated") {
    const PodBuilder pod = PodBuilder("p");
    AddRejected(*queue, pod, "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    REQUIRE(WhereIs(*queue, "p") == QueuedIn::kBackoff);
    queue->Update(pod.Info(), PodBuilder("p").Annotation("foo", "test").Info());
    CHECK(WhereIs(*queue, "p") == QueuedIn::kBackoff);
    CHECK(queue->GetPod("ns1", "p")->pod().metadata.annotations.Get("foo") == "test");
  }
}

TEST_CASE("SchedulingQueue: Update of a pod in the pool replays its own update events",
          "[scheduling_queue]") {
  struct Case {
    const char* name;
    PodBuilder updated;
    std::chrono::seconds elapsed;
    QueuedIn want;
  };
  const std::vector<Case> cases = {
      {"annotation only: a generic update L ignores", PodBuilder("p").Annotation("a", "b"), 0s,
       QueuedIn::kUnschedulable},
      {"label change while backing off: backoffQ", PodBuilder("p").Label("app", "web"), 0s,
       QueuedIn::kBackoff},
      {"label change after the backoff: activeQ", PodBuilder("p").Label("app", "web"), 10s,
       QueuedIn::kActive},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      FakeClock clock;
      auto queue = NewQueue(clock, Registrations({{"L", {Event(EventResource::kPod,
                                                               action::kUpdatePodLabel),
                                                         QueueHint()}}}));
      const PodBuilder original = PodBuilder("p");
      AddRejected(*queue, original, "L");
      clock.Step(c.elapsed);
      queue->Update(original.Info(), c.updated.Info());
      CHECK(WhereIs(*queue, "p") == c.want);
      // Wherever it went, the queue holds the new version.
      CHECK(queue->GetPod("ns1", "p")->pod() == c.updated.Obj());
    }
  }
}

TEST_CASE("SchedulingQueue: Update of an in-flight pod is replayed when it comes back",
          "[scheduling_queue]") {
  FakeClock clock;
  // A plugin any update of the pod itself may help (upstream EventTargetPodUpdate).
  auto queue = NewQueue(clock, Registrations({{"fakePlugin",
                                               {MakeClusterEvent(EventResource::kTargetPod,
                                                                 action::kUpdate),
                                                QueueHint()}}}));
  const PodBuilder original = PodBuilder("test-pod", "test-ns");
  queue->Add(original.Info());
  QueuedPodInfoPtr pod = PopOrFail(*queue);

  const PodBuilder updated = PodBuilder("test-pod", "test-ns").Toleration("foo");
  queue->Update(original.Info(), updated.Info());
  CHECK(WhereIs(*queue, "test-pod", "test-ns") == QueuedIn::kNowhere);  // not queued twice

  pod->pod_info = updated.Info();  // the loop requeues the informer's copy
  pod->unschedulable_plugins.insert("fakePlugin");
  Requeue(*queue, std::move(pod));
  CHECK(WhereIs(*queue, "test-pod", "test-ns") == QueuedIn::kBackoff);
  CHECK(queue->GetPod("test-ns", "test-pod")->pod() == updated.Obj());
}

TEST_CASE("SchedulingQueue: Update of a pod the queue does not hold adds it",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  queue->Update(PodBuilder("p").Info(), PodBuilder("p").NominatedNode("node1").Info());
  CHECK(WhereIs(*queue, "p") == QueuedIn::kActive);
  CHECK(queue->NominatedPodsForNode("node1").size() == 1);
  queue->Update(nullptr, PodBuilder("q").Info());
  CHECK(WhereIs(*queue, "q") == QueuedIn::kActive);
}

TEST_CASE("SchedulingQueue: Delete removes the pod wherever it is, and its nomination",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}},
                                              {"S", {PvAdd(), SkipHint()}}}));
  const PodBuilder active = PodBuilder("active").NominatedNode("node1");
  const PodBuilder backoff = PodBuilder("backoff").Priority(3);
  const PodBuilder pool = PodBuilder("pool").Priority(2);
  const PodBuilder gated = PodBuilder("gated").Gates({"g"});
  AddRejected(*queue, backoff, "P");
  AddRejected(*queue, pool, "S");
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  queue->Add(active.Info());
  queue->Add(gated.Info());
  REQUIRE(WhereIs(*queue, "active") == QueuedIn::kActive);
  REQUIRE(WhereIs(*queue, "backoff") == QueuedIn::kBackoff);
  REQUIRE(WhereIs(*queue, "pool") == QueuedIn::kUnschedulable);
  REQUIRE(WhereIs(*queue, "gated") == QueuedIn::kGated);
  REQUIRE(queue->NominatedPodsForNode("node1").size() == 1);

  for (const PodBuilder* pod : {&active, &backoff, &pool, &gated}) {
    queue->Delete(pod->Obj());
    CHECK(WhereIs(*queue, pod->Obj().metadata.name) == QueuedIn::kNowhere);
  }
  CHECK(queue->NominatedPodsForNode("node1").empty());
  const PendingPodCounts counts = queue->Counts();
  CHECK(counts.active + counts.backoff + counts.unschedulable + counts.gated == 0);
}

TEST_CASE("SchedulingQueue: Activate forces pods into activeQ", "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}},
                                              {"S", {NodeAdd(), SkipHint()}}}));

  SECTION("from the pool and the backoffQ, backoff or not") {
    AddRejected(*queue, PodBuilder("pool").Priority(1), "S");
    AddRejected(*queue, PodBuilder("backoff").Priority(2), "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    REQUIRE(WhereIs(*queue, "backoff") == QueuedIn::kBackoff);
    queue->Activate({PodBuilder("pool").Info(), PodBuilder("backoff").Info(),
                     PodBuilder("unknown").Info()});
    CHECK(WhereIs(*queue, "pool") == QueuedIn::kActive);
    CHECK(WhereIs(*queue, "backoff") == QueuedIn::kActive);
    CHECK(WhereIs(*queue, "unknown") == QueuedIn::kNowhere);
  }
  SECTION("an in-flight pod is requeued when it comes back, another in-flight pod is not") {
    queue->Add(PodBuilder("target").Priority(2).Info());
    queue->Add(PodBuilder("bystander").Priority(1).Info());
    QueuedPodInfoPtr target = PopAndReject(*queue, "target", {"S"});
    QueuedPodInfoPtr bystander = PopAndReject(*queue, "bystander", {"S"});
    queue->Activate({PodBuilder("target").Info()});
    Requeue(*queue, std::move(target));
    Requeue(*queue, std::move(bystander));
    // ForceActivate while in flight is a wildcard event for that pod only: after backoff.
    CHECK(WhereIs(*queue, "target") == QueuedIn::kBackoff);
    CHECK(WhereIs(*queue, "bystander") == QueuedIn::kUnschedulable);
  }
}

TEST_CASE("SchedulingQueue: Activate of one pod matches it by UID", "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}},
                                              {"S", {NodeAdd(), SkipHint()}}}));

  SECTION("from the pool and the backoffQ; active, unknown and gated pods stay") {
    AddRejected(*queue, PodBuilder("pool").Priority(1), "S");
    AddRejected(*queue, PodBuilder("backoff").Priority(2), "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    queue->Add(PodBuilder("gated").Gates({"g"}).Info());
    REQUIRE(WhereIs(*queue, "pool") == QueuedIn::kUnschedulable);
    REQUIRE(WhereIs(*queue, "backoff") == QueuedIn::kBackoff);
    REQUIRE(WhereIs(*queue, "gated") == QueuedIn::kGated);
    queue->Activate(PodBuilder("pool").Obj());
    queue->Activate(PodBuilder("backoff").Obj());
    queue->Activate(PodBuilder("unknown").Obj());
    queue->Activate(PodBuilder("gated").Gates({"g"}).Obj());
    CHECK(WhereIs(*queue, "pool") == QueuedIn::kActive);
    CHECK(WhereIs(*queue, "backoff") == QueuedIn::kActive);
    CHECK(WhereIs(*queue, "unknown") == QueuedIn::kNowhere);
    CHECK(WhereIs(*queue, "gated") == QueuedIn::kGated);
    queue->Activate(PodBuilder("pool").Obj());  // already active: nothing changes
    CHECK(queue->Counts().active == 2);
    CHECK(PopOrFail(*queue)->pod().metadata.name == "backoff");
  }
  SECTION("a pod recreated under the same name is left where it is") {
    AddRejected(*queue, PodBuilder("pool"), "S");
    AddRejected(*queue, PodBuilder("backoff").Priority(2), "P");
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    queue->Activate(PodBuilder("pool").Uid("other-uid").Obj());
    queue->Activate(PodBuilder("backoff").Uid("other-uid").Obj());
    CHECK(WhereIs(*queue, "pool") == QueuedIn::kUnschedulable);
    CHECK(WhereIs(*queue, "backoff") == QueuedIn::kBackoff);
  }
  SECTION("an in-flight pod is requeued when it comes back, another in-flight pod is not") {
    queue->Add(PodBuilder("target").Priority(2).Info());
    queue->Add(PodBuilder("bystander").Priority(1).Info());
    QueuedPodInfoPtr target = PopAndReject(*queue, "target", {"S"});
    QueuedPodInfoPtr bystander = PopAndReject(*queue, "bystander", {"S"});
    queue->Activate(PodBuilder("target").Obj());
    CHECK(queue->InFlightEventCount() == 1);
    queue->Activate(PodBuilder("bystander").Uid("other-uid").Obj());  // not the pod in flight
    CHECK(queue->InFlightEventCount() == 1);
    Requeue(*queue, std::move(target));
    Requeue(*queue, std::move(bystander));
    CHECK(WhereIs(*queue, "target") == QueuedIn::kBackoff);
    CHECK(WhereIs(*queue, "bystander") == QueuedIn::kUnschedulable);
  }
  SECTION("from another thread, it wakes a blocked Pop") {
    AddRejected(*queue, PodBuilder("pool"), "S");
    std::future<QueuedPodInfoPtr> popped = std::async(std::launch::async, [&] { return queue->Pop(); });
    std::thread activator([&] { queue->Activate(PodBuilder("pool").Obj()); });
    activator.join();
    REQUIRE(popped.wait_for(5s) == std::future_status::ready);
    QueuedPodInfoPtr pod = popped.get();
    REQUIRE(pod != nullptr);
    CHECK(pod->pod().metadata.name == "pool");
  }
}

TEST_CASE("SchedulingQueue: AssignedPodAdded is offered to every unschedulable pod's hints (v1.37)",
          "[scheduling_queue]") {
  FakeClock clock;
  const framework::ClusterEvent pod_add = Event(EventResource::kPod, action::kAdd);
  int affinity_calls = 0;
  // The hints decide, not a pre-filter on the pod's own affinity terms: an anti-affinity the added
  // pod's relabelling or a nominated pod may resolve must be asked too.
  auto queue = NewQueue(clock, Registrations({{"InterPodAffinity", {pod_add, QueueHint(&affinity_calls)}},
                                              {"PodTopologySpread", {pod_add, SkipHint()}}}));
  AddRejected(*queue, PodBuilder("affine").RequiredAffinity("app", "web"), "InterPodAffinity");
  AddRejected(*queue, PodBuilder("other-affinity").RequiredAffinity("app", "db"), "InterPodAffinity");
  AddRejected(*queue, PodBuilder("spread"), "PodTopologySpread");
  AddRejected(*queue, PodBuilder("fit"), "NodeResourcesFit");  // registered for nothing of this

  queue->AssignedPodAdded(PodBuilder("web-1").Label("app", "web").Node("node1").Info());
  CHECK(WhereIs(*queue, "affine") == QueuedIn::kBackoff);
  CHECK(WhereIs(*queue, "other-affinity") == QueuedIn::kBackoff);
  CHECK(affinity_calls == 2);
  CHECK(WhereIs(*queue, "spread") == QueuedIn::kUnschedulable);  // its hint said QueueSkip
  CHECK(WhereIs(*queue, "fit") == QueuedIn::kUnschedulable);
}

TEST_CASE("SchedulingQueue: AssignedPodUpdated offers a scale-down to every pod",
          "[scheduling_queue]") {
  FakeClock clock;
  const framework::ClusterEvent fit_events =
      Event(EventResource::kPod, action::kDelete | action::kUpdatePodScaleDown);
  auto queue = NewQueue(clock, Registrations({{"NodeResourcesFit", {fit_events, QueueHint()}}}));
  AddRejected(*queue, PodBuilder("big"), "NodeResourcesFit");
  const framework::PodInfoPtr old_pod = PodBuilder("running").Node("node1").Info();
  const framework::PodInfoPtr new_pod =
      PodBuilder("running").Node("node1").Label("x", "y").Info();

  queue->AssignedPodUpdated(old_pod, new_pod, action::kUpdatePodLabel);
  CHECK(WhereIs(*queue, "big") == QueuedIn::kUnschedulable);
  queue->AssignedPodUpdated(old_pod, new_pod, action::kUpdatePodScaleDown);
  CHECK(WhereIs(*queue, "big") == QueuedIn::kBackoff);
}

TEST_CASE("SchedulingQueue: AddUnschedulableIfNotPresent refuses a pod already queued",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  const PodBuilder pod = PodBuilder("p");
  queue->Add(pod.Info());
  auto duplicate = std::make_unique<framework::QueuedPodInfo>();
  duplicate->pod_info = pod.Info();
  const absl::Status status = queue->AddUnschedulableIfNotPresent(std::move(duplicate), 0);
  CHECK(absl::IsAlreadyExists(status));
  CHECK(status.message() == "Pod ns1/p is already present in the active queue");
  CHECK(queue->Counts().active == 1);
}

TEST_CASE("SchedulingQueue: nominated pods are reported in their latest queued version",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations());
  const PodBuilder pod = PodBuilder("p").NominatedNode("node1");
  queue->Add(pod.Info());
  queue->Update(pod.Info(), PodBuilder("p").NominatedNode("node1").Label("v", "2").Info());
  std::vector<framework::PodInfoPtr> nominated = queue->NominatedPodsForNode("node1");
  REQUIRE(nominated.size() == 1);
  CHECK(nominated[0]->pod().metadata.labels.Get("v") == "2");

  // Preemption nominates an in-flight pod in memory; clearing it takes an empty Override.
  queue->Add(PodBuilder("preemptor").Priority(100).Info());
  QueuedPodInfoPtr preemptor = PopOrFail(*queue);
  queue->AddNominatedPod(preemptor->pod_info,
                         framework::NominatingInfo{"node2", framework::NominatingMode::kOverride});
  CHECK(queue->NominatedPodsForNode("node2").size() == 1);
  queue->AddNominatedPod(preemptor->pod_info,
                         framework::NominatingInfo{"", framework::NominatingMode::kOverride});
  CHECK(queue->NominatedPodsForNode("node2").empty());
  queue->DeleteNominatedPodIfExists(pod.Obj());
  CHECK(queue->NominatedPodsForNode("node1").empty());
}

TEST_CASE("SchedulingQueue: PendingPods lists every queued pod with upstream's summary",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}},
                                              {"S", {PvAdd(), SkipHint()}}}));
  AddRejected(*queue, PodBuilder("backoff").Priority(2), "P");
  AddRejected(*queue, PodBuilder("pool").Priority(1), "S");
  queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
  queue->Add(PodBuilder("active").Info());
  queue->Add(PodBuilder("gated").Gates({"g"}).Info());

  SchedulingQueue::PendingPodList pending = queue->PendingPods();
  CHECK(pending.summary == "activeQ:1; backoffQ:1; unschedulableEntities:2");
  std::set<std::string> names;
  for (const auto& pod : pending.pods) names.insert(pod->metadata.name);
  CHECK(names == std::set<std::string>{"active", "backoff", "gated", "pool"});
}

TEST_CASE("SchedulingQueue: Run flushes completed backoffs in the background",
          "[scheduling_queue]") {
  // Real time, shortened periods: the only way to see the thread work. Bounded by PopOrFail.
  RealClock clock;
  SchedulingQueueOptions options;
  options.pod_initial_backoff = 1ms;
  options.pod_max_backoff = 1ms;
  options.backoff_flush_period = 10ms;
  options.unschedulable_flush_period = 10ms;
  options.pod_max_in_unschedulable_pods_duration = 20ms;
  auto queue = NewQueue(clock, Registrations({{"S", {NodeAdd(), SkipHint()}}}), options);
  queue->Run();
  queue->Run();  // idempotent

  queue->Add(PodBuilder("error").Info());
  Requeue(*queue, PopAndReject(*queue, "error", {}));  // error backoffQ: only the flush moves it
  CHECK(PopOrFail(*queue)->pod().metadata.name == "error");

  queue->Add(PodBuilder("stuck").Info());
  Requeue(*queue, PopAndReject(*queue, "stuck", {"S"}));  // only the timeout moves it
  CHECK(PopOrFail(*queue)->pod().metadata.name == "stuck");

  const auto start = std::chrono::steady_clock::now();
  queue->Close();
  CHECK(std::chrono::steady_clock::now() - start < 2s);
}

TEST_CASE("SchedulingQueue: concurrent producers, consumers and events lose no pod",
          "[scheduling_queue]") {
  FakeClock clock;
  auto queue = NewQueue(clock, Registrations({{"P", {NodeAdd(), QueueHint()}}}));
  constexpr int kPods = 300;
  std::atomic<int> scheduled{0};
  std::atomic<int> requeue_errors{0};
  std::thread producer([&] {
    for (int i = 0; i < kPods; ++i) queue->Add(PodBuilder(testing::Numbered("p", i)).Info());
  });
  std::thread consumer([&] {
    std::set<std::string> rejected_once;
    for (;;) {
      QueuedPodInfoPtr pod = queue->Pop();
      if (pod == nullptr) return;  // closed
      const std::string name = pod->pod().metadata.name;
      // Every pod is rejected once by P, then "scheduled" on its next attempt.
      if (rejected_once.insert(name).second) {
        pod->unschedulable_plugins.insert("P");
        if (!queue->AddUnschedulableIfNotPresent(std::move(pod), queue->SchedulingCycle()).ok()) {
          ++requeue_errors;
        }
      } else {
        queue->Done(pod->pod().metadata.uid);
        ++scheduled;
      }
    }
  });
  // Events and flushes race with both threads; time moves so that backoffs end.
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (scheduled.load() < kPods && std::chrono::steady_clock::now() < deadline) {
    clock.Step(2s);
    queue->MoveAllToActiveOrBackoffQueue(NodeAdd(), framework::EventObjects{});
    queue->FlushBackoffQCompleted();
    std::this_thread::sleep_for(1ms);
  }
  producer.join();
  queue->Close();
  consumer.join();
  CHECK(requeue_errors.load() == 0);
  CHECK(scheduled.load() == kPods);
  CHECK(queue->InFlightPods().empty());
}

}  // namespace
}  // namespace ksched::scheduler
