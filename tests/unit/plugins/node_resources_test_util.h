// Builders for the NodeResourcesFit / BalancedAllocation tests, the counterparts of upstream's
// noderesources test helpers (newResourcePod, makeNode, st.MakePod().Req(), st.MakeNode()
// .Capacity()), so that the ported tables read like upstream's.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/quantity.h"
#include "api/resource_list.h"
#include "framework/pod_info.h"
#include "framework/status.h"

namespace ksched::plugins::testing {

inline api::Quantity Q(std::string_view text) {
  absl::StatusOr<api::Quantity> parsed = api::Quantity::Parse(text);
  REQUIRE(parsed.ok());
  return *parsed;
}

// A resource list from (name, quantity text) pairs: st's map[v1.ResourceName]string.
inline api::ResourceList List(const std::vector<std::pair<std::string, std::string>>& entries) {
  api::ResourceList list;
  for (const auto& [name, text] : entries) list.Set(name, Q(text));
  return list;
}

// upstream framework.Resource as the tests use it to describe a container's requests.
struct Usage {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  std::vector<std::pair<std::string, std::int64_t>> scalars = {};
};

inline constexpr std::string_view kExtendedResourceA = "example.com/aaa";
inline constexpr std::string_view kExtendedResourceB = "example.com/bbb";
inline constexpr std::string_view kKubernetesIOResourceA = "kubernetes.io/something";
inline constexpr std::string_view kKubernetesIOResourceB = "subdomain.kubernetes.io/something";
inline constexpr std::string_view kHugePageResourceA = "hugepages-2Mi";

// upstream newResourcePod: one container per usage, requesting cpu, memory, pods (0),
// ephemeral-storage and the scalars, all explicitly (zeros included).
inline std::vector<api::Container> UsageContainers(const std::vector<Usage>& usages) {
  using api::Quantity;
  using api::QuantityFormat;
  std::vector<api::Container> containers;
  for (const Usage& usage : usages) {
    api::Container container;
    api::ResourceList& requests = container.resources.requests;
    requests.Set(std::string(api::kResourceCPU),
                 Quantity::FromMilli(usage.milli_cpu, QuantityFormat::kDecimalSI));
    requests.Set(std::string(api::kResourceMemory),
                 Quantity::FromInt(usage.memory, QuantityFormat::kBinarySI));
    requests.Set(std::string(api::kResourcePods), Quantity::FromInt(0, QuantityFormat::kBinarySI));
    requests.Set(std::string(api::kResourceEphemeralStorage),
                 Quantity::FromInt(usage.ephemeral_storage, QuantityFormat::kBinarySI));
    for (const auto& [name, value] : usage.scalars) {
      requests.Set(name, Quantity::FromInt(value, name == kHugePageResourceA
                                                      ? QuantityFormat::kBinarySI
                                                      : QuantityFormat::kDecimalSI));
    }
    containers.push_back(std::move(container));
  }
  return containers;
}

inline api::Pod ResourcePod(const std::vector<Usage>& usages) {
  api::Pod pod;
  pod.spec.containers = UsageContainers(usages);
  return pod;
}

// upstream newResourceInitPod.
inline api::Pod WithInitContainers(api::Pod pod, const std::vector<Usage>& usages) {
  pod.spec.init_containers = UsageContainers(usages);
  return pod;
}

// st.MakePod().Req(r1).Req(r2)...: one container per request list.
inline api::Pod RequestPod(
    const std::vector<std::vector<std::pair<std::string, std::string>>>& containers,
    std::string node_name = "") {
  api::Pod pod;
  pod.spec.node_name = std::move(node_name);
  int index = 0;
  for (const auto& requests : containers) {
    api::Container container;
    container.name = "con" + std::to_string(index++);
    container.resources.requests = List(requests);
    pod.spec.containers.push_back(std::move(container));
  }
  return pod;
}

// st.MakeNode().Name(name).Capacity(resources): capacity and allocatable, with pods 32 unless given.
inline std::shared_ptr<const api::Node> CapacityNode(
    std::string name, const std::vector<std::pair<std::string, std::string>>& resources) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  api::ResourceList list = List({{"pods", "32"}});
  for (const auto& [resource, text] : resources) list.Set(resource, Q(text));
  node->status.capacity = list;
  node->status.allocatable = list;
  return node;
}

// st.MakeNode().Name(name): no resources at all.
inline std::shared_ptr<const api::Node> BareNode(std::string name) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  return node;
}

// upstream noderesources makeNode: cpu (milli), memory (bytes) and extended resources, no pods.
inline std::shared_ptr<const api::Node> MakeResourceNode(
    std::string name, std::int64_t milli_cpu, std::int64_t memory,
    const std::vector<std::pair<std::string, std::int64_t>>& extended = {}) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  api::ResourceList list;
  for (const auto& [resource, value] : extended) {
    list.Set(resource, api::Quantity::FromInt(value, api::QuantityFormat::kDecimalSI));
  }
  list.Set(std::string(api::kResourceCPU),
           api::Quantity::FromMilli(milli_cpu, api::QuantityFormat::kDecimalSI));
  list.Set(std::string(api::kResourceMemory),
           api::Quantity::FromInt(memory, api::QuantityFormat::kBinarySI));
  node->status.capacity = list;
  node->status.allocatable = list;
  return node;
}

// PodInfos for a snapshot, each pod given a distinct UID.
inline std::vector<framework::PodInfoPtr> PodInfos(const std::vector<api::Pod>& pods) {
  std::vector<framework::PodInfoPtr> out;
  int index = 0;
  for (api::Pod pod : pods) {
    if (pod.metadata.uid.empty()) pod.metadata.uid = "existing-" + std::to_string(index);
    if (pod.metadata.name.empty()) pod.metadata.name = "existing-" + std::to_string(index);
    ++index;
    out.push_back(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(std::move(pod))));
  }
  return out;
}

// Compares statuses by code, reasons and error, showing both on failure.
inline void CheckStatus(const framework::Status& got, const framework::Status& want) {
  INFO("got: " << got.ToString() << "\nwant: " << want.ToString());
  CHECK(got == want);
}

}  // namespace ksched::plugins::testing
