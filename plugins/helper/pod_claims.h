// The claims a pod's volumes use, as the volume plugins read them (k8s.io/component-helpers
// storage/ephemeral): a persistentVolumeClaim names its claim; a generic ephemeral volume's claim
// is "<pod>-<volume>" and counts only when the pod controls it.
//
// Thread-safety: free functions over immutable inputs.
#pragma once

#include <optional>
#include <string>

#include "api/pod.h"
#include "api/storage.h"

namespace ksched::plugins::helper {

// The claim `volume` uses, or nullopt for other volumes; `ephemeral` tells which kind.
std::optional<std::string> ClaimNameOf(const api::Pod& pod, const api::Volume& volume, bool& ephemeral);

// Whether the pod uses `claim` (same namespace, named by a persistentVolumeClaim or generic
// ephemeral volume): the claim hints of VolumeBinding and NodeVolumeLimits.
bool PodUsesClaim(const api::Pod& pod, const api::PersistentVolumeClaim& claim);

// ephemeral.VolumeIsForPod: nullopt when the pod controls the claim, else upstream's error
// ("PVC default/web-0-scratch was not created for pod default/web-0 (pod is not owner)").
std::optional<std::string> EphemeralOwnerError(const api::Pod& pod, const api::PersistentVolumeClaim& claim);

}  // namespace ksched::plugins::helper
