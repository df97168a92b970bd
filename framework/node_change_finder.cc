#include "framework/node_change_finder.h"

#include <algorithm>

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

}  // namespace ksched::framework
