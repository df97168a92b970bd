// TopologyCounts: a count per topology pair (node label key, value), upstream's
// topologyToMatchedTermCount (map[topologyPair]int64). InterPodAffinity keeps three of them per
// scheduling cycle for Filter and one (the weighted sums) for Score.
//
// Lookups take string views and never allocate. The pairs' strings live in the counts' own
// storage, a few growing blocks, so that inserting a pair does not allocate per pair (a cycle
// inserts one pair per node holding matching pods: thousands with kubernetes.io/hostname terms)
// and dropping the counts frees a handful of blocks.
//
// TopologyCountList is the scratch list the parallel PreFilter/PreScore loops append to (upstream
// topologyToMatchedTermCountList): it holds views into the node's labels and the terms' topology
// keys, which the snapshot keeps alive for the cycle, and is merged into a TopologyCounts on the
// scheduling thread once the loop is over (one list per slice of nodes: Parallelizer::ForEachSlice).
//
// Thread-safety: a value type; concurrent const use is safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
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
  friend bool operator==(const TopologyPairView&, const TopologyPairView&) = default;
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
  TopologyCounts() = default;
  // A copy holds its own strings.
  TopologyCounts(const TopologyCounts& other);
  TopologyCounts& operator=(const TopologyCounts& other);
  // Moving keeps the blocks, so the moved map's views stay valid.
  TopologyCounts(TopologyCounts&&) noexcept = default;
  TopologyCounts& operator=(TopologyCounts&&) noexcept = default;

  // The count of the pair, 0 when absent.
  std::int64_t Get(std::string_view key, std::string_view value) const;
  // Adds `delta` to the pair (creating it), keeping a zero entry (upstream merge / `+=`). Returns
  // the pair as stored here: views valid as long as these counts (moves included, copies not).
  TopologyPairView Add(std::string_view key, std::string_view value, std::int64_t delta);
  // The pair as stored here (views into these counts), or nothing when absent.
  std::optional<TopologyPairView> Stored(TopologyPairView pair) const;
  // Subtracts `count` from a pair Add returned, dropping the entry when it comes down to zero.
  void Subtract(TopologyPairView stored, std::int64_t count);
  // Adds `delta` to the pair of the node's label `key` when the node has it, and drops the entry
  // when it comes down to zero (upstream update: AddPod/RemovePod deltas may be negative).
  void Update(const api::Node& node, std::string_view key, std::int64_t delta);
  void Merge(const TopologyCountList& list);

  bool empty() const { return counts_.empty(); }
  // Bytes of dropped entries' values still held in the blocks (a copy leaves them behind).
  std::size_t garbage_bytes() const { return garbage_bytes_; }
  std::size_t size() const { return counts_.size(); }
  // Every topology key a pair has had here, once each: a superset of the present pairs' keys
  // (usually one or two), so that a node can be checked with one lookup per key instead of one
  // per node label.
  const std::vector<std::string_view>& keys() const { return keys_; }
  // An ordered copy, for tests and logs.
  std::map<std::pair<std::string, std::string>, std::int64_t> ToMap() const;

  friend bool operator==(const TopologyCounts& a, const TopologyCounts& b) {
    return a.counts_ == b.counts_;
  }

 private:
  // A copy of `s` in the blocks, valid as long as this object (moves included).
  std::string_view Store(std::string_view s);
  // The stored copy of a topology key: keys are few, so they are stored once each.
  std::string_view StoreKey(std::string_view key);

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
  // Keys and values are views into blocks_ (or keys_ for the keys).
  absl::flat_hash_map<TopologyPairView, std::int64_t, Hash, Eq> counts_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_size_ = 0;  // of blocks_.back()
  std::size_t block_used_ = 0;
  std::vector<std::string_view> keys_;
  std::size_t garbage_bytes_ = 0;
};

}  // namespace ksched::plugins::inter_pod_affinity
