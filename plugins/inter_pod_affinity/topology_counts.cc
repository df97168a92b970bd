#include "plugins/inter_pod_affinity/topology_counts.h"

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

// Debian's abseil has its own string_view type.
absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

}  // namespace

void AppendIfLabeled(TopologyCountList& list, const api::Node& node, std::string_view key,
                     std::int64_t count) {
  if (std::optional<std::string_view> value = node.metadata.labels.Get(key)) {
    list.push_back(TopologyCount{TopologyPairView{key, *value}, count});
  }
}

std::size_t TopologyCounts::Hash::operator()(TopologyPairView pair) const {
  return absl::HashOf(AbslView(pair.key), AbslView(pair.value));
}

std::int64_t TopologyCounts::Get(std::string_view key, std::string_view value) const {
  auto it = counts_.find(TopologyPairView{key, value});
  return it != counts_.end() ? it->second : 0;
}

void TopologyCounts::Add(std::string_view key, std::string_view value, std::int64_t delta) {
  auto it = counts_.find(TopologyPairView{key, value});
  if (it == counts_.end()) {
    counts_.emplace(TopologyPair{std::string(key), std::string(value)}, delta);
    return;
  }
  it->second += delta;
}

void TopologyCounts::Update(const api::Node& node, std::string_view key, std::int64_t delta) {
  std::optional<std::string_view> value = node.metadata.labels.Get(key);
  if (!value.has_value()) return;
  auto it = counts_.find(TopologyPairView{key, *value});
  if (it == counts_.end()) {
    if (delta != 0) counts_.emplace(TopologyPair{std::string(key), std::string(*value)}, delta);
    return;
  }
  it->second += delta;
  if (it->second == 0) counts_.erase(it);
}

void TopologyCounts::Merge(const TopologyCountList& list) {
  for (const TopologyCount& entry : list) Add(entry.pair.key, entry.pair.value, entry.count);
}

std::map<std::pair<std::string, std::string>, std::int64_t> TopologyCounts::ToMap() const {
  std::map<std::pair<std::string, std::string>, std::int64_t> out;
  for (const auto& [pair, count] : counts_) {
    out.emplace(std::make_pair(pair.key, pair.value), count);
  }
  return out;
}

}  // namespace ksched::plugins::inter_pod_affinity
