#include "scheduler/incremental_totals.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace ksched::scheduler {

void IncrementalTotals::Reset(std::span<const Column> columns, std::size_t nodes) {
  columns_.assign(columns.begin(), columns.end());
  configured_ = true;
  nodes_ = nodes;
  raw_.assign(nodes * columns_.size(), 0);
  member_.assign(nodes, 0);
  pending_.assign(nodes, 0);
  pending_list_.clear();
  members_ = 0;
  counts_.assign(columns_.size(), {});
  ranges_.assign(columns_.size(), framework::ScoreColumnRange{});
  totals_.assign(nodes, 0);
  best_ = std::numeric_limits<std::int64_t>::min();
  best_nodes_.clear();
  in_best_.assign(nodes, 0);
}

bool IncrementalTotals::ConfiguredFor(std::span<const Column> columns, std::size_t nodes) const {
  return configured_ && nodes_ == nodes &&
         std::equal(columns_.begin(), columns_.end(), columns.begin(), columns.end());
}

void IncrementalTotals::Invalidate() {
  configured_ = false;
  columns_.clear();
  nodes_ = 0;
  raw_.clear();
  member_.clear();
  pending_.clear();
  pending_list_.clear();
  members_ = 0;
  counts_.clear();
  ranges_.clear();
  totals_.clear();
  best_nodes_.clear();
  in_best_.clear();
}

void IncrementalTotals::Update(std::size_t i, bool member, std::span<const std::int64_t> raw) {
  if (!configured_ || i >= nodes_ || (member && raw.size() != columns_.size())) std::abort();
  const std::size_t width = columns_.size();
  std::int64_t* row = raw_.data() + i * width;
  if (member_[i] != 0) {
    for (std::size_t k = 0; k < width; ++k) {
      if (!columns_[k].normalization) continue;
      auto it = counts_[k].find(row[k]);
      if (--it->second == 0) counts_[k].erase(it);
    }
    --members_;
  }
  member_[i] = member ? 1 : 0;
  if (member) {
    std::copy(raw.begin(), raw.end(), row);
    for (std::size_t k = 0; k < width; ++k) {
      if (columns_[k].normalization) ++counts_[k][row[k]];
    }
    ++members_;
  }
  if (pending_[i] == 0) {
    pending_[i] = 1;
    pending_list_.push_back(static_cast<std::uint32_t>(i));
  }
}

std::vector<framework::ScoreColumnRange> IncrementalTotals::CurrentRanges() const {
  std::vector<framework::ScoreColumnRange> ranges(columns_.size());
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    if (columns_[k].normalization && !counts_[k].empty()) {
      ranges[k].highest = std::max<std::int64_t>(0, counts_[k].rbegin()->first);
    }
  }
  return ranges;
}

std::optional<std::int64_t> IncrementalTotals::Total(std::size_t i) const {
  const std::size_t width = columns_.size();
  const std::int64_t* row = raw_.data() + i * width;
  std::int64_t total = 0;
  for (std::size_t k = 0; k < width; ++k) {
    const Column& column = columns_[k];
    const std::int64_t score =
        column.normalization ? framework::NormalizedScore(*column.normalization, ranges_[k], row[k])
                             : row[k];
    if (score < framework::kMinNodeScore || score > framework::kMaxNodeScore) return std::nullopt;
    total += score * column.weight;
  }
  return total;
}

bool IncrementalTotals::RefreshTotal(std::size_t i) {
  const std::optional<std::int64_t> total = Total(i);
  if (!total) {
    Invalidate();
    return false;
  }
  totals_[i] = *total;
  return true;
}

bool IncrementalTotals::Settle() {
  if (!configured_) std::abort();
  std::vector<framework::ScoreColumnRange> ranges = CurrentRanges();
  if (ranges != ranges_) {
    // A column's largest raw score moved: every member's normalized score may have.
    ranges_ = std::move(ranges);
    for (const std::uint32_t i : pending_list_) pending_[i] = 0;
    pending_list_.clear();
    return RecomputeAll();
  }
  for (const std::uint32_t i : pending_list_) {
    pending_[i] = 0;
    if (in_best_[i] != 0) {
      best_nodes_.erase(std::lower_bound(best_nodes_.begin(), best_nodes_.end(), i));
      in_best_[i] = 0;
    }
    if (member_[i] == 0) continue;
    if (!RefreshTotal(i)) return false;
    AddToBest(i);
  }
  pending_list_.clear();
  // Members that were not updated have totals <= best_ (as before): when the best set emptied and
  // no updated node reached best_, the new best is among all members.
  if (best_nodes_.empty() && members_ > 0) RescanBest();
  return true;
}

void IncrementalTotals::AddToBest(std::size_t i) {
  const std::int64_t total = totals_[i];
  if (total < best_) return;
  if (total > best_) {
    for (const std::uint32_t j : best_nodes_) in_best_[j] = 0;
    best_nodes_.clear();
    best_ = total;
  }
  best_nodes_.insert(std::lower_bound(best_nodes_.begin(), best_nodes_.end(), i),
                     static_cast<std::uint32_t>(i));
  in_best_[i] = 1;
}

bool IncrementalTotals::RecomputeAll() {
  for (std::size_t i = 0; i < nodes_; ++i) {
    if (member_[i] != 0 && !RefreshTotal(i)) return false;
  }
  RescanBest();
  return true;
}

void IncrementalTotals::RescanBest() {
  for (const std::uint32_t j : best_nodes_) in_best_[j] = 0;
  best_nodes_.clear();
  best_ = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < nodes_; ++i) {
    if (member_[i] != 0) AddToBest(i);
  }
}

std::size_t IncrementalTotals::Pick(std::size_t rotation_start, std::mt19937_64& rng) const {
  if (best_nodes_.empty()) std::abort();  // requires members after Settle
  const std::size_t ties = best_nodes_.size();
  const std::size_t pick =
      ties > 1 ? static_cast<std::size_t>(std::uniform_int_distribution<std::uint64_t>(0, ties - 1)(rng))
               : 0;
  const std::size_t first = static_cast<std::size_t>(
      std::lower_bound(best_nodes_.begin(), best_nodes_.end(), rotation_start) - best_nodes_.begin());
  return best_nodes_[(first + pick) % ties];
}

}  // namespace ksched::scheduler
