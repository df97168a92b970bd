#include "plugins/helper/pod_claims.h"

#include <string_view>

namespace ksched::plugins::helper {

std::optional<std::string> ClaimNameOf(const api::Pod& pod, const api::Volume& volume, bool& ephemeral) {
  ephemeral = false;
  if (volume.persistent_volume_claim.has_value()) return volume.persistent_volume_claim->claim_name;
  if (volume.ephemeral) {
    ephemeral = true;
    return pod.metadata.name + "-" + volume.name;
  }
  return std::nullopt;
}

bool PodUsesClaim(const api::Pod& pod, const api::PersistentVolumeClaim& claim) {
  if (std::string_view(claim.metadata.namespace_) != std::string_view(pod.metadata.namespace_)) return false;
  for (const api::Volume& volume : pod.spec.volumes) {
    bool ephemeral = false;
    std::optional<std::string> name = ClaimNameOf(pod, volume, ephemeral);
    if (name.has_value() && *name == claim.metadata.name) return true;
  }
  return false;
}

std::optional<std::string> EphemeralOwnerError(const api::Pod& pod, const api::PersistentVolumeClaim& claim) {
  const api::OwnerReference* owner = claim.metadata.ControllerRef();
  const std::string_view claim_ns = claim.metadata.namespace_;
  const std::string_view pod_ns = pod.metadata.namespace_;
  if (claim_ns == pod_ns && owner != nullptr && owner->uid == pod.metadata.uid) return std::nullopt;
  return "PVC " + std::string(claim_ns) + "/" + claim.metadata.name + " was not created for pod " + std::string(pod_ns) +
         "/" + pod.metadata.name + " (pod is not owner)";
}

}  // namespace ksched::plugins::helper
