// NodeResourcesFit: upstream v1.34 fit_test.go (TestEnoughRequests, TestPreFilterDisabled,
// TestNotEnoughRequests, TestStorageRequests, TestRestartableInitContainers, TestFitScore,
// TestEventsToRegister, Test_isSchedulableAfterPodChange, Test_isSchedulableAfterNodeChange,
// TestIsFit, TestHaveAnyRequestedResourcesIncreased), resource_allocation_test.go,
// least_allocated_test.go, most_allocated_test.go and requested_to_capacity_ratio_test.go,
// ported table by table with upstream's expected reasons and scores. Cases that need the
// DRAExtendedResource feature (alpha, off in v1.34) or disabled GA features are left out.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "framework/cycle_state.h"
#include "framework/interface.h"
#include "framework/node_info.h"
#include "framework/status.h"
#include "plugins/node_resources/args.h"
#include "plugins/node_resources/fit.h"
#include "plugins/node_resources/resource_allocation.h"
#include "plugins/node_resources/scorers.h"
#include "fake_handle.h"
#include "node_resources_test_util.h"
#include "test_objects.h"

namespace ksched::plugins::node_resources {
inline std::ostream& operator<<(std::ostream& out, const InsufficientResource& r) {
  return out << "{" << r.resource_name << ", \"" << r.reason << "\", requested " << r.requested
             << ", used " << r.used << ", capacity " << r.capacity
             << (r.unresolvable ? ", unresolvable}" : "}");
}
}  // namespace ksched::plugins::node_resources

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::NodeInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
using ksched::plugins::node_resources::Accounting;
using ksched::plugins::node_resources::BrokenLinear;
using ksched::plugins::node_resources::Fit;
using ksched::plugins::node_resources::HaveAnyRequestedResourcesIncreased;
using ksched::plugins::node_resources::InsufficientResource;
using ksched::plugins::node_resources::IsFit;
using ksched::plugins::node_resources::kFitName;
using ksched::plugins::node_resources::kLeastAllocated;
using ksched::plugins::node_resources::kMostAllocated;
using ksched::plugins::node_resources::kRequestedToCapacityRatio;
using ksched::plugins::node_resources::NewFit;
using ksched::plugins::node_resources::NodeResourcesFitArgs;
using ksched::plugins::node_resources::ResourceAllocation;
using ksched::plugins::node_resources::ResourceSpec;
using ksched::plugins::node_resources::ShapePoint;
using ksched::plugins::node_resources::UtilizationShapePoint;
using ksched::plugins::testing::BareNode;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::CapacityNode;
using ksched::plugins::testing::CheckStatus;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::kExtendedResourceA;
using ksched::plugins::testing::kExtendedResourceB;
using ksched::plugins::testing::kHugePageResourceA;
using ksched::plugins::testing::kKubernetesIOResourceA;
using ksched::plugins::testing::kKubernetesIOResourceB;
using ksched::plugins::testing::List;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakeResourceNode;
using ksched::plugins::testing::PodInfos;
using ksched::plugins::testing::Q;
using ksched::plugins::testing::RequestPod;
using ksched::plugins::testing::ResourcePod;
using ksched::plugins::testing::Usage;
using ksched::plugins::testing::WithInitContainers;
namespace api = ksched::api;
namespace framework = ksched::framework;

using Requests = std::vector<std::pair<std::string, std::string>>;

std::string Reason(std::string_view resource) { return "Insufficient " + std::string(resource); }

Status Unschedulable(std::vector<std::string> reasons) {
  return Status(Code::kUnschedulable, std::move(reasons));
}
Status Unresolvable(std::vector<std::string> reasons) {
  return Status(Code::kUnschedulableAndUnresolvable, std::move(reasons));
}

InsufficientResource Short(std::string_view resource, std::int64_t requested, std::int64_t used,
                           std::int64_t capacity, bool unresolvable = false) {
  return {std::string(resource), Reason(resource), requested, used, capacity, unresolvable};
}

// upstream newPodLevelResourcesPod.
Pod WithPodLevelRequests(Pod pod, api::ResourceList requests) {
  pod.spec.resources.requests = std::move(requests);
  return pod;
}

Pod WithOverhead(Pod pod, api::ResourceList overhead) {
  pod.spec.overhead = std::move(overhead);
  return pod;
}

// upstream makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA).
std::shared_ptr<const Node> AllocatableNode(std::int64_t milli_cpu, std::int64_t memory,
                                            std::int64_t pods, std::int64_t extended_a,
                                            std::int64_t storage, std::int64_t huge_page_a) {
  using api::Quantity;
  using api::QuantityFormat;
  auto node = std::make_shared<Node>();
  node->metadata.name = "node";
  api::ResourceList& list = node->status.allocatable;
  list.Set("cpu", Quantity::FromMilli(milli_cpu, QuantityFormat::kDecimalSI));
  list.Set("memory", Quantity::FromInt(memory, QuantityFormat::kBinarySI));
  list.Set("pods", Quantity::FromInt(pods, QuantityFormat::kDecimalSI));
  list.Set(std::string(kExtendedResourceA), Quantity::FromInt(extended_a, QuantityFormat::kDecimalSI));
  list.Set("ephemeral-storage", Quantity::FromInt(storage, QuantityFormat::kBinarySI));
  list.Set(std::string(kHugePageResourceA), Quantity::FromInt(huge_page_a, QuantityFormat::kBinarySI));
  node->status.capacity = list;
  return node;
}

NodeResourcesFitArgs FitArgs(std::string_view type, std::vector<ResourceSpec> resources,
                             std::vector<UtilizationShapePoint> shape = {}) {
  NodeResourcesFitArgs args;
  args.scoring_strategy.type = std::string(type);
  args.scoring_strategy.resources = std::move(resources);
  if (!shape.empty()) args.scoring_strategy.requested_to_capacity_ratio = {std::move(shape)};
  return args;
}

const std::vector<ResourceSpec> kDefaultResources = {{"cpu", 1}, {"memory", 1}};
const std::vector<ResourceSpec> kExtendedResourceSet = {{"cpu", 1}, {"memory", 1}, {"abc.com/xyz", 1}};

TEST_CASE("Fit Filter reports every insufficient resource in upstream's order (TestEnoughRequests)",
          "[plugins][node_resources][fit]") {
  const std::string dra_resource = "extended.resource.dra.io/something";
  struct Case {
    std::string name;
    Pod pod;
    std::vector<Pod> existing;  // pods already on the node
    std::vector<std::string> ignored_resources;
    std::vector<std::string> ignored_groups;
    Status want_status;
    std::vector<InsufficientResource> want_insufficient;
  };
  const std::string a(kExtendedResourceA);
  const std::string b(kExtendedResourceB);
  const std::string huge(kHugePageResourceA);
  const std::vector<Case> cases = {
      {"no resources requested always fits", Pod{}, {ResourcePod({{10, 20}})}, {}, {}, Status(), {}},
      {"too many resources fails",
       ResourcePod({{1, 1}}),
       {ResourcePod({{10, 20}})},
       {},
       {},
       Unschedulable({Reason("cpu"), Reason("memory")}),
       {Short("cpu", 1, 10, 10), Short("memory", 1, 20, 20)}},
      {"too many resources fails due to init container cpu",
       WithInitContainers(ResourcePod({{1, 1}}), {{3, 1}}),
       {ResourcePod({{8, 19}})},
       {},
       {},
       Unschedulable({Reason("cpu")}),
       {Short("cpu", 3, 8, 10)}},
      {"too many resources fails due to highest init container cpu",
       WithInitContainers(ResourcePod({{1, 1}}), {{3, 1}, {2, 1}}),
       {ResourcePod({{8, 19}})},
       {},
       {},
       Unschedulable({Reason("cpu")}),
       {Short("cpu", 3, 8, 10)}},
      {"too many resources fails due to init container memory",
       WithInitContainers(ResourcePod({{1, 1}}), {{1, 3}}),
       {ResourcePod({{9, 19}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 3, 19, 20)}},
      {"too many resources fails due to highest init container memory",
       WithInitContainers(ResourcePod({{1, 1}}), {{1, 3}, {1, 2}}),
       {ResourcePod({{9, 19}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 3, 19, 20)}},
      {"init container fits because it's the max, not sum, of containers and init containers",
       WithInitContainers(ResourcePod({{1, 1}}), {{1, 1}}),
       {ResourcePod({{9, 19}})},
       {},
       {},
       Status(),
       {}},
      {"multiple init containers fit because it's the max, not sum, of containers and init "
       "containers",
       WithInitContainers(ResourcePod({{1, 1}}), {{1, 1}, {1, 1}}),
       {ResourcePod({{9, 19}})},
       {},
       {},
       Status(),
       {}},
      {"both resources fit", ResourcePod({{1, 1}}), {ResourcePod({{5, 5}})}, {}, {}, Status(), {}},
      {"one resource memory fits",
       ResourcePod({{2, 1}}),
       {ResourcePod({{9, 5}})},
       {},
       {},
       Unschedulable({Reason("cpu")}),
       {Short("cpu", 2, 9, 10)}},
      {"one resource cpu fits",
       ResourcePod({{1, 2}}),
       {ResourcePod({{5, 19}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 2, 19, 20)}},
      {"equal edge case", ResourcePod({{5, 1}}), {ResourcePod({{5, 19}})}, {}, {}, Status(), {}},
      {"equal edge case for init container",
       WithInitContainers(ResourcePod({{4, 1}}), {{5, 1}}),
       {ResourcePod({{5, 19}})},
       {},
       {},
       Status(),
       {}},
      {"extended resource fits",
       ResourcePod({{0, 0, 0, {{a, 1}}}}),
       {ResourcePod({{}})},
       {},
       {},
       Status(),
       {}},
      {"extended resource fits for init container",
       WithInitContainers(ResourcePod({{}}), {{0, 0, 0, {{a, 1}}}}),
       {ResourcePod({{}})},
       {},
       {},
       Status(),
       {}},
      {"extended resource capacity enforced",
       ResourcePod({{1, 1, 0, {{a, 10}}}}),
       {ResourcePod({{0, 0, 0, {{a, 0}}}})},
       {},
       {},
       Unresolvable({Reason(a)}),
       {Short(a, 10, 0, 5, true)}},
      {"extended resource capacity enforced for init container",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{a, 10}}}}),
       {ResourcePod({{0, 0, 0, {{a, 0}}}})},
       {},
       {},
       Unresolvable({Reason(a)}),
       {Short(a, 10, 0, 5, true)}},
      {"extended resource allocatable enforced",
       ResourcePod({{1, 1, 0, {{a, 1}}}}),
       {ResourcePod({{0, 0, 0, {{a, 5}}}})},
       {},
       {},
       Unschedulable({Reason(a)}),
       {Short(a, 1, 5, 5)}},
      {"extended resource allocatable enforced for init container",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{a, 1}}}}),
       {ResourcePod({{0, 0, 0, {{a, 5}}}})},
       {},
       {},
       Unschedulable({Reason(a)}),
       {Short(a, 1, 5, 5)}},
      {"extended resource allocatable enforced for multiple containers",
       ResourcePod({{1, 1, 0, {{a, 3}}}, {1, 1, 0, {{a, 3}}}}),
       {ResourcePod({{0, 0, 0, {{a, 2}}}})},
       {},
       {},
       Unresolvable({Reason(a)}),
       {Short(a, 6, 2, 5, true)}},
      {"extended resource allocatable admits multiple init containers",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{a, 3}}}, {1, 1, 0, {{a, 3}}}}),
       {ResourcePod({{0, 0, 0, {{a, 2}}}})},
       {},
       {},
       Status(),
       {}},
      {"extended resource allocatable enforced for multiple init containers",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{a, 6}}}, {1, 1, 0, {{a, 3}}}}),
       {ResourcePod({{0, 0, 0, {{a, 2}}}})},
       {},
       {},
       Unresolvable({Reason(a)}),
       {Short(a, 6, 2, 5, true)}},
      {"extended resource allocatable enforced for unknown resource",
       ResourcePod({{1, 1, 0, {{b, 1}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {},
       Unresolvable({Reason(b)}),
       {Short(b, 1, 0, 0, true)}},
      {"extended resource allocatable enforced for unknown resource for init container",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{b, 1}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {},
       Unresolvable({Reason(b)}),
       {Short(b, 1, 0, 0, true)}},
      {"kubernetes.io resource capacity enforced",
       ResourcePod({{1, 1, 0, {{std::string(kKubernetesIOResourceA), 10}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {},
       Unresolvable({Reason(kKubernetesIOResourceA)}),
       {Short(kKubernetesIOResourceA, 10, 0, 0, true)}},
      {"kubernetes.io resource capacity enforced for init container",
       WithInitContainers(ResourcePod({{}}),
                          {{1, 1, 0, {{std::string(kKubernetesIOResourceB), 10}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {},
       Unresolvable({Reason(kKubernetesIOResourceB)}),
       {Short(kKubernetesIOResourceB, 10, 0, 0, true)}},
      {"hugepages resource capacity enforced",
       ResourcePod({{1, 1, 0, {{huge, 10}}}}),
       {ResourcePod({{0, 0, 0, {{huge, 0}}}})},
       {},
       {},
       Unresolvable({Reason(huge)}),
       {Short(huge, 10, 0, 5, true)}},
      {"hugepages resource capacity enforced for init container",
       WithInitContainers(ResourcePod({{}}), {{1, 1, 0, {{huge, 10}}}}),
       {ResourcePod({{0, 0, 0, {{huge, 0}}}})},
       {},
       {},
       Unresolvable({Reason(huge)}),
       {Short(huge, 10, 0, 5, true)}},
      {"hugepages resource allocatable enforced for multiple containers",
       ResourcePod({{1, 1, 0, {{huge, 3}}}, {1, 1, 0, {{huge, 3}}}}),
       {ResourcePod({{0, 0, 0, {{huge, 2}}}})},
       {},
       {},
       Unresolvable({Reason(huge)}),
       {Short(huge, 6, 2, 5, true)}},
      {"skip checking ignored extended resource",
       ResourcePod({{1, 1, 0, {{b, 1}}}}),
       {ResourcePod({{0, 0}})},
       {"example.com/bbb"},
       {},
       Status(),
       {}},
      {"resources + pod overhead fits",
       WithOverhead(ResourcePod({{1, 1}}), List({{"cpu", "3m"}, {"memory", "13"}})),
       {ResourcePod({{5, 5}})},
       {},
       {},
       Status(),
       {}},
      {"requests + overhead does not fit for memory",
       WithOverhead(ResourcePod({{1, 1}}), List({{"cpu", "1m"}, {"memory", "15"}})),
       {ResourcePod({{5, 5}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 16, 5, 20)}},
      {"skip checking ignored extended resource via resource groups",
       ResourcePod({{1, 1, 0, {{b, 1}, {std::string(kKubernetesIOResourceA), 1}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {"example.com"},
       Unresolvable({Reason(kKubernetesIOResourceA)}),
       {Short(kKubernetesIOResourceA, 1, 0, 0, true)}},
      {"skip checking extended resource request with quantity zero via resource groups",
       ResourcePod({{1, 1, 0, {{a, 0}}}}),
       {ResourcePod({{0, 0, 0, {{a, 6}}}})},
       {},
       {},
       Status(),
       {}},
      {"skip checking resource request with quantity zero",
       ResourcePod({{0, 0, 0, {{a, 1}}}}),
       {ResourcePod({{20, 30, 0, {{a, 1}}}})},
       {},
       {},
       Status(),
       {}},
      {"both pod-level and container-level resources fit",
       WithPodLevelRequests(ResourcePod({{1, 1}}), List({{"cpu", "1m"}, {"memory", "2"}})),
       {ResourcePod({{5, 5}})},
       {},
       {},
       Status(),
       {}},
      {"pod-level cpu resource not fit",
       WithPodLevelRequests(ResourcePod({{1, 1}}), List({{"cpu", "7m"}, {"memory", "2"}})),
       {ResourcePod({{5, 5}})},
       {},
       {},
       Unschedulable({Reason("cpu")}),
       {Short("cpu", 7, 5, 10)}},
      {"pod-level memory resource not fit",
       WithPodLevelRequests(ResourcePod({{1, 1}}), List({{"cpu", "3m"}, {"memory", "2"}})),
       {ResourcePod({{5, 19}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 2, 19, 20)}},
      {"pod-level hugepages resource fit",
       WithPodLevelRequests(Pod{}, List({{"cpu", "3m"}, {"memory", "2"}, {huge, "5"}})),
       {},
       {},
       {},
       Status(),
       {}},
      {"both pod-level and container-level hugepages resource fit",
       WithPodLevelRequests(ResourcePod({{1, 1, 0, {{huge, 3}}}}),
                            List({{"cpu", "3m"}, {"memory", "2"}, {huge, "5"}})),
       {},
       {},
       {},
       Status(),
       {}},
      {"pod-level hugepages resource not fit",
       WithPodLevelRequests(Pod{}, List({{"cpu", "3m"}, {"memory", "2"}, {huge, "10"}})),
       {},
       {},
       {},
       Unresolvable({Reason(huge)}),
       {Short(huge, 10, 0, 5, true)}},
      {"one pod-level cpu resource fits and all init and non-init containers resources fit",
       WithInitContainers(
           WithPodLevelRequests(ResourcePod({{1, 1}}), List({{"cpu", "3m"}, {"memory", "2"}})),
           {{1, 1}}),
       {ResourcePod({{5, 19}})},
       {},
       {},
       Unschedulable({Reason("memory")}),
       {Short("memory", 2, 19, 20)}},
      {"extended resource backed by DRA not enabled",
       ResourcePod({{1, 1, 0, {{dra_resource, 1}}}}),
       {ResourcePod({{0, 0}})},
       {},
       {},
       Unresolvable({Reason(dra_resource)}),
       {Short(dra_resource, 1, 0, 0, true)}},
  };

  const auto node = AllocatableNode(10, 20, 32, 5, 20, 5);
  FakeHandle handle;
  for (const Case& c : cases) {
    INFO(c.name);
    const NodeInfo node_info = MakeNodeInfo(node, c.existing);
    NodeResourcesFitArgs args;
    args.ignored_resources = c.ignored_resources;
    args.ignored_resource_groups = c.ignored_groups;
    auto fit = Build<Fit>(NewFit, &args, handle);
    CycleState state;
    const auto [result, pre_filter_status] = fit->PreFilter(state, c.pod, {});
    CHECK(pre_filter_status.IsSuccess());
    CHECK(result.AllNodes());
    CheckStatus(fit->Filter(state, c.pod, node_info), c.want_status);
    CHECK(fit->InsufficientResources(c.pod, node_info) == c.want_insufficient);
  }
}

TEST_CASE("Fit Filter: one short resource gets a Status built once and stamped with the plugin's "
          "name, several get one listing them all",
          "[plugins][node_resources][fit]") {
  const std::string a(kExtendedResourceA);
  // allocatable: 10 milli-cpu, 20 memory, 32 pods, 5 of resource A.
  const auto node = AllocatableNode(10, 20, 32, 5, 20, 5);
  FakeHandle handle;
  auto fit = Build<Fit>(NewFit, nullptr, handle);
  struct Case {
    std::string name;
    Pod pod;
    std::vector<Pod> existing;
    Status want;
    bool stamped;  // a Status the plugin built once (stamped), or one built for this node
  };
  const std::vector<Case> cases = {
      {"cpu in use", ResourcePod({{2, 1}}), {ResourcePod({{9, 0}})}, Unschedulable({Reason("cpu")}),
       true},
      {"cpu above capacity", ResourcePod({{11, 1}}), {}, Unresolvable({Reason("cpu")}), true},
      {"extended resource in use", ResourcePod({{0, 0, 0, {{a, 2}}}}),
       {ResourcePod({{0, 0, 0, {{a, 4}}}})}, Unschedulable({Reason(a)}), true},
      {"extended resource above capacity", ResourcePod({{0, 0, 0, {{a, 6}}}}), {},
       Unresolvable({Reason(a)}), true},
      {"cpu and memory", ResourcePod({{2, 2}}), {ResourcePod({{9, 19}})},
       Unschedulable({Reason("cpu"), Reason("memory")}), false},
      {"cpu in use and resource A above capacity", ResourcePod({{2, 0, 0, {{a, 6}}}}),
       {ResourcePod({{9, 0}})}, Unresolvable({Reason("cpu"), Reason(a)}), false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const NodeInfo node_info = MakeNodeInfo(node, c.existing);
    CycleState state;
    REQUIRE(fit->PreFilter(state, c.pod, {}).second.IsSuccess());
    // The same node twice: the same answer each time.
    for (int round = 0; round < 2; ++round) {
      const Status got = fit->Filter(state, c.pod, node_info);
      CheckStatus(got, c.want);
      CHECK(got.plugin() == (c.stamped ? "NodeResourcesFit" : ""));
    }
  }
}

TEST_CASE("Fit Filter without PreFilter is an error (TestPreFilterDisabled)",
          "[plugins][node_resources][fit]") {
  FakeHandle handle;
  auto fit = Build<Fit>(NewFit, nullptr, handle);
  const NodeInfo node_info = MakeNodeInfo(BareNode("node"));
  CycleState state;
  const Status status = fit->Filter(state, Pod{}, node_info);
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
}

TEST_CASE("Fit Filter counts the pods on the node (TestNotEnoughRequests)",
          "[plugins][node_resources][fit]") {
  struct Case {
    std::string name;
    Pod pod;
    Pod existing;
  };
  const std::vector<Case> cases = {
      {"even without specified resources, predicate fails when there's no space for additional "
       "pod",
       Pod{}, ResourcePod({{10, 20}})},
      {"even if both resources fit, predicate fails when there's no space for additional pod",
       ResourcePod({{1, 1}}), ResourcePod({{5, 5}})},
      {"even for equal edge case, predicate fails when there's no space for additional pod",
       ResourcePod({{5, 1}}), ResourcePod({{5, 19}})},
      {"even for equal edge case, predicate fails when there's no space for additional pod due "
       "to init container",
       WithInitContainers(ResourcePod({{5, 1}}), {{5, 1}}), ResourcePod({{5, 19}})},
  };
  const auto node = AllocatableNode(10, 20, 1, 0, 0, 0);
  FakeHandle handle;
  for (const Case& c : cases) {
    INFO(c.name);
    const NodeInfo node_info = MakeNodeInfo(node, {c.existing});
    auto fit = Build<Fit>(NewFit, nullptr, handle);
    CycleState state;
    REQUIRE(fit->PreFilter(state, c.pod, {}).second.IsSuccess());
    CheckStatus(fit->Filter(state, c.pod, node_info), Unschedulable({"Too many pods"}));
    CHECK(fit->InsufficientResources(c.pod, node_info) ==
          std::vector<InsufficientResource>{{"pods", "Too many pods", 1, 1, 1, false}});
  }
}

TEST_CASE("Fit Filter checks ephemeral storage (TestStorageRequests)",
          "[plugins][node_resources][fit]") {
  struct Case {
    std::string name;
    Pod pod;
    Pod existing;
    Status want;
  };
  const std::vector<Case> cases = {
      {"empty storage requested, and pod fits", ResourcePod({{1, 1}}), ResourcePod({{2, 10}}),
       Status()},
      {"storage ephemeral local storage request exceeds allocatable",
       ResourcePod({{0, 0, 25}}), ResourcePod({{2, 2}}),
       Unresolvable({"Insufficient ephemeral-storage"})},
      {"ephemeral local storage is sufficient", ResourcePod({{0, 0, 5}}),
       ResourcePod({{2, 2, 10}}), Status()},
      {"pod fits", ResourcePod({{0, 0, 10}}), ResourcePod({{2, 2}}), Status()},
  };
  const auto node = AllocatableNode(10, 20, 32, 5, 20, 5);
  FakeHandle handle;
  for (const Case& c : cases) {
    INFO(c.name);
    const NodeInfo node_info = MakeNodeInfo(node, {c.existing});
    auto fit = Build<Fit>(NewFit, nullptr, handle);
    CycleState state;
    REQUIRE(fit->PreFilter(state, c.pod, {}).second.IsSuccess());
    CheckStatus(fit->Filter(state, c.pod, node_info), c.want);
  }
}

TEST_CASE("Fit counts sidecar init containers with the regular ones (TestRestartableInitContainers)",
          "[plugins][node_resources][fit]") {
  const auto make_pod = [](bool with_sidecar, const char* cpu, const char* sidecar_cpu) {
    Pod pod;
    api::Container regular;
    regular.name = "regular";
    if (cpu != nullptr) regular.resources.requests = List({{"cpu", cpu}});
    pod.spec.containers.push_back(regular);
    if (with_sidecar) {
      api::Container sidecar;
      sidecar.name = "restartable-init";
      sidecar.restart_policy = std::string(api::kContainerRestartPolicyAlways);
      if (sidecar_cpu != nullptr) sidecar.resources.requests = List({{"cpu", sidecar_cpu}});
      pod.spec.init_containers.push_back(sidecar);
    }
    return pod;
  };
  struct Case {
    std::string name;
    Pod pod;
    Status want;
  };
  const std::vector<Case> cases = {
      {"allow pod without restartable init containers if sidecar containers is enabled",
       make_pod(false, nullptr, nullptr), Status()},
      {"allow pod with restartable init containers if sidecar containers is enabled",
       make_pod(true, nullptr, nullptr), Status()},
      {"allow pod if the total requested resources do not exceed the node's allocatable resources",
       make_pod(true, "1m", "1m"), Status()},
      {"not allow pod if the total requested resources do exceed the node's allocatable resources",
       make_pod(true, "1m", "2m"), Unresolvable({"Insufficient cpu"})},
  };
  const NodeInfo node_info = MakeNodeInfo(AllocatableNode(2, 0, 1, 0, 0, 0));
  FakeHandle handle;
  for (const Case& c : cases) {
    INFO(c.name);
    auto fit = Build<Fit>(NewFit, nullptr, handle);
    CycleState state;
    CheckStatus(fit->PreFilter(state, c.pod, {}).second, Status());
    CheckStatus(fit->Filter(state, c.pod, node_info), c.want);
  }
}

// Runs PreScore (optionally) and Score of a Fit built from `args` for `pod` over `nodes` with
// `existing` pods placed by spec.nodeName; returns the scores in node order.
struct ScoreResult {
  std::vector<std::int64_t> scores;
  std::vector<Code> codes;
};

ScoreResult RunFitScores(const NodeResourcesFitArgs& args, const Pod& pod,
                         const std::vector<std::shared_ptr<const Node>>& nodes,
                         const std::vector<Pod>& existing, bool run_pre_score = true) {
  FakeHandle handle(nodes, PodInfos(existing));
  auto fit = Build<Fit>(NewFit, &args, handle);
  std::vector<const NodeInfo*> node_infos;
  for (const auto& node : nodes) node_infos.push_back(handle.snapshot().Get(node->metadata.name));
  CycleState state;
  if (run_pre_score) REQUIRE(fit->PreScore(state, pod, node_infos).IsSuccess());
  ScoreResult result;
  for (const NodeInfo* node_info : node_infos) {
    REQUIRE(node_info != nullptr);
    const auto [score, status] = fit->Score(state, pod, *node_info);
    result.scores.push_back(score);
    result.codes.push_back(status.code());
  }
  return result;
}

Pod SidecarPod(Requests requests, Requests sidecar_requests, std::string node_name) {
  Pod pod = RequestPod({std::move(requests)}, std::move(node_name));
  api::Container sidecar;
  sidecar.name = "sidecar-con0";
  sidecar.restart_policy = std::string(api::kContainerRestartPolicyAlways);
  sidecar.resources.requests = List(sidecar_requests);
  pod.spec.init_containers.push_back(sidecar);
  return pod;
}

TEST_CASE("Fit Score runs the configured strategy (TestFitScore)", "[plugins][node_resources][fit]") {
  const std::vector<std::shared_ptr<const Node>> nodes = {
      CapacityNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
      CapacityNode("node2", {{"cpu", "6000"}, {"memory", "10000"}}),
  };
  const std::vector<Pod> existing = {
      RequestPod({{{"cpu", "2000"}, {"memory", "4000"}}}, "node1"),
      RequestPod({{{"cpu", "1000"}, {"memory", "2000"}}}, "node2"),
  };
  const Pod big = RequestPod({{{"cpu", "3000"}, {"memory", "5000"}}});
  const Pod small = RequestPod({{{"cpu", "1000"}, {"memory", "2000"}}});
  struct Case {
    std::string name;
    const Pod& pod;
    NodeResourcesFitArgs args;
    std::vector<std::int64_t> want;
  };
  const std::vector<Case> cases = {
      {"RequestedToCapacityRatio case1", big,
       FitArgs(kRequestedToCapacityRatio, kDefaultResources, {{0, 10}, {100, 0}}), {10, 32}},
      {"RequestedToCapacityRatio case2", big,
       FitArgs(kRequestedToCapacityRatio, kDefaultResources, {{0, 0}, {100, 10}}), {95, 68}},
      {"MostAllocated", small, FitArgs(kMostAllocated, kDefaultResources), {67, 36}},
      {"LeastAllocated", small, FitArgs(kLeastAllocated, kDefaultResources), {32, 63}},
  };
  for (const Case& c : cases) {
    for (const bool run_pre_score : {true, false}) {
      INFO(c.name << (run_pre_score ? "" : " if PreScore is not called"));
      const ScoreResult result = RunFitScores(c.args, c.pod, nodes, existing, run_pre_score);
      CHECK(result.scores == c.want);
      CHECK(result.codes == std::vector<Code>{Code::kSuccess, Code::kSuccess});
    }
  }

  SECTION("with sidecar containers") {
    const std::vector<std::shared_ptr<const Node>> equal_nodes = {
        CapacityNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        CapacityNode("node2", {{"cpu", "4000"}, {"memory", "10000"}}),
    };
    const std::vector<Pod> with_sidecar = {
        SidecarPod({{"cpu", "1000"}, {"memory", "2000"}}, {{"cpu", "1000"}, {"memory", "2000"}},
                   "node1"),
        RequestPod({{{"cpu", "1000"}, {"memory", "2000"}}}, "node2"),
    };
    CHECK(RunFitScores(FitArgs(kMostAllocated, kDefaultResources), small, equal_nodes, with_sidecar)
              .scores == std::vector<std::int64_t>{67, 45});
    CHECK(RunFitScores(FitArgs(kLeastAllocated, kDefaultResources), small, equal_nodes, with_sidecar)
              .scores == std::vector<std::int64_t>{32, 55});
  }
}

// The table shape shared by least_allocated_test.go and most_allocated_test.go.
struct StrategyCase {
  std::string name;
  Pod pod;
  std::vector<std::shared_ptr<const Node>> nodes;
  std::vector<Pod> existing;
  std::vector<ResourceSpec> resources;
  std::vector<std::int64_t> want_scores;
  Code want_code = Code::kSuccess;
};

void RunStrategyCases(std::string_view type, const std::vector<StrategyCase>& cases) {
  for (const StrategyCase& c : cases) {
    INFO(c.name);
    const ScoreResult result = RunFitScores(FitArgs(type, c.resources), c.pod, c.nodes, c.existing);
    CHECK(result.scores == c.want_scores);
    CHECK(result.codes == std::vector<Code>(c.nodes.size(), c.want_code));
  }
}

// Built on use: the builders assert (Catch) and must not run during static initialization.
Pod TwoContainerPod() {
  return RequestPod({{{"cpu", "1000"}, {"memory", "2000"}}, {{"cpu", "2000"}, {"memory", "3000"}}});
}

std::vector<std::shared_ptr<const Node>> Nodes(const Requests& node1, const Requests& node2) {
  return {CapacityNode("node1", node1), CapacityNode("node2", node2)};
}

Pod EmptyPodOn(std::string node) { return RequestPod({}, std::move(node)); }

Pod ReqOn(Requests requests, std::string node) {
  return RequestPod({std::move(requests)}, std::move(node));
}

TEST_CASE("LeastAllocated scores (TestLeastAllocatedScoringStrategy)",
          "[plugins][node_resources][fit][score]") {
  const Pod two_container_pod = TwoContainerPod();
  const Requests small = {{"cpu", "4000"}, {"memory", "10000"}};
  const Requests large = {{"cpu", "10000"}, {"memory", "20000"}};
  const std::vector<StrategyCase> cases = {
      {"nothing scheduled, nothing requested", Pod{}, Nodes(small, small), {}, kDefaultResources,
       {100, 100}},
      {"nothing scheduled, resources requested, differently sized nodes", two_container_pod,
       Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {}, kDefaultResources, {37, 50}},
      {"Resources not set, pods scheduled with error", two_container_pod,
       Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {}, {}, {0, 0}, Code::kError},
      {"no resources requested, pods scheduled", Pod{}, Nodes(small, small),
       {EmptyPodOn("node1"), EmptyPodOn("node1"), EmptyPodOn("node2"), EmptyPodOn("node2")},
       kDefaultResources, {100, 100}},
      {"no resources requested, pods scheduled with resources", Pod{}, Nodes(large, large),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node2"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {70, 57}},
      {"resources requested, pods scheduled with resources", two_container_pod, Nodes(large, large),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {57, 45}},
      {"resources requested, pods scheduled with resources, differently sized nodes",
       two_container_pod, Nodes(large, {{"cpu", "10000"}, {"memory", "50000"}}),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {57, 60}},
      {"requested resources exceed node capacity", ReqOn({{"cpu", "3000"}, {"memory", "0"}}, ""),
       Nodes(small, small),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {50, 25}},
      {"zero node resources, pods scheduled with resources", Pod{},
       {BareNode("node1"), BareNode("node2")},
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {0, 0}},
      {"nothing scheduled, resources requested with different weight on CPU and memory, "
       "differently sized nodes",
       two_container_pod, Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {},
       {{"memory", 2}, {"cpu", 1}}, {41, 50}},
      {"bypass extended resource if the pod does not request", two_container_pod,
       Nodes({{"cpu", "6000"}, {"memory", "10000"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}}),
       {}, kExtendedResourceSet, {50, 50}},
      {"honor extended resource if the pod requests",
       ReqOn({{"cpu", "3000"}, {"memory", "5000"}, {"abc.com/xyz", "2"}}, ""),
       Nodes({{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "10"}}),
       {}, kExtendedResourceSet, {50, 60}},
      {"if the node doesn't have a resource", ReqOn({{"cpu", "3000"}, {"memory", "4000"}}, ""),
       Nodes({{"cpu", "6000"}, {"memory", "10000"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}}),
       {}, {{"abc.com/xyz", 2}, {"cpu", 1}, {"memory", 1}}, {55, 55}},
  };
  RunStrategyCases(kLeastAllocated, cases);
}

TEST_CASE("MostAllocated scores (TestMostAllocatedScoringStrategy)",
          "[plugins][node_resources][fit][score]") {
  const Pod two_container_pod = TwoContainerPod();
  const Requests small = {{"cpu", "4000"}, {"memory", "10000"}};
  const Requests large = {{"cpu", "10000"}, {"memory", "20000"}};
  Pod no_request_container;
  no_request_container.spec.containers.emplace_back().name = "container";
  Pod no_request_container_on_node1 = no_request_container;
  no_request_container_on_node1.spec.node_name = "node1";
  const std::vector<StrategyCase> cases = {
      {"nothing scheduled, nothing requested", Pod{}, Nodes(small, small), {}, kDefaultResources,
       {0, 0}},
      {"nothing scheduled, resources requested, differently sized nodes", two_container_pod,
       Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {}, kDefaultResources, {62, 50}},
      {"Resources not set, pods scheduled with error", two_container_pod,
       Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {}, {}, {0, 0}, Code::kError},
      {"no resources requested, pods scheduled with resources", Pod{}, Nodes(large, large),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node2"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {30, 42}},
      {"resources requested, pods scheduled with resources", two_container_pod, Nodes(large, large),
       {ReqOn({{"cpu", "3000"}, {"memory", "0"}}, "node1"),
        ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")},
       kDefaultResources, {42, 55}},
      {"resources requested equal node capacity",
       RequestPod({{{"cpu", "2000"}, {"memory", "4000"}}, {{"cpu", "3000"}, {"memory", "5000"}}}),
       Nodes({{"cpu", "5000"}, {"memory", "10000"}}, {{"cpu", "10000"}, {"memory", "9000"}}), {},
       kDefaultResources, {95, 75}},
      {"nothing scheduled, resources requested, differently sized nodes (weighted)",
       two_container_pod, Nodes(small, {{"cpu", "6000"}, {"memory", "10000"}}), {},
       {{"memory", 2}, {"cpu", 1}}, {58, 50}},
      {"no resources requested, pods scheduled, nonzero request for resource",
       no_request_container,
       Nodes({{"cpu", "250m"}, {"memory", "1000Mi"}}, {{"cpu", "250m"}, {"memory", "1000Mi"}}),
       {no_request_container_on_node1, no_request_container_on_node1}, kDefaultResources,
       {80, 30}},
      {"bypass extended resource if the pod does not request", two_container_pod,
       Nodes({{"cpu", "6000"}, {"memory", "10000"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}}),
       {}, kExtendedResourceSet, {50, 50}},
      {"honor extended resource if the pod request",
       ReqOn({{"cpu", "3000"}, {"memory", "5000"}, {"abc.com/xyz", "2"}}, ""),
       Nodes({{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "10"}}),
       {}, kExtendedResourceSet, {50, 40}},
      {"if the node doesn't have a resource", ReqOn({{"cpu", "3000"}, {"memory", "4000"}}, ""),
       Nodes({{"cpu", "6000"}, {"memory", "10000"}},
             {{"cpu", "6000"}, {"memory", "10000"}, {"abc.com/xyz", "4"}}),
       {}, {{"abc.com/xyz", 2}, {"cpu", 1}, {"memory", 1}}, {45, 45}},
  };
  RunStrategyCases(kMostAllocated, cases);
}

TEST_CASE("NewFit validates the args as upstream (strategy tests' weight cases)",
          "[plugins][node_resources][fit]") {
  FakeHandle handle;
  struct Case {
    std::string name;
    std::string_view type;
    std::vector<ResourceSpec> resources;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"least: resource with negative weight", kLeastAllocated, {{"memory", -1}, {"cpu", 1}},
       "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in "
       "valid range (0, 100]"},
      {"least: resource with zero weight", kLeastAllocated, {{"memory", 1}, {"cpu", 0}},
       "scoringStrategy.resources[1].weight: Invalid value: 0: resource weight of cpu not in "
       "valid range (0, 100]"},
      {"least: resource weight larger than MaxNodeScore", kLeastAllocated,
       {{"memory", 1}, {"cpu", 101}},
       "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of cpu not in "
       "valid range (0, 100]"},
      {"most: resource with negative weight", kMostAllocated, {{"memory", -1}, {"cpu", 1}},
       "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in "
       "valid range (0, 100]"},
      {"most: resource weight larger than MaxNodeScore", kMostAllocated, {{"memory", 101}},
       "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of memory not in "
       "valid range (0, 100]"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const NodeResourcesFitArgs args = FitArgs(c.type, c.resources);
    const auto built = NewFit(&args, handle);
    REQUIRE_FALSE(built.ok());
    CHECK(built.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(built.status().message()) == c.want);
  }

  SECTION("RequestedToCapacityRatio without its parameters is refused (v1.37, #132120)") {
    const NodeResourcesFitArgs args = FitArgs(kRequestedToCapacityRatio, kDefaultResources);
    const auto built = NewFit(&args, handle);
    REQUIRE_FALSE(built.ok());
    CHECK(std::string(built.status().message()) ==
          "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type "
          "is RequestedToCapacityRatio");
  }
  SECTION("args of another plugin are refused") {
    ksched::plugins::node_resources::NodeResourcesBalancedAllocationArgs other;
    const auto built = NewFit(&other, handle);
    REQUIRE_FALSE(built.ok());
    CHECK(std::string(built.status().message()) ==
          "want args of the right type for plugin NodeResourcesFit");
  }
  SECTION("no args means upstream's defaults") {
    auto fit = Build<Fit>(NewFit, nullptr, handle);
    CHECK(fit->Name() == kFitName);
  }
}

TEST_CASE("RequestedToCapacityRatio scores (TestRequestedToCapacityRatioScoringStrategy)",
          "[plugins][node_resources][fit][score]") {
  const std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
  const auto nodes = Nodes({{"cpu", "4000"}, {"memory", "10000"}},
                           {{"cpu", "4000"}, {"memory", "10000"}});
  const auto sized = Nodes({{"cpu", "4000"}, {"memory", "10000"}},
                           {{"cpu", "6000"}, {"memory", "10000"}});
  const auto args = FitArgs(kRequestedToCapacityRatio, kDefaultResources, shape);
  const Pod two_container_pod = TwoContainerPod();
  CHECK(RunFitScores(args, Pod{}, nodes, {EmptyPodOn("node1"), EmptyPodOn("node1")}).scores ==
        std::vector<std::int64_t>{100, 100});
  CHECK(RunFitScores(args, two_container_pod, sized, {EmptyPodOn("node1"), EmptyPodOn("node1")})
            .scores == std::vector<std::int64_t>{38, 50});
  CHECK(RunFitScores(args, Pod{}, sized,
                     {ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node1"),
                      ReqOn({{"cpu", "3000"}, {"memory", "5000"}}, "node2")})
            .scores == std::vector<std::int64_t>{38, 50});
}

TEST_CASE("BrokenLinear interpolates between shape points (TestBrokenLinearFunction)",
          "[plugins][node_resources][score]") {
  struct Case {
    std::vector<ShapePoint> points;
    std::vector<std::pair<std::int64_t, std::int64_t>> assertions;  // utilization -> score
  };
  const std::vector<Case> cases = {
      {{{10, 1}, {90, 9}},
       {{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9}, {99, 9},
        {100, 9}, {110, 9}}},
      {{{0, 2}, {40, 10}, {100, 0}},
       {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
      {{{0, 2}, {40, 2}, {100, 2}},
       {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (const auto& [utilization, want] : cases[i].assertions) {
      INFO("case " << i << " utilization " << utilization);
      CHECK(BrokenLinear(cases[i].points, utilization) == want);
    }
  }
}

TEST_CASE("RequestedToCapacityRatio bin-packs extended resources "
          "(TestResourceBinPackingSingleExtended / MultipleExtended)",
          "[plugins][node_resources][fit][score]") {
  constexpr std::int64_t kMemory = 10000LL * 1024 * 1024;
  SECTION("single extended resource") {
    const std::vector<std::shared_ptr<const Node>> nodes = {
        MakeResourceNode("node1", 4000, kMemory, {{"intel.com/foo", 8}}),
        MakeResourceNode("node2", 4000, kMemory, {{"intel.com/foo", 4}}),
    };
    const auto args = FitArgs(kRequestedToCapacityRatio, {{"intel.com/foo", 1}}, {{0, 0}, {100, 1}});
    const Pod foo2 = RequestPod({{{"intel.com/foo", "2"}}});
    const Pod foo4 = RequestPod({{{"intel.com/foo", "4"}}});
    CHECK(RunFitScores(args, Pod{}, nodes, {}).scores == std::vector<std::int64_t>{0, 0});
    CHECK(RunFitScores(args, foo2, nodes, {Pod{}}).scores == std::vector<std::int64_t>{2, 5});
    CHECK(RunFitScores(args, foo2, nodes, {ReqOn({{"intel.com/foo", "2"}}, "node2")}).scores ==
          std::vector<std::int64_t>{2, 10});
    CHECK(RunFitScores(args, foo4, nodes, {Pod{}}).scores == std::vector<std::int64_t>{5, 10});
  }
  SECTION("multiple extended resources") {
    const std::vector<std::shared_ptr<const Node>> nodes = {
        MakeResourceNode("node1", 4000, kMemory, {{"intel.com/foo", 8}, {"intel.com/bar", 4}}),
        MakeResourceNode("node2", 4000, kMemory, {{"intel.com/foo", 4}, {"intel.com/bar", 8}}),
    };
    const auto args = FitArgs(kRequestedToCapacityRatio,
                              {{"intel.com/foo", 3}, {"intel.com/bar", 5}}, {{0, 0}, {100, 1}});
    const Requests pod1 = {{"intel.com/foo", "2"}, {"intel.com/bar", "2"}};
    const Requests pod2 = {{"intel.com/foo", "4"}, {"intel.com/bar", "2"}};
    CHECK(RunFitScores(args, Pod{}, nodes, {}).scores == std::vector<std::int64_t>{0, 0});
    CHECK(RunFitScores(args, RequestPod({pod1}), nodes, {Pod{}}).scores ==
          std::vector<std::int64_t>{4, 3});
    CHECK(RunFitScores(args, RequestPod({pod1}), nodes, {ReqOn(pod2, "node2")}).scores ==
          std::vector<std::int64_t>{4, 7});
    CHECK(RunFitScores(args, RequestPod({pod2}), nodes, {Pod{}}).scores ==
          std::vector<std::int64_t>{5, 5});
  }
}

TEST_CASE("scoring counts default requests for containers without cpu/memory "
          "(TestResourceAllocationScorerCalculateRequests)",
          "[plugins][node_resources][score]") {
  constexpr std::int64_t kOneMi = 1048576;
  constexpr std::int64_t kCpu = framework::kDefaultMilliCPURequest;
  constexpr std::int64_t kMem = framework::kDefaultMemoryRequest;
  const auto container = [](Requests requests) {
    api::Container c;
    c.resources.requests = List(requests);
    return c;
  };
  const api::ResourceList overhead = List({{"cpu", "1"}, {"memory", "1Mi"}});
  struct Case {
    std::string name;
    Pod pod;
    std::int64_t want_cpu;
    std::int64_t want_memory;
  };
  std::vector<Case> cases;
  {
    Pod pod;
    pod.spec.overhead = overhead;
    cases.push_back({"overhead only", pod, 1000, kOneMi});
  }
  {
    Pod pod;
    pod.spec.containers = {api::Container{}};
    cases.push_back({"1x requestless container", pod, kCpu, kMem});
    pod.spec.containers.push_back(api::Container{});
    cases.push_back({"2x requestless container", pod, 2 * kCpu, 2 * kMem});
  }
  {
    Pod pod;
    pod.spec.containers = {container({{"cpu", "1"}, {"memory", "1Mi"}}), api::Container{}};
    cases.push_back({"request container + requestless container", pod, 1000 + kCpu, kOneMi + kMem});
    pod.spec.overhead = overhead;
    cases.push_back(
        {"container + requestless container + overhead", pod, 2000 + kCpu, 2 * kOneMi + kMem});
    pod.spec.init_containers = {container({{"cpu", "3"}})};
    cases.push_back({"init container + container + requestless container + overhead", pod, 4000,
                     2 * kOneMi + kMem});
  }
  {
    Pod pod;
    pod.spec.init_containers = {api::Container{}, container({{"cpu", "1m"}, {"memory", "1"}})};
    pod.spec.containers = {container({{"cpu", "3m"}, {"memory", "3"}})};
    cases.push_back({"requestless init container + small init container + small container", pod,
                     kCpu, kMem});
    pod.spec.containers.push_back(api::Container{});
    cases.push_back(
        {"requestless init container + small init container + small container + requestless "
         "container",
         pod, 3 + kCpu, 3 + kMem});
  }
  Pod pod_level;
  pod_level.spec.resources.requests = List({{"cpu", "1"}, {"memory", "1Gi"}});
  pod_level.spec.containers = {container({{"memory", "1Mi"}}), api::Container{}};
  // NewFit's scorer leaves PodLevelResources off: the containers count, with their defaults.
  cases.push_back({"pod-level requests do not count for NodeResourcesFit", pod_level, 2 * kCpu,
                   kOneMi + kMem});

  const std::vector<ResourceSpec> resources = {{"cpu", 1}, {"memory", 1}};
  const ResourceAllocation fit(resources, Accounting::kNonZeroContainerLevel);
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(fit.PodRequests(c.pod) == std::vector<std::int64_t>{c.want_cpu, c.want_memory});
  }

  SECTION("BalancedAllocation reads plain requests, pod-level resources included") {
    const ResourceAllocation balanced(resources, Accounting::kRequested);
    CHECK(balanced.PodRequests(pod_level) == std::vector<std::int64_t>{1000, 1024 * kOneMi});
    Pod requestless;
    requestless.spec.containers = {api::Container{}};
    CHECK(balanced.PodRequests(requestless) == std::vector<std::int64_t>{0, 0});
  }
}

TEST_CASE("Fit registers pod deletes/scale-downs and node adds/allocatable changes "
          "(TestEventsToRegister)",
          "[plugins][node_resources][fit][events]") {
  FakeHandle handle;
  auto fit = Build<Fit>(NewFit, nullptr, handle);
  const auto events = fit->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == framework::EventResource::kPod);
  CHECK(events[0].event.action ==
        (framework::action::kDelete | framework::action::kUpdatePodScaleDown));
  CHECK(events[1].event.resource == framework::EventResource::kNode);
  CHECK(events[1].event.action ==
        (framework::action::kAdd | framework::action::kUpdateNodeAllocatable));
  CHECK(static_cast<bool>(events[0].hint));
  CHECK(static_cast<bool>(events[1].hint));
}

Pod NamedRequestPod(std::string name, std::string uid, Requests requests, std::string node = "") {
  Pod pod = RequestPod({std::move(requests)}, std::move(node));
  pod.metadata.name = std::move(name);
  pod.metadata.uid = std::move(uid);
  return pod;
}

TEST_CASE("Fit pod-event hint (Test_isSchedulableAfterPodChange)",
          "[plugins][node_resources][fit][events]") {
  FakeHandle handle;
  auto fit = Build<Fit>(NewFit, nullptr, handle);
  const auto hint = fit->EventsToRegister()[0].hint;
  struct Case {
    std::string name;
    Pod pod;
    std::optional<Pod> old_pod;
    std::optional<Pod> new_pod;
    QueueingHint want;
  };
  Pod nominated;
  nominated.status.nominated_node_name = "fake";
  const std::vector<Case> cases = {
      {"queue-on-other-pod-deleted", NamedRequestPod("pod1", "", {{"cpu", "1"}}),
       NamedRequestPod("pod2", "", {{"cpu", "1"}}, "fake"), std::nullopt, QueueingHint::kQueue},
      {"skip-queue-on-unscheduled-pod-deleted", Pod{}, Pod{}, std::nullopt,
       QueueingHint::kQueueSkip},
      {"queue-on-nominated-pod-deleted", Pod{}, nominated, std::nullopt, QueueingHint::kQueue},
      {"skip-queue-on-other-unscheduled-pod", NamedRequestPod("pod1", "uid0", {{"cpu", "1"}}),
       NamedRequestPod("pod2", "uid1", {{"cpu", "2"}}),
       NamedRequestPod("pod2", "uid1", {{"cpu", "1"}}), QueueingHint::kQueueSkip},
      {"skip-queue-on-other-pod-unrelated-resource-scaled-down",
       NamedRequestPod("pod1", "pod1", {{"cpu", "1"}}),
       NamedRequestPod("pod2", "pod2", {{"memory", "2"}}, "fake"),
       NamedRequestPod("pod2", "pod2", {{"memory", "1"}}, "fake"), QueueingHint::kQueueSkip},
      {"queue-on-other-pod-some-resource-scale-down",
       NamedRequestPod("pod1", "pod1", {{"cpu", "1"}}),
       NamedRequestPod("pod2", "pod2", {{"cpu", "2"}}, "fake"),
       NamedRequestPod("pod2", "pod2", {{"cpu", "1"}}, "fake"), QueueingHint::kQueue},
      {"queue-on-target-pod-some-resource-scale-down",
       NamedRequestPod("pod1", "pod1", {{"cpu", "1"}}),
       NamedRequestPod("pod1", "pod1", {{"cpu", "2"}}),
       NamedRequestPod("pod1", "pod1", {{"cpu", "1"}}), QueueingHint::kQueue},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    framework::EventObjects objects;
    objects.old_pod = c.old_pod ? &*c.old_pod : nullptr;
    objects.new_pod = c.new_pod ? &*c.new_pod : nullptr;
    const auto got = hint(c.pod, objects);
    REQUIRE(got.ok());
    CHECK(*got == c.want);
  }
  SECTION("an event without the old pod is an error (the queue then requeues)") {
    CHECK_FALSE(hint(Pod{}, framework::EventObjects{}).ok());
  }
}

TEST_CASE("Fit node-event hint (Test_isSchedulableAfterNodeChange)",
          "[plugins][node_resources][fit][events]") {
  FakeHandle handle;
  auto fit = Build<Fit>(NewFit, nullptr, handle);
  const auto hint = fit->EventsToRegister()[1].hint;
  const std::string a(kExtendedResourceA);
  const std::string b(kExtendedResourceB);
  const Pod mem_and_a = ResourcePod({{0, 2, 0, {{a, 1}}}});
  struct Case {
    std::string name;
    Pod pod;
    std::shared_ptr<const Node> old_node;
    std::shared_ptr<const Node> new_node;
    QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"skip-queue-on-node-add-without-sufficient-resources", ResourcePod({{0, 2}}), nullptr,
       CapacityNode("", {{"memory", "1"}}), QueueingHint::kQueueSkip},
      {"skip-queue-on-node-add-without-required-resource-type", ResourcePod({{0, 0, 0, {{a, 1}}}}),
       nullptr, CapacityNode("", {{b, "1"}}), QueueingHint::kQueueSkip},
      {"queue-on-node-add-with-sufficient-resources", mem_and_a, nullptr,
       CapacityNode("", {{"memory", "4"}, {a, "2"}}), QueueingHint::kQueue},
      {"skip-queue-on-node-unrelated-changes", mem_and_a,
       CapacityNode("", {{"memory", "2"}, {a, "2"}}),
       CapacityNode("", {{"memory", "2"}, {a, "1"}, {b, "2"}}), QueueingHint::kQueueSkip},
      {"queue-on-pod-requested-resources-increase", mem_and_a,
       CapacityNode("", {{"memory", "2"}, {a, "1"}}), CapacityNode("", {{"memory", "2"}, {a, "2"}}),
       QueueingHint::kQueue},
      {"skip-queue-on-node-changes-from-suitable-to-unsuitable", mem_and_a,
       CapacityNode("", {{"memory", "4"}, {a, "2"}}), CapacityNode("", {{"memory", "1"}, {a, "2"}}),
       QueueingHint::kQueueSkip},
      {"queue-on-node-changes-from-unsuitable-to-suitable", mem_and_a,
       CapacityNode("", {{"memory", "1"}, {a, "2"}}), CapacityNode("", {{"memory", "4"}, {a, "2"}}),
       QueueingHint::kQueue},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    framework::EventObjects objects;
    objects.old_node = c.old_node.get();
    objects.new_node = c.new_node.get();
    const auto got = hint(c.pod, objects);
    REQUIRE(got.ok());
    CHECK(*got == c.want);
  }
}

TEST_CASE("IsFit checks a pod against an empty node (TestIsFit)",
          "[plugins][node_resources][fit]") {
  const auto pod_level = [](const char* resource, const char* quantity) {
    Pod pod;
    pod.spec.resources.requests = List({{resource, quantity}});
    return pod;
  };
  const std::string huge(kHugePageResourceA);
  CHECK_FALSE(IsFit(Pod{}, nullptr));
  CHECK_FALSE(IsFit(RequestPod({{{"cpu", "2"}}}), CapacityNode("", {{"cpu", "1"}}).get()));
  CHECK(IsFit(RequestPod({{{"cpu", "1"}}}), CapacityNode("", {{"cpu", "2"}}).get()));
  CHECK_FALSE(IsFit(pod_level("cpu", "2"), CapacityNode("", {{"cpu", "1"}}).get()));
  CHECK(IsFit(pod_level("cpu", "2"), CapacityNode("", {{"cpu", "2"}}).get()));
  CHECK(IsFit(pod_level(huge.c_str(), "2Mi"), CapacityNode("", {{huge, "2Mi"}}).get()));
  CHECK_FALSE(IsFit(pod_level(huge.c_str(), "4Mi"), CapacityNode("", {{huge, "2Mi"}}).get()));
}

TEST_CASE("HaveAnyRequestedResourcesIncreased (TestHaveAnyRequestedResourcesIncreased)",
          "[plugins][node_resources][fit]") {
  const std::string a(kExtendedResourceA);
  const Pod everything = ResourcePod({{2, 2, 2, {{a, 2}}}});
  const Pod cpu_memory = ResourcePod({{2, 2}});
  struct Case {
    std::string name;
    Pod pod;
    Requests original;
    Requests modified;
    bool want;
  };
  const std::vector<Case> cases = {
      {"no-requested-resources", ResourcePod({{}}),
       {{"pods", "1"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {a, "1"}},
       {{"pods", "1"}, {"cpu", "2"}, {"memory", "2"}, {"ephemeral-storage", "2"}, {a, "2"}},
       false},
      {"no-requested-resources-pods-increased", ResourcePod({{}}),
       {{"pods", "1"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {a, "1"}},
       {{"pods", "2"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {a, "1"}},
       true},
      {"requested-resources-dra-in-node (same without DRA)", everything,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {a, "4"}},
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {a, "1"}}, false},
      {"scalar-resources-not-in-node", everything,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}},
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}}, false},
      {"requested-resources-decreased", everything,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {a, "4"}},
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {a, "1"}}, false},
      {"requested-resources-increased", everything,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {a, "4"}},
       {{"cpu", "3"}, {"memory", "4"}, {"ephemeral-storage", "3"}, {a, "4"}}, true},
      {"non-requested-resources-decreased", cpu_memory,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {a, "4"}},
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {a, "1"}}, false},
      {"non-requested-resources-increased", cpu_memory,
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {a, "4"}},
       {{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "5"}, {a, "6"}}, false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(HaveAnyRequestedResourcesIncreased(c.pod, *CapacityNode("", c.original),
                                             *CapacityNode("", c.modified)) == c.want);
  }
}

}  // namespace
