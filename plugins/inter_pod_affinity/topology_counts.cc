#include "plugins/inter_pod_affinity/topology_counts.h"

#include <algorithm>
#include <cstring>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

// Debian's abseil has its own string_view type.
absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Blocks start small (most counts hold a few zone pairs) and double up to this size.
constexpr std::size_t kFirstBlockSize = 256;
constexpr std::size_t kMaxBlockSize = 64 * 1024;

}  // namespace

void AppendIfLabeled(TopologyCountList& list, const api::Node& node, std::string_view key,
                     std::int64_t count) {
  if (std::optional<std::string_view> value = node.metadata.labels.Get(key)) {
    list.push_back(TopologyCount{TopologyPairView{key, *value}, count});
  }
}

std::size_t TopologyCounts::Hash::operator()(TopologyPairView pair) const {
  // Distinct topology keys are few and rarely of equal length: the key's length tells them apart
  // well enough for hashing (equality compares the key itself).
  return absl::HashOf(AbslView(pair.value), pair.key.size());
}

TopologyCounts::TopologyCounts(const TopologyCounts& other) { *this = other; }

TopologyCounts& TopologyCounts::operator=(const TopologyCounts& other) {
  if (this == &other) return *this;
  counts_.clear();
  blocks_.clear();
  keys_.clear();
  block_size_ = block_used_ = 0;
  garbage_bytes_ = 0;
  counts_.reserve(other.counts_.size());
  for (const auto& [pair, count] : other.counts_) {
    counts_.emplace(TopologyPairView{StoreKey(pair.key), Store(pair.value)}, count);
  }
  return *this;
}

std::string_view TopologyCounts::Store(std::string_view s) {
  if (s.empty()) return {};
  if (blocks_.empty() || block_size_ - block_used_ < s.size()) {
    std::size_t size = blocks_.empty() ? kFirstBlockSize : std::min(block_size_ * 2, kMaxBlockSize);
    size = std::max(size, s.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    block_size_ = size;
    block_used_ = 0;
  }
  char* out = blocks_.back().get() + block_used_;
  std::memcpy(out, s.data(), s.size());
  block_used_ += s.size();
  return {out, s.size()};
}

std::string_view TopologyCounts::StoreKey(std::string_view key) {
  for (std::string_view stored : keys_) {
    if (stored == key) return stored;
  }
  keys_.push_back(Store(key));
  return keys_.back();
}

std::int64_t TopologyCounts::Get(std::string_view key, std::string_view value) const {
  auto it = counts_.find(TopologyPairView{key, value});
  return it != counts_.end() ? it->second : 0;
}

TopologyPairView TopologyCounts::Add(std::string_view key, std::string_view value,
                                     std::int64_t delta) {
  // One lookup; a new entry is built with our own copies of the strings (same contents, so the
  // same hash).
  auto it = counts_.lazy_emplace(TopologyPairView{key, value}, [&](const auto& construct) {
    construct(TopologyPairView{StoreKey(key), Store(value)}, 0);
  });
  it->second += delta;
  return it->first;
}

std::optional<TopologyPairView> TopologyCounts::Stored(TopologyPairView pair) const {
  auto it = counts_.find(pair);
  if (it == counts_.end()) return std::nullopt;
  return it->first;
}

void TopologyCounts::Subtract(TopologyPairView stored, std::int64_t count) {
  auto it = counts_.find(stored);
  if (it == counts_.end()) return;
  it->second -= count;
  if (it->second == 0) {
    garbage_bytes_ += it->first.value.size();
    counts_.erase(it);
  }
}

void TopologyCounts::Update(const api::Node& node, std::string_view key, std::int64_t delta) {
  std::optional<std::string_view> value = node.metadata.labels.Get(key);
  if (!value.has_value()) return;
  auto it = counts_.find(TopologyPairView{key, *value});
  if (it == counts_.end()) {
    if (delta != 0) Add(key, *value, delta);
    return;
  }
  it->second += delta;
  // The entry's strings stay in the blocks until the counts go: removals are rare (the PreFilter
  // extensions' RemovePod).
  if (it->second == 0) {
    garbage_bytes_ += it->first.value.size();
    counts_.erase(it);
  }
}

void TopologyCounts::Merge(const TopologyCountList& list) {
  for (const TopologyCount& entry : list) Add(entry.pair.key, entry.pair.value, entry.count);
}

std::map<std::pair<std::string, std::string>, std::int64_t> TopologyCounts::ToMap() const {
  std::map<std::pair<std::string, std::string>, std::int64_t> out;
  for (const auto& [pair, count] : counts_) {
    out.emplace(std::make_pair(std::string(pair.key), std::string(pair.value)), count);
  }
  return out;
}

}  // namespace ksched::plugins::inter_pod_affinity
