// PodRequestQuantities / PodLimitQuantities under in-place resize, as v1.37.2 computes them
// (k8s.io/component-helpers@v0.37.2 resource/helpers_test.go): TestAggregateContainerRequestsAndLimits'
// status cases (max of sums instead of sum of maxes, #140047; the pod-level status read directly
// and the fallbacks to container statuses), TestPodResourceRequests' and TestPodResourceLimits'
// new rows, TestPodRequestsAndLimitsVerticalScalingWrappers (pod-level resources under resize,
// InPlacePodLevelResourcesVerticalScaling) and init containers' statuses
// (InPlacePodVerticalScalingInitContainers, GA in v1.37).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "framework/pod_info.h"
#include "framework/resource.h"
#include "scoped_features.h"
#include "test_objects.h"

namespace {

using ksched::api::Quantity;
using ksched::api::ResourceList;
using ksched::framework::PodLimitQuantities;
using ksched::framework::PodLimitsOptions;
using ksched::framework::PodRequestQuantities;
using ksched::framework::PodRequestsOptions;
using ksched::framework::testing::PodFromJson;

using ksched::framework::testing::Q;

// upstream PodResourcesOptions{UseStatusResources: true[, InPlacePodLevelResourcesVerticalScalingEnabled]}
// (overhead counted, as upstream's default; these pods have none).
PodRequestsOptions Requests(bool pod_level) {
  PodRequestsOptions options;
  options.use_status_resources = true;
  options.use_pod_level_status_resources = pod_level;
  return options;
}
PodLimitsOptions Limits(bool pod_level) {
  PodLimitsOptions options;
  options.use_status_resources = true;
  options.use_pod_level_status_resources = pod_level;
  return options;
}

struct Row {
  const char* name;
  bool pod_level;         // InPlacePodLevelResourcesVerticalScalingEnabled
  std::string pod;        // the pod's JSON after metadata
  ResourceList requests;  // expected
  ResourceList limits;    // expected
};

void Run(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto pod = PodFromJson(R"({"metadata": {"name": "p"}, )" + row.pod + "}");
    CHECK(PodRequestQuantities(*pod, Requests(row.pod_level)) == row.requests);
    CHECK(PodLimitQuantities(*pod, Limits(row.pod_level)) == row.limits);
  }
}

constexpr const char* kInfeasible =
    R"("conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}])";

TEST_CASE("in-place resize: TestAggregateContainerRequestsAndLimits status cases (v0.37.2)",
          "[framework][resource][resize]") {
  Run({
      {"regular containers with empty requests, but status with non-empty requests", false,
       R"("spec": {"containers": [{"name": "container-1"}]},
          "status": {"containerStatuses": [{"name": "container-1", "resources": {"requests": {"cpu": "2"}}}]})",
       ResourceList{{"cpu", Q("2")}}, ResourceList{}},
      {"always-restart init containers with empty requests, but status with non-empty requests", false,
       R"("spec": {"initContainers": [{"name": "container-1", "restartPolicy": "Always"}]},
          "status": {"initContainerStatuses": [{"name": "container-1", "resources": {"requests": {"cpu": "2"}}}]})",
       ResourceList{{"cpu", Q("2")}}, ResourceList{}},
      // v1.34 took each container's maximum: 2 + 2 = 4.
      {"aggregate container request resolves max of sums instead of sum of maxes", false,
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}}},
                                  {"name": "c2", "resources": {"requests": {"cpu": "2"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "allocatedResources": {"cpu": "2"}},
                                           {"name": "c2", "allocatedResources": {"cpu": "1"}}]})",
       ResourceList{{"cpu", Q("3")}}, ResourceList{}},
      {"aggregate container limit resolves max of sums instead of sum of maxes", false,
       R"("spec": {"containers": [{"name": "c1", "resources": {"limits": {"cpu": "1"}}},
                                  {"name": "c2", "resources": {"limits": {"cpu": "2"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "resources": {"limits": {"cpu": "2"}}},
                                           {"name": "c2", "resources": {"limits": {"cpu": "1"}}}]})",
       ResourceList{}, ResourceList{{"cpu", Q("3")}}},
      {"aggregate container request/limit resolves directly from pod status when PLR vertical scaling enabled", true,
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {"allocatedResources": {"cpu": "4"},
                     "resources": {"requests": {"cpu": "3"}, "limits": {"cpu": "5"}}})",
       ResourceList{{"cpu", Q("4")}}, ResourceList{{"cpu", Q("5")}}},
      {"falls back to container status aggregation when PLR vertical scaling enabled but podAllocatedResources is nil",
       true,
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "allocatedResources": {"cpu": "6"},
                                            "resources": {"requests": {"cpu": "5"}, "limits": {"cpu": "7"}}}],
                     "resources": {"requests": {"cpu": "3"}, "limits": {"cpu": "7"}}})",
       ResourceList{{"cpu", Q("6")}}, ResourceList{{"cpu", Q("7")}}},
      {"falls back to container status aggregation when PLR vertical scaling enabled but podResources is nil", true,
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "allocatedResources": {"cpu": "6"},
                                            "resources": {"requests": {"cpu": "5"}, "limits": {"cpu": "8"}}}],
                     "allocatedResources": {"cpu": "6"}})",
       ResourceList{{"cpu", Q("6")}}, ResourceList{{"cpu", Q("8")}}},
      // The same pod-level status is not read with the option off: the container statuses decide.
      {"pod-level status ignored without InPlacePodLevelResourcesVerticalScalingEnabled", false,
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {"allocatedResources": {"cpu": "4"},
                     "resources": {"requests": {"cpu": "3"}, "limits": {"cpu": "5"}}})",
       ResourceList{{"cpu", Q("1")}}, ResourceList{{"cpu", Q("2")}}},
  });
}

TEST_CASE("in-place resize: TestPodRequestsAndLimitsVerticalScalingWrappers (v0.37.2)",
          "[framework][resource][resize]") {
  Run({
      {"pod level requests/limits with PLR vertical scaling enabled and status populated", true,
       R"("spec": {"resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "4"}},
                   "containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {"allocatedResources": {"cpu": "3"},
                     "resources": {"requests": {"cpu": "3.5"}, "limits": {"cpu": "5"}}})",
       ResourceList{{"cpu", Q("3.5")}}, ResourceList{{"cpu", Q("5")}}},
      {"pod level requests/limits with PLR vertical scaling enabled and infeasible resize", true,
       std::string(R"("spec": {"resources": {"requests": {"cpu": "10"}, "limits": {"cpu": "20"}},
                   "containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
          "status": {)") + kInfeasible + R"(, "allocatedResources": {"cpu": "3"},
                     "resources": {"requests": {"cpu": "4"}, "limits": {"cpu": "8"}}})",
       ResourceList{{"cpu", Q("4")}}, ResourceList{{"cpu", Q("8")}}},
      {"container limits aggregation with infeasible resize", false,
       std::string(R"("spec": {"containers": [{"name": "c1", "resources": {"limits": {"cpu": "10"}}}]},
          "status": {)") + kInfeasible + R"(, "containerStatuses": [{"name": "c1", "resources": {"limits": {"cpu": "6"}}}]})",
       ResourceList{}, ResourceList{{"cpu", Q("6")}}},
      // Pod-level requests only (no pod-level limits): IsPodLevelResourcesSet holds, so the
      // reported pod-level limits become the pod's.
      {"pod-level requests only: the reported pod-level limits apply", true,
       R"("spec": {"resources": {"requests": {"cpu": "2"}},
                   "containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}}}]},
          "status": {"allocatedResources": {"cpu": "2"},
                     "resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "3"}}})",
       ResourceList{{"cpu", Q("2")}}, ResourceList{{"cpu", Q("3")}}},
  });
}

TEST_CASE("in-place resize: init containers' statuses are read (InPlacePodVerticalScalingInitContainers GA)",
          "[framework][resource][resize]") {
  Run({
      // v1.34 read the statuses of containers and sidecars only.
      {"a regular init container resized up", false,
       R"("spec": {"initContainers": [{"name": "i1", "resources": {"requests": {"cpu": "1"}, "limits": {"memory": "1Gi"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]},
          "status": {"initContainerStatuses": [{"name": "i1", "allocatedResources": {"cpu": "3"},
                                                "resources": {"requests": {"cpu": "2"}, "limits": {"memory": "3Gi"}}}]})",
       ResourceList{{"cpu", Q("3")}}, ResourceList{{"memory", Q("3Gi")}}},
      // A container without a status counts nothing while the resize is Infeasible.
      {"infeasible: a container without status counts nothing", false,
       std::string(R"("spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "2"}}}]},
          "status": {)") + kInfeasible + R"(, "containerStatuses": [{"name": "a", "allocatedResources": {"cpu": "1"}}]})",
       ResourceList{{"cpu", Q("1")}}, ResourceList{}},
  });
}

TEST_CASE("in-place resize: non-zero defaults apply in every aggregate read from containers",
          "[framework][resource][resize]") {
  // upstream applies NonMissingContainerRequests in aggregateContainerResourcesByFn, hence to the
  // allocated and actuated aggregates as well; a reported pod-level status is taken as is.
  PodRequestsOptions non_zero = Requests(true);
  non_zero.non_zero_defaults = true;
  auto pod = PodFromJson(R"({"metadata": {"name": "p"},
      "spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}, {"name": "b"}]},
      "status": {"containerStatuses": [{"name": "a", "allocatedResources": {"cpu": "3"}}]}})");
  // spec: 1 + 0.1 = 1.1; allocated: 3 + 0.1 = 3.1; actuated: the same.
  CHECK(PodRequestQuantities(*pod, non_zero) ==
        ResourceList{{"cpu", Q("3100m")}, {"memory", Q("400Mi")}});
  auto reported = PodFromJson(R"({"metadata": {"name": "p"},
      "spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}, {"name": "b"}]},
      "status": {"allocatedResources": {"cpu": "3"}, "resources": {"requests": {"cpu": "2"}}}})");
  // max(spec with defaults 1.1 cpu / 400Mi, allocated 3, actuated 2).
  CHECK(PodRequestQuantities(*reported, non_zero) ==
        ResourceList{{"cpu", Q("3")}, {"memory", Q("400Mi")}});
}

TEST_CASE("in-place resize: a pending pod reports nothing and counts its spec", "[framework][resource][resize]") {
  auto pod = PodFromJson(R"({"metadata": {"name": "p"},
      "spec": {"resources": {"requests": {"memory": "1Gi"}},
               "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]}})");
  CHECK_FALSE(pod->status.resource_status.has_value());
  CHECK(PodRequestQuantities(*pod, Requests(true)) == ResourceList{{"cpu", Q("1")}, {"memory", Q("1Gi")}});
  CHECK(PodLimitQuantities(*pod, Limits(true)) == ResourceList{{"cpu", Q("2")}});
}

TEST_CASE("in-place resize: the pod-level status counts only with InPlacePodLevelResourcesVerticalScaling",
          "[framework][resource][resize]") {
  // --emulated-version 1.35 turns the gate off: the default options, and the requests a PodInfo
  // (hence a NodeInfo) counts, follow the process's features.
  auto pod = PodFromJson(R"({"metadata": {"name": "p"},
      "spec": {"resources": {"requests": {"cpu": "2"}},
               "containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}}}]},
      "status": {"allocatedResources": {"cpu": "3"}, "resources": {"requests": {"cpu": "3.5"}}}})");
  CHECK(PodRequestsOptions{}.use_pod_level_status_resources);
  CHECK(PodRequestQuantities(*pod, PodRequestsOptions{}) == ResourceList{{"cpu", Q("3.5")}});
  CHECK(ksched::framework::PodInfo::Create(pod).value()->requests().milli_cpu == 3500);
  ksched::framework::Features off;
  off.in_place_pod_level_resources_vertical_scaling = false;
  const ksched::framework::testing::ScopedProcessFeatures scoped(off);
  CHECK_FALSE(PodRequestsOptions{}.use_pod_level_status_resources);
  CHECK(PodRequestQuantities(*pod, PodRequestsOptions{}) == ResourceList{{"cpu", Q("2")}});
  CHECK(ksched::framework::PodInfo::Create(pod).value()->requests().milli_cpu == 2000);
}

}  // namespace
