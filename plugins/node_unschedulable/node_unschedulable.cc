#include "plugins/node_unschedulable/node_unschedulable.h"

#include <optional>
#include <string>

#include "plugins/helper/taint.h"

namespace ksched::plugins::node_unschedulable {
namespace {

// The taint a cordoned node carries; built once so that Filter never allocates for it.
const api::Taint& UnschedulableTaint() {
  static const api::Taint taint{std::string(helper::kTaintNodeUnschedulable), "",
                                std::string(api::kTaintEffectNoSchedule), std::nullopt};
  return taint;
}

bool ToleratesUnschedulable(const api::Pod& pod) {
  return helper::TolerationsTolerateTaint(pod.spec.tolerations, UnschedulableTaint());
}

}  // namespace

std::pair<framework::PreFilterResult, framework::Status> NodeUnschedulable::PreFilter(
    framework::CycleState& /*state*/, const api::Pod& /*pod*/,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  return {};
}

framework::Status NodeUnschedulable::Filter(const framework::CycleState& /*state*/,
                                            const api::Pod& pod, const framework::NodeInfo& node) {
  const api::Node* n = node.node();
  if (n == nullptr) {
    return framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                             {kErrReasonUnknownCondition});
  }
  if (!n->spec.unschedulable) return {};
  // Tolerating the unschedulable taint also tolerates spec.unschedulable.
  if (ToleratesUnschedulable(pod)) return {};
  // A constant stamped with the plugin's name: a rejected node costs no allocation.
  static const framework::Status kUnschedulable =
      framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonUnschedulable})
          .WithPlugin(kName);
  return kUnschedulable;
}

std::vector<framework::ClusterEventWithHint> NodeUnschedulable::EventsToRegister() const {
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
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.new_node == nullptr) {
    return absl::InvalidArgumentError("NodeUnschedulable: node event without the new node");
  }
  const bool added_schedulable = objects.old_node == nullptr && !objects.new_node->spec.unschedulable;
  const bool became_schedulable = objects.old_node != nullptr &&
                                  objects.old_node->spec.unschedulable &&
                                  !objects.new_node->spec.unschedulable;
  return added_schedulable || became_schedulable ? framework::QueueingHint::kQueue
                                                 : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  if (objects.new_pod == nullptr) {
    return absl::InvalidArgumentError("NodeUnschedulable: pod update event without the new pod");
  }
  // Tolerations can only be added, and the pod was rejected here, so it did not tolerate the taint
  // before: tolerating it now is the change that matters.
  if (objects.new_pod->metadata.uid == pod.metadata.uid && ToleratesUnschedulable(*objects.new_pod)) {
    return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<NodeUnschedulable>();
}

}  // namespace ksched::plugins::node_unschedulable
