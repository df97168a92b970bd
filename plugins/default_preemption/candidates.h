// The pure parts of upstream's preemption (framework/preemption and plugins/defaultpreemption,
// v1.34): the order of victims, their split by PodDisruptionBudget violation, and the choice of
// one candidate node among those where preemption would make room.
//
// Times: a pod's start time is status.startTime, or `now` when it has none (upstream
// GetPodStartTime: assumed and bound-but-not-started pods); one `now` per preemption attempt keeps
// the order consistent.
//
// Thread-safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "api/time.h"
#include "framework/pod_info.h"

namespace ksched::plugins::default_preemption {

// A node where evicting `victims` lets the preemptor fit (upstream Candidate with its Victims).
struct Candidate {
  std::string node_name;
  // Most important first (MoreImportantPod).
  std::vector<framework::PodInfoPtr> victims;
  // Victims whose eviction would go beyond a PodDisruptionBudget's disruptionsAllowed.
  std::int64_t num_pdb_violations = 0;
};

// upstream util.MoreImportantPod: higher priority first; at equal priority, the earlier start.
bool MoreImportantPod(const api::Pod& a, const api::Pod& b, api::Time now);

// A PodDisruptionBudget with its selector compiled once per preemption attempt.
struct DisruptionBudget {
  std::shared_ptr<const api::PodDisruptionBudget> pdb;
  // nullopt: the budget matches no pod (no selector, an empty one, or an invalid one: upstream
  // LabelSelectorAsSelector fails or selector.Empty()).
  std::optional<api::CompiledLabelSelector> selector;
};
std::vector<DisruptionBudget> CompileDisruptionBudgets(
    const std::vector<std::shared_ptr<const api::PodDisruptionBudget>>& pdbs);

// upstream filterPodsWithPDBViolation: walks `pods` in order, charging each against the budgets
// of its namespace whose selector matches it (a pod listed in the budget's status.disruptedPods is
// not charged); a pod that takes a budget's disruptionsAllowed below zero is violating. Both
// outputs keep the input order.
void SplitByPdbViolation(const std::vector<framework::PodInfoPtr>& pods,
                         const std::vector<DisruptionBudget>& budgets,
                         std::vector<framework::PodInfoPtr>& violating,
                         std::vector<framework::PodInfoPtr>& non_violating);

// upstream pickOneNodeForPreemption with the default criteria, each a tie-break of the one
// before: fewest PDB violations; lowest priority of the most important victim; lowest sum of
// victims' priorities; fewest victims; the latest earliest-start-time among the victims of the
// highest priority. The first of the remaining ties wins (upstream: the first in Go's map order).
// Returns an index into `candidates`; -1 when it is empty. Every candidate has victims.
int PickOneNodeForPreemption(const std::vector<Candidate>& candidates, api::Time now);

// upstream calculateNumCandidates: max(num_nodes * percentage / 100, absolute), capped by
// num_nodes.
std::int32_t NumCandidates(std::int32_t num_nodes, std::int32_t percentage, std::int32_t absolute);

}  // namespace ksched::plugins::default_preemption
