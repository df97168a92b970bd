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
//
// The record is complete only when every change to the snapshot's NodeInfos goes through the
// cache's update (Cache::UpdateSnapshot); a NodeInfo changed in place through
// Snapshot::GetMutable outside it moves its generation without the record (or the snapshot's
// generation) saying so, and a reader that trusts the record keeps stale results for it.
// FindUnrecordedChange detects that, for tests and CheckChangesRecorded, the debug-build check
// readers run before trusting the record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "framework/debug_checks.h"
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

// The first position i of snapshot.nodes() whose NodeInfo changed (its generation differs from
// generations[i]) where the snapshot's record tells a reader that last looked at generation
// `seen_generation` not to look: the snapshot's generation is still `seen_generation` (no update
// since, so nothing may have changed), or its last update started from `seen_generation` and its
// updated_nodes() lack that NodeInfo. nullopt when every change is recorded, and when the reader
// compares every node anyway (it missed an update). Same arguments as NodeChangeFinder::Find.
// Linear in the nodes and allocates: for debug-build checks and tests, not hot paths.
std::optional<std::size_t> FindUnrecordedChange(const Snapshot& snapshot,
                                                std::int64_t seen_generation,
                                                std::span<const std::int64_t> generations);

// Aborts (BrokenInvariant) naming `reader` and snapshot.nodes()[index].
[[noreturn]] void UnrecordedChange(const Snapshot& snapshot, std::size_t index,
                                   std::string_view reader);

// Debug builds: aborts, naming `reader` (who trusts the record) and the node, when
// FindUnrecordedChange finds a change. Release builds: nothing (compiled out).
inline void CheckChangesRecorded(const Snapshot& snapshot, std::int64_t seen_generation,
                                 std::span<const std::int64_t> generations,
                                 std::string_view reader) {
  if constexpr (kDebugChecks) {
    if (std::optional<std::size_t> i =
            FindUnrecordedChange(snapshot, seen_generation, generations)) {
      UnrecordedChange(snapshot, *i, reader);
    }
  }
}

}  // namespace ksched::framework
