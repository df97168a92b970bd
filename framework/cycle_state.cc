#include "framework/cycle_state.h"

#include <algorithm>

namespace ksched::framework {

StateData* CycleState::Read(std::string_view key) const {
  for (const auto& [name, data] : entries_) {
    if (name == key) return data.get();
  }
  return nullptr;
}

void CycleState::Write(std::string key, std::unique_ptr<StateData> data) {
  for (auto& [name, existing] : entries_) {
    if (name == key) {
      existing = std::move(data);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(data));
}

void CycleState::Delete(std::string_view key) {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [key](const auto& entry) { return entry.first == key; });
  if (it != entries_.end()) entries_.erase(it);
}

std::unique_ptr<CycleState> CycleState::Clone() const {
  auto clone = std::make_unique<CycleState>();
  clone->entries_.reserve(entries_.size());
  for (const auto& [name, data] : entries_) {
    clone->entries_.emplace_back(name, data != nullptr ? data->Clone() : nullptr);
  }
  clone->skip_filter_ = skip_filter_;
  clone->skip_score_ = skip_score_;
  clone->record_plugin_metrics_ = record_plugin_metrics_;
  return clone;
}

}  // namespace ksched::framework
