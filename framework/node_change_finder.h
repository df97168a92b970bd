// NodeChangeFinder: for a reader that keeps per-node results over a Snapshot's node list (indexed
// by position), the positions whose NodeInfo changed since the reader last looked: those whose
// generation differs from the one the reader recorded.
//
// When the reader last looked at the generation the snapshot's last update started from, only the
// NodeInfos that update assigned can have changed (Snapshot::updated_nodes()), so only they are
// compared; otherwise every node is. The NodeInfo-to-position index the first case needs is built
// on first use and kept until Reset.
//
// Use: Reset() whenever the reader starts over on a node list (another list_version); Find() on
// later looks at the same list. Thread-safety: none (one reader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "framework/node_info.h"
#include "framework/snapshot.h"

namespace ksched::framework {

class NodeChangeFinder {
 public:
  // Forgets the index (the node list changed).
  void Reset() { index_of_.clear(); }

  // Into `out` (cleared first), ascending: the positions i of snapshot.nodes() with
  // nodes()[i]->generation() != generations[i]. `seen_generation`: the snapshot generation the
  // reader last looked at; `generations` parallel to snapshot.nodes(), which must be the list the
  // reader has kept results for since the last Reset.
  void Find(const Snapshot& snapshot, std::int64_t seen_generation,
            std::span<const std::int64_t> generations, std::vector<std::size_t>& out);

 private:
  absl::flat_hash_map<const NodeInfo*, std::uint32_t> index_of_;
};

}  // namespace ksched::framework
