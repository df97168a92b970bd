// PodLimitQuantities and PodRequestQuantities (framework/resource.h) against upstream's cases
// (k8s.io/component-helpers@v0.37.2 resource/helpers_test.go): TestPodResourceLimits in full, the
// limits of TestPodRequestsAndLimits, TestPodRequestsAndLimitsWithoutOverhead and
// TestAggregateContainerRequestsAndLimits, and the pod-level resources of
// pkg/scheduler/metrics/resources resources_test.go.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "framework/resource.h"
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

// A container (JSON) named `name` with these limits (a JSON object body); `restart`: a sidecar.
std::string C(const std::string& name, const std::string& limits, bool restart = false) {
  return R"({"name": ")" + name + R"(", )" + (restart ? R"("restartPolicy": "Always", )" : "") +
         R"("resources": {"limits": {)" + limits + "}}}";
}

// A container status (JSON) whose runtime-applied resources have these limits.
std::string S(const std::string& name, const std::string& limits) {
  return R"({"name": ")" + name + R"(", "resources": {"limits": {)" + limits + "}}}";
}

struct LimitsCase {
  const char* description;
  PodLimitsOptions options;
  std::string overhead;                 // JSON object body
  std::vector<std::string> init_containers;
  std::vector<std::string> init_container_statuses;
  std::vector<std::string> containers;
  std::vector<std::string> container_statuses;
  ResourceList expected;
};

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return "[" + out + "]";
}

std::string PodJson(const LimitsCase& c) {
  return R"({"metadata": {"name": "p"}, "spec": {"overhead": {)" + c.overhead +
         R"(}, "initContainers": )" + Join(c.init_containers) +
         R"(, "containers": )" + Join(c.containers) +
         R"(}, "status": {"initContainerStatuses": )" + Join(c.init_container_statuses) +
         R"(, "containerStatuses": )" + Join(c.container_statuses) + "}}";
}

const PodLimitsOptions kDefault{};
const PodLimitsOptions kExcludeOverhead{.include_overhead = false, .use_status_resources = false};
const PodLimitsOptions kUseStatus{.include_overhead = true, .use_status_resources = true};

TEST_CASE("PodLimitQuantities: upstream TestPodResourceLimits", "[framework][resource][limits]") {
  const LimitsCase cases[] = {
      {"nil options, larger init container", kDefault, "", {C("i", R"("cpu": "4")")}, {},
       {C("c", R"("cpu": "1")")}, {}, ResourceList{{"cpu", Q("4")}}},
      {"nil options, larger containers", kDefault, "", {C("i", R"("cpu": "2")")}, {},
       {C("c1", R"("cpu": "2")"), C("c2", R"("cpu": "3")")}, {}, ResourceList{{"cpu", Q("5")}}},
      {"pod overhead excluded", kExcludeOverhead, R"("cpu": "1")", {C("i", R"("cpu": "2")")}, {},
       {C("c1", R"("cpu": "2")"), C("c2", R"("cpu": "3")")}, {}, ResourceList{{"cpu", Q("5")}}},
      // Overhead is only added to non-zero limits: no memory limit appears.
      {"pod overhead included", kDefault, R"("cpu": "1", "memory": "1Gi")",
       {C("i", R"("cpu": "2")")}, {}, {C("c1", R"("cpu": "2")"), C("c2", R"("cpu": "3")")}, {},
       ResourceList{{"cpu", Q("6")}}},
      {"no limited containers should result in no limits for the pod", kDefault, "", {}, {},
       {C("c", "")}, {}, ResourceList{}},
      {"one limited and one unlimited container", kDefault, "", {}, {},
       {C("c1", R"("cpu": "2", "memory": "2Gi")"), C("c2", "")}, {},
       ResourceList{{"cpu", Q("2")}, {"memory", Q("2Gi")}}},
      {"one limited and one unlimited init container", kDefault, "",
       {C("i1", R"("cpu": "2", "memory": "2Gi")"), C("i2", "")}, {},
       {C("c", R"("cpu": "1", "memory": "1Gi")")}, {},
       ResourceList{{"cpu", Q("2")}, {"memory", Q("2Gi")}}},
      {"restartable init container", kDefault, "", {C("restartable-init-1", R"("cpu": "1")", true)},
       {}, {C("container-1", R"("cpu": "1")")}, {}, ResourceList{{"cpu", Q("2")}}},
      // max(5, restartable init containers (3+2+1) + regular (1)) = 7
      {"multiple restartable init containers", kDefault, "",
       {C("init-1", R"("cpu": "5")"), C("restartable-init-1", R"("cpu": "1")", true),
        C("restartable-init-2", R"("cpu": "2")", true), C("restartable-init-3", R"("cpu": "3")", true)},
       {}, {C("container-1", R"("cpu": "1")")}, {}, ResourceList{{"cpu", Q("7")}}},
      // init-2 needs 5 + the restartable init containers started before it (1+2) = 8.
      {"multiple restartable and regular init containers", kDefault, "",
       {C("init-1", R"("cpu": "5")"), C("restartable-init-1", R"("cpu": "1")", true),
        C("restartable-init-2", R"("cpu": "2")", true), C("init-2", R"("cpu": "5")"),
        C("restartable-init-3", R"("cpu": "3")", true)},
       {}, {C("container-1", R"("cpu": "1")")}, {}, ResourceList{{"cpu", Q("8")}}},
      {"restartable-init, init and regular", kDefault, "",
       {C("restartable-init-1", R"("cpu": "10")", true), C("init-1", R"("cpu": "200")")}, {},
       {C("container-1", R"("cpu": "100")")}, {}, ResourceList{{"cpu", Q("210")}}},
      {"pod scaled up", kUseStatus, "", {}, {}, {C("container-1", R"("memory": "2Gi")")},
       {S("container-1", R"("memory": "1Gi")")}, ResourceList{{"memory", Q("2Gi")}}},
      {"pod scaled down", kUseStatus, "", {}, {}, {C("container-1", R"("memory": "1Gi")")},
       {S("container-1", R"("memory": "2Gi")")}, ResourceList{{"memory", Q("2Gi")}}},
      {"pod scaled down, don't use status", kDefault, "", {}, {},
       {C("container-1", R"("memory": "1Gi")")}, {S("container-1", R"("memory": "2Gi")")},
       ResourceList{{"memory", Q("1Gi")}}},
      {"pod scaled up with restartable init containers", kUseStatus, "",
       {C("restartable-init-1", R"("memory": "2Gi")", true)},
       {S("restartable-init-1", R"("memory": "1Gi")")}, {}, {}, ResourceList{{"memory", Q("2Gi")}}},
      {"pod scaled down with restartable init containers", kUseStatus, "",
       {C("restartable-init-1", R"("memory": "1Gi")", true)},
       {S("restartable-init-1", R"("memory": "2Gi")")}, {}, {}, ResourceList{{"memory", Q("2Gi")}}},
      {"pod scaled down with restartable init containers, don't use status", kDefault, "",
       {C("restartable-init-1", R"("memory": "1Gi")", true)},
       {S("restartable-init-1", R"("memory": "2Gi")")}, {}, {}, ResourceList{{"memory", Q("1Gi")}}},
  };
  for (const LimitsCase& c : cases) {
    CAPTURE(c.description);
    const ResourceList limits = PodLimitQuantities(*PodFromJson(PodJson(c)), c.options);
    CHECK(limits == c.expected);
  }
}

TEST_CASE("PodLimitQuantities: a non-restartable init container's status is read (v1.37)",
          "[framework][resource][limits]") {
  // InPlacePodVerticalScalingInitContainers is GA in v1.37: every init container's status counts
  // (v1.34 read regular containers' and sidecars' only, giving 1Gi here).
  LimitsCase c{"", kUseStatus, "", {C("init", R"("memory": "1Gi")")},
               {S("init", R"("memory": "3Gi")")}, {}, {}, ResourceList{}};
  CHECK(PodLimitQuantities(*PodFromJson(PodJson(c)), c.options) == ResourceList{{"memory", Q("3Gi")}});
}

TEST_CASE("PodLimitQuantities: an infeasible resize takes the runtime's limits alone",
          "[framework][resource][limits]") {
  const auto pod = PodFromJson(R"({"metadata": {"name": "p"},
      "spec": {"containers": [{"name": "c", "resources": {"limits": {"memory": "2Gi", "cpu": "1"}}}]},
      "status": {"conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}],
                 "containerStatuses": [{"name": "c", "resources": {"limits": {"memory": "1Gi"}}}]}})");
  CHECK(PodLimitQuantities(*pod, kUseStatus) == ResourceList{{"memory", Q("1Gi")}});
  CHECK(PodLimitQuantities(*pod) == ResourceList{{"cpu", Q("1")}, {"memory", Q("2Gi")}});
}

// upstream getPod: the same requirements on one container and one init container.
std::string GetPod(const std::string& limits, const std::string& requests, const std::string& overhead) {
  const std::string resources = R"({"limits": {)" + limits + R"(}, "requests": {)" + requests + "}}";
  return R"({"metadata": {"name": "p"}, "spec": {"overhead": {)" + overhead +
         R"(}, "containers": [{"name": "foo", "resources": )" + resources +
         R"(}], "initContainers": [{"name": "init-foo", "resources": )" + resources + "}]}}";
}

TEST_CASE("PodRequestQuantities and PodLimitQuantities: upstream TestPodRequestsAndLimits",
          "[framework][resource][limits]") {
  struct Row {
    const char* name;
    std::string pod;
    ResourceList requests;
    ResourceList limits;
  };
  const Row rows[] = {
      {"just-limit-no-overhead", GetPod(R"("cpu": "9")", "", ""), ResourceList{},
       ResourceList{{"cpu", Q("9")}}},
      {"just-overhead", GetPod("", "", R"("cpu": "5", "memory": "5")"),
       ResourceList{{"cpu", Q("5")}, {"memory", Q("5")}}, ResourceList{}},
      {"req-and-overhead", GetPod("", R"("cpu": "1", "memory": "10")", R"("cpu": "5", "memory": "5")"),
       ResourceList{{"cpu", Q("6")}, {"memory", Q("15")}}, ResourceList{}},
      {"all-req-lim-and-overhead",
       GetPod(R"("cpu": "2", "memory": "12")", R"("cpu": "1", "memory": "10")", R"("cpu": "5", "memory": "5")"),
       ResourceList{{"cpu", Q("6")}, {"memory", Q("15")}}, ResourceList{{"cpu", Q("7")}, {"memory", Q("17")}}},
      {"req-some-lim-and-overhead",
       GetPod(R"("cpu": "2")", R"("cpu": "1", "memory": "10")", R"("cpu": "5", "memory": "5")"),
       ResourceList{{"cpu", Q("6")}, {"memory", Q("15")}}, ResourceList{{"cpu", Q("7")}}},
  };
  const PodRequestsOptions upstream_defaults{
      .include_overhead = true, .non_zero_defaults = false, .use_status_resources = false};
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto pod = PodFromJson(row.pod);
    CHECK(PodRequestQuantities(*pod, upstream_defaults) == row.requests);
    CHECK(PodLimitQuantities(*pod) == row.limits);
  }
}

TEST_CASE("PodLimitQuantities: upstream TestPodRequestsAndLimitsWithoutOverhead",
          "[framework][resource][limits]") {
  const std::string c1 =
      R"({"name": "foobar", "resources": {"requests": {"cpu": "1", "memory": "5"}, "limits": {"cpu": "2", "memory": "10"}}})";
  const std::string c2 =
      R"({"name": "foobar2", "resources": {"requests": {"cpu": "4", "memory": "12"}, "limits": {"cpu": "8", "memory": "24"}}})";
  const std::string inits =
      R"([{"name": "small-init", "resources": {"requests": {"cpu": "1", "memory": "5"}, "limits": {"cpu": "1", "memory": "5"}}},
          {"name": "big-init", "resources": {"requests": {"cpu": "40", "memory": "120"}, "limits": {"cpu": "80", "memory": "240"}}}])";
  const std::string overhead = R"("overhead": {"cpu": "3", "memory": "8"}, )";
  struct Row {
    const char* name;
    std::string spec;
    ResourceList limits;
  };
  const Row rows[] = {
      {"two container no overhead", R"("containers": [)" + c1 + ", " + c2 + "]",
       ResourceList{{"cpu", Q("10")}, {"memory", Q("34")}}},
      {"two container with overhead", overhead + R"("containers": [)" + c1 + ", " + c2 + "]",
       ResourceList{{"cpu", Q("10")}, {"memory", Q("34")}}},
      {"massive init", overhead + R"("containers": [)" + c1 + ", " + c2 + R"(], "initContainers": )" + inits,
       ResourceList{{"cpu", Q("80")}, {"memory", Q("240")}}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto pod = PodFromJson(R"({"metadata": {"name": "p"}, "spec": {)" + row.spec + "}}");
    CHECK(PodLimitQuantities(*pod, kExcludeOverhead) == row.limits);
  }
}

TEST_CASE("PodLimitQuantities: upstream TestAggregateContainerRequestsAndLimits (limits)",
          "[framework][resource][limits]") {
  struct Row {
    const char* name;
    std::string spec;
    PodLimitsOptions options;
    ResourceList limits;
  };
  const Row rows[] = {
      {"one container with limits", R"("containers": [)" + C("a", R"("cpu": "9")") + "]", kDefault,
       ResourceList{{"cpu", Q("9")}}},
      {"two containers with limits",
       R"("containers": [)" + C("a", R"("cpu": "9")") + ", " + C("b", R"("cpu": "9")") + "]", kDefault,
       ResourceList{{"cpu", Q("18")}}},
      {"one container with requests",
       R"("containers": [{"name": "a", "resources": {"requests": {"cpu": "9"}}}])", kDefault, ResourceList{}},
      {"regular and init containers with limits",
       R"("containers": [)" + C("a", R"("cpu": "9")") + R"(], "initContainers": [)" +
           C("i", R"("cpu": "9")") + "]",
       kDefault, ResourceList{{"cpu", Q("9")}}},
      {"regular, init and sidecar containers with limits",
       R"("containers": [)" + C("a", R"("cpu": "9")") + R"(], "initContainers": [)" +
           C("s", R"("cpu": "8")", true) + ", " + C("i", R"("cpu": "6")") + "]",
       kDefault, ResourceList{{"cpu", Q("17")}}},
      {"regular containers with empty requests, but status with non-empty requests",
       R"("containers": [{"name": "container-1"}])", kUseStatus, ResourceList{}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto pod = PodFromJson(R"({"metadata": {"name": "p"}, "spec": {)" + row.spec + "}}");
    CHECK(PodLimitQuantities(*pod, row.options) == row.limits);
  }
}

TEST_CASE("PodLimitQuantities: pod-level limits (resources_test.go)", "[framework][resource][limits]") {
  struct Row {
    const char* name;
    std::string spec;
    ResourceList limits;
  };
  const Row rows[] = {
      {"pod level resources",
       R"("resources": {"requests": {"cpu": "4", "memory": "8G"}, "limits": {"cpu": "4", "memory": "8G"}},
          "containers": [{"name": "a", "resources": {"requests": {"cpu": "2", "memory": "4G"}, "limits": {"cpu": "2", "memory": "4G"}}},
                         {"name": "b", "resources": {"requests": {"cpu": "0", "memory": "0"}, "limits": {"cpu": "0", "memory": "0"}}}])",
       ResourceList{{"cpu", Q("4")}, {"memory", Q("8G")}}},
      // Unsupported at pod level: the containers' limits count.
      {"pod level resources with unsupported resource type",
       R"("resources": {"requests": {"custom": "2"}, "limits": {"custom": "2"}},
          "containers": [{"name": "a", "resources": {"requests": {"custom": "1"}, "limits": {"custom": "1"}}}])",
       ResourceList{{"custom", Q("1")}}},
      // Pod-level requests only: the containers' limits are summed.
      {"pod level resources with aggregated container limits",
       R"("resources": {"requests": {"cpu": "2", "memory": "4G"}},
          "containers": [{"name": "a", "resources": {"limits": {"cpu": "1", "memory": "2G"}}},
                         {"name": "b", "resources": {"limits": {"cpu": "2", "memory": "3G"}}}])",
       ResourceList{{"cpu", Q("3")}, {"memory", Q("5G")}}},
      {"pod level resources with missing requests",
       R"("resources": {"limits": {"cpu": "2", "memory": "4G"}},
          "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "2G"}, "limits": {"cpu": "1", "memory": "2G"}}}])",
       ResourceList{{"cpu", Q("2")}, {"memory", Q("4G")}}},
      // Hugepages are a supported pod-level resource; overhead adds to the pod-level limit.
      {"pod level hugepages and overhead",
       R"("overhead": {"hugepages-2Mi": "2Mi"}, "resources": {"limits": {"hugepages-2Mi": "4Mi"}},
          "containers": [{"name": "a", "resources": {"limits": {"hugepages-2Mi": "2Mi"}}}])",
       ResourceList{{"hugepages-2Mi", Q("6Mi")}}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto pod = PodFromJson(R"({"metadata": {"name": "p"}, "spec": {)" + row.spec + "}}");
    CHECK(PodLimitQuantities(*pod) == row.limits);
  }
}

}  // namespace
