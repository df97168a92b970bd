// NamespacedObjectStore (scheduler/namespaced_object_store.h) holding a cluster-scoped kind: the
// namespace informer's handler, from which the daemon answers InterPodAffinity's "labels of
// namespace X" (nullptr for a namespace it does not know). The namespaced kinds are exercised
// through WorkloadSelectorLister (workload_selector_lister_test.cc).
#include "scheduler/namespaced_object_store.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>

#include "api/namespace.h"

namespace {

using ksched::api::Labels;
using ksched::api::Namespace;
using NamespaceStore = ksched::scheduler::NamespacedObjectStore<Namespace>;

std::shared_ptr<const Namespace> MakeNamespace(std::string name, Labels labels) {
  Namespace ns;
  ns.metadata.name = std::move(name);
  ns.metadata.labels = std::move(labels);
  return std::make_shared<const Namespace>(std::move(ns));
}

}  // namespace

TEST_CASE("NamespacedObjectStore: cluster-scoped objects by name through adds, updates and deletes",
          "[namespaced_store]") {
  NamespaceStore store;
  CHECK(store.Get("", "team-blue") == nullptr);
  const auto blue = MakeNamespace("team-blue", Labels{{"team", "blue"}});
  store.OnAddShared(blue);
  store.OnAddShared(MakeNamespace("plain", Labels{}));
  CHECK(store.Get("", "team-blue") == blue);  // the reflector's object itself, not a copy
  REQUIRE(store.Get("", "plain") != nullptr);  // known, without labels: not the same as unknown
  CHECK(store.Get("", "plain")->metadata.labels.empty());
  CHECK(store.Get("team-blue", "team-blue") == nullptr);  // cluster-scoped: under "" only
  CHECK(store.size() == 2);

  store.OnUpdateShared(blue, MakeNamespace("team-blue", Labels{{"team", "green"}}));
  CHECK(store.Get("", "team-blue")->metadata.labels == Labels{{"team", "green"}});
  CHECK(blue->metadata.labels == Labels{{"team", "blue"}});  // a pointer taken earlier keeps its object
  store.OnDeleteShared(MakeNamespace("team-blue", Labels{}));  // a tombstone: matched by name
  CHECK(store.Get("", "team-blue") == nullptr);
  store.OnDeleteShared(MakeNamespace("never-seen", Labels{}));
  CHECK(store.size() == 1);
  int seen = 0;
  store.ForEachIn("", [&seen](const Namespace& ns) {
    CHECK(ns.metadata.name == "plain");
    ++seen;
  });
  CHECK(seen == 1);
}

TEST_CASE("NamespacedObjectStore: read while the informer writes", "[namespaced_store]") {
  NamespaceStore store;
  std::thread informer([&store] {
    for (int i = 0; i < 2000; ++i) {
      const std::string name = "ns-" + std::to_string(i % 10);
      store.OnAddShared(MakeNamespace(name, Labels{{"round", std::to_string(i)}}));
      if (i % 3 == 0) store.OnDeleteShared(MakeNamespace(name, Labels{}));
    }
  });
  for (int i = 0; i < 2000; ++i) {
    const std::shared_ptr<const Namespace> ns = store.Get("", "ns-" + std::to_string(i % 10));
    if (ns != nullptr) REQUIRE(ns->metadata.labels.size() == 1);
  }
  informer.join();
  CHECK(store.size() <= 10);
}
