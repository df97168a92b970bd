// Container: core/v1 Container reduced to what scheduling reads: name, image (ImageLocality),
// resources (NodeResourcesFit, BalancedAllocation, queueing hints), ports (NodePorts) and, for
// init containers, restartPolicy (an init container with restartPolicy Always is a sidecar, whose
// requests add to the pod's instead of being maxed). Also ContainerStatus's resources, which the
// resource helpers read while in-place pod resize (InPlacePodVerticalScaling, GA and locked on
// since v1.35) is in progress; they live in PodStatus's PodResourceStatus (api/pod.h).
//
// Memory: image, restart policy, port protocol and host IP are InternedString (values repeat across
// pods; api/interned_string.h), lists are CompactVector (api/compact_vector.h).
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/resource_list.h"
#include "api/compact_vector.h"
#include "api/interned_string.h"

namespace ksched::api {

// core/v1 Protocol values.
inline constexpr std::string_view kProtocolTCP = "TCP";
inline constexpr std::string_view kProtocolUDP = "UDP";
inline constexpr std::string_view kProtocolSCTP = "SCTP";

// core/v1 ContainerRestartPolicy value that makes an init container a sidecar.
inline constexpr std::string_view kContainerRestartPolicyAlways = "Always";

// core/v1 ContainerPort, without `name`.
struct ContainerPort {
  std::int32_t container_port = 0;
  std::int32_t host_port = 0;  // 0 = no host port
  InternedString protocol;     // "TCP" when absent (the API server's default)
  InternedString host_ip;      // `hostIP`: a node address, bounded by the cluster

  friend bool operator==(const ContainerPort&, const ContainerPort&) = default;
};

struct Container {
  std::string name;
  InternedString image;
  ResourceRequirements resources;
  CompactVector<ContainerPort> ports;
  InternedString restart_policy;  // "" = absent; "Always" on a sidecar init container

  // True for an init container that is a sidecar (upstream IsRestartableInitContainer).
  bool IsRestartable() const noexcept { return restart_policy == kContainerRestartPolicyAlways; }

  friend bool operator==(const Container&, const Container&) = default;
};

// core/v1 ContainerStatus reduced to the resize-related resources.
struct ContainerStatus {
  std::string name;
  ResourceList allocated_resources;
  // The resources the runtime applied; absent (nullopt) until the kubelet reports them, and
  // upstream uses them only when present (requests and limits each only when not empty).
  std::optional<ResourceRequirements> resources;

  friend bool operator==(const ContainerStatus&, const ContainerStatus&) = default;
};

}  // namespace ksched::api
