// Resource, the scalar-name predicates and PodRequests (framework/resource.h). The PodRequests
// cases are upstream's own (k8s.io/component-helpers@v0.37.2 resource helpers_test.go:
// TestPodResourceRequests, TestPodLevelResourceRequests, TestPodRequestsAndLimits,
// TestAggregateContainerRequestsAndLimits) plus the scheduler's non-zero defaults
// (pkg/scheduler/framework/types.go CalculateResource / getNonMissingContainerRequests).
#include <catch2/catch.hpp>

#include <string>

#include "framework/resource.h"
#include "test_objects.h"

namespace {

using ksched::api::Quantity;
using ksched::api::ResourceList;
using ksched::framework::IsExtendedResourceName;
using ksched::framework::IsHugePageResourceName;
using ksched::framework::IsScalarResourceName;
using ksched::framework::kDefaultMemoryRequest;
using ksched::framework::kDefaultMilliCPURequest;
using ksched::framework::PodRequests;
using ksched::framework::PodRequestsOptions;
using ksched::framework::Resource;
using ksched::framework::testing::PodFromJson;

constexpr std::int64_t kMi = 1024 * 1024;

using ksched::framework::testing::Q;

TEST_CASE("scalar and extended resource names follow v1helper and schedutil",
          "[framework][resource]") {
  struct Row {
    const char* name;
    bool extended;
    bool scalar;
  };
  const Row rows[] = {
      {"cpu", false, false},
      {"memory", false, false},
      {"pods", false, false},
      {"ephemeral-storage", false, false},
      {"nvidia.com/gpu", true, true},
      {"example.com/foo", true, true},
      {"hugepages-2Mi", false, true},                // native (no '/'), but hugepages
      {"attachable-volumes-aws-ebs", false, true},   // native, but an attach limit
      {"kubernetes.io/something", false, true},      // prefixed native
      {"foo.kubernetes.io/bar", false, true},        // contains kubernetes.io/: prefixed native
      {"requests.example.com/foo", false, false},    // quota form is not extended
      {"example.com/-bad-", false, false},           // "requests.example.com/-bad-" not qualified
      {"unknown", false, false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(IsExtendedResourceName(row.name) == row.extended);
    CHECK(IsScalarResourceName(row.name) == row.scalar);
  }
  CHECK(IsHugePageResourceName("hugepages-1Gi"));
  CHECK_FALSE(IsHugePageResourceName("example.com/hugepages-1Gi"));
}

TEST_CASE("FromList converts as upstream NewResource (TestNewResource)", "[framework][resource]") {
  ResourceList list{
      {"cpu", Quantity::FromScaled(4, -3)},
      {"memory", Quantity::FromInt(2000, ksched::api::QuantityFormat::kBinarySI)},
      {"pods", Quantity::FromInt(80, ksched::api::QuantityFormat::kBinarySI)},
      {"ephemeral-storage", Quantity::FromInt(5000, ksched::api::QuantityFormat::kBinarySI)},
      {"scalar.test/scalar1", Quantity::FromInt(1, ksched::api::QuantityFormat::kDecimalSI)},
      {"hugepages-test", Quantity::FromInt(2, ksched::api::QuantityFormat::kBinarySI)},
      {"storage", Q("10Gi")},  // native, not scalar: ignored
  };
  Resource expected;
  expected.milli_cpu = 4;
  expected.memory = 2000;
  expected.ephemeral_storage = 5000;
  expected.allowed_pod_number = 80;
  expected.scalars = {{"hugepages-test", 2}, {"scalar.test/scalar1", 1}};
  CHECK(Resource::FromList(list) == expected);
}

TEST_CASE("FromList rounds cpu to millis and the rest to units, upwards", "[framework][resource]") {
  ResourceList list{{"cpu", Q("1.5")}, {"memory", Q("1Gi")}, {"nvidia.com/gpu", Q("2")},
                    {"ephemeral-storage", Q("0.5")}, {"example.com/frac", Q("100m")}};
  Resource r = Resource::FromList(list);
  CHECK(r.milli_cpu == 1500);
  CHECK(r.memory == 1024 * kMi);
  CHECK(r.ephemeral_storage == 1);
  CHECK(r.Scalar("nvidia.com/gpu") == 2);
  CHECK(r.Scalar("example.com/frac") == 1);
  CHECK(r.Get("cpu") == 1500);
  CHECK(r.Get("memory") == 1024 * kMi);
  CHECK(r.Get("ephemeral-storage") == 1);
  CHECK(r.Get("pods") == 0);
  CHECK(r.Get("nvidia.com/gpu") == 2);
  CHECK(r.Get("absent.io/x") == 0);
}

TEST_CASE("scalars stay sorted and unique", "[framework][resource]") {
  Resource r;
  r.SetScalar("z.io/z", 1);
  r.SetScalar("a.io/a", 2);
  r.AddScalar("m.io/m", 3);
  r.AddScalar("a.io/a", 5);
  r.SetScalar("z.io/z", 9);
  const std::vector<std::pair<std::string, std::int64_t>> expected = {
      {"a.io/a", 7}, {"m.io/m", 3}, {"z.io/z", 9}};
  CHECK(r.scalars == expected);
  CHECK(r.Scalar("m.io/m") == 3);
  CHECK(r.Scalar("n.io/n") == 0);
}

TEST_CASE("Add, Sub, SetMax and IsZero work field by field", "[framework][resource]") {
  Resource a;
  a.milli_cpu = 100;
  a.memory = 10;
  a.ephemeral_storage = 1;
  a.allowed_pod_number = 2;
  a.scalars = {{"x.io/gpu", 1}};
  Resource b;
  b.milli_cpu = 50;
  b.memory = 30;
  b.scalars = {{"x.io/gpu", 3}, {"y.io/fpga", 2}};

  Resource sum = a;
  sum.Add(b);
  CHECK(sum.milli_cpu == 150);
  CHECK(sum.memory == 40);
  CHECK(sum.ephemeral_storage == 1);
  CHECK(sum.allowed_pod_number == 2);
  CHECK(sum.Scalar("x.io/gpu") == 4);
  CHECK(sum.Scalar("y.io/fpga") == 2);

  sum.Sub(b);
  CHECK(sum.milli_cpu == a.milli_cpu);
  CHECK(sum.Scalar("x.io/gpu") == 1);
  CHECK(sum.Scalar("y.io/fpga") == 0);  // kept with 0, as upstream's map entry

  Resource max = a;
  max.SetMax(b);
  CHECK(max.milli_cpu == 100);
  CHECK(max.memory == 30);
  CHECK(max.ephemeral_storage == 1);
  CHECK(max.Scalar("x.io/gpu") == 3);
  CHECK(max.Scalar("y.io/fpga") == 2);

  CHECK(Resource{}.IsZero());
  Resource zero_scalars;
  zero_scalars.scalars = {{"x.io/gpu", 0}};
  CHECK(zero_scalars.IsZero());
  CHECK_FALSE(a.IsZero());
}

struct RequestCase {
  const char* name;
  std::string pod;  // the pod's JSON fields after metadata
  PodRequestsOptions options;
  std::int64_t milli_cpu;
  std::int64_t memory;
  std::int64_t ephemeral_storage;
};

PodRequestsOptions Opts(bool overhead = true, bool non_zero = false, bool status = true) {
  PodRequestsOptions options;
  options.include_overhead = overhead;
  options.non_zero_defaults = non_zero;
  options.use_status_resources = status;
  return options;
}

void RunCases(const std::vector<RequestCase>& cases) {
  for (const RequestCase& c : cases) {
    CAPTURE(c.name);
    auto pod = PodFromJson(R"({"metadata": {"name": "p"}, )" + c.pod + "}");
    Resource r = PodRequests(*pod, c.options);
    CHECK(r.milli_cpu == c.milli_cpu);
    CHECK(r.memory == c.memory);
    CHECK(r.ephemeral_storage == c.ephemeral_storage);
  }
}

TEST_CASE("PodRequests: containers, init containers, sidecars and overhead (upstream cases)",
          "[framework][resource]") {
  RunCases({
      {"nil options, larger init container",
       R"("spec": {"initContainers": [{"name": "i", "resources": {"requests": {"cpu": "4"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]})",
       Opts(), 4000, 0, 0},
      {"nil options, larger containers",
       R"("spec": {"initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"}}}],
                   "containers": [{"name": "a", "resources": {"requests": {"cpu": "2"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "3"}}}]})",
       Opts(), 5000, 0, 0},
      {"pod overhead excluded",
       R"("spec": {"overhead": {"cpu": "1"},
                   "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"}}}],
                   "containers": [{"name": "a", "resources": {"requests": {"cpu": "2"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "3"}}}]})",
       Opts(false), 5000, 0, 0},
      {"pod overhead included",
       R"("spec": {"overhead": {"cpu": "1", "memory": "1Gi"},
                   "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"},
                                                                  "limits": {"cpu": "2"}}}],
                   "containers": [{"name": "a", "resources": {"requests": {"cpu": "2"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "3"}}}]})",
       Opts(), 6000, 1024 * kMi, 0},
      {"req-and-overhead (TestPodRequestsAndLimits)",
       R"("spec": {"overhead": {"cpu": "5", "memory": "5"},
                   "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "1", "memory": "10"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "10"}}}]})",
       Opts(), 6000, 15, 0},
      {"two containers with overhead, massive init: the largest init (overhead excluded)",
       R"("spec": {"overhead": {"cpu": "3", "memory": "8"},
                   "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "5"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "4", "memory": "12"}}}],
                   "initContainers": [
                     {"name": "small", "resources": {"requests": {"cpu": "1", "memory": "5"}}},
                     {"name": "big", "resources": {"requests": {"cpu": "40", "memory": "120"}}}]})",
       Opts(false), 40000, 120, 0},
      {"restartable init container",
       R"("spec": {"initContainers": [{"name": "s", "restartPolicy": "Always",
                                       "resources": {"requests": {"cpu": "1"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]})",
       Opts(), 2000, 0, 0},
      {"multiple restartable init containers: max(5, 3+2+1 + 1)",
       R"("spec": {"initContainers": [
                     {"name": "init-1", "resources": {"requests": {"cpu": "5"}}},
                     {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}},
                     {"name": "s2", "restartPolicy": "Always", "resources": {"requests": {"cpu": "2"}}},
                     {"name": "s3", "restartPolicy": "Always", "resources": {"requests": {"cpu": "3"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]})",
       Opts(), 7000, 0, 0},
      {"multiple restartable and regular init containers: init-2 needs 5 + 1 + 2",
       R"("spec": {"initContainers": [
                     {"name": "init-1", "resources": {"requests": {"cpu": "5"}}},
                     {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}},
                     {"name": "s2", "restartPolicy": "Always", "resources": {"requests": {"cpu": "2"}}},
                     {"name": "init-2", "resources": {"requests": {"cpu": "5"}}},
                     {"name": "s3", "restartPolicy": "Always", "resources": {"requests": {"cpu": "3"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]})",
       Opts(), 8000, 0, 0},
      {"restartable-init, init and regular",
       R"("spec": {"initContainers": [
                     {"name": "s1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "10"}}},
                     {"name": "init-1", "resources": {"requests": {"cpu": "200"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "100"}}}]})",
       Opts(), 210000, 0, 0},
      {"regular, init and sidecar containers (TestAggregateContainerRequestsAndLimits)",
       R"("spec": {"initContainers": [
                     {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"cpu": "8"}}},
                     {"name": "i", "resources": {"requests": {"cpu": "6"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "9"}}}]})",
       Opts(), 17000, 0, 0},
  });
}

TEST_CASE("PodRequests: pod-level requests replace the aggregate for cpu and memory (upstream cases)",
          "[framework][resource]") {
  RunCases({
      {"pod level memory only", R"("spec": {"resources": {"requests": {"memory": "2Mi"}}})",
       Opts(), 0, 2 * kMi, 0},
      {"pod level memory and container level cpu",
       R"("spec": {"resources": {"requests": {"memory": "2Mi"}},
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "2m"}}}]})",
       Opts(), 2, 2 * kMi, 0},
      {"unsupported resource set at pod level is ignored",
       R"("spec": {"resources": {"requests": {"ephemeral-storage": "2Mi"}},
                   "containers": [{"name": "c", "resources": {"requests": {"memory": "3Mi",
                                                                           "ephemeral-storage": "3Mi"}}}]})",
       Opts(), 0, 3 * kMi, 3 * kMi},
      {"both container-level and pod-level resources set",
       R"("spec": {"resources": {"requests": {"memory": "6Mi", "cpu": "8m"}},
                   "containers": [{"name": "c", "resources": {"requests": {"memory": "3Mi", "cpu": "2m"}}}]})",
       Opts(), 8, 6 * kMi, 0},
      {"container-level resources, init and sidecar container",
       R"("spec": {"containers": [{"name": "c", "resources": {"requests": {"memory": "3Mi", "cpu": "2m"}}}],
                   "initContainers": [
                     {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"memory": "5Mi", "cpu": "4m"}}},
                     {"name": "i", "resources": {"requests": {"memory": "6Mi", "cpu": "8m"}}}]})",
       Opts(), 12, 11 * kMi, 0},
      {"pod-level resources, container-level resources, init and sidecar container",
       R"("spec": {"resources": {"requests": {"memory": "15Mi", "cpu": "18m"}},
                   "containers": [{"name": "c", "resources": {"requests": {"memory": "3Mi", "cpu": "2m"}}}],
                   "initContainers": [
                     {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"memory": "5Mi", "cpu": "4m"}}},
                     {"name": "i", "resources": {"requests": {"memory": "6Mi", "cpu": "8m"}}}]})",
       Opts(), 18, 15 * kMi, 0},
      {"pod-level requests plus overhead",
       R"("spec": {"resources": {"requests": {"cpu": "1"}}, "overhead": {"cpu": "250m"},
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 1250, 0, 0},
  });
}

TEST_CASE("PodRequests: in-place resize reads container statuses (upstream cases, v1.37 rules)",
          "[framework][resource]") {
  const char* infeasible =
      R"("conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}])";
  RunCases({
      {"resized, infeasible: the status wins",
       std::string(R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "4"}}}]},
          "status": {)") + infeasible + R"(, "containerStatuses": [{"name": "c1",
              "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 2000, 0, 0},
      {"resized, infeasible and in progress: max of status and allocated",
       std::string(R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "6"}}}]},
          "status": {)") + infeasible + R"(, "containerStatuses": [{"name": "c1",
              "allocatedResources": {"cpu": "4"}, "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 4000, 0, 0},
      {"resized, no resize status: max of spec and status",
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "4"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 4000, 0, 0},
      {"resized: per-resource 3-way maximum",
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {
              "cpu": "30m", "memory": "20M", "ephemeral-storage": "10G"}}}]},
          "status": {"containerStatuses": [{"name": "c1",
              "allocatedResources": {"cpu": "20m", "memory": "10M", "ephemeral-storage": "30G"},
              "resources": {"requests": {"cpu": "10m", "memory": "30M", "ephemeral-storage": "20G"}}}]})",
       Opts(), 30, 30000000, 30000000000},
      {"resized, infeasible, but status not used",
       std::string(R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "4"}}}]},
          "status": {)") + infeasible + R"(, "containerStatuses": [{"name": "c1",
              "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(true, false, false), 4000, 0, 0},
      {"resized, restartable init container, infeasible",
       std::string(R"("spec": {"initContainers": [{"name": "r1", "restartPolicy": "Always",
              "resources": {"requests": {"cpu": "4"}}}]},
          "status": {)") + infeasible + R"(, "initContainerStatuses": [{"name": "r1",
              "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 2000, 0, 0},
      {"resized, restartable init container, no resize status",
       R"("spec": {"initContainers": [{"name": "r1", "restartPolicy": "Always",
              "resources": {"requests": {"cpu": "4"}}}]},
          "status": {"initContainerStatuses": [{"name": "r1", "resources": {"requests": {"cpu": "2"}}}]})",
       Opts(), 4000, 0, 0},
      // v1.37 (InPlacePodVerticalScalingInitContainers GA): every init container's status is
      // read (v1.34 ignored a regular init container's: 1000).
      {"a regular init container's status is read",
       R"("spec": {"initContainers": [{"name": "i1", "resources": {"requests": {"cpu": "1"}}}]},
          "status": {"initContainerStatuses": [{"name": "i1", "resources": {"requests": {"cpu": "5"}}}]})",
       Opts(), 5000, 0, 0},
      // v1.37: allocatedResources count without status resources (v1.34 required them: 1000).
      {"a status with allocatedResources only counts them",
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "allocatedResources": {"cpu": "4"}}]})",
       Opts(), 4000, 0, 0},
      // #140047: the maximum of the sums, not the sum of the maxima (v1.34: 2 + 2 = 4).
      {"aggregate request resolves max of sums instead of sum of maxes",
       R"("spec": {"containers": [{"name": "c1", "resources": {"requests": {"cpu": "1"}}},
                                  {"name": "c2", "resources": {"requests": {"cpu": "2"}}}]},
          "status": {"containerStatuses": [{"name": "c1", "allocatedResources": {"cpu": "2"}},
                                           {"name": "c2", "allocatedResources": {"cpu": "1"}}]})",
       Opts(), 3000, 0, 0},
  });
}

TEST_CASE("PodRequests sums exact quantities and rounds once", "[framework][resource]") {
  // Two containers of half a byte and half a millicore each: upstream adds Quantities, so the
  // pod asks 1 byte and 1m, not 2 and 2.
  RunCases({
      {"fractional values",
       R"("spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "0.0005", "memory": "0.5"}}},
                                  {"name": "b", "resources": {"requests": {"cpu": "0.0005", "memory": "0.5"}}}]})",
       Opts(), 1, 1, 0},
  });
}

TEST_CASE("PodRequests carries extended resources, hugepages and drops unknown names",
          "[framework][resource]") {
  auto pod = PodFromJson(R"({"metadata": {"name": "p"}, "spec": {
      "containers": [{"name": "a", "resources": {"requests": {"nvidia.com/gpu": "1", "hugepages-2Mi": "4Mi"}}},
                     {"name": "b", "resources": {"requests": {"nvidia.com/gpu": "2"}}}],
      "initContainers": [{"name": "i", "resources": {"requests": {"nvidia.com/gpu": "5"}}}]}})");
  Resource r = PodRequests(*pod);
  CHECK(r.Scalar("nvidia.com/gpu") == 5);
  CHECK(r.Scalar("hugepages-2Mi") == 4 * kMi);
  CHECK(r.scalars.size() == 2);
}

TEST_CASE("non-zero requests default cpu and memory per container lacking them",
          "[framework][resource]") {
  const PodRequestsOptions nz = Opts(true, true);
  const std::int64_t cpu = kDefaultMilliCPURequest;
  const std::int64_t mem = kDefaultMemoryRequest;
  RunCases({
      {"1x requestless container", R"("spec": {"containers": [{"name": "a"}]})", nz, cpu, mem, 0},
      {"2x requestless containers: once per container",
       R"("spec": {"containers": [{"name": "a"}, {"name": "b"}]})", nz, 2 * cpu, 2 * mem, 0},
      {"cpu only: memory defaulted",
       R"("spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "500m"}}}]})",
       nz, 500, mem, 0},
      {"1x requestless + 1x with requests",
       R"("spec": {"containers": [{"name": "a"},
          {"name": "b", "resources": {"requests": {"cpu": "500m", "memory": "500Mi"}}}]})",
       nz, 500 + cpu, 500 * kMi + mem, 0},
      {"an explicit zero is a request",
       R"("spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": "0"}}}]})",
       nz, 0, mem, 0},
      {"requestless init container and container: max of the two",
       R"("spec": {"initContainers": [{"name": "i"}], "containers": [{"name": "a"}]})",
       nz, cpu, mem, 0},
      {"sidecar and container both defaulted",
       R"("spec": {"initContainers": [{"name": "s", "restartPolicy": "Always"}], "containers": [{"name": "a"}]})",
       nz, 2 * cpu, 2 * mem, 0},
      {"overhead only (no containers)", R"("spec": {"overhead": {"cpu": "1", "memory": "1Mi"}})",
       nz, 1000, kMi, 0},
      {"overhead adds to the defaults",
       R"("spec": {"overhead": {"cpu": "1"}, "containers": [{"name": "a"}]})", nz, 1000 + cpu, mem, 0},
      {"ephemeral storage is never defaulted",
       R"("spec": {"containers": [{"name": "a", "resources": {"requests": {"ephemeral-storage": "1Gi"}}}]})",
       nz, cpu, mem, 1024 * kMi},
      {"pod-level cpu set: memory defaulted per container, cpu from the pod level",
       R"("spec": {"resources": {"requests": {"cpu": "1"}}, "containers": [{"name": "a"}, {"name": "b"}]})",
       nz, 1000, 2 * mem, 0},
      {"pod-level cpu and memory set: no defaults at all",
       R"("spec": {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}}, "containers": [{"name": "a"}]})",
       nz, 1000, 1024 * kMi, 0},
      // getNonMissingContainerRequests with pod-level requests: memory is named by one container,
      // so no container gets the memory default.
      {"pod-level cpu set, memory on one container only",
       R"("spec": {"resources": {"requests": {"cpu": "1"}},
          "containers": [{"name": "a", "resources": {"requests": {"memory": "1Gi"}}}, {"name": "b"}]})",
       nz, 1000, 1024 * kMi, 0},
  });
}

TEST_CASE("PodRequests of an empty pod is zero", "[framework][resource]") {
  auto pod = PodFromJson(R"({"metadata": {"name": "p"}})");
  CHECK(PodRequests(*pod).IsZero());
}

}  // namespace
