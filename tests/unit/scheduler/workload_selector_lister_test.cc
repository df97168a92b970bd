// WorkloadSelectorLister (scheduler/workload_selector_lister.h): upstream helper.DefaultSelector
// over the stores the Service, ReplicationController, ReplicaSet and StatefulSet reflectors feed.
// Expected selectors are written by hand from upstream's code (helper/spread.go): services merged
// as a label set, an RC's selector merged into it, a ReplicaSet's or StatefulSet's requirements
// added and sorted by key. TestGetPodServices is ported as the first case.
#include "scheduler/workload_selector_lister.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using ksched::api::Labels;
using ksched::api::OwnerReference;
using ksched::api::Pod;
using ksched::api::ReplicaSet;
using ksched::api::ReplicationController;
using ksched::api::Service;
using ksched::api::StatefulSet;
using ksched::scheduler::WorkloadSelectorLister;

std::shared_ptr<const Service> MakeService(std::string ns, std::string name, std::optional<Labels> selector) {
  Service service;
  service.metadata.namespace_ = std::move(ns);
  service.metadata.name = std::move(name);
  service.spec.selector = std::move(selector);
  return std::make_shared<const Service>(std::move(service));
}

std::shared_ptr<const ReplicationController> MakeRc(std::string ns, std::string name,
                                                    std::optional<Labels> selector) {
  ReplicationController rc;
  rc.metadata.namespace_ = std::move(ns);
  rc.metadata.name = std::move(name);
  rc.spec.selector = std::move(selector);
  return std::make_shared<const ReplicationController>(std::move(rc));
}

template <typename T>
std::shared_ptr<const T> MakeWorkload(std::string ns, std::string name, std::optional<LabelSelector> selector) {
  T workload;
  workload.metadata.namespace_ = std::move(ns);
  workload.metadata.name = std::move(name);
  workload.spec.selector = std::move(selector);
  return std::make_shared<const T>(std::move(workload));
}

Pod MakePod(std::string ns, std::string name, Labels labels) {
  Pod pod;
  pod.metadata.namespace_ = std::move(ns);
  pod.metadata.name = std::move(name);
  pod.metadata.labels = std::move(labels);
  return pod;
}

Pod Owned(Pod pod, std::string api_version, std::string kind, std::string name, bool controller = true) {
  OwnerReference ref;
  ref.api_version = std::move(api_version);
  ref.kind = std::move(kind);
  ref.name = std::move(name);
  ref.uid = "uid-" + ref.name;
  ref.controller = controller;
  pod.metadata.owner_references.push_back(std::move(ref));
  return pod;
}

// The selector as upstream's Selector.String() prints it, "<empty>" for Everything().
std::string SelectorOf(const WorkloadSelectorLister& lister, const Pod& pod) {
  const ksched::api::CompiledLabelSelector selector = lister.DefaultSelector(pod);
  REQUIRE_FALSE(selector.MatchesNothing());  // DefaultSelector never yields labels.Nothing()
  return selector.Empty() ? "<empty>" : selector.ToString();
}

const Labels kWeb{{"app", "web"}, {"tier", "frontend"}, {"track", "stable"}};

}  // namespace

TEST_CASE("WorkloadSelectorLister: the services whose selector matches the pod (upstream TestGetPodServices)",
          "[workload_selectors]") {
  WorkloadSelectorLister lister;
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    lister.services()->OnAddShared(MakeService("test", "service-" + n, Labels{{"app", "test-" + n}}));
  }
  for (int i = 0; i < 5; ++i) {
    const std::string n = std::to_string(i);
    std::string app = "test-";
    app += n;
    std::string label = "label-";
    label += n;
    const Pod pod = MakePod("test", "test-pod-" + n, Labels{{"app", app}, {"label", label}});
    INFO("pod " << i);
    CHECK(SelectorOf(lister, pod) == (i < 3 ? "app=" + app : std::string("<empty>")));
  }
}

TEST_CASE("WorkloadSelectorLister: services of the pod's namespace are merged and null selectors match nothing",
          "[workload_selectors]") {
  WorkloadSelectorLister lister;
  lister.services()->OnAddShared(MakeService("shop", "web", Labels{{"app", "web"}}));
  lister.services()->OnAddShared(MakeService("shop", "frontends", Labels{{"tier", "frontend"}}));
  lister.services()->OnAddShared(MakeService("shop", "canary", Labels{{"track", "canary"}}));  // no match
  lister.services()->OnAddShared(MakeService("shop", "external", std::nullopt));  // matches no pod
  lister.services()->OnAddShared(MakeService("shop", "everything", Labels{}));     // matches, adds nothing
  lister.services()->OnAddShared(MakeService("blog", "blog", Labels{{"track", "stable"}}));  // other ns
  CHECK(SelectorOf(lister, MakePod("shop", "p", kWeb)) == "app=web,tier=frontend");
  CHECK(SelectorOf(lister, MakePod("blog", "p", kWeb)) == "track=stable");
  CHECK(SelectorOf(lister, MakePod("other", "p", kWeb)) == "<empty>");
  CHECK(lister.services()->size() == 6);

  // Updates and deletes reach the next call.
  lister.services()->OnUpdateShared(MakeService("shop", "web", Labels{{"app", "web"}}),
                                    MakeService("shop", "web", Labels{{"app", "web"}, {"track", "stable"}}));
  CHECK(SelectorOf(lister, MakePod("shop", "p", kWeb)) == "app=web,tier=frontend,track=stable");
  lister.services()->OnDeleteShared(MakeService("shop", "frontends", std::nullopt));  // a tombstone
  lister.services()->OnDeleteShared(MakeService("blog", "blog", std::nullopt));
  lister.services()->OnDeleteShared(MakeService("nowhere", "x", std::nullopt));  // unknown: ignored
  CHECK(SelectorOf(lister, MakePod("shop", "p", kWeb)) == "app=web,track=stable");
  CHECK(SelectorOf(lister, MakePod("blog", "p", kWeb)) == "<empty>");
  CHECK(lister.services()->size() == 4);
}

TEST_CASE("WorkloadSelectorLister: a ReplicaSet or StatefulSet owner adds its selector's requirements",
          "[workload_selectors]") {
  WorkloadSelectorLister lister;
  lister.services()->OnAddShared(MakeService("shop", "web", Labels{{"app", "web"}}));
  lister.replica_sets()->OnAddShared(MakeWorkload<ReplicaSet>(
      "shop", "web-7d4b9c", LabelSelector{Labels{{"pod-template-hash", "7d4b9c"}, {"app", "web"}},
                                          {LabelSelectorRequirement{"tier", "In", {"frontend", "edge"}}}}));
  lister.stateful_sets()->OnAddShared(MakeWorkload<StatefulSet>(
      "shop", "db", LabelSelector{{}, {LabelSelectorRequirement{"canary", "DoesNotExist", {}}}}));
  const Pod pod = MakePod("shop", "p", kWeb);

  // Sorted by key (stably: the service's app=web before the ReplicaSet's).
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", "web-7d4b9c")) ==
        "app=web,app=web,pod-template-hash=7d4b9c,tier in (edge,frontend)");
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "StatefulSet", "db")) == "app=web,!canary");

  // Not the controller, another group or version, an unknown kind, a missing owner: services only.
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", "web-7d4b9c", false)) == "app=web");
  CHECK(SelectorOf(lister, Owned(pod, "extensions/v1beta1", "ReplicaSet", "web-7d4b9c")) == "app=web");
  CHECK(SelectorOf(lister, Owned(pod, "v1", "ReplicaSet", "web-7d4b9c")) == "app=web");
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "Deployment", "web")) == "app=web");
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", "gone")) == "app=web");
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "StatefulSet", "web-7d4b9c")) == "app=web");
  // The same name in another namespace is another object.
  CHECK(SelectorOf(lister, Owned(MakePod("blog", "p", kWeb), "apps/v1", "ReplicaSet", "web-7d4b9c")) ==
        "<empty>");
  // A reference that is not the controller is passed over for the one that is.
  CHECK(SelectorOf(lister, Owned(Owned(pod, "v1", "Pod", "x", false), "apps/v1", "StatefulSet", "db")) ==
        "app=web,!canary");

  // A null selector (labels.Nothing(): no requirements), an empty one (Everything()) and an invalid
  // one (LabelSelectorAsSelector fails) add nothing.
  lister.replica_sets()->OnAddShared(MakeWorkload<ReplicaSet>("shop", "null", std::nullopt));
  lister.replica_sets()->OnAddShared(MakeWorkload<ReplicaSet>("shop", "empty", LabelSelector{}));
  lister.replica_sets()->OnAddShared(MakeWorkload<ReplicaSet>(
      "shop", "invalid", LabelSelector{{}, {LabelSelectorRequirement{"tier", "Near", {"x"}}}}));
  for (const char* name : {"null", "empty", "invalid"}) {
    INFO(name);
    CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", name)) == "app=web");
  }
  // Without services, the ReplicaSet's selector alone.
  lister.services()->OnDeleteShared(MakeService("shop", "web", std::nullopt));
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", "web-7d4b9c")) ==
        "app=web,pod-template-hash=7d4b9c,tier in (edge,frontend)");
  lister.replica_sets()->OnDeleteShared(MakeWorkload<ReplicaSet>("shop", "web-7d4b9c", std::nullopt));
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicaSet", "web-7d4b9c")) == "<empty>");
}

TEST_CASE("WorkloadSelectorLister: a ReplicationController owner merges its selector into the services'",
          "[workload_selectors]") {
  WorkloadSelectorLister lister;
  lister.services()->OnAddShared(MakeService("shop", "web", Labels{{"app", "web"}, {"tier", "frontend"}}));
  // The RC's value wins for a key both have (labels.Merge), and the result stays a label set.
  lister.replication_controllers()->OnAddShared(
      MakeRc("shop", "web-rc", Labels{{"tier", "edge"}, {"track", "stable"}}));
  lister.replication_controllers()->OnAddShared(MakeRc("shop", "no-selector", std::nullopt));
  const Pod pod = MakePod("shop", "p", kWeb);
  CHECK(SelectorOf(lister, Owned(pod, "v1", "ReplicationController", "web-rc")) ==
        "app=web,tier=edge,track=stable");
  CHECK(SelectorOf(lister, Owned(pod, "v1", "ReplicationController", "no-selector")) == "app=web,tier=frontend");
  CHECK(SelectorOf(lister, Owned(pod, "v1", "ReplicationController", "gone")) == "app=web,tier=frontend");
  CHECK(SelectorOf(lister, Owned(pod, "apps/v1", "ReplicationController", "web-rc")) == "app=web,tier=frontend");
}

TEST_CASE("WorkloadSelectorLister: selectors read while the reflectors write", "[workload_selectors]") {
  WorkloadSelectorLister lister;
  std::thread informer([&lister] {
    for (int i = 0; i < 2000; ++i) {
      const std::string n = std::to_string(i % 20);
      lister.services()->OnAddShared(MakeService("ns", "svc-" + n, Labels{{"app", "web"}}));
      lister.replica_sets()->OnAddShared(
          MakeWorkload<ReplicaSet>("ns", "rs-" + n, LabelSelector{Labels{{"app", "web"}}, {}}));
      if (i % 3 == 0) {
        lister.services()->OnDeleteShared(MakeService("ns", "svc-" + n, std::nullopt));
        lister.replica_sets()->OnDeleteShared(MakeWorkload<ReplicaSet>("ns", "rs-" + n, std::nullopt));
      }
    }
  });
  const Pod pod = Owned(MakePod("ns", "p", Labels{{"app", "web"}}), "apps/v1", "ReplicaSet", "rs-7");
  for (int i = 0; i < 2000; ++i) {
    const std::string selector = SelectorOf(lister, pod);
    REQUIRE((selector == "<empty>" || selector == "app=web" || selector == "app=web,app=web"));
  }
  informer.join();
  CHECK(lister.services()->size() <= 20);
  CHECK(lister.replica_sets()->size() <= 20);
}
