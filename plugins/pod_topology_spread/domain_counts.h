// DomainCounts: for one pod's spread constraints over the snapshot's node list, each
// constraint's matching pods per topology domain, kept from one cycle to the next and brought up
// to date by revisiting only the nodes whose NodeInfo changed. Two modes (Mode):
//   - PreFilter's (the default): what upstream calPreFilterState sums into TpValueToMatchNum for
//     the hard constraints; a node lacking any constraint's topology key counts for none;
//   - PreScore's: what upstream PreScore sums over all nodes into TopologyValueToPodCounts for the
//     soft constraints (the pod's own or the default ones), before keeping only the domains of the
//     filtered nodes (Sum); hostname constraints are left to Score, and without
//     require_all_keys (system defaulting) a node lacking a key counts for the domain "".
//
// Why: both walk every node of the cluster for every pod (its topology labels, its node inclusion
// policies, its matching pods). The pods of one workload come one after the other with the same
// constraints, and between two of their cycles only the nodes that got or lost a pod (usually one
// or two) have changed, so the sums can be corrected instead of made again: O(changed nodes +
// domains) per pod instead of O(nodes). Every pod of a Deployment has the default soft constraints,
// so PreScore's walk is paid by most pods of a real cluster.
//
// What a node's contribution depends on, and so what makes reuse exact:
//   - the node (labels, taints, pods): its NodeInfo generation, which is process-wide and moves on
//     every change (framework/node_info.h), so an equal generation means the same node and pods;
//   - the pod: its namespace and the constraints' topology keys, selectors and node inclusion
//     policies, and for those policies its nodeSelector, node affinity and tolerations; compared on
//     every Refresh with the mode, a difference rebuilds;
//   - the node list: the same Snapshot (one kept by the scheduler cache, generation() > 0) at the
//     same list_version(), i.e. the same NodeInfos at the same indices. Any other list (tests,
//     tools) is counted anew every time.
// The changed nodes are found by a framework::NodeChangeFinder (from the snapshot's record of its
// last update when that started where the last Refresh left off); debug builds abort when a node
// changed without that record saying so (framework::CheckChangesRecorded).
//
// Thread-safety: none; the plugin holds one under a mutex for the length of one PreFilter, another
// for one PreScore. The rebuild fans out on the parallelizer.
// Memory: 8 bytes per node per constraint, 8 per node (generation), the change finder's index
// (16 per node once built), and the domain names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "api/affinity.h"
#include "api/compact_vector.h"
#include "api/labels.h"
#include "api/pod.h"
#include "api/toleration.h"
#include "framework/node_change_finder.h"
#include "framework/node_info.h"
#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "plugins/pod_topology_spread/constraints.h"
#include "plugins/helper/required_node_affinity.h"
#include "plugins/pod_topology_spread/match_count_memo.h"

namespace ksched::plugins::pod_topology_spread {

// What a DomainCounts node counts for (see the header comment); PreFilter's by default.
struct DomainCountMode {
  // A node lacking any constraint's topology key counts for no constraint; otherwise a missing
  // label is the domain "".
  bool require_all_keys = true;
  // kubernetes.io/hostname constraints count nothing (PreScore leaves them to Score).
  bool skip_hostname = false;

  friend bool operator==(const DomainCountMode&, const DomainCountMode&) = default;
};

class DomainCounts {
 public:
  // For tests and the decision-rate benchmark.
  struct Stats {
    std::int64_t rebuilds = 0;         // every node counted anew
    std::int64_t updates = 0;          // Refreshes that kept the sums
    std::int64_t revisited_nodes = 0;  // nodes counted again by those updates
  };

  using Mode = DomainCountMode;

  // Brings the sums up to date for `pod` with `constraints` (non-empty) over `nodes`, counted as
  // `mode` says. `snapshot`: the snapshot whose nodes() `nodes` is, or nullptr (rebuild). Per-node
  // match counts come from `match_counts` when a rebuild counts every node.
  void Refresh(const api::Pod& pod, const std::vector<SpreadConstraint>& constraints,
               const std::vector<framework::NodeInfo*>& nodes, const framework::Snapshot* snapshot,
               MatchCountMemo& match_counts, framework::Parallelizer& parallelizer,
               Mode mode = {});

  // The domains of constraint `j` that at least one node counts for, with their matching pods
  // (`out` is cleared first): upstream's TpValueToMatchNum[j].
  void Export(std::size_t j, absl::flat_hash_map<std::string, int>& out) const;
  // The matching pods of domain `value` of constraint `j`; 0 when no node counts for it.
  std::int64_t Sum(std::size_t j, std::string_view value) const;

  const Stats& stats() const { return stats_; }

 private:
  // One constraint's domains: ids in order of first sight.
  struct Domains {
    absl::flat_hash_map<std::string, std::int32_t> ids;
    std::vector<std::string> names;      // by id
    std::vector<std::int64_t> sums;      // by id: matching pods
    std::vector<std::int32_t> counted;   // by id: nodes that count for it
  };

  // Whether `pod` with `constraints` makes the same per-node contributions as the remembered pod.
  bool SameKey(const api::Pod& pod, const std::vector<SpreadConstraint>& constraints, Mode mode) const;
  void RememberKey(const api::Pod& pod, const std::vector<SpreadConstraint>& constraints, Mode mode);
  void Rebuild(const api::Pod& pod, const std::vector<framework::NodeInfo*>& nodes,
               MatchCountMemo& match_counts, framework::Parallelizer& parallelizer);
  // Takes node `i`'s contribution out, counts it again and puts it back in.
  void Revisit(const api::Pod& pod, std::size_t i, const framework::NodeInfo& node,
               const helper::RequiredNodeAffinity& required);
  // The id of `value` in constraint `j`'s domains, added when new.
  std::int32_t DomainId(std::size_t j, std::string_view value);

  bool valid_ = false;
  // The key.
  Mode mode_;
  std::string namespace_;
  std::vector<SpreadConstraint> constraints_;
  api::Labels node_selector_;
  api::NodeAffinity node_affinity_;
  api::CompactVector<api::Toleration> tolerations_;
  // The node list the contributions are for.
  const framework::Snapshot* snapshot_ = nullptr;
  std::uint64_t list_version_ = 0;
  std::int64_t snapshot_generation_ = -1;
  framework::NodeChangeFinder change_finder_;
  std::vector<std::size_t> changed_;  // scratch of change_finder_
  // Per node: the generation counted, and per constraint (node * k + j) its domain id (-1: the
  // node does not count) and matching pods.
  std::vector<std::int64_t> generations_;
  std::vector<std::int32_t> node_domain_;
  std::vector<std::int32_t> node_count_;
  std::vector<Domains> domains_;  // per constraint
  Stats stats_;
};

}  // namespace ksched::plugins::pod_topology_spread
