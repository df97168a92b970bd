// The node-declared-features framework of k8s.io/component-helpers v0.37.2
// (nodedeclaredfeatures: features/registry.go, framework.go, featureset.go), reduced to what the
// scheduler uses: the registry of known features, which of them a pod needs to be scheduled
// (InferForPodScheduling) and which a node declares (TryMap of node.status.declaredFeatures).
//
// Registry (sorted by name, as upstream's framework sorts it; a feature's bit is its position):
//   DRANodeAllocatableResources, DRAOptionalNodeOperations, ExtendWebSocketsToKubelet,
//   InPlacePodLevelResourcesVerticalScaling, InPlacePodVerticalScalingInitContainers,
//   InPlacePodVerticalScalingMemoryBackedVolumes, RestartAllContainersOnContainerExits,
//   UserNamespacesHostNetworkSupport, VolumeBindMountOptions.
// Inferred for scheduling (no feature has a MaxVersion, so the scheduler's version never drops
// one):
//   RestartAllContainersOnContainerExits  a container or init container has a restartPolicyRules
//                                         entry with action RestartAllContainers;
//   UserNamespacesHostNetworkSupport      hostNetwork true and hostUsers false;
//   VolumeBindMountOptions                a container, init container or ephemeral container has a
//                                         volumeMount with bindMountOptions.
// The others are only inferred for pod updates (the kubelet / API server side) or never.
//
// Thread-safety: pure functions over constant data.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "api/pod.h"

namespace ksched::plugins::node_declared_features {

// A set of registered features: bit i is kRegisteredFeatures[i] (upstream ndf.FeatureSet).
using FeatureSet = std::uint32_t;

inline constexpr std::array<std::string_view, 9> kRegisteredFeatures = {
    "DRANodeAllocatableResources",
    "DRAOptionalNodeOperations",
    "ExtendWebSocketsToKubelet",
    "InPlacePodLevelResourcesVerticalScaling",
    "InPlacePodVerticalScalingInitContainers",
    "InPlacePodVerticalScalingMemoryBackedVolumes",
    "RestartAllContainersOnContainerExits",
    "UserNamespacesHostNetworkSupport",
    "VolumeBindMountOptions",
};

// The bit of a registered feature name.
constexpr FeatureSet FeatureBit(std::string_view name) {
  for (std::size_t i = 0; i < kRegisteredFeatures.size(); ++i) {
    if (kRegisteredFeatures[i] == name) return FeatureSet{1} << i;
  }
  return 0;
}

// The features `pod` needs on its node (upstream Framework.InferForPodScheduling on the spec).
FeatureSet InferForPodScheduling(const api::Pod& pod);

// The registered features among a node's declared features (upstream FeatureMapper.TryMap): one
// merge pass over the list, which upstream expects sorted, against the sorted registry; unknown
// names are ignored. Does not allocate.
FeatureSet MapDeclaredFeatures(std::span<const std::string> declared_features);

}  // namespace ksched::plugins::node_declared_features
