#include "plugins/taint_toleration/taint_toleration.h"

#include <string>

#include "plugins/helper/taint.h"

namespace ksched::plugins::taint_toleration {
namespace {

// The pod's tolerations that can tolerate a PreferNoSchedule taint. Shared, never mutated after
// PreScore: Clone shares it, as upstream's Clone returns the same pointer.
class PreScoreState final : public framework::StateData {
 public:
  explicit PreScoreState(std::shared_ptr<const std::vector<api::Toleration>> tolerations)
      : tolerations_(std::move(tolerations)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(tolerations_);
  }
  const std::vector<api::Toleration>& tolerations() const { return *tolerations_; }

 private:
  std::shared_ptr<const std::vector<api::Toleration>> tolerations_;
};

bool IsUntolerated(const api::Node* node, const api::Pod& pod) {
  return helper::FindMatchingUntoleratedTaint(
             node->spec.taints, pod.spec.tolerations,
             [](const api::Taint& taint) { return helper::IsDoNotScheduleTaint(taint); }) !=
         nullptr;
}

}  // namespace

std::pair<framework::PreFilterResult, framework::Status> TaintToleration::PreFilter(
    framework::CycleState& /*state*/, const api::Pod& /*pod*/,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  return {};
}

framework::Status TaintToleration::Filter(const framework::CycleState& /*state*/,
                                          const api::Pod& pod, const framework::NodeInfo& node) {
  if (node.node() == nullptr) return framework::Status::FromError("node not found");
  if (!IsUntolerated(node.node(), pod)) return {};
  // A constant stamped with the plugin's name: a rejected node costs no allocation.
  static const framework::Status kUntolerated =
      framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonUntolerated})
          .WithPlugin(kName);
  return kUntolerated;
}

framework::Status TaintToleration::PreScore(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  auto tolerations = std::make_shared<std::vector<api::Toleration>>();
  for (const api::Toleration& toleration : pod.spec.tolerations) {
    // An empty effect tolerates every effect, PreferNoSchedule included.
    if (toleration.effect.empty() || toleration.effect == api::kTaintEffectPreferNoSchedule) {
      tolerations->push_back(toleration);
    }
  }
  state.Write(kPreScoreStateKey, std::make_unique<PreScoreState>(std::move(tolerations)));
  return {};
}

std::pair<std::int64_t, framework::Status> TaintToleration::Score(
    const framework::CycleState& state, const api::Pod& /*pod*/, const framework::NodeInfo& node) {
  const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (pre_score == nullptr) {
    return {0, framework::Status::FromError("failed to read \"" + std::string(kPreScoreStateKey) +
                                            "\" from cycleState: not found")};
  }
  if (node.node() == nullptr) return {0, framework::Status::FromError("node not found")};
  std::int64_t intolerable = 0;
  for (const api::Taint& taint : node.node()->spec.taints) {
    if (taint.effect != api::kTaintEffectPreferNoSchedule) continue;
    if (!helper::TolerationsTolerateTaint(pre_score->tolerations(), taint)) ++intolerable;
  }
  return {intolerable, {}};
}

std::vector<framework::ClusterEventWithHint> TaintToleration::EventsToRegister() const {
  return {
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd | framework::action::kUpdateNodeTaint,
                               "Node"},
       IsSchedulableAfterNodeChange},
      {framework::ClusterEvent{framework::EventResource::kPod,
                               framework::action::kUpdatePodToleration, "PodUpdatePodToleration"},
       IsSchedulableAfterPodTolerationChange},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  if (objects.new_node == nullptr) {
    return absl::InvalidArgumentError("TaintToleration: node event without the new node");
  }
  const bool was_untolerated = objects.old_node == nullptr || IsUntolerated(objects.old_node, pod);
  const bool is_untolerated = IsUntolerated(objects.new_node, pod);
  return was_untolerated && !is_untolerated ? framework::QueueingHint::kQueue
                                            : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  if (objects.new_pod == nullptr) {
    return absl::InvalidArgumentError("TaintToleration: pod update event without the new pod");
  }
  // The rejected pod gained a toleration; another pod's tolerations cannot matter.
  return objects.new_pod->metadata.uid == pod.metadata.uid ? framework::QueueingHint::kQueue
                                                           : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<TaintToleration>();
}

}  // namespace ksched::plugins::taint_toleration
