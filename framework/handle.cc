// The defaults of Handle's preemption services, for handles that do not run a profile (tests).
#include "framework/handle.h"

namespace ksched::framework {

namespace {
Status NotProvided(std::string_view what) {
  return Status::FromError(std::string(what) + " is not provided by this handle");
}
}  // namespace

Status Handle::RunPreFilterExtensionAddPod(CycleState& /*state*/, const api::Pod& /*pod*/,
                                           const PodInfoPtr& /*pod_info*/,
                                           const NodeInfo& /*node*/) const {
  return NotProvided("RunPreFilterExtensionAddPod");
}

Status Handle::RunPreFilterExtensionRemovePod(CycleState& /*state*/, const api::Pod& /*pod*/,
                                              const PodInfoPtr& /*pod_info*/,
                                              const NodeInfo& /*node*/) const {
  return NotProvided("RunPreFilterExtensionRemovePod");
}

Status Handle::RunFilterPluginsWithNominatedPods(const CycleState& /*state*/,
                                                 const api::Pod& /*pod*/,
                                                 const NodeInfo& /*node*/) const {
  return NotProvided("RunFilterPluginsWithNominatedPods");
}

std::vector<PodInfoPtr> Handle::NominatedPodsForNode(std::string_view /*node_name*/) const {
  return {};
}

}  // namespace ksched::framework
