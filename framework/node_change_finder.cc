#include "framework/node_change_finder.h"

#include <algorithm>
#include <functional>
#include <string>

namespace ksched::framework {

void NodeChangeFinder::Find(const Snapshot& snapshot, std::int64_t seen_generation,
                            std::span<const std::int64_t> generations,
                            std::vector<std::size_t>& out) {
  out.clear();
  const std::vector<NodeInfo*>& nodes = snapshot.nodes();
  if (snapshot.updated_from() != seen_generation) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i]->generation() != generations[i]) out.push_back(i);
    }
    return;
  }
  // One update since the reader looked: only the NodeInfos it assigned can have moved.
  if (index_of_.empty()) {
    index_of_.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      index_of_.emplace(nodes[i], static_cast<std::uint32_t>(i));
    }
  }
  for (const NodeInfo* updated : snapshot.updated_nodes()) {
    auto it = index_of_.find(updated);
    if (it == index_of_.end()) continue;  // cannot happen with an unchanged list
    const std::size_t i = it->second;
    if (nodes[i]->generation() != generations[i]) out.push_back(i);
  }
  // In node order, as the comparison of every node lists them; an update may assign a NodeInfo twice.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

std::optional<std::size_t> FindUnrecordedChange(const Snapshot& snapshot,
                                                std::int64_t seen_generation,
                                                std::span<const std::int64_t> generations) {
  const bool no_update_since = snapshot.generation() == seen_generation;
  if (!no_update_since && snapshot.updated_from() != seen_generation) return std::nullopt;
  std::vector<const NodeInfo*> recorded;
  if (!no_update_since) {
    recorded = snapshot.updated_nodes();
    std::sort(recorded.begin(), recorded.end(), std::less<const NodeInfo*>());
  }
  const std::vector<NodeInfo*>& nodes = snapshot.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->generation() == generations[i]) continue;
    if (!std::binary_search(recorded.begin(), recorded.end(), nodes[i],
                            std::less<const NodeInfo*>())) {
      return i;
    }
  }
  return std::nullopt;
}

void UnrecordedChange(const Snapshot& snapshot, std::size_t index, std::string_view reader) {
  std::string what(reader);
  what.append(": node \"")
      .append(snapshot.nodes()[index]->name())
      .append("\" changed in the snapshot (generation ")
      .append(std::to_string(snapshot.nodes()[index]->generation()))
      .append(") without the snapshot recording it (snapshot generation ")
      .append(std::to_string(snapshot.generation()))
      .append("): a NodeInfo was changed through Snapshot::GetMutable outside "
              "Cache::UpdateSnapshot, and results kept for it are stale");
  BrokenInvariant(what);
}

}  // namespace ksched::framework
