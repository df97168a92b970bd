#include "plugins/node_declared_features/node_declared_features.h"

#include <string>

#include "framework/features.h"
#include "plugins/node_declared_features/feature_inference.h"

namespace ksched::plugins::node_declared_features {
namespace {

// The pod's required features, never empty. Immutable: Clone copies the word.
class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(FeatureSet required) : required_(required) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(required_);
  }
  FeatureSet required() const { return required_; }

 private:
  FeatureSet required_;
};

}  // namespace

std::pair<framework::PreFilterResult, framework::Status> NodeDeclaredFeatures::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  if (!enabled_) return {{}, framework::Status(framework::Code::kSkip)};
  const FeatureSet required = InferForPodScheduling(pod);
  if (required == 0) return {{}, framework::Status(framework::Code::kSkip)};
  state.Write(kPreFilterStateKey, std::make_unique<PreFilterState>(required));
  return {{}, {}};
}

framework::Status NodeDeclaredFeatures::Filter(const framework::CycleState& state,
                                               const api::Pod& /*pod*/,
                                               const framework::NodeInfo& node) {
  const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) {
    return framework::Status::FromError("error reading \"" + std::string(kPreFilterStateKey) +
                                        "\" from cycle-state: not found");
  }
  if (node.node() == nullptr) return framework::Status::FromError("node not found");
  const FeatureSet declared = MapDeclaredFeatures(node.node()->status.declared_features);
  if ((pre_filter->required() & ~declared) != 0) {
    // A constant stamped with the plugin's name: a rejected node costs no allocation.
    static const framework::Status kUnsatisfied =
        framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                          {kErrReasonUnsatisfiedRequirements})
            .WithPlugin(kName);
    return kUnsatisfied;
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> NodeDeclaredFeatures::EventsToRegister() const {
  if (!enabled_) return {};
  return {
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd |
                                   framework::action::kUpdateNodeDeclaredFeature,
                               "Node"},
       IsSchedulableAfterNodeChange},
      // The pod's own updates.
      {framework::ClusterEvent{framework::EventResource::kTargetPod, framework::action::kUpdate,
                               "TargetPodUpdate"},
       IsSchedulableAfterTargetPodUpdate},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.new_node == nullptr) {
    return absl::InvalidArgumentError("NodeDeclaredFeatures: node event without the new node");
  }
  if (objects.old_node != nullptr &&
      objects.old_node->status.declared_features == objects.new_node->status.declared_features) {
    return framework::QueueingHint::kQueueSkip;
  }
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterTargetPodUpdate(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.old_pod == nullptr || objects.new_pod == nullptr) {
    return absl::InvalidArgumentError(
        "NodeDeclaredFeatures: pod update event without the old or new pod");
  }
  return InferForPodScheduling(*objects.old_pod) == InferForPodScheduling(*objects.new_pod)
             ? framework::QueueingHint::kQueueSkip
             : framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<NodeDeclaredFeatures>(framework::ProcessFeatures().node_declared_features);
}

}  // namespace ksched::plugins::node_declared_features
