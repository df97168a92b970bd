// NamespaceLabelStore (scheduler/namespace_label_store.h): the namespace informer's handler answers
// InterPodAffinity's "labels of namespace X" from the reflector's objects, nullopt for a namespace
// it does not know.
#include "scheduler/namespace_label_store.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>

namespace {

using ksched::api::Labels;
using ksched::api::Namespace;
using ksched::scheduler::NamespaceLabelStore;

std::shared_ptr<const Namespace> MakeNamespace(std::string name, Labels labels) {
  Namespace ns;
  ns.metadata.name = std::move(name);
  ns.metadata.labels = std::move(labels);
  return std::make_shared<const Namespace>(std::move(ns));
}

}  // namespace

TEST_CASE("NamespaceLabelStore: labels by name through adds, updates and deletes", "[namespace_store]") {
  NamespaceLabelStore store;
  CHECK_FALSE(store.Labels("team-blue").has_value());
  store.OnAddShared(MakeNamespace("team-blue", Labels{{"team", "blue"}}));
  store.OnAddShared(MakeNamespace("plain", Labels{}));
  CHECK(store.Labels("team-blue") == Labels{{"team", "blue"}});
  REQUIRE(store.Labels("plain").has_value());  // known, without labels: not the same as unknown
  CHECK(store.Labels("plain")->empty());
  CHECK(store.size() == 2);

  store.OnUpdateShared(MakeNamespace("team-blue", Labels{{"team", "blue"}}),
                       MakeNamespace("team-blue", Labels{{"team", "green"}}));
  CHECK(store.Labels("team-blue") == Labels{{"team", "green"}});
  store.OnDeleteShared(MakeNamespace("team-blue", Labels{}));  // a tombstone: matched by name
  CHECK_FALSE(store.Labels("team-blue").has_value());
  store.OnDeleteShared(MakeNamespace("never-seen", Labels{}));
  CHECK(store.size() == 1);
}

TEST_CASE("NamespaceLabelStore: read while the informer writes", "[namespace_store]") {
  NamespaceLabelStore store;
  std::thread informer([&store] {
    for (int i = 0; i < 2000; ++i) {
      const std::string name = "ns-" + std::to_string(i % 10);
      store.OnAddShared(MakeNamespace(name, Labels{{"round", std::to_string(i)}}));
      if (i % 3 == 0) store.OnDeleteShared(MakeNamespace(name, Labels{}));
    }
  });
  for (int i = 0; i < 2000; ++i) {
    const std::optional<Labels> labels = store.Labels("ns-" + std::to_string(i % 10));
    if (labels.has_value()) REQUIRE(labels->size() == 1);
  }
  informer.join();
  CHECK(store.size() <= 10);
}
