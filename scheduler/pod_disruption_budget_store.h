// PodDisruptionBudgetStore: the cluster's PodDisruptionBudgets as the PDB informer has them, for
// preemption (upstream's pdbLister, read by DefaultPreemption through
// framework::FrameworkServices::pod_disruption_budgets). It is the PDB reflector's handler: it
// keeps the very objects the reflector stores (the *Shared calls), keyed by namespace/name, so
// that List hands out shared pointers and never copies a budget. PDB changes raise no queue event
// (upstream registers no handler for them either).
//
// Ownership: shares the budgets with the reflector; they are immutable. Thread-safety: the handler
// calls come from the reflector thread; List and size are safe from any thread (one mutex).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "api/pod_disruption_budget.h"
#include "client/reflector.h"

namespace ksched::scheduler {

class PodDisruptionBudgetStore final : public client::ReflectorHandler<api::PodDisruptionBudget> {
 public:
  using SharedBudget = std::shared_ptr<const api::PodDisruptionBudget>;

  void OnAddShared(const SharedBudget& budget) override;
  void OnUpdateShared(const SharedBudget& old_budget, const SharedBudget& new_budget) override;
  void OnDeleteShared(const SharedBudget& last_known) override;

  // Every budget, in namespace/name order (never null).
  std::vector<SharedBudget> List() const;
  std::size_t size() const;

 private:
  mutable base::Mutex mu_;
  std::map<std::string, SharedBudget, std::less<>> budgets_ ABSL_GUARDED_BY(mu_);  // ObjectKey -> budget
};

}  // namespace ksched::scheduler
