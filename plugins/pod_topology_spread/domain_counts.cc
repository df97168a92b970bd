#include "plugins/pod_topology_spread/domain_counts.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "plugins/pod_topology_spread/pod_topology_spread.h"  // kHostnameKey

namespace ksched::plugins::pod_topology_spread {
namespace {

// Equal selectors keep their requirements sorted by key, so they compare element by element.
bool SameSelector(const api::CompiledLabelSelector& a, const api::CompiledLabelSelector& b) {
  return a.MatchesNothing() == b.MatchesNothing() &&
         std::ranges::equal(a.requirements(), b.requirements());
}

// What of a constraint decides which nodes count and what they count (maxSkew and minDomains
// only matter to Filter).
bool SameCounting(const SpreadConstraint& a, const SpreadConstraint& b) {
  return a.topology_key == b.topology_key && a.node_affinity_policy == b.node_affinity_policy &&
         a.node_taints_policy == b.node_taints_policy && SameSelector(a.selector, b.selector);
}

// One node's contribution (the per-node closure of upstream calPreFilterState, or of PreScore): for
// each constraint its domain and matching pods, count -1 when the node does not count for it. With
// mode.require_all_keys the node must have every topology key (nodeLabelsMatchSpreadConstraints),
// else a missing label is the domain ""; each constraint needs the node to pass its inclusion
// policies. `count_one(j)` counts the node's matching pods for constraint j.
template <typename CountOne>
void Contribution(const api::Pod& pod, const std::vector<SpreadConstraint>& cs,
                  DomainCounts::Mode mode, const api::Node& node,
                  const helper::RequiredNodeAffinity& required, std::string_view* domains,
                  int* counts, CountOne&& count_one) {
  const std::size_t k = cs.size();
  for (std::size_t j = 0; j < k; ++j) counts[j] = -1;
  for (std::size_t j = 0; j < k; ++j) {
    const std::optional<std::string_view> value = node.metadata.labels.Get(cs[j].topology_key);
    if (!value.has_value() && mode.require_all_keys) return;
    domains[j] = value.value_or("");
  }
  for (std::size_t j = 0; j < k; ++j) {
    if (mode.skip_hostname && cs[j].topology_key == kHostnameKey) continue;
    if (!cs[j].MatchNodeInclusionPolicies(pod, node, required)) continue;
    counts[j] = count_one(j);
  }
}

}  // namespace

bool DomainCounts::SameKey(const api::Pod& pod, const std::vector<SpreadConstraint>& constraints,
                           Mode mode) const {
  return mode == mode_ && std::string_view(pod.metadata.namespace_) == namespace_ &&
         std::ranges::equal(constraints, constraints_, SameCounting) &&
         pod.spec.node_selector == node_selector_ &&
         pod.spec.affinity.node_affinity == node_affinity_ &&
         pod.spec.tolerations == tolerations_;
}

void DomainCounts::RememberKey(const api::Pod& pod,
                               const std::vector<SpreadConstraint>& constraints, Mode mode) {
  mode_ = mode;
  namespace_ = std::string(std::string_view(pod.metadata.namespace_));
  constraints_ = constraints;
  node_selector_ = pod.spec.node_selector;
  node_affinity_ = pod.spec.affinity.node_affinity;
  tolerations_ = pod.spec.tolerations;
}

std::int32_t DomainCounts::DomainId(std::size_t j, std::string_view value) {
  Domains& d = domains_[j];
  auto it = d.ids.find(absl::string_view(value.data(), value.size()));
  if (it != d.ids.end()) return it->second;
  const auto id = static_cast<std::int32_t>(d.names.size());
  d.ids.emplace(std::string(value), id);
  d.names.emplace_back(value);
  d.sums.push_back(0);
  d.counted.push_back(0);
  return id;
}

void DomainCounts::Refresh(const api::Pod& pod, const std::vector<SpreadConstraint>& constraints,
                           const std::vector<framework::NodeInfo*>& nodes,
                           const framework::Snapshot* snapshot, MatchCountMemo& match_counts,
                           framework::Parallelizer& parallelizer, Mode mode) {
  // Only a cache-kept snapshot (generation > 0) identifies its node list by list_version.
  if (snapshot != nullptr && (&snapshot->nodes() != &nodes || snapshot->generation() <= 0)) {
    snapshot = nullptr;
  }
  const bool reusable = valid_ && snapshot != nullptr && snapshot == snapshot_ &&
                        snapshot->list_version() == list_version_ &&
                        nodes.size() == generations_.size() && SameKey(pod, constraints, mode);
  if (!reusable) {
    RememberKey(pod, constraints, mode);
    Rebuild(pod, nodes, match_counts, parallelizer);
    valid_ = snapshot != nullptr;
    snapshot_ = snapshot;
    list_version_ = snapshot != nullptr ? snapshot->list_version() : 0;
    snapshot_generation_ = snapshot != nullptr ? snapshot->generation() : -1;
    return;
  }
  ++stats_.updates;
  framework::CheckChangesRecorded(*snapshot, snapshot_generation_, generations_,
                                  "PodTopologySpread DomainCounts");
  if (snapshot->generation() == snapshot_generation_) return;  // nothing changed in place
  change_finder_.Find(*snapshot, snapshot_generation_, generations_, changed_);
  if (!changed_.empty()) {
    const helper::RequiredNodeAffinity required = helper::RequiredNodeAffinity::FromPod(pod);
    for (const std::size_t i : changed_) Revisit(pod, i, *nodes[i], required);
  }
  snapshot_generation_ = snapshot->generation();
}

void DomainCounts::Rebuild(const api::Pod& pod, const std::vector<framework::NodeInfo*>& nodes,
                           MatchCountMemo& match_counts, framework::Parallelizer& parallelizer) {
  ++stats_.rebuilds;
  const std::vector<SpreadConstraint>& cs = constraints_;
  const std::size_t k = cs.size();
  const std::size_t n = nodes.size();
  change_finder_.Reset();
  generations_.resize(n);
  node_domain_.assign(n * k, -1);
  node_count_.assign(n * k, -1);
  domains_.assign(k, Domains{});
  for (std::size_t j = 0; j < k; ++j) {
    // upstream sizeHeuristic: a hostname constraint has about one domain per node.
    if (cs[j].topology_key == kHostnameKey && !mode_.skip_hostname) domains_[j].ids.reserve(n);
  }

  // Count per (node, constraint) in parallel, noting the node's domains; then give the domains
  // their ids and sum on this thread.
  std::vector<std::string_view> domain_values(n * k);
  const helper::RequiredNodeAffinity required = helper::RequiredNodeAffinity::FromPod(pod);
  MatchCountMemo::Pass memo = match_counts.Begin(n);
  std::vector<MatchCountMemo::Channel*> channels(k);
  for (std::size_t j = 0; j < k; ++j) channels[j] = memo.Find(pod.metadata.namespace_, cs[j].selector);
  parallelizer.Until(n, [&](std::size_t i, framework::Parallelizer::Run&) {
    generations_[i] = nodes[i]->generation();
    const api::Node* node = nodes[i]->node();
    if (node == nullptr) return;
    Contribution(pod, cs, mode_, *node, required, &domain_values[i * k], &node_count_[i * k],
                 [&](std::size_t j) {
                   return channels[j] != nullptr
                              ? channels[j]->Count(i, *nodes[i])
                              : CountPodsMatchSelector(nodes[i]->pods(), cs[j].selector,
                                                       pod.metadata.namespace_);
                 });
  }, framework::GoroutineOperation::kPodTopologySpread);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      const int count = node_count_[i * k + j];
      if (count < 0) continue;
      const std::int32_t id = DomainId(j, domain_values[i * k + j]);
      node_domain_[i * k + j] = id;
      domains_[j].sums[static_cast<std::size_t>(id)] += count;
      ++domains_[j].counted[static_cast<std::size_t>(id)];
    }
  }
}

void DomainCounts::Revisit(const api::Pod& pod, std::size_t i, const framework::NodeInfo& node,
                           const helper::RequiredNodeAffinity& required) {
  ++stats_.revisited_nodes;
  const std::vector<SpreadConstraint>& cs = constraints_;
  const std::size_t k = cs.size();
  for (std::size_t j = 0; j < k; ++j) {
    const std::int32_t id = node_domain_[i * k + j];
    if (id < 0) continue;
    domains_[j].sums[static_cast<std::size_t>(id)] -= node_count_[i * k + j];
    --domains_[j].counted[static_cast<std::size_t>(id)];
    node_domain_[i * k + j] = -1;
    node_count_[i * k + j] = -1;
  }
  generations_[i] = node.generation();
  const api::Node* api_node = node.node();
  if (api_node == nullptr) return;
  // Constraints are few (one or two in practice); more than 8 take the heap.
  std::string_view inline_values[8];
  std::vector<std::string_view> heap_values;
  std::string_view* values = inline_values;
  if (k > 8) {
    heap_values.resize(k);
    values = heap_values.data();
  }
  Contribution(pod, cs, mode_, *api_node, required, values, &node_count_[i * k], [&](std::size_t j) {
    return CountPodsMatchSelector(node.pods(), cs[j].selector, pod.metadata.namespace_);
  });
  for (std::size_t j = 0; j < k; ++j) {
    const int count = node_count_[i * k + j];
    if (count < 0) continue;
    const std::int32_t id = DomainId(j, values[j]);
    node_domain_[i * k + j] = id;
    domains_[j].sums[static_cast<std::size_t>(id)] += count;
    ++domains_[j].counted[static_cast<std::size_t>(id)];
  }
}

std::int64_t DomainCounts::Sum(std::size_t j, std::string_view value) const {
  const Domains& d = domains_[j];
  auto it = d.ids.find(absl::string_view(value.data(), value.size()));
  return it == d.ids.end() ? 0 : d.sums[static_cast<std::size_t>(it->second)];
}

void DomainCounts::Export(std::size_t j, absl::flat_hash_map<std::string, int>& out) const {
  out.clear();
  const Domains& d = domains_[j];
  out.reserve(d.names.size());
  for (std::size_t id = 0; id < d.names.size(); ++id) {
    if (d.counted[id] > 0) out.emplace(d.names[id], static_cast<int>(d.sums[id]));
  }
}

}  // namespace ksched::plugins::pod_topology_spread
