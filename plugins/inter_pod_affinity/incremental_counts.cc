#include "plugins/inter_pod_affinity/incremental_counts.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <optional>
#include <utility>


namespace ksched::plugins::inter_pod_affinity {
namespace {

// Dropped pairs' strings left in a sum's blocks before a rebuild frees them: pairs disappear only
// when the last matching pod leaves a domain, so this takes thousands of deletions.
constexpr std::size_t kMaxGarbageBytes = 64 * 1024;
// Replaced spans kept in the entry list before it is compacted.
constexpr std::size_t kMinDeadEntriesToCompact = 1024;

}  // namespace

void IncrementalCounts::Sink::AppendIfLabeled(std::size_t which, const api::Node& node,
                                              std::string_view key, std::int64_t count) {
  if (std::optional<std::string_view> value = node.metadata.labels.Get(key)) {
    pending_.push_back(Pending{static_cast<std::uint32_t>(which),
                               TopologyCount{TopologyPairView{key, *value}, count}});
  }
}

IncrementalCounts::IncrementalCounts(std::size_t sums) : num_sums_(sums) {
  if (sums == 0 || sums > kMaxSums) {
    std::fprintf(stderr, "IncrementalCounts: %zu sums (1 to %zu)\n", sums, kMaxSums);
    std::abort();
  }
  for (std::size_t i = 0; i < num_sums_; ++i) sums_[i] = std::make_shared<TopologyCounts>();
}

void IncrementalCounts::Sync(const framework::Snapshot& snapshot, bool rebuild,
                             const std::vector<framework::NodeInfo*>& nodes,
                             framework::Parallelizer& parallelizer, Contribute contribute) {
  // Generation 0: a snapshot the cache does not keep (tests, tools), which records no updates.
  bool full = rebuild || !valid_ || snapshot_ != &snapshot ||
              list_version_ != snapshot.list_version() || snapshot.generation() == 0;
  const bool changed = snapshot.generation() != generation_;
  if (!full && changed) {
    // Only one update since the last sync tells which NodeInfos moved; patching most of the
    // nodes one by one costs more than a parallel rebuild.
    full = snapshot.updated_from() != generation_ ||
           snapshot.updated_nodes().size() * 2 > nodes.size() + 16;
  }
  if (!full) {
    for (std::size_t i = 0; i < num_sums_; ++i) {
      if (sums_[i]->garbage_bytes() > kMaxGarbageBytes) full = true;
    }
  }

  if (full) {
    Rebuild(nodes, parallelizer, contribute);
  } else if (changed) {
    for (const framework::NodeInfo* updated : snapshot.updated_nodes()) Patch(*updated, contribute);
    if (dead_entries_ >= kMinDeadEntriesToCompact && dead_entries_ * 2 > entries_.size()) {
      CompactEntries();
    }
  } else {
    ++stats_.reused;
  }
  valid_ = true;
  snapshot_ = &snapshot;
  list_version_ = snapshot.list_version();
  generation_ = snapshot.generation();
}

void IncrementalCounts::Rebuild(const std::vector<framework::NodeInfo*>& nodes,
                                framework::Parallelizer& parallelizer, Contribute contribute) {
  ++stats_.rebuilds;
  // Fresh sums: states holding the old ones keep them.
  for (std::size_t i = 0; i < num_sums_; ++i) sums_[i] = std::make_shared<TopologyCounts>();
  entries_.clear();
  dead_entries_ = 0;
  spans_.clear();

  struct SliceOutput {
    Sink sink;
    // Per contributing node, where its pending pairs end in sink.pending_.
    std::vector<std::pair<const framework::NodeInfo*, std::size_t>> ends;
  };
  std::vector<SliceOutput> outputs(parallelizer.SliceCount(nodes.size()));
  parallelizer.ForEachSlice(nodes.size(), [&](std::size_t begin, std::size_t end, std::size_t slice) {
    SliceOutput& out = outputs[slice];
    for (std::size_t i = begin; i < end; ++i) {
      const framework::NodeInfo& info = *nodes[i];
      if (info.node() == nullptr) continue;
      const std::size_t before = out.sink.pending_.size();
      contribute(info, out.sink);
      if (out.sink.pending_.size() != before) out.ends.emplace_back(&info, out.sink.pending_.size());
    }
  }, framework::GoroutineOperation::kInterPodAffinity);
  for (const SliceOutput& out : outputs) {
    std::size_t begin = 0;
    for (const auto& [node, end] : out.ends) {
      Record(node, out.sink.pending_, begin, end);
      begin = end;
    }
  }
}

void IncrementalCounts::Patch(const framework::NodeInfo& node, Contribute contribute) {
  ++stats_.patched_nodes;
  scratch_.pending_.clear();
  if (node.node() != nullptr) contribute(node, scratch_);
  std::optional<Span> old;
  if (auto it = spans_.find(&node); it != spans_.end()) {
    old = it->second;
    spans_.erase(it);
  }
  // The new contribution goes in before the old one comes out, so that a pair in both never drops
  // to zero (which would leave its strings behind as garbage and store them again).
  if (!scratch_.pending_.empty()) Record(&node, scratch_.pending_, 0, scratch_.pending_.size());
  if (old.has_value()) {
    for (std::uint32_t k = old->begin; k < old->begin + old->size; ++k) {
      const Entry& entry = entries_[k];
      Writable(entry.which).Subtract(entry.pair, entry.count);
    }
    dead_entries_ += old->size;
  }
}

TopologyCounts& IncrementalCounts::Writable(std::size_t which) {
  std::shared_ptr<TopologyCounts>& sum = sums_[which];
  if (sum.use_count() == 1) {
    // Pairs with the release of the other holders' references (as framework::Status does).
    std::atomic_thread_fence(std::memory_order_acquire);
    return *sum;
  }
  // A cycle's state still holds this sum: copy it, and point the live entries at the copy's
  // strings (the old sum's storage goes with its last holder).
  sum = std::make_shared<TopologyCounts>(*sum);
  for (const auto& [node, span] : spans_) {
    for (std::uint32_t k = span.begin; k < span.begin + span.size; ++k) {
      Entry& entry = entries_[k];
      if (entry.which != which) continue;
      std::optional<TopologyPairView> stored = sum->Stored(entry.pair);
      if (!stored.has_value()) {
        std::fprintf(stderr, "IncrementalCounts: a live entry's pair (%s, %s) is missing from its sum\n",
                     std::string(entry.pair.key).c_str(), std::string(entry.pair.value).c_str());
        std::abort();
      }
      entry.pair = *stored;
    }
  }
  return *sum;
}

void IncrementalCounts::Record(const framework::NodeInfo* node,
                               const std::vector<Sink::Pending>& pending, std::size_t begin,
                               std::size_t end) {
  const Span span{static_cast<std::uint32_t>(entries_.size()), static_cast<std::uint32_t>(end - begin)};
  for (std::size_t k = begin; k < end; ++k) {
    const Sink::Pending& p = pending[k];
    if (p.which >= num_sums_ || p.count.count <= 0) {
      // Subtracting a contribution relies on every entry keeping its pair above zero.
      std::fprintf(stderr,
                   "IncrementalCounts: contribution of %lld to sum %u of %zu (counts must be "
                   "positive, sums in range)\n",
                   static_cast<long long>(p.count.count), p.which, num_sums_);
      std::abort();
    }
    const TopologyPairView stored =
        Writable(p.which).Add(p.count.pair.key, p.count.pair.value, p.count.count);
    entries_.push_back(Entry{p.which, stored, p.count.count});
  }
  if (span.size > 0) spans_[node] = span;
}

void IncrementalCounts::CompactEntries() {
  std::vector<Entry> live;
  live.reserve(entries_.size() - dead_entries_);
  for (auto& [node, span] : spans_) {
    const std::uint32_t begin = static_cast<std::uint32_t>(live.size());
    live.insert(live.end(), entries_.begin() + span.begin, entries_.begin() + span.begin + span.size);
    span.begin = begin;
  }
  entries_ = std::move(live);
  dead_entries_ = 0;
}

}  // namespace ksched::plugins::inter_pod_affinity
