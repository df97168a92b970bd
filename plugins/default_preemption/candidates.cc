#include "plugins/default_preemption/candidates.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace ksched::plugins::default_preemption {

namespace {

api::Time StartTime(const api::Pod& pod, api::Time now) {
  return pod.status.start_time.has_value() ? *pod.status.start_time : now;
}

// upstream util.GetEarliestPodStartTime: the earliest start among the victims of the highest
// priority.
api::Time EarliestStartOfMostImportant(const Candidate& candidate, api::Time now) {
  const api::Pod& first = candidate.victims.front()->pod();
  api::Time earliest = StartTime(first, now);
  std::int32_t max_priority = api::PodPriority(first);
  for (const framework::PodInfoPtr& victim : candidate.victims) {
    const std::int32_t priority = api::PodPriority(victim->pod());
    if (priority == max_priority) {
      earliest = std::min(earliest, StartTime(victim->pod(), now));
    } else if (priority > max_priority) {
      max_priority = priority;
      earliest = StartTime(victim->pod(), now);
    }
  }
  return earliest;
}

}  // namespace

bool MoreImportantPod(const api::Pod& a, const api::Pod& b, api::Time now) {
  const std::int32_t pa = api::PodPriority(a);
  const std::int32_t pb = api::PodPriority(b);
  if (pa != pb) return pa > pb;
  return StartTime(a, now) < StartTime(b, now);
}

std::vector<DisruptionBudget> CompileDisruptionBudgets(
    const std::vector<std::shared_ptr<const api::PodDisruptionBudget>>& pdbs) {
  std::vector<DisruptionBudget> budgets;
  budgets.reserve(pdbs.size());
  for (const auto& pdb : pdbs) {
    DisruptionBudget budget{pdb, std::nullopt};
    if (pdb->spec.selector.has_value()) {
      absl::StatusOr<api::CompiledLabelSelector> compiled =
          api::CompiledLabelSelector::Compile(*pdb->spec.selector);
      if (compiled.ok() && !compiled->Empty()) budget.selector = *std::move(compiled);
    }
    budgets.push_back(std::move(budget));
  }
  return budgets;
}

void SplitByPdbViolation(const std::vector<framework::PodInfoPtr>& pods,
                         const std::vector<DisruptionBudget>& budgets,
                         std::vector<framework::PodInfoPtr>& violating,
                         std::vector<framework::PodInfoPtr>& non_violating) {
  std::vector<std::int32_t> allowed;
  allowed.reserve(budgets.size());
  for (const DisruptionBudget& budget : budgets) allowed.push_back(budget.pdb->status.disruptions_allowed);
  for (const framework::PodInfoPtr& pod_info : pods) {
    const api::Pod& pod = pod_info->pod();
    bool violated = false;
    // A pod without labels matches no budget.
    if (!pod.metadata.labels.empty()) {
      for (std::size_t i = 0; i < budgets.size(); ++i) {
        const DisruptionBudget& budget = budgets[i];
        if (budget.pdb->metadata.namespace_ != pod.metadata.namespace_) continue;
        if (!budget.selector.has_value() || !budget.selector->Matches(pod.metadata.labels)) continue;
        // Already counted by the API server (an eviction in progress): not charged again.
        const std::vector<std::string>& disrupted = budget.pdb->status.disrupted_pods;
        if (std::binary_search(disrupted.begin(), disrupted.end(), pod.metadata.name)) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(pod_info);
  }
}

int PickOneNodeForPreemption(const std::vector<Candidate>& candidates, api::Time now) {
  if (candidates.empty()) return -1;
  std::vector<int> remaining(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) remaining[i] = static_cast<int>(i);

  // Each criterion is a score to maximise; the candidates sharing the best score go on.
  const std::vector<std::function<std::int64_t(const Candidate&)>> criteria = {
      [](const Candidate& c) { return -c.num_pdb_violations; },
      [](const Candidate& c) {
        return -static_cast<std::int64_t>(api::PodPriority(c.victims.front()->pod()));
      },
      [](const Candidate& c) {
        std::int64_t sum = 0;
        // Shifted by MaxInt32 + 1 so that negative priorities still count as more victims.
        for (const framework::PodInfoPtr& victim : c.victims) {
          sum += static_cast<std::int64_t>(api::PodPriority(victim->pod())) +
                 static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::max()) + 1;
        }
        return -sum;
      },
      [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); },
      [now](const Candidate& c) {
        return static_cast<std::int64_t>(
            EarliestStartOfMostImportant(c, now).time_since_epoch().count());
      },
  };
  std::vector<int> selected;
  for (const auto& score_of : criteria) {
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    selected.clear();
    for (int index : remaining) {
      const std::int64_t score = score_of(candidates[static_cast<std::size_t>(index)]);
      if (score > best) {
        best = score;
        selected.clear();
      }
      if (score == best) selected.push_back(index);
    }
    if (selected.size() == 1) return selected.front();
    remaining.swap(selected);
  }
  return remaining.front();
}

std::int32_t NumCandidates(std::int32_t num_nodes, std::int32_t percentage, std::int32_t absolute) {
  std::int32_t n = static_cast<std::int32_t>(static_cast<std::int64_t>(num_nodes) * percentage / 100);
  n = std::max(n, absolute);
  return std::min(n, num_nodes);
}

}  // namespace ksched::plugins::default_preemption
