#include "plugins/node_affinity/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "plugins/helper/required_node_affinity.h"

namespace ksched::plugins::node_affinity {
namespace {

using NodeNameSet = std::set<std::string, std::less<>>;

// The pod's compiled required constraints. Shared on Clone: it never changes once written.
class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(std::shared_ptr<const helper::RequiredNodeAffinity> affinity)
      : affinity_(std::move(affinity)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(affinity_);
  }
  const helper::RequiredNodeAffinity& affinity() const { return *affinity_; }

 private:
  std::shared_ptr<const helper::RequiredNodeAffinity> affinity_;
};

// The pod's compiled preferred terms, absent when the pod has none. Shared on Clone.
class PreScoreState final : public framework::StateData {
 public:
  explicit PreScoreState(std::shared_ptr<const api::CompiledPreferredSchedulingTerms> preferred)
      : preferred_(std::move(preferred)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(preferred_);
  }
  const api::CompiledPreferredSchedulingTerms* preferred() const { return preferred_.get(); }

 private:
  std::shared_ptr<const api::CompiledPreferredSchedulingTerms> preferred_;
};

// upstream getPodPreferredNodeAffinity: nullptr when the pod has no preferred terms.
absl::StatusOr<std::shared_ptr<const api::CompiledPreferredSchedulingTerms>> CompilePodPreferred(
    const api::Pod& pod) {
  const auto& preferred = pod.spec.affinity.node_affinity.preferred;
  if (preferred.empty()) return nullptr;
  absl::StatusOr<api::CompiledPreferredSchedulingTerms> compiled =
      api::CompiledPreferredSchedulingTerms::Compile(preferred);
  if (!compiled.ok()) return compiled.status();
  return std::make_shared<const api::CompiledPreferredSchedulingTerms>(*std::move(compiled));
}

// The node names a term pins the pod to: the intersection of its `metadata.name In` matchFields,
// nullopt when it has none.
std::optional<NodeNameSet> TermNodeNames(const api::NodeSelectorTerm& term) {
  std::optional<NodeNameSet> names;
  for (const api::NodeSelectorRequirement& requirement : term.match_fields) {
    if (requirement.key != api::kObjectNameField || requirement.op != api::kNodeSelectorOpIn) {
      continue;
    }
    NodeNameSet values(requirement.values.begin(), requirement.values.end());
    if (!names.has_value()) {
      names = std::move(values);
      continue;
    }
    NodeNameSet both;
    std::set_intersection(names->begin(), names->end(), values.begin(), values.end(),
                          std::inserter(both, both.end()));
    names = std::move(both);
  }
  return names;
}

}  // namespace

absl::StatusOr<std::unique_ptr<NodeAffinity>> NodeAffinity::Create(const NodeAffinityArgs& args) {
  if (absl::Status valid = ValidateNodeAffinityArgs(api::FieldPath(), args); !valid.ok()) {
    return valid;
  }
  std::unique_ptr<NodeAffinity> plugin(new NodeAffinity());
  if (!args.added_affinity.has_value()) return plugin;
  const api::NodeAffinity& added = *args.added_affinity;
  if (added.required.has_value()) {
    absl::StatusOr<api::CompiledNodeSelector> selector =
        api::CompiledNodeSelector::Compile(*added.required);
    if (!selector.ok()) return selector.status();  // unreachable after validation
    plugin->added_node_selector_ = *std::move(selector);
  }
  if (!added.preferred.empty()) {
    absl::StatusOr<api::CompiledPreferredSchedulingTerms> terms =
        api::CompiledPreferredSchedulingTerms::Compile(added.preferred);
    if (!terms.ok()) return terms.status();  // unreachable after validation
    plugin->added_preferred_terms_ = *std::move(terms);
  }
  return plugin;
}

std::pair<framework::PreFilterResult, framework::Status> NodeAffinity::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  const std::optional<api::NodeSelector>& required = pod.spec.affinity.node_affinity.required;
  if (!required.has_value() && !added_node_selector_.has_value() &&
      pod.spec.node_selector.empty()) {
    return {{}, framework::Status(framework::Code::kSkip)};
  }
  state.Write(kPreFilterStateKey,
              std::make_unique<PreFilterState>(std::make_shared<const helper::RequiredNodeAffinity>(
                  helper::RequiredNodeAffinity::FromPod(pod))));

  if (!required.has_value() || required->node_selector_terms.empty()) return {{}, {}};

  // Terms are ORed: the pod is pinned to named nodes only when every term names some.
  NodeNameSet node_names;
  for (const api::NodeSelectorTerm& term : required->node_selector_terms) {
    std::optional<NodeNameSet> term_names = TermNodeNames(term);
    if (!term_names.has_value()) return {{}, {}};
    node_names.merge(*term_names);
  }
  if (node_names.empty()) {
    // Every term's name requirements contradict each other.
    return {{},
            framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                              {kErrReasonConflict})};
  }
  framework::PreFilterResult result;
  result.node_names = std::move(node_names);
  return {std::move(result), {}};
}

framework::Status NodeAffinity::Filter(const framework::CycleState& state, const api::Pod& pod,
                                       const framework::NodeInfo& node) {
  const api::Node* n = node.node();
  if (n == nullptr) return framework::Status::FromError("node not found");
  if (added_node_selector_.has_value() &&
      !added_node_selector_->Matches(n->metadata.labels, n->metadata.name)) {
    // Constants stamped with the plugin's name: a rejected node costs no allocation.
    static const framework::Status kEnforced =
        framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonEnforced})
            .WithPlugin(kName);
    return kEnforced;
  }
  absl::StatusOr<bool> match = false;
  if (const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey)) {
    match = pre_filter->affinity().Match(*n);
  } else {
    // PreFilter disabled: compile here, as upstream's fallback.
    match = helper::RequiredNodeAffinity::FromPod(pod).Match(*n);
  }
  // Parse errors of invalid terms count as no match (upstream ignores them for compatibility).
  if (!match.ok() || !*match) {
    static const framework::Status kPodNotMatch =
        framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonPod})
            .WithPlugin(kName);
    return kPodNotMatch;
  }
  return {};
}

framework::Status NodeAffinity::PreScore(framework::CycleState& state, const api::Pod& pod,
                                         const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  absl::StatusOr<std::shared_ptr<const api::CompiledPreferredSchedulingTerms>> preferred =
      CompilePodPreferred(pod);
  if (!preferred.ok()) return framework::Status::FromError(std::string(preferred.status().message()));
  if (*preferred == nullptr && !added_preferred_terms_.has_value()) {
    return framework::Status(framework::Code::kSkip);
  }
  state.Write(kPreScoreStateKey, std::make_unique<PreScoreState>(*std::move(preferred)));
  return {};
}

std::pair<std::int64_t, framework::Status> NodeAffinity::Score(const framework::CycleState& state,
                                                               const api::Pod& pod,
                                                               const framework::NodeInfo& node) {
  const api::Node* n = node.node();
  if (n == nullptr) return {0, framework::Status::FromError("node not found")};
  std::int64_t count = 0;
  if (added_preferred_terms_.has_value()) {
    count += added_preferred_terms_->Score(n->metadata.labels, n->metadata.name);
  }
  if (const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    if (pre_score->preferred() != nullptr) {
      count += pre_score->preferred()->Score(n->metadata.labels, n->metadata.name);
    }
    return {count, {}};
  }
  // PreScore disabled: compile here, as upstream's fallback.
  absl::StatusOr<std::shared_ptr<const api::CompiledPreferredSchedulingTerms>> preferred =
      CompilePodPreferred(pod);
  if (!preferred.ok()) {
    return {0, framework::Status::FromError(std::string(preferred.status().message()))};
  }
  if (*preferred != nullptr) count += (*preferred)->Score(n->metadata.labels, n->metadata.name);
  return {count, {}};
}

std::vector<framework::ClusterEventWithHint> NodeAffinity::EventsToRegister() const {
  return {
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd | framework::action::kUpdateNodeLabel,
                               "Node"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterNodeChange(pod, objects);
       }},
  };
}

absl::StatusOr<framework::QueueingHint> NodeAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Node* modified = objects.new_node;
  if (modified == nullptr) {
    return absl::InvalidArgumentError("NodeAffinity: node event without the new node");
  }
  if (added_node_selector_.has_value() &&
      !added_node_selector_->Matches(modified->metadata.labels, modified->metadata.name)) {
    return framework::QueueingHint::kQueueSkip;
  }
  const helper::RequiredNodeAffinity required = helper::RequiredNodeAffinity::FromPod(pod);
  absl::StatusOr<bool> is_matched = required.Match(*modified);
  if (!is_matched.ok()) return is_matched.status();
  if (!*is_matched) return framework::QueueingHint::kQueueSkip;
  if (objects.old_node == nullptr) return framework::QueueingHint::kQueue;
  // An update matters only when it turns a non-matching node into a matching one.
  absl::StatusOr<bool> was_matched = required.Match(*objects.old_node);
  if (!was_matched.ok()) return was_matched.status();
  return *was_matched ? framework::QueueingHint::kQueueSkip : framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& /*handle*/) {
  absl::StatusOr<const NodeAffinityArgs*> typed = framework::ArgsAs<NodeAffinityArgs>(args, kName);
  if (!typed.ok()) return typed.status();
  const NodeAffinityArgs defaults;
  absl::StatusOr<std::unique_ptr<NodeAffinity>> plugin =
      NodeAffinity::Create(*typed != nullptr ? **typed : defaults);
  if (!plugin.ok()) return plugin.status();
  return std::unique_ptr<framework::Plugin>(std::move(*plugin));
}

}  // namespace ksched::plugins::node_affinity
