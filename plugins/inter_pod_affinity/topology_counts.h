// TopologyCounts: a count per topology pair (node label key, value), upstream's
// topologyToMatchedTermCount (map[topologyPair]int64). InterPodAffinity keeps three of them per
// scheduling cycle for Filter and one (the weighted sums) for Score.
//
// Lookups take string views and never allocate, so Filter and Score can probe a node's labels
// without building keys; only inserting a pair that is not there yet allocates.
//
// TopologyCountList is the per-node scratch list the parallel PreFilter/PreScore loops append to
// (upstream topologyToMatchedTermCountList): it holds views into the node's labels and the terms'
// topology keys, which the snapshot keeps alive for the cycle, and is merged into a TopologyCounts
// on the scheduling thread once the loop is over.
//
// Thread-safety: a value type; concurrent const use is safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "api/node.h"

namespace ksched::plugins::inter_pod_affinity {

struct TopologyPairView {
  std::string_view key;
  std::string_view value;
};

struct TopologyPair {
  std::string key;
  std::string value;
  // Implicit so that the transparent hash and equality take stored pairs and views alike.
  operator TopologyPairView() const { return {key, value}; }
  friend bool operator==(const TopologyPair&, const TopologyPair&) = default;
};

// One pending addition of a per-node list: views into the node's labels and the term's key.
struct TopologyCount {
  TopologyPairView pair;
  std::int64_t count = 0;
};
using TopologyCountList = std::vector<TopologyCount>;

// Appends (key, node's value for key) with `count` when the node has the label (upstream append).
void AppendIfLabeled(TopologyCountList& list, const api::Node& node, std::string_view key,
                     std::int64_t count);

class TopologyCounts {
 public:
  // The count of the pair, 0 when absent.
  std::int64_t Get(std::string_view key, std::string_view value) const;
  // Adds `delta` to the pair (creating it), keeping a zero entry (upstream merge / `+=`).
  void Add(std::string_view key, std::string_view value, std::int64_t delta);
  // Adds `delta` to the pair of the node's label `key` when the node has it, and drops the entry
  // when it comes down to zero (upstream update: AddPod/RemovePod deltas may be negative).
  void Update(const api::Node& node, std::string_view key, std::int64_t delta);
  void Merge(const TopologyCountList& list);

  bool empty() const { return counts_.empty(); }
  std::size_t size() const { return counts_.size(); }
  // An ordered copy, for tests and logs.
  std::map<std::pair<std::string, std::string>, std::int64_t> ToMap() const;

  friend bool operator==(const TopologyCounts& a, const TopologyCounts& b) {
    return a.counts_ == b.counts_;
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(TopologyPairView pair) const;
  };
  struct Eq {
    using is_transparent = void;
    bool operator()(TopologyPairView a, TopologyPairView b) const {
      return a.key == b.key && a.value == b.value;
    }
  };
  absl::flat_hash_map<TopologyPair, std::int64_t, Hash, Eq> counts_;
};

}  // namespace ksched::plugins::inter_pod_affinity
