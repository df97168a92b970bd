// The PodTopologySpread plugin's cycle state (upstream podtopologyspread preFilterState and
// preScoreState, v1.34): what PreFilter computes for Filter (and AddPod/RemovePod update), and what
// PreScore computes for Score and NormalizeScore. Exposed in a header so that tests can inspect it
// as upstream's tests do.
//
// Ownership: values stored in the CycleState. PreFilterState shares its constraints between clones
// (they never change once built) and copies the counts, which AddPod/RemovePod change per clone.
// Thread-safety: written by one thread (PreFilter/PreScore, or AddPod/RemovePod on a clone), then
// read concurrently by Filter/Score; lookups never allocate.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "framework/cycle_state.h"
#include "plugins/pod_topology_spread/constraints.h"

namespace ksched::plugins::pod_topology_spread {

// A topology domain and its number of matching pods.
struct CriticalPath {
  std::string topology_value;
  int match_num = 0;
};

// The two domains with the fewest matching pods of one constraint (upstream criticalPaths): [0]
// always holds the minimum; [1] is >= [0] but not necessarily the second minimum after updates.
// Two entries suffice because preemption removes pods of one node per evaluated state.
class CriticalPaths {
 public:
  // Both entries {"", MaxInt32}.
  CriticalPaths();
  // upstream criticalPaths.update: records that `value` now has `num` matching pods.
  void Update(std::string_view value, int num);
  const CriticalPath& operator[](std::size_t i) const { return paths_[i]; }

 private:
  std::array<CriticalPath, 2> paths_;
};

class PreFilterState final : public framework::StateData {
 public:
  std::unique_ptr<framework::StateData> Clone() const override;

  const std::vector<SpreadConstraint>& constraints() const { return *constraints_; }

  // upstream minMatchNum: the global minimum for the skew of constraint `i`: the fewest matching
  // pods of any eligible domain, or 0 when there are fewer eligible domains than minDomains.
  int MinMatchNum(std::size_t i, std::int32_t min_domains) const;
  // The matching pods of domain `value` for constraint `i` (0 when the domain is unknown).
  int MatchNum(std::size_t i, std::string_view value) const;
  // Adds `delta` matching pods to domain `value` of constraint `i` and updates its critical paths.
  void AddMatchNum(std::size_t i, std::string_view value, int delta);

  // Indexed by constraint.
  const std::vector<CriticalPaths>& critical_paths() const { return critical_paths_; }
  const std::vector<absl::flat_hash_map<std::string, int>>& tp_value_to_match_num() const {
    return tp_value_to_match_num_;
  }

 private:
  friend class PodTopologySpread;  // builds the state in PreFilter

  std::shared_ptr<const std::vector<SpreadConstraint>> constraints_;
  std::vector<CriticalPaths> critical_paths_;
  std::vector<absl::flat_hash_map<std::string, int>> tp_value_to_match_num_;
};

class PreScoreState final : public framework::StateData {
 public:
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }

  const std::vector<SpreadConstraint>& constraints() const { return constraints_; }
  // Nodes (of those passed to PreScore) that lack some topology key: scored 0.
  const absl::flat_hash_set<std::string>& ignored_nodes() const { return ignored_nodes_; }
  // Indexed by constraint: matching pods per domain of the filtered nodes. Empty for
  // kubernetes.io/hostname constraints, whose counts Score computes on the node itself.
  const std::vector<absl::flat_hash_map<std::string, std::int64_t>>&
  topology_value_to_pod_counts() const {
    return topology_value_to_pod_counts_;
  }
  // Indexed by constraint: log(number of domains + 2).
  const std::vector<double>& topology_normalizing_weight() const {
    return topology_normalizing_weight_;
  }

 private:
  friend class PodTopologySpread;  // builds the state in PreScore

  std::vector<SpreadConstraint> constraints_;
  absl::flat_hash_set<std::string> ignored_nodes_;
  std::vector<absl::flat_hash_map<std::string, std::int64_t>> topology_value_to_pod_counts_;
  std::vector<double> topology_normalizing_weight_;
};

}  // namespace ksched::plugins::pod_topology_spread
