// Node: core/v1 Node holding only what kube-scheduler v1.34 reads: metadata, spec.unschedulable,
// spec.taints, status.capacity/allocatable, status.images and status.conditions (type and status
// only: the scheduler compares conditions by type and status). status.nodeInfo, addresses,
// daemonEndpoints, volumesAttached, podCIDRs and providerID are not kept.
//
// Nothing is defaulted: in particular an absent status.allocatable stays empty (the API server
// always copies capacity into it when it is absent).
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/object_meta.h"
#include "api/resource_list.h"
#include "api/taint.h"

namespace ksched::api {

// core/v1 NodeConditionType values.
inline constexpr std::string_view kNodeReady = "Ready";
inline constexpr std::string_view kNodeMemoryPressure = "MemoryPressure";
inline constexpr std::string_view kNodeDiskPressure = "DiskPressure";
inline constexpr std::string_view kNodePIDPressure = "PIDPressure";
inline constexpr std::string_view kNodeNetworkUnavailable = "NetworkUnavailable";

struct NodeSpec {
  bool unschedulable = false;
  std::vector<Taint> taints;

  friend bool operator==(const NodeSpec&, const NodeSpec&) = default;
};

// core/v1 ContainerImage.
struct ContainerImage {
  std::vector<std::string> names;
  std::int64_t size_bytes = 0;

  friend bool operator==(const ContainerImage&, const ContainerImage&) = default;
};

// core/v1 NodeCondition reduced to type and status.
struct NodeCondition {
  std::string type;
  std::string status;

  friend bool operator==(const NodeCondition&, const NodeCondition&) = default;
};

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<ContainerImage> images;
  std::vector<NodeCondition> conditions;
  // status.declaredFeatures: the features the kubelet declares (kept sorted by the kubelet and
  // validation; NodeDeclaredFeatures matches them as given).
  std::vector<std::string> declared_features;

  friend bool operator==(const NodeStatus&, const NodeStatus&) = default;
};

struct Node {
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;

  friend bool operator==(const Node&, const Node&) = default;
};

}  // namespace ksched::api
