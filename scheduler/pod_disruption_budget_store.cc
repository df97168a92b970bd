#include "scheduler/pod_disruption_budget_store.h"

#include <utility>

namespace ksched::scheduler {

void PodDisruptionBudgetStore::OnAddShared(const SharedBudget& budget) {
  std::string key = client::ObjectKey(*budget);
  base::MutexLock lock(&mu_);
  budgets_.insert_or_assign(std::move(key), budget);
}

void PodDisruptionBudgetStore::OnUpdateShared(const SharedBudget& /*old_budget*/,
                                              const SharedBudget& new_budget) {
  OnAddShared(new_budget);
}

void PodDisruptionBudgetStore::OnDeleteShared(const SharedBudget& last_known) {
  const std::string key = client::ObjectKey(*last_known);
  base::MutexLock lock(&mu_);
  budgets_.erase(key);
}

std::vector<PodDisruptionBudgetStore::SharedBudget> PodDisruptionBudgetStore::List() const {
  base::MutexLock lock(&mu_);
  std::vector<SharedBudget> budgets;
  budgets.reserve(budgets_.size());
  for (const auto& [key, budget] : budgets_) budgets.push_back(budget);
  return budgets;
}

std::size_t PodDisruptionBudgetStore::size() const {
  base::MutexLock lock(&mu_);
  return budgets_.size();
}

}  // namespace ksched::scheduler
