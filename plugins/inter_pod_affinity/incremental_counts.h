// IncrementalCounts: one or two TopologyCounts kept across scheduling cycles as sums of per-node
// contributions, brought up to date with the snapshot by recomputing only the NodeInfos that
// changed since it was last synced.
//
// Why: InterPodAffinity's PreFilter counts, for every pod, topology pairs over the whole cluster
// (existing pods' anti-affinity terms against the incoming pod; existing pods against the incoming
// pod's terms). Upstream walks every node holding such pods in every cycle. Pods of one workload
// carry the same labels and terms cycle after cycle, and between two cycles only the nodes the
// last binds went to change, so the sums can be carried over and patched.
//
// Validity: the caller owns the question "do these sums still answer for this pod?" (its key:
// labels, namespace, terms) and says so with `rebuild`. The sums' dependence on the cluster is
// tracked here with the snapshot's own record of its last update (Snapshot::updated_from() and
// updated_nodes(); list_version() for nodes added, removed or reordered): if the counts were
// synced at generation G and the snapshot's last update started from G, only the NodeInfos it
// assigned can have changed; an equal generation means nothing changed; anything else (another
// update in between, a list change, another snapshot, a snapshot not kept by the cache:
// generation 0) rebuilds. NodeInfos are updated in place within one list_version, so a NodeInfo
// pointer names the same node until the list changes.
//
// A node's contribution must depend only on its NodeInfo (and on what the caller's key covers).
//
// Sharing: counts() hands out the current sums as shared_ptr<const>; a scheduling cycle's state
// keeps them without copying. Sync copies a sum that is still shared before changing it (copy on
// write), so a state never sees its counts change.
//
// Thread-safety: not thread-safe; the owner serializes Sync and counts() (InterPodAffinity holds
// a mutex). The contribution function runs concurrently on the parallelizer's threads during a
// rebuild. Memory: one entry (40 bytes) per contributed pair per node, plus a hash-map slot per
// contributing node.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "api/node.h"
#include "framework/node_info.h"
#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "plugins/inter_pod_affinity/topology_counts.h"

namespace ksched::plugins::inter_pod_affinity {

class IncrementalCounts {
 public:
  static constexpr std::size_t kMaxSums = 2;

  // Where a node's contribution goes: pairs for sum `which` (< the counts' size).
  class Sink {
   public:
    // Appends (key, node's value for key) with `count` to sum `which` when the node has the label
    // (upstream append to topologyToMatchedTermCount).
    void AppendIfLabeled(std::size_t which, const api::Node& node, std::string_view key,
                         std::int64_t count);

   private:
    friend class IncrementalCounts;
    struct Pending {
      std::uint32_t which;
      TopologyCount count;
    };
    std::vector<Pending> pending_;
  };
  // Computes one node's contribution. Runs concurrently for distinct nodes during a rebuild.
  using Contribute = absl::FunctionRef<void(const framework::NodeInfo&, Sink&)>;

  struct Stats {
    std::uint64_t rebuilds = 0;      // full passes over the node list
    std::uint64_t patched_nodes = 0; // nodes recomputed one by one
    std::uint64_t reused = 0;        // syncs that found nothing changed
  };

  explicit IncrementalCounts(std::size_t sums);

  // Brings the sums up to date with `snapshot`: a rebuild over `nodes` (the nodes that may
  // contribute at all: a superset of those that do) when `rebuild` is set or the snapshot cannot
  // tell what changed, else the changed NodeInfos recomputed (or a rebuild, when they are many).
  void Sync(const framework::Snapshot& snapshot, bool rebuild,
            const std::vector<framework::NodeInfo*>& nodes, framework::Parallelizer& parallelizer,
            Contribute contribute);

  // Sum `which` as of the last Sync.
  std::shared_ptr<const TopologyCounts> counts(std::size_t which) const { return sums_[which]; }
  const Stats& stats() const { return stats_; }

 private:
  struct Entry {
    std::uint32_t which;
    TopologyPairView pair;  // stored in sums_[which]
    std::int64_t count;
  };
  struct Span {
    std::uint32_t begin;
    std::uint32_t size;
  };

  void Rebuild(const std::vector<framework::NodeInfo*>& nodes,
               framework::Parallelizer& parallelizer, Contribute contribute);
  void Patch(const framework::NodeInfo& node, Contribute contribute);
  // Sum `which`, copied first when a state still holds it.
  TopologyCounts& Writable(std::size_t which);
  // Adds a computed contribution to the sums and records it as the node's.
  void Record(const framework::NodeInfo* node, const std::vector<Sink::Pending>& pending,
              std::size_t begin, std::size_t end);
  void CompactEntries();

  const std::size_t num_sums_;
  std::array<std::shared_ptr<TopologyCounts>, kMaxSums> sums_;
  // Every contributing node's entries, as a span of entries_; replaced spans are dead space until
  // CompactEntries.
  std::vector<Entry> entries_;
  std::size_t dead_entries_ = 0;
  absl::flat_hash_map<const framework::NodeInfo*, Span> spans_;

  // What the sums reflect.
  bool valid_ = false;
  const framework::Snapshot* snapshot_ = nullptr;
  std::uint64_t list_version_ = 0;
  std::int64_t generation_ = 0;

  Sink scratch_;  // for Patch
  Stats stats_;
};

}  // namespace ksched::plugins::inter_pod_affinity
