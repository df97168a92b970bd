#include "framework/cycle_state.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ksched::framework {

StateData* CycleState::Read(const StateKey& key) const noexcept {
  for (const Entry& entry : entries_) {
    // Write keeps hashes unique, so the hash alone identifies the entry.
    if (entry.hash == key.hash()) return entry.data.get();
  }
  return nullptr;
}

void CycleState::Write(const StateKey& key, std::unique_ptr<StateData> data) {
  for (Entry& entry : entries_) {
    if (entry.hash == key.hash()) {
      // Two names with one 64-bit hash would make Read return the wrong plugin's data.
      if (entry.name != key.name()) {
        std::fprintf(stderr, "CycleState: keys %s and %.*s share a hash\n", entry.name.c_str(),
                     static_cast<int>(key.name().size()), key.name().data());
        std::abort();
      }
      entry.data = std::move(data);
      entry.scheduling_cycle_only = scheduling_cycle_only_writes_;
      return;
    }
  }
  entries_.push_back(Entry{key.hash(), api::InternedString(key.name()), std::move(data),
                           scheduling_cycle_only_writes_});
}

void CycleState::DropSchedulingCycleOnlyData() {
  std::erase_if(entries_, [](const Entry& entry) { return entry.scheduling_cycle_only; });
  entries_.shrink_to_fit();
  skip_filter_.clear();
  skip_score_.clear();
  filter_plan_ = {};
  filter_plan_owner_ = nullptr;
}

void CycleState::Delete(std::string_view key) {
  const StateKey wanted(key);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&wanted](const Entry& entry) {
    return entry.hash == wanted.hash() && entry.name == wanted.name();
  });
  if (it != entries_.end()) entries_.erase(it);
}

std::unique_ptr<CycleState> CycleState::Clone() const {
  auto clone = std::make_unique<CycleState>();
  clone->entries_.reserve(entries_.size());
  for (const Entry& entry : entries_) {
    clone->entries_.push_back(Entry{entry.hash, entry.name,
                                    entry.data != nullptr ? entry.data->Clone() : nullptr,
                                    entry.scheduling_cycle_only});
  }
  clone->skip_filter_ = skip_filter_;
  clone->filter_plan_ = filter_plan_;
  clone->filter_plan_owner_ = filter_plan_owner_;
  clone->skip_score_ = skip_score_;
  clone->record_plugin_metrics_ = record_plugin_metrics_;
  return clone;
}

}  // namespace ksched::framework
