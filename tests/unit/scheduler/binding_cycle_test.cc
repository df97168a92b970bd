// The binding cycle's v1.35-v1.37 behaviour (upstream schedule_one_test.go TestSchedulerScheduleOne
// v1.37.2, the nominatedNodeName, PreBindPreFlight and preemption cases):
//   - NominatedNodeNameForExpectation (KEP-5278): status.nominatedNodeName set to the chosen node
//     before a Permit wait or PreBind work, never otherwise; a failure clears it;
//   - PreBindPreFlight errors fail the binding cycle; PreBind plugins whose PreFlight skipped do
//     not run;
//   - victims preempted in memory: a pod waiting at Permit (k/k #135719) and a pod in PreBind
//     (k/k #135502) go back to the backoffQ instead of being deleted.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "queue_test_support.h"
#include "scheduler/scheduler.h"
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

Status TrueFilter(const api::Pod&, const NodeInfo&) { return Status(); }

std::pair<Status, std::chrono::milliseconds> Wait(const api::Pod&, const std::string&) {
  return {Status(Code::kWait), std::chrono::milliseconds(10000)};
}

RecordedEvent FailedScheduling(const std::string& pod, std::string note) {
  return RecordedEvent{pod, "Warning", "FailedScheduling", "Scheduling", std::move(note)};
}
RecordedEvent Scheduled(const std::string& pod, const std::string& node) {
  return RecordedEvent{pod, "Normal", "Scheduled", "Binding",
                       "Successfully assigned " + pod + " to " + node};
}

bool Clears(const std::optional<framework::NominatingInfo>& nominating) {
  return nominating.has_value() && nominating->mode == framework::NominatingMode::kOverride &&
         nominating->nominated_node_name.empty();
}

// The single condition written, a SchedulerError with `message` that clears the nomination.
void CheckErrorWritten(const Harness& harness, const std::string& message) {
  const std::vector<WrittenCondition> written = harness.writer().written();
  REQUIRE(written.size() == 1);
  CHECK(written[0].condition.reason == "SchedulerError");
  CHECK(written[0].condition.message == message);
  CHECK(Clears(written[0].nominating));
}

TEST_CASE("Binding cycle: nominatedNodeName is set before a Permit wait", "[scheduler][binding]") {
  const bool gate = GENERATE(true, false);
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter).Permit("FakePermit", Wait)}, {},
                  testing::BindMode::kAsync, gate);
  harness.AddNode("node1");
  // The write happens before the pod can be allowed, hence before its bind.
  std::vector<std::string> binds_when_nominated;
  harness.writer().OnNominate([&](const api::Pod&, const std::string&) {
    binds_when_nominated = harness.cluster_api().binds();
  });
  const api::Pod pod = PodBuilder("p").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();
  // The binding thread sets it while the pod waits.
  for (int i = 0; i < 500 && gate && harness.writer().nominations().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  harness.Profile().IterateOverWaitingPods([](framework::WaitingPod& waiting) { waiting.Allow("FakePermit"); });
  harness.DrainBindings();
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
  CHECK(harness.Events() == std::vector<RecordedEvent>{Scheduled("ns1/p", "node1")});
  if (gate) {
    CHECK(harness.writer().nominations() == std::vector<std::string>{"ns1/p -> node1"});
    CHECK(binds_when_nominated.empty());
  } else {
    CHECK(harness.writer().nominations().empty());
  }
}

TEST_CASE("Binding cycle: a failed nominatedNodeName write does not stop the binding",
          "[scheduler][binding]") {
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter).PreBind("FakePreBind", {}, {})});
  harness.AddNode("node1");
  harness.writer().SetNominateAnswer(absl::UnavailableError("connection refused"));
  harness.AddPod(PodBuilder("p").Obj());
  harness.ScheduleOne();
  harness.DrainBindings();
  CHECK(harness.writer().nominations() == std::vector<std::string>{"ns1/p -> node1"});
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
}

TEST_CASE("Binding cycle: PreBindPreFlight", "[scheduler][binding]") {
  struct Case {
    std::string name;
    Status pre_flight;
    Status pre_bind;
    bool bound;
    int pre_bind_calls;
    bool nominated;
    std::string error;  // the SchedulerError's message when not bound
  };
  const std::vector<Case> cases = {
      {"prebindpreflight failed with status code error", Status::FromError("preflight error"), Status(),
       false, 0, false, "running PreBindPreFlight \"FakePreBind\": preflight error"},
      {"prebindpreflight failed with status code unschedulable",
       Status(Code::kUnschedulable, {"rejected on prebindpreflight"}), Status(), false, 0, false,
       "PreBindPreFlight FakePreBind returned \"Unschedulable\", which is unsupported. It is supposed to "
       "return Success, Skip, or Error status"},
      {"prebind isn't called and nominated node name isn't set, if preflight returns skip",
       Status(Code::kSkip), Status(Code::kError, {"rejected on prebind"}), true, 0, false, ""},
      {"prebind is called and nominated node name is set, if preflight returns success", Status(),
       Status(), true, 1, true, ""},
      {"prebind failed with status code error", Status(), Status::FromError("prebind error"), false, 1,
       true, "running PreBind plugin \"FakePreBind\": prebind error"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      auto calls = std::make_shared<std::atomic<int>>(0);
      const Status pre_flight = c.pre_flight;
      const Status pre_bind = c.pre_bind;
      Harness harness({ProfileBuilder()
                           .Filter("TrueFilter", TrueFilter)
                           .PreBind("FakePreBind", [pre_flight](const api::Pod&, const std::string&) { return pre_flight; },
                                    [pre_bind](const api::Pod&, const std::string&) { return pre_bind; }, calls)});
      harness.AddNode("node1");
      const api::Pod pod = PodBuilder("p").Obj();
      harness.AddPod(pod);
      harness.ScheduleOne();
      harness.DrainBindings();
      CHECK(calls->load() == c.pre_bind_calls);
      CHECK(harness.writer().nominations() ==
            (c.nominated ? std::vector<std::string>{"ns1/p -> node1"} : std::vector<std::string>{}));
      if (c.bound) {
        CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
        CHECK(harness.writer().written().empty());
        continue;
      }
      CHECK(harness.cluster_api().binds().empty());
      CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", c.error)});
      CheckErrorWritten(harness, c.error);
      CHECK(harness.cache().AssumedPodCount() == 0);
      CHECK(harness.Where(pod) == QueuedIn::kBackoff);
    }
  }
}

TEST_CASE("Binding cycle: NominatedNodeNameForExpectation off runs every PreBind and sets nothing",
          "[scheduler][binding]") {
  auto calls = std::make_shared<std::atomic<int>>(0);
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .PreBind("FakePreBind", [](const api::Pod&, const std::string&) { return Status(Code::kSkip); },
                                {}, calls)},
                  {}, testing::BindMode::kAsync, /*nominated_node_name_for_expectation=*/false);
  harness.AddNode("node1");
  harness.AddPod(PodBuilder("p").Obj());
  harness.ScheduleOne();
  harness.DrainBindings();
  CHECK(calls->load() == 1);
  CHECK(harness.writer().nominations().empty());
  CHECK(harness.cluster_api().binds() == std::vector<std::string>{"ns1/p -> node1"});
}

TEST_CASE("Binding cycle: a failure clears the nomination the informer shows", "[scheduler][binding]") {
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .PreBind("FakePreBind", {}, {})},
                  [](const api::Pod&, const std::string&) { return Status::FromError("bind error"); });
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Obj();
  // The informer sees the binding cycle's write before the bind fails.
  harness.writer().OnNominate([&](const api::Pod& nominated, const std::string& node) {
    api::Pod updated = nominated;
    updated.spec.node_name.clear();
    updated.status.nominated_node_name = node;
    harness.SetInformerPod(updated);
  });
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();
  const std::vector<WrittenCondition> written = harness.writer().written();
  REQUIRE(written.size() == 1);
  CHECK(written[0].condition.message == "running Bind plugin \"DefaultBinder\": bind error");
  // Written against the informer's copy: the patch clears the field.
  CHECK(written[0].pod_nominated_node_name == "node1");
  CHECK(Clears(written[0].nominating));
  CHECK(harness.queue().NominatedPodsForNode("node1").empty());
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
}

TEST_CASE("Scheduling cycle: failures clear the nomination, without PostFilter too (v1.37)",
          "[scheduler][binding]") {
  Harness harness({ProfileBuilder().Filter("FakeFilter", [](const api::Pod& pod, const NodeInfo&) {
    return Status(Code::kUnschedulable, {"injecting failure for pod " + pod.metadata.name});
  })});
  harness.AddNode("node1");
  harness.AddPod(PodBuilder("p").NominatedNode("node1").Obj());
  REQUIRE(harness.queue().NominatedPodsForNode("node1").size() == 1);
  harness.ScheduleOne();
  const std::vector<WrittenCondition> written = harness.writer().written();
  REQUIRE(written.size() == 1);
  CHECK(written[0].condition.reason == "Unschedulable");
  CHECK(Clears(written[0].nominating));
  CHECK(harness.queue().NominatedPodsForNode("node1").empty());
}

TEST_CASE("Binding cycle: a pod recreated under the same name is neither requeued nor written",
          "[scheduler][binding]") {
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter).PreBind("FakePreBind", {}, {})},
                  [](const api::Pod&, const std::string&) { return Status::FromError("bind error"); });
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Uid("old").Obj();
  harness.writer().OnNominate([&](const api::Pod&, const std::string&) {
    harness.SetInformerPod(PodBuilder("p").Uid("new").Obj());
  });
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();
  CHECK(harness.writer().written().empty());
  CHECK(harness.Events().empty());
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.queue().InFlightPods().empty());
}

TEST_CASE("Binding cycle: a victim waiting at Permit is preempted to the backoffQ (k/k #135719)",
          "[scheduler][binding]") {
  Harness harness({ProfileBuilder().Filter("TrueFilter", TrueFilter).Permit("FakePermit", Wait)});
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Uid("p-uid").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();
  REQUIRE(harness.Profile().PreemptWaitingPod("p-uid", "DefaultPreemption", "preempted"));
  // Once stopped, a waiting pod is neither preempted nor rejected again (if still listed).
  bool rejected_again = false;
  harness.Profile().IterateOverWaitingPods(
      [&](framework::WaitingPod& waiting) { rejected_again = waiting.Reject("FakePermit", "late"); });
  CHECK_FALSE(rejected_again);
  harness.DrainBindings();
  CHECK_FALSE(harness.Profile().PreemptWaitingPod("p-uid", "DefaultPreemption", "preempted"));
  const std::string message = "waiting on permit for pod: preempted";
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
  CheckErrorWritten(harness, message);
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
}

TEST_CASE("Binding cycle: a victim in PreBind is requeued, not bound (k/k #135502)", "[scheduler][binding]") {
  Harness* harness_ptr = nullptr;
  // Set on the binding thread, checked on this one: Catch2's assertions are not thread-safe (an
  // assertion there races with this thread's on Catch's counters, as TSan reports).
  std::atomic<bool> cancelled{false};
  std::atomic<bool> seen_cancelled{false};
  Harness harness({ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .PreBind("FakePreBind", {}, [&](const api::Pod& pod, const std::string&) {
                         // Preemption picks the pod while its PreBind runs.
                         cancelled = harness_ptr->Profile().CancelPodInPreBind(pod.metadata.uid,
                                                                               "preempted by DefaultPreemption");
                         seen_cancelled = harness_ptr->Profile().PodInPreBindCancelled(pod.metadata.uid);
                         return Status();
                       })});
  harness_ptr = &harness;
  harness.AddNode("node1");
  const api::Pod pod = PodBuilder("p").Uid("p-uid").Obj();
  harness.AddPod(pod);
  harness.ScheduleOne();
  harness.DrainBindings();
  CHECK(cancelled);
  CHECK(seen_cancelled);
  const std::string message = "preempted by DefaultPreemption";
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.Events() == std::vector<RecordedEvent>{FailedScheduling("ns1/p", message)});
  CheckErrorWritten(harness, message);
  CHECK(harness.Where(pod) == QueuedIn::kBackoff);
  // Gone from the registry with its binding cycle.
  CHECK_FALSE(harness.Profile().CancelPodInPreBind("p-uid", "again"));
}

TEST_CASE("PodsInPreBind: cancel until prebound", "[scheduler][binding]") {
  framework::PodsInPreBind pods;
  CHECK_FALSE(pods.Cancel("a", "x"));
  CHECK(pods.MarkPrebound("a") == std::nullopt);
  pods.Add("a");
  CHECK(pods.MarkPrebound("a") == std::nullopt);
  CHECK_FALSE(pods.Cancel("a", "too late"));
  pods.Add("b");
  CHECK(pods.Cancel("b", "first"));
  CHECK(pods.Cancel("b", "second"));
  CHECK(pods.Cancelled("b"));
  CHECK(pods.MarkPrebound("b") == std::optional<std::string>("first"));
  pods.Remove("b");
  CHECK_FALSE(pods.Cancelled("b"));
}

}  // namespace
}  // namespace ksched::scheduler
