#include "plugins/node_declared_features/feature_inference.h"

#include <cstddef>

namespace ksched::plugins::node_declared_features {

FeatureSet InferForPodScheduling(const api::Pod& pod) {
  FeatureSet required = 0;
  // restartallcontainers: a restart rule that restarts all containers (containers and init
  // containers; the decoder records it as a flag).
  if (pod.spec.has_restart_all_containers_rule) {
    required |= FeatureBit("RestartAllContainersOnContainerExits");
  }
  // usernamespaceshostnetwork: host network inside a user namespace.
  if (pod.spec.host_network && pod.spec.host_users.has_value() && !*pod.spec.host_users) {
    required |= FeatureBit("UserNamespacesHostNetworkSupport");
  }
  // volumebindmountoptions: any container kind's volume mount with bind mount options.
  if (pod.spec.has_bind_mount_options) required |= FeatureBit("VolumeBindMountOptions");
  return required;
}

FeatureSet MapDeclaredFeatures(std::span<const std::string> declared_features) {
  FeatureSet set = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < declared_features.size() && j < kRegisteredFeatures.size()) {
    const std::string_view declared = declared_features[i];
    if (declared == kRegisteredFeatures[j]) {
      set |= FeatureSet{1} << j;
      ++i;
      ++j;
    } else if (declared < kRegisteredFeatures[j]) {
      ++i;  // unknown to this scheduler: ignored
    } else {
      ++j;
    }
  }
  return set;
}

}  // namespace ksched::plugins::node_declared_features
