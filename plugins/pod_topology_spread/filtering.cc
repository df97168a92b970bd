// PodTopologySpread: PreFilter, its AddPod/RemovePod extensions, and Filter (upstream
// filtering.go).
#include "plugins/pod_topology_spread/pod_topology_spread.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched::plugins::pod_topology_spread {
namespace {

framework::Status PreFilterStateNotFound() {
  std::string message = "reading \"";
  message += kPreFilterStateKey.name();
  message += "\" from cycleState: not found";
  return framework::Status::FromError(std::move(message));
}

}  // namespace

absl::StatusOr<std::unique_ptr<PreFilterState>> PodTopologySpread::CalPreFilterState(
    const api::Pod& pod, const std::vector<framework::NodeInfo*>& nodes) const {
  absl::StatusOr<std::vector<SpreadConstraint>> constraints = GetConstraints(pod);
  if (!constraints.ok()) {
    return absl::InvalidArgumentError("get constraints from pod: " +
                                      std::string(constraints.status().message()));
  }
  auto state = std::make_unique<PreFilterState>();
  state->constraints_ =
      std::make_shared<const std::vector<SpreadConstraint>>(*std::move(constraints));
  const std::vector<SpreadConstraint>& cs = *state->constraints_;
  if (cs.empty()) return state;

  const std::size_t k = cs.size();
  state->critical_paths_.resize(k);
  state->tp_value_to_match_num_.resize(k);
  auto export_counts = [&](const DomainCounts& counts) {
    for (std::size_t j = 0; j < k; ++j) counts.Export(j, state->tp_value_to_match_num_[j]);
  };
  const framework::Snapshot* snapshot = &handle_.snapshot();
  if (domain_counts_mu_.TryLock()) {
    base::MutexLock lock(&domain_counts_mu_, std::adopt_lock);
    domain_counts_.Refresh(pod, cs, nodes, snapshot, match_counts_, handle_.parallelizer());
    export_counts(domain_counts_);
  } else {
    DomainCounts counts;
    counts.Refresh(pod, cs, nodes, nullptr, match_counts_, handle_.parallelizer());
    export_counts(counts);
  }
  for (std::size_t j = 0; j < k; ++j) {
    for (const auto& [value, num] : state->tp_value_to_match_num_[j]) {
      state->critical_paths_[j].Update(value, num);
    }
  }
  return state;
}

std::pair<framework::PreFilterResult, framework::Status> PodTopologySpread::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& nodes) {
  absl::StatusOr<std::unique_ptr<PreFilterState>> s = CalPreFilterState(pod, nodes);
  if (!s.ok()) return {{}, framework::Status::FromError(std::string(s.status().message()))};
  if ((*s)->constraints().empty()) return {{}, framework::Status(framework::Code::kSkip)};
  state.Write(kPreFilterStateKey, *std::move(s));
  return {{}, {}};
}

void PodTopologySpread::UpdateWithPod(PreFilterState& state, const api::Pod& updated_pod,
                                      const api::Pod& preemptor_pod, const api::Node* node,
                                      int delta) {
  if (updated_pod.metadata.namespace_ != preemptor_pod.metadata.namespace_ || node == nullptr) {
    return;
  }
  const std::vector<SpreadConstraint>& cs = state.constraints();
  if (!NodeLabelsMatchSpreadConstraints(node->metadata.labels, cs)) return;

  const helper::RequiredNodeAffinity required =
      helper::RequiredNodeAffinity::FromPod(preemptor_pod);
  for (std::size_t j = 0; j < cs.size(); ++j) {
    if (!cs[j].selector.Matches(updated_pod.metadata.labels)) continue;
    if (!cs[j].MatchNodeInclusionPolicies(preemptor_pod, *node, required)) continue;
    state.AddMatchNum(j, *node->metadata.labels.Get(cs[j].topology_key), delta);
  }
}

framework::Status PodTopologySpread::AddPod(framework::CycleState& state,
                                            const api::Pod& pod_to_schedule,
                                            const framework::PodInfoPtr& pod_to_add,
                                            const framework::NodeInfo& node_info) {
  auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return PreFilterStateNotFound();
  UpdateWithPod(*s, pod_to_add->pod(), pod_to_schedule, node_info.node(), 1);
  return {};
}

framework::Status PodTopologySpread::RemovePod(framework::CycleState& state,
                                               const api::Pod& pod_to_schedule,
                                               const framework::PodInfoPtr& pod_to_remove,
                                               const framework::NodeInfo& node_info) {
  auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return PreFilterStateNotFound();
  UpdateWithPod(*s, pod_to_remove->pod(), pod_to_schedule, node_info.node(), -1);
  return {};
}

framework::Status PodTopologySpread::Filter(const framework::CycleState& state,
                                            const api::Pod& pod,
                                            const framework::NodeInfo& node_info) {
  const api::Node* node = node_info.node();
  if (node == nullptr) return framework::Status::FromError("node not found");
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return PreFilterStateNotFound();

  // An empty state is legit: it tolerates every pod.
  const std::vector<SpreadConstraint>& cs = s->constraints();
  for (std::size_t j = 0; j < cs.size(); ++j) {
    const SpreadConstraint& c = cs[j];
    const std::optional<std::string_view> value = node->metadata.labels.Get(c.topology_key);
    if (!value.has_value()) {
      // Constants, stamped with the plugin's name: a rejected node costs no allocation.
      static const framework::Status kNodeLabelNotMatch =
          framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonNodeLabelNotMatch})
              .WithPlugin(kName);
      return kNodeLabelNotMatch;
    }
    // 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum' <= 'maxSkew'
    const int min_match_num = s->MinMatchNum(j, c.min_domains);
    const int self_match_num = c.selector.Matches(pod.metadata.labels) ? 1 : 0;
    const int skew = s->MatchNum(j, *value) + self_match_num - min_match_num;
    if (skew > c.max_skew) {
      static const framework::Status kConstraintsNotMatch =
          framework::Status(framework::Code::kUnschedulable, {kErrReasonConstraintsNotMatch})
              .WithPlugin(kName);
      return kConstraintsNotMatch;
    }
  }
  return {};
}

}  // namespace ksched::plugins::pod_topology_spread
