// PodDisruptionBudgetStore (scheduler/pod_disruption_budget_store.h): the PDB informer's handler
// keeps the reflector's objects by namespace/name and lists them without copying.
#include "scheduler/pod_disruption_budget_store.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using ksched::api::PodDisruptionBudget;
using ksched::scheduler::PodDisruptionBudgetStore;
using SharedBudget = PodDisruptionBudgetStore::SharedBudget;

SharedBudget Budget(std::string ns, std::string name, std::int32_t disruptions_allowed) {
  PodDisruptionBudget budget;
  budget.metadata.namespace_ = std::move(ns);
  budget.metadata.name = std::move(name);
  budget.status.disruptions_allowed = disruptions_allowed;
  return std::make_shared<const PodDisruptionBudget>(std::move(budget));
}

std::vector<std::string> Keys(const std::vector<SharedBudget>& budgets) {
  std::vector<std::string> keys;
  for (const SharedBudget& budget : budgets) {
    keys.push_back(budget->metadata.namespace_ + "/" + budget->metadata.name);
  }
  return keys;
}

}  // namespace

TEST_CASE("PodDisruptionBudgetStore: adds, updates and deletes by namespace/name",
          "[pdb_store]") {
  PodDisruptionBudgetStore store;
  CHECK(store.List().empty());
  const SharedBudget shop_web = Budget("shop", "web", 1);
  const SharedBudget blog_web = Budget("blog", "web", 0);
  store.OnAddShared(shop_web);
  store.OnAddShared(blog_web);
  REQUIRE(store.size() == 2);
  std::vector<SharedBudget> listed = store.List();
  CHECK(Keys(listed) == std::vector<std::string>{"blog/web", "shop/web"});
  CHECK(listed[1] == shop_web);  // the reflector's object itself, not a copy

  const SharedBudget shop_web_now = Budget("shop", "web", 0);
  store.OnUpdateShared(shop_web, shop_web_now);
  listed = store.List();
  REQUIRE(listed.size() == 2);
  CHECK(listed[1] == shop_web_now);
  CHECK(shop_web->status.disruptions_allowed == 1);  // a list taken earlier keeps its objects

  store.OnDeleteShared(Budget("blog", "web", 0));  // a tombstone: matched by key, not pointer
  CHECK(Keys(store.List()) == std::vector<std::string>{"shop/web"});
  store.OnDeleteShared(Budget("blog", "web", 0));  // unknown: nothing happens
  CHECK(store.size() == 1);
}

TEST_CASE("PodDisruptionBudgetStore: listing while the informer writes", "[pdb_store]") {
  PodDisruptionBudgetStore store;
  std::thread informer([&store] {
    for (int i = 0; i < 2000; ++i) {
      store.OnAddShared(Budget("ns", "pdb-" + std::to_string(i % 50), i));
      if (i % 3 == 0) store.OnDeleteShared(Budget("ns", "pdb-" + std::to_string(i % 50), i));
    }
  });
  for (int i = 0; i < 2000; ++i) {
    for (const SharedBudget& budget : store.List()) REQUIRE(budget != nullptr);
  }
  informer.join();
  CHECK(store.size() <= 50);
}
