// Informer event handlers (upstream eventhandlers.go and framework/events.go, v1.37): which node
// updates raise which events, and where pod and node deltas go (cache, queue, queue events).
#include "scheduler/event_handlers.h"
#include "scheduler/resource_object_stores.h"
#include "scheduler/storage_object_stores.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/quantity.h"
#include "queue_test_support.h"
#include "scheduler_harness.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

using framework::ClusterEvent;
using framework::EventResource;
using framework::NodeInfo;
using framework::Status;
using testing::Harness;
using testing::PodBuilder;
using testing::ProfileBuilder;
namespace action = framework::action;

api::Quantity Q(std::string_view text) {
  absl::StatusOr<api::Quantity> q = api::Quantity::Parse(text);
  REQUIRE(q.ok());
  return *q;
}

api::Node BaseNode() {
  api::Node node;
  node.metadata.name = "node1";
  node.metadata.labels.Set("zone", "a");
  node.metadata.annotations.Set("note", "x");
  node.status.allocatable.Set("cpu", Q("1"));
  node.status.conditions = {{"Ready", "True"}, {"MemoryPressure", "False"}};
  return node;
}

std::vector<std::string> Labels(const std::vector<ClusterEvent>& events) {
  std::vector<std::string> labels;
  for (const ClusterEvent& event : events) {
    CHECK(event.resource == EventResource::kNode);
    labels.push_back(event.label);
  }
  return labels;
}

TEST_CASE("NodeSchedulingPropertiesChange: each change, in upstream's order and labels",
          "[event_handlers]") {
  struct Case {
    const char* name;
    std::function<void(api::Node& old_node, api::Node& new_node)> change;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"nothing", [](api::Node&, api::Node&) {}, {}},
      {"becomes schedulable", [](api::Node& o, api::Node&) { o.spec.unschedulable = true; },
       {"NodeUpdateNodeTaint"}},
      // Cordoning cannot help any pod.
      {"becomes unschedulable", [](api::Node&, api::Node& n) { n.spec.unschedulable = true; }, {}},
      {"allocatable", [](api::Node&, api::Node& n) { n.status.allocatable.Set("cpu", Q("2")); },
       {"NodeUpdateNodeAllocatable"}},
      {"allocatable written differently, same quantity",
       [](api::Node&, api::Node& n) { n.status.allocatable.Set("cpu", Q("1000m")); }, {}},
      {"labels", [](api::Node&, api::Node& n) { n.metadata.labels.Set("zone", "b"); },
       {"NodeUpdateNodeLabel"}},
      {"taints",
       [](api::Node&, api::Node& n) {
         n.spec.taints.push_back(api::Taint{"k", "v", std::string(api::kTaintEffectNoSchedule), {}});
       },
       {"NodeUpdateNodeTaint"}},
      {"a condition's status",
       [](api::Node&, api::Node& n) { n.status.conditions[0].status = "False"; },
       {"NodeUpdateNodeCondition"}},
      {"conditions reordered",
       [](api::Node&, api::Node& n) {
         std::swap(n.status.conditions[0], n.status.conditions[1]);
       },
       {}},
      {"a condition added",
       [](api::Node&, api::Node& n) { n.status.conditions.push_back({"DiskPressure", "False"}); },
       {"NodeUpdateNodeCondition"}},
      {"annotations", [](api::Node&, api::Node& n) { n.metadata.annotations.Set("note", "y"); },
       {"NodeUpdateNodeAnnotation"}},
      {"declared features (v1.37: NodeDeclaredFeatures locked on)",
       [](api::Node&, api::Node& n) { n.status.declared_features = {"RestartAllContainers"}; },
       {"NodeUpdateNodeDeclaredFeature"}},
      {"images and capacity do not matter",
       [](api::Node&, api::Node& n) {
         n.status.images.push_back(api::ContainerImage{{"nginx"}, 100});
         n.status.capacity.Set("cpu", Q("8"));
       },
       {}},
      {"everything at once",
       [](api::Node& o, api::Node& n) {
         o.spec.unschedulable = true;
         n.status.allocatable.Set("cpu", Q("2"));
         n.metadata.labels.Set("zone", "b");
         n.spec.taints.push_back(api::Taint{"k", "v", std::string(api::kTaintEffectNoSchedule), {}});
         n.status.conditions[1].status = "True";
         n.metadata.annotations.Set("other", "z");
         n.status.declared_features = {"HostNetworkWithUserNamespaces"};
       },
       {"NodeUpdateNodeTaint", "NodeUpdateNodeAllocatable", "NodeUpdateNodeLabel",
        "NodeUpdateNodeTaint", "NodeUpdateNodeCondition", "NodeUpdateNodeAnnotation",
        "NodeUpdateNodeDeclaredFeature"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    api::Node old_node = BaseNode();
    api::Node new_node = BaseNode();
    c.change(old_node, new_node);
    CHECK(Labels(NodeSchedulingPropertiesChange(new_node, old_node)) == c.want);
  }

  const std::vector<ClusterEvent> events =
      NodeSchedulingPropertiesChange(BaseNode(), [] {
        api::Node old_node = BaseNode();
        old_node.metadata.labels.Set("zone", "z");
        return old_node;
      }());
  REQUIRE(events.size() == 1);
  CHECK(events[0].action == action::kUpdateNodeLabel);
}

// A profile whose filter turns "waiter" down (and accepts everyone else), registered for `event`
// only, so that the waiter leaves the unschedulable pool exactly on that event.
Harness WaiterHarness(ClusterEvent event) {
  return Harness({ProfileBuilder().Filter(
      "FakeFilter",
      [](const api::Pod& pod, const NodeInfo&) {
        return pod.metadata.name == "waiter"
                   ? Status(framework::Code::kUnschedulable, {"not the waiter"})
                   : Status();
      },
      {framework::ClusterEventWithHint{std::move(event), nullptr}})});
}

// Schedules "waiter" on a one-node cluster so that it waits in the unschedulable pool.
api::Pod ParkWaiter(Harness& harness) {
  harness.AddNode("node1");
  const api::Pod waiter = PodBuilder("waiter").Obj();
  harness.AddPod(waiter);
  harness.ScheduleOne();
  REQUIRE(harness.Where(waiter) == QueuedIn::kUnschedulable);
  return waiter;
}

bool Moved(Harness& harness, const api::Pod& waiter) {
  const QueuedIn where = harness.Where(waiter);
  return where == QueuedIn::kActive || where == QueuedIn::kBackoff;
}

api::Pod WithResourceVersion(api::Pod pod, std::string rv) {
  pod.metadata.resource_version = std::move(rv);
  return pod;
}

TEST_CASE("PodEventHandler: assigned pods go to the cache, our pending pods to the queue, "
          "others nowhere",
          "[event_handlers]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());

  const api::Pod assigned = PodBuilder("assigned").Node("node1").Obj();
  const api::Pod assigned_elsewhere =
      PodBuilder("bound-by-other").Node("node1").SchedulerName("other").Obj();
  const api::Pod pending = PodBuilder("pending").Obj();
  const api::Pod foreign = PodBuilder("foreign").SchedulerName("other").Obj();
  handler.OnAdd(assigned);
  handler.OnAdd(assigned_elsewhere);
  handler.OnAdd(pending);
  handler.OnAdd(foreign);

  CHECK(harness.cache().PodCount() == 2);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().size() == 2);
  CHECK(harness.Where(assigned) == QueuedIn::kNowhere);
  CHECK(harness.Where(assigned_elsewhere) == QueuedIn::kNowhere);
  CHECK(harness.Where(pending) == QueuedIn::kActive);
  CHECK(harness.Where(foreign) == QueuedIn::kNowhere);
  CHECK_FALSE(harness.cache().GetPod(pending).has_value());

  // Another scheduler's pending pods stay ignored through updates and deletes.
  handler.OnUpdate(foreign, WithResourceVersion(foreign, "2"));
  handler.OnDelete(foreign);
  CHECK(harness.Where(foreign) == QueuedIn::kNowhere);
  CHECK(harness.cache().PodCount() == 2);

  handler.OnDelete(pending);
  CHECK(harness.Where(pending) == QueuedIn::kNowhere);
  handler.OnDelete(assigned);
  CHECK(harness.cache().PodCount() == 1);
  CHECK_FALSE(harness.cache().GetPod(assigned).has_value());
}

TEST_CASE("PodEventHandler: a pending pod that gets bound moves from the queue to the cache",
          "[event_handlers]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod pending = WithResourceVersion(PodBuilder("p").Obj(), "1");
  handler.OnAdd(pending);
  REQUIRE(harness.Where(pending) == QueuedIn::kActive);

  const api::Pod bound = WithResourceVersion(PodBuilder("p").Node("node1").Obj(), "2");
  handler.OnUpdate(pending, bound);
  CHECK(harness.Where(pending) == QueuedIn::kNowhere);
  CHECK(harness.cache().PodCount() == 1);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().size() == 1);
  CHECK_FALSE(harness.cache().IsAssumedPod(bound));
}

TEST_CASE("PodEventHandler: updates of pending and assigned pods", "[event_handlers]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());

  SECTION("a pending pod's update with the same resourceVersion is ignored (a relist)") {
    const api::Pod pod = WithResourceVersion(PodBuilder("p").Obj(), "5");
    handler.OnAdd(pod);
    const api::Pod relisted = WithResourceVersion(PodBuilder("p").Label("app", "web").Obj(), "5");
    handler.OnUpdate(pod, relisted);
    CHECK(harness.queue().GetPod("ns1", "p")->pod().metadata.labels.size() == 0);
    const api::Pod updated = WithResourceVersion(PodBuilder("p").Label("app", "web").Obj(), "6");
    handler.OnUpdate(pod, updated);
    CHECK(harness.queue().GetPod("ns1", "p")->pod().metadata.labels.size() == 1);
  }
  SECTION("an update of an assumed pod is ignored") {
    const api::Pod pod = WithResourceVersion(PodBuilder("p").Obj(), "1");
    api::Pod assumed = pod;
    assumed.spec.node_name = "node1";
    REQUIRE(harness.cache()
                .AssumePod(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(assumed)))
                .ok());
    handler.OnUpdate(pod, WithResourceVersion(PodBuilder("p").Label("app", "web").Obj(), "2"));
    CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  }
  SECTION("an assigned pod's update reaches the cache") {
    const api::Pod pod = WithResourceVersion(PodBuilder("a").Node("node1").Label("v", "1").Obj(), "1");
    handler.OnAdd(pod);
    const api::Pod updated =
        WithResourceVersion(PodBuilder("a").Node("node1").Label("v", "2").Obj(), "2");
    handler.OnUpdate(pod, updated);
    const std::optional<framework::PodInfoPtr> cached = harness.cache().GetPod(pod);
    REQUIRE(cached.has_value());
    CHECK((*cached)->pod().metadata.labels.Get("v") == "2");
    CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  }
}

TEST_CASE("PodEventHandler: a deleted assigned pod frees room (AssignedPodDelete)",
          "[event_handlers]") {
  Harness harness = WaiterHarness(framework::AssignedPodDeleteEvent());
  const api::Pod waiter = ParkWaiter(harness);
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());

  const api::Pod assigned = PodBuilder("a").Node("node1").Obj();
  handler.OnAdd(assigned);
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);  // an add frees nothing
  handler.OnDelete(assigned);
  CHECK(harness.cache().PodCount() == 0);
  CHECK(Moved(harness, waiter));
}

TEST_CASE("PodEventHandler: a deleted or renominated nominated pod frees its nominated room",
          "[event_handlers]") {
  Harness harness = WaiterHarness(framework::AssignedPodDeleteEvent());
  const api::Pod waiter = ParkWaiter(harness);
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod nominated = WithResourceVersion(PodBuilder("q").NominatedNode("node1").Obj(), "1");
  handler.OnAdd(nominated);

  SECTION("a pending pod without nomination frees nothing") {
    const api::Pod plain = PodBuilder("plain").Obj();
    handler.OnAdd(plain);
    handler.OnDelete(plain);
    CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);
  }
  SECTION("deleted") {
    handler.OnDelete(nominated);
    CHECK(harness.Where(nominated) == QueuedIn::kNowhere);
    CHECK(Moved(harness, waiter));
  }
  SECTION("nomination cleared") {
    handler.OnUpdate(nominated, WithResourceVersion(PodBuilder("q").Obj(), "2"));
    CHECK(Moved(harness, waiter));
  }
  SECTION("nomination unchanged") {
    handler.OnUpdate(nominated, WithResourceVersion(
                                    PodBuilder("q").NominatedNode("node1").Label("a", "b").Obj(), "2"));
    CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);
  }
}

TEST_CASE("PodEventHandler: deleting a pod waiting at Permit rejects it", "[event_handlers]") {
  Harness harness({ProfileBuilder().Permit("FakePermit", [](const api::Pod&, const std::string&) {
    return std::make_pair(Status(framework::Code::kWait), std::chrono::milliseconds(10000));
  })});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod pod = PodBuilder("p").Obj();
  harness.SetInformerPod(pod);
  handler.OnAdd(pod);
  harness.ScheduleOne();
  REQUIRE(harness.cache().AssumedPodCount() == 1);

  harness.RemoveInformerPod(pod);
  handler.OnDelete(pod);
  harness.DrainBindings();
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
  CHECK(harness.Events() == std::vector<testing::RecordedEvent>{
                                {"ns1/p", "Warning", "FailedScheduling", "Scheduling",
                                 "0/1 nodes are available: 1 removed."}});
}

TEST_CASE("PodEventHandler: a same-name replacement seen as one update is two pods (issue #44)",
          "[event_handlers]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  harness.AddNode("node2");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod first = WithResourceVersion(PodBuilder("p").Uid("uid-a").Node("node1").Container("cpu", "500m").Obj(), "1");
  handler.OnAdd(first);
  REQUIRE(harness.cache().GetNodeInfo("node1")->requested().milli_cpu == 500);

  SECTION("bound again, to the same node") {
    const api::Pod second = WithResourceVersion(PodBuilder("p").Uid("uid-b").Node("node1").Container("cpu", "300m").Obj(), "9");
    handler.OnUpdate(first, second);
    CHECK(harness.cache().PodCount() == 1);
    CHECK_FALSE(harness.cache().GetPod(first).has_value());
    CHECK(harness.cache().GetPod(second).has_value());
    CHECK(harness.cache().GetNodeInfo("node1")->requested().milli_cpu == 300);
  }
  SECTION("bound to another node") {
    const api::Pod second = WithResourceVersion(PodBuilder("p").Uid("uid-b").Node("node2").Container("cpu", "300m").Obj(), "9");
    handler.OnUpdate(first, second);
    CHECK(harness.cache().PodCount() == 1);
    CHECK(harness.cache().GetNodeInfo("node1")->requested().milli_cpu == 0);
    CHECK(harness.cache().GetNodeInfo("node2")->requested().milli_cpu == 300);
  }
  SECTION("not bound yet: the old one leaves the cache, the new one is queued") {
    const api::Pod second = WithResourceVersion(PodBuilder("p").Uid("uid-b").Container("cpu", "300m").Obj(), "9");
    handler.OnUpdate(first, second);
    CHECK(harness.cache().PodCount() == 0);
    CHECK(harness.cache().GetNodeInfo("node1")->requested().milli_cpu == 0);
    CHECK(harness.Where(second) == QueuedIn::kActive);
  }
}

TEST_CASE("PodEventHandler: a pod bound but deleted before the watch showed it bound is dropped from the cache (issue #44)",
          "[event_handlers]") {
  Harness harness({ProfileBuilder()});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod pod = WithResourceVersion(PodBuilder("p").Obj(), "1");
  harness.SetInformerPod(pod);
  handler.OnAdd(pod);
  harness.ScheduleOne();
  harness.DrainBindings();  // the Binding was created (201); the watch has not shown the pod bound
  REQUIRE(harness.cache().AssumedPodCount() == 1);
  // A relist delivers its deletion with the last state the informer knew: unassigned.
  harness.RemoveInformerPod(pod);
  handler.OnDelete(pod);
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().empty());
}

TEST_CASE("PodEventHandler: a pod deleted while in PreBind stops holding its node (v1.37, k/k #134157)",
          "[event_handlers]") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> entered;
  std::atomic<bool> entered_once{false};
  const bool deletion_by_update = GENERATE(false, true);
  Harness harness(
      {ProfileBuilder()
           .Filter("FakeFilter",
                   [](const api::Pod& pod, const NodeInfo& node) {
                     // The waiter fits only on an empty node.
                     return pod.metadata.name == "waiter" && !node.pods().empty()
                                ? Status(framework::Code::kUnschedulable, {"node is taken"})
                                : Status();
                   },
                   {framework::ClusterEventWithHint{framework::AssignedPodDeleteEvent(), nullptr}})
           .PreBind("FakePreBind", {}, [&](const api::Pod&, const std::string&) {
             if (!entered_once.exchange(true)) entered.set_value();
             released.wait();
             return Status();
           })},
      [](const api::Pod&, const std::string&) {
        return Status::FromError("pods \"p\" not found");
      });
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod pod = WithResourceVersion(PodBuilder("p").Obj(), "1");
  harness.SetInformerPod(pod);
  handler.OnAdd(pod);
  harness.ScheduleOne();
  entered.get_future().wait();
  REQUIRE(harness.cache().AssumedPodCount() == 1);
  const api::Pod waiter = PodBuilder("waiter").Obj();
  harness.AddPod(waiter);
  harness.ScheduleOne();
  REQUIRE(harness.Where(waiter) == QueuedIn::kUnschedulable);

  if (deletion_by_update) {
    api::Pod deleting = WithResourceVersion(pod, "2");
    deleting.metadata.deletion_timestamp = api::Time{};
    handler.OnUpdate(pod, deleting);
  } else {
    harness.RemoveInformerPod(pod);
    handler.OnDelete(pod);
  }
  // Freed at once, while PreBind still runs; the waiter retries.
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.cache().GetNodeInfo("node1")->pods().empty());
  CHECK(Moved(harness, waiter));

  harness.RemoveInformerPod(pod);
  release.set_value();
  harness.DrainBindings();
  CHECK(harness.cache().AssumedPodCount() == 0);
  CHECK(harness.Where(pod) == QueuedIn::kNowhere);
}

TEST_CASE("PodEventHandler: a deletion that starts while a pod waits at Permit rejects it",
          "[event_handlers]") {
  Harness harness({ProfileBuilder().Permit("FakePermit", [](const api::Pod&, const std::string&) {
    return std::make_pair(Status(framework::Code::kWait), std::chrono::milliseconds(10000));
  })});
  harness.AddNode("node1");
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod pod = WithResourceVersion(PodBuilder("p").Obj(), "1");
  harness.SetInformerPod(pod);
  handler.OnAdd(pod);
  harness.ScheduleOne();
  REQUIRE(harness.cache().AssumedPodCount() == 1);
  api::Pod deleting = WithResourceVersion(pod, "2");
  deleting.metadata.deletion_timestamp = api::Time{};
  harness.SetInformerPod(deleting);
  handler.OnUpdate(pod, deleting);
  harness.DrainBindings();
  CHECK(harness.cluster_api().binds().empty());
  CHECK(harness.cache().AssumedPodCount() == 0);
}

TEST_CASE("PodEventHandler: a nominated pod's binding frees no nominated room (v1.37 inBinding)",
          "[event_handlers]") {
  Harness harness = WaiterHarness(framework::AssignedPodDeleteEvent());
  const api::Pod waiter = ParkWaiter(harness);
  PodEventHandler handler(harness.cache(), harness.queue(), harness.scheduler());
  const api::Pod nominated = WithResourceVersion(PodBuilder("q").NominatedNode("node1").Obj(), "1");
  handler.OnAdd(nominated);
  const api::Pod bound = WithResourceVersion(PodBuilder("q").Node("node1").Obj(), "2");
  handler.OnUpdate(nominated, bound);
  CHECK(harness.Where(nominated) == QueuedIn::kNowhere);
  CHECK(harness.cache().PodCount() == 1);
  CHECK(harness.queue().NominatedPodsForNode("node1").empty());
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);
}

TEST_CASE("NodeEventHandler: nodes go to the cache and raise NodeAdd / NodeUpdate* / NodeDelete",
          "[event_handlers]") {
  SECTION("add") {
    Harness harness = WaiterHarness({EventResource::kNode, action::kAdd, "NodeAdd"});
    const api::Pod waiter = ParkWaiter(harness);
    NodeEventHandler handler(harness.cache(), harness.queue());
    handler.OnAdd(*testing::MakeNode("node2"));
    CHECK(harness.cache().NodeTreeOrder() == std::vector<std::string>{"node1", "node2"});
    CHECK(Moved(harness, waiter));
  }
  SECTION("update: only the events the change raises") {
    Harness harness = WaiterHarness({EventResource::kNode, action::kUpdateNodeLabel, ""});
    const api::Pod waiter = ParkWaiter(harness);
    NodeEventHandler handler(harness.cache(), harness.queue());
    const api::Node old_node = *testing::MakeNode("node1");
    api::Node tainted = old_node;
    tainted.spec.taints.push_back(api::Taint{"k", "", std::string(api::kTaintEffectNoSchedule), {}});
    handler.OnUpdate(old_node, tainted);
    CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);
    CHECK(harness.cache().GetNodeInfo("node1")->node()->spec.taints.size() == 1);

    api::Node labelled = tainted;
    labelled.metadata.labels.Set("zone", "b");
    handler.OnUpdate(tainted, labelled);
    CHECK(Moved(harness, waiter));
    CHECK(harness.cache().GetNodeInfo("node1")->node()->metadata.labels.Get("zone") == "b");
  }
  SECTION("delete") {
    Harness harness = WaiterHarness({EventResource::kNode, action::kDelete, "NodeDelete"});
    const api::Pod waiter = ParkWaiter(harness);
    NodeEventHandler handler(harness.cache(), harness.queue());
    handler.OnDelete(*testing::MakeNode("node1"));
    CHECK(harness.cache().NodeTreeOrder().empty());
    CHECK(Moved(harness, waiter));
  }
}

}  // namespace
}  // namespace ksched::scheduler

namespace ksched::scheduler {
namespace {

std::shared_ptr<const api::PersistentVolumeClaim> SharedClaim(std::string name, std::string volume = "") {
  auto claim = std::make_shared<api::PersistentVolumeClaim>();
  claim->metadata.name = std::move(name);
  claim->metadata.namespace_ = "ns1";
  claim->spec.volume_name = std::move(volume);
  return claim;
}

TEST_CASE("ObjectEventHandler: stores claims, volumes and classes and raises their events",
          "[event_handlers]") {
  // The waiter's rejecting plugin registered PersistentVolumeClaim Add, queued for claim "wanted".
  Harness harness({ProfileBuilder().Filter(
      "FakeFilter",
      [](const api::Pod& pod, const NodeInfo&) {
        return pod.metadata.name == "waiter" ? Status(framework::Code::kUnschedulable, {"no claim"})
                                             : Status();
      },
      {framework::ClusterEventWithHint{
          ClusterEvent{EventResource::kPersistentVolumeClaim, action::kAdd, "PersistentVolumeClaimAdd"},
          [](const api::Pod&, const framework::EventObjects& objects)
              -> absl::StatusOr<framework::QueueingHint> {
            REQUIRE(objects.new_pvc != nullptr);
            return objects.new_pvc->metadata.name == "wanted" ? framework::QueueingHint::kQueue
                                                              : framework::QueueingHint::kQueueSkip;
          }}})});
  const api::Pod waiter = ParkWaiter(harness);
  StorageObjectStores stores;
  ObjectEventHandler<api::PersistentVolumeClaim> claims(stores.claims(), harness.queue());

  claims.OnAddShared(SharedClaim("other"));
  CHECK(stores.GetPersistentVolumeClaim("ns1", "other") != nullptr);
  CHECK(stores.GetPersistentVolumeClaim("ns2", "other") == nullptr);
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);  // the hint skips it
  // An update is not the Add the plugin registered for.
  claims.OnUpdateShared(SharedClaim("other"), SharedClaim("wanted"));
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);
  claims.OnAddShared(SharedClaim("wanted", "pv-1"));
  REQUIRE(stores.GetPersistentVolumeClaim("ns1", "wanted") != nullptr);
  CHECK(stores.GetPersistentVolumeClaim("ns1", "wanted")->spec.volume_name == "pv-1");
  CHECK(Moved(harness, waiter));
  claims.OnDeleteShared(SharedClaim("wanted"));
  CHECK(stores.GetPersistentVolumeClaim("ns1", "wanted") == nullptr);

  // Volumes and classes are cluster-scoped.
  ObjectEventHandler<api::PersistentVolume> volumes(stores.volumes(), harness.queue());
  ObjectEventHandler<api::StorageClass> classes(stores.classes(), harness.queue());
  auto pv = std::make_shared<api::PersistentVolume>();
  pv->metadata.name = "pv-1";
  volumes.OnAddShared(pv);
  auto sc = std::make_shared<api::StorageClass>();
  sc->metadata.name = "fast";
  classes.OnAddShared(sc);
  CHECK(stores.GetPersistentVolume("pv-1") == pv);
  CHECK(stores.GetStorageClass("fast") == sc);
  CHECK(stores.GetStorageClass("slow") == nullptr);
  CHECK(stores.ListPersistentVolumes() == std::vector<std::shared_ptr<const api::PersistentVolume>>{pv});
}

TEST_CASE("ObjectEventHandler: CSINodes and VolumeAttachments are stored and their events raised",
          "[event_handlers]") {
  // The waiter's rejecting plugin registered VolumeAttachment Delete (NodeVolumeLimits' event).
  Harness harness({ProfileBuilder().Filter(
      "FakeFilter",
      [](const api::Pod& pod, const NodeInfo&) {
        return pod.metadata.name == "waiter" ? Status(framework::Code::kUnschedulable, {"too many volumes"})
                                             : Status();
      },
      {framework::ClusterEventWithHint{
          ClusterEvent{EventResource::kVolumeAttachment, action::kDelete, "VolumeAttachmentDelete"},
          [](const api::Pod&, const framework::EventObjects& objects) -> absl::StatusOr<framework::QueueingHint> {
            REQUIRE(objects.old_volume_attachment != nullptr);
            CHECK(objects.new_volume_attachment == nullptr);
            return framework::QueueingHint::kQueue;
          }}})});
  const api::Pod waiter = ParkWaiter(harness);
  StorageObjectStores stores;
  ObjectEventHandler<api::CSINode> csi_nodes(stores.csi_nodes(), harness.queue());
  ObjectEventHandler<api::VolumeAttachment> attachments(stores.attachments(), harness.queue());
  auto csi_node = std::make_shared<api::CSINode>();
  csi_node->metadata.name = "node-1";
  csi_nodes.OnAddShared(csi_node);
  CHECK(stores.GetCSINode("node-1") == csi_node);
  auto attachment = std::make_shared<api::VolumeAttachment>();
  attachment->metadata.name = "va-1";
  attachment->node_name = "node-1";
  attachments.OnAddShared(attachment);
  int seen = 0;
  stores.ForEachVolumeAttachment([&](const api::VolumeAttachment& a) { seen += a.node_name == "node-1"; });
  CHECK(seen == 1);
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);  // an add is not the registered event
  attachments.OnDeleteShared(attachment);
  CHECK(Moved(harness, waiter));
  seen = 0;
  stores.ForEachVolumeAttachment([&](const api::VolumeAttachment&) { ++seen; });
  CHECK(seen == 0);
}

}  // namespace
}  // namespace ksched::scheduler

namespace ksched::scheduler {
namespace {

// The dynamic resource objects an event carries, e.g. "new_claim=ns1/c old_slice=s".
std::string ResourceObjectsOf(const framework::EventObjects& objects) {
  std::string out;
  auto add = [&out](std::string_view what, const auto* object) {
    if (object == nullptr) return;
    if (!out.empty()) out += ' ';
    out += std::string(what) + "=";
    if (!object->metadata.namespace_.empty()) out += std::string(object->metadata.namespace_) + "/";
    out += object->metadata.name;
  };
  add("old_claim", objects.old_resource_claim);
  add("new_claim", objects.new_resource_claim);
  add("old_slice", objects.old_resource_slice);
  add("new_slice", objects.new_resource_slice);
  add("old_class", objects.old_device_class);
  add("new_class", objects.new_device_class);
  return out;
}

template <typename T>
std::shared_ptr<const T> Named(std::string name, std::string ns = "") {
  auto object = std::make_shared<T>();
  object->metadata.name = std::move(name);
  object->metadata.namespace_ = std::move(ns);
  return object;
}

TEST_CASE("ObjectEventHandler: ResourceClaims and ResourceSlices and DeviceClasses are stored and their events raised",
          "[event_handlers]") {
  // The waiter's rejecting plugin registered every claim, slice and class event (DynamicResources'
  // kinds); its hint records what each carried and queues the pod only for a class deletion.
  std::vector<std::string> seen;
  std::vector<framework::ClusterEventWithHint> registrations;
  for (EventResource resource : {EventResource::kResourceClaim, EventResource::kResourceSlice,
                                 EventResource::kDeviceClass}) {
    registrations.push_back(framework::ClusterEventWithHint{
        ClusterEvent{resource, action::kAll, ""},
        [&seen](const api::Pod&, const framework::EventObjects& objects) -> absl::StatusOr<framework::QueueingHint> {
          seen.push_back(ResourceObjectsOf(objects));
          return objects.old_device_class != nullptr && objects.new_device_class == nullptr
                     ? framework::QueueingHint::kQueue
                     : framework::QueueingHint::kQueueSkip;
        }});
  }
  Harness harness({ProfileBuilder().Filter(
      "FakeFilter",
      [](const api::Pod& pod, const NodeInfo&) {
        return pod.metadata.name == "waiter" ? Status(framework::Code::kUnschedulable, {"no devices"}) : Status();
      },
      registrations)});
  const api::Pod waiter = ParkWaiter(harness);
  ResourceObjectStores stores;
  ObjectEventHandler<api::ResourceClaim> claims(stores.claims(), harness.queue());
  ObjectEventHandler<api::ResourceSlice> slices(stores.slices(), harness.queue());
  ObjectEventHandler<api::DeviceClass> classes(stores.classes(), harness.queue());

  // Claims are namespaced.
  const auto claim = Named<api::ResourceClaim>("c", "ns1");
  claims.OnAddShared(claim);
  CHECK(stores.GetResourceClaim("ns1", "c") == claim);
  CHECK(stores.GetResourceClaim("ns2", "c") == nullptr);
  const auto claim2 = Named<api::ResourceClaim>("c", "ns1");
  claims.OnUpdateShared(claim, claim2);
  CHECK(stores.GetResourceClaim("ns1", "c") == claim2);
  claims.OnAddShared(Named<api::ResourceClaim>("d", "ns2"));
  std::vector<std::string> all;
  stores.ForEachResourceClaim([&](const std::shared_ptr<const api::ResourceClaim>& c) {
    all.push_back(std::string(c->metadata.namespace_) + "/" + c->metadata.name);
  });
  CHECK(all == std::vector<std::string>{"ns1/c", "ns2/d"});
  claims.OnDeleteShared(claim2);
  CHECK(stores.GetResourceClaim("ns1", "c") == nullptr);

  // Slices and classes are cluster-scoped; slices are listed in name order.
  const auto b = Named<api::ResourceSlice>("b");
  const auto a = Named<api::ResourceSlice>("a");
  slices.OnAddShared(b);
  slices.OnAddShared(a);
  CHECK(stores.ListResourceSlices() == std::vector<std::shared_ptr<const api::ResourceSlice>>{a, b});
  slices.OnDeleteShared(b);
  CHECK(stores.ListResourceSlices() == std::vector<std::shared_ptr<const api::ResourceSlice>>{a});
  const auto gpu = Named<api::DeviceClass>("gpu");
  classes.OnAddShared(gpu);
  CHECK(stores.GetDeviceClass("gpu") == gpu);
  CHECK(stores.GetDeviceClass("nic") == nullptr);
  CHECK(harness.Where(waiter) == QueuedIn::kUnschedulable);  // every hint so far skipped it
  classes.OnDeleteShared(gpu);
  CHECK(stores.GetDeviceClass("gpu") == nullptr);
  CHECK(Moved(harness, waiter));

  CHECK(seen == std::vector<std::string>{"new_claim=ns1/c", "old_claim=ns1/c new_claim=ns1/c", "new_claim=ns2/d",
                                         "old_claim=ns1/c", "new_slice=b", "new_slice=a", "old_slice=b",
                                         "new_class=gpu", "old_class=gpu"});
}

}  // namespace
}  // namespace ksched::scheduler
