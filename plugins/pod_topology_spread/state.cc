#include "plugins/pod_topology_spread/state.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace ksched::plugins::pod_topology_spread {
namespace {

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

}  // namespace

CriticalPaths::CriticalPaths() {
  for (CriticalPath& path : paths_) path.match_num = std::numeric_limits<std::int32_t>::max();
}

void CriticalPaths::Update(std::string_view value, int num) {
  // Is `value` one of the two paths already? (The initial paths have the value "", so a domain
  // named "" takes over the first one, as upstream.)
  int i = -1;
  if (value == paths_[0].topology_value) {
    i = 0;
  } else if (value == paths_[1].topology_value) {
    i = 1;
  }
  if (i >= 0) {
    paths_[static_cast<std::size_t>(i)].match_num = num;
    if (paths_[0].match_num > paths_[1].match_num) std::swap(paths_[0], paths_[1]);
    return;
  }
  if (num < paths_[0].match_num) {
    paths_[1] = std::move(paths_[0]);
    paths_[0] = CriticalPath{std::string(value), num};
  } else if (num < paths_[1].match_num) {
    paths_[1] = CriticalPath{std::string(value), num};
  }
}

std::unique_ptr<framework::StateData> PreFilterState::Clone() const {
  return std::make_unique<PreFilterState>(*this);
}

int PreFilterState::MinMatchNum(std::size_t i, std::int32_t min_domains) const {
  // Fewer eligible domains than minDomains: the global minimum is 0.
  if (tp_value_to_match_num_[i].size() < static_cast<std::size_t>(std::max(min_domains, 0))) {
    return 0;
  }
  return critical_paths_[i][0].match_num;
}

int PreFilterState::MatchNum(std::size_t i, std::string_view value) const {
  const auto& counts = tp_value_to_match_num_[i];
  auto it = counts.find(AbslView(value));
  return it == counts.end() ? 0 : it->second;
}

void PreFilterState::AddMatchNum(std::size_t i, std::string_view value, int delta) {
  auto& counts = tp_value_to_match_num_[i];
  auto it = counts.find(AbslView(value));
  if (it == counts.end()) it = counts.emplace(std::string(value), 0).first;
  it->second += delta;
  critical_paths_[i].Update(value, it->second);
}

}  // namespace ksched::plugins::pod_topology_spread
