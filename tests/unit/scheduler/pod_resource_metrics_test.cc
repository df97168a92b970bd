// PodResourceMetricsText (scheduler/metrics/pod_resource_metrics.h) against upstream's
// pkg/scheduler/metrics/resources resources_test.go (v1.34.4): Test_podResourceCollector_Handler
// and every case of Test_podResourceCollector_CollectWithStability, expected texts verbatim
// (upstream's GatherAndCompare ignores leading whitespace; the texts here have none). Plus the
// ordering, escaping and sidecar cases upstream does not cover.
#include "scheduler/metrics/pod_resource_metrics.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "api/json_decode.h"

namespace {

using ksched::scheduler::metrics::PodResourceMetricsText;
using Pods = std::vector<std::shared_ptr<const ksched::api::Pod>>;

// A pod from JSON. Upstream's test pods have no schedulerName; the decoder would default it, so
// it is cleared when the JSON does not name one.
std::shared_ptr<const ksched::api::Pod> P(const std::string& json) {
  absl::StatusOr<ksched::api::Pod> pod = ksched::api::DecodePod(json);
  INFO(json);
  REQUIRE(pod.ok());
  if (json.find("schedulerName") == std::string::npos) pod->spec.scheduler_name = {};
  return std::make_shared<const ksched::api::Pod>(*std::move(pod));
}

constexpr const char* kLimitHeader =
    "# HELP kube_pod_resource_limit [STABLE] Resources limit for workloads on the cluster, broken "
    "down by pod. This shows the resource usage the scheduler and kubelet expect per pod for "
    "resources along with the unit for the resource if any.\n"
    "# TYPE kube_pod_resource_limit gauge\n";
constexpr const char* kRequestHeader =
    "# HELP kube_pod_resource_request [STABLE] Resources requested by workloads on the cluster, "
    "broken down by pod. This shows the resource usage the scheduler and kubelet expect per pod for "
    "resources along with the unit for the resource if any.\n"
    "# TYPE kube_pod_resource_request gauge\n";

// Init container {cpu 2, custom 3 | memory 1G, custom 5}, container {cpu 1, custom 0 | memory
// <memory>, custom 6}, on node-one.
std::string InitAndRegular(const std::string& memory, const std::string& status) {
  return R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"nodeName": "node-one",
      "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2", "custom": "3"},
                                                     "limits": {"memory": "1G", "custom": "5"}}}],
      "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "custom": "0"},
                                                 "limits": {"memory": ")" +
         memory + R"(", "custom": "6"}}}]}, "status": )" + status + "}";
}

TEST_CASE("pod resource metrics: upstream Test_podResourceCollector_Handler", "[scheduler][metrics][resources]") {
  const Pods pods = {P(InitAndRegular("2.5Gi", R"({"conditions": [{"type": "Initialized", "status": "True"}]})"))};
  CHECK(PodResourceMetricsText(pods) ==
        std::string(kLimitHeader) +
            R"(kube_pod_resource_limit{namespace="test",node="node-one",pod="foo",priority="",resource="custom",scheduler="",unit=""} 6
kube_pod_resource_limit{namespace="test",node="node-one",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 2.68435456e+09
)" + kRequestHeader +
            R"(kube_pod_resource_request{namespace="test",node="node-one",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 2
kube_pod_resource_request{namespace="test",node="node-one",pod="foo",priority="",resource="custom",scheduler="",unit=""} 3
)");
}

TEST_CASE("pod resource metrics: upstream Test_podResourceCollector_CollectWithStability",
          "[scheduler][metrics][resources]") {
  const std::string cpu1 = R"([{"name": "c", "resources": {"requests": {"cpu": "1"}}}])";
  const std::string zeros = R"({"cpu": "0", "custom": "0", "test.com/custom-metric": "0"})";
  const std::string init_and_regular_limits =
      std::string(kLimitHeader) +
      R"(kube_pod_resource_limit{namespace="test",node="node-one",pod="foo",priority="",resource="custom",scheduler="",unit=""} 6
kube_pod_resource_limit{namespace="test",node="node-one",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 2e+09
)" + kRequestHeader +
      R"(kube_pod_resource_request{namespace="test",node="node-one",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 2
kube_pod_resource_request{namespace="test",node="node-one",pod="foo",priority="",resource="custom",scheduler="",unit=""} 3
)";
  struct Case {
    const char* name;
    Pods pods;
    std::string expected;
  };
  const Case cases[] = {
      {"no pods", {}, ""},
      {"no containers", {P(R"({"metadata": {"namespace": "test", "name": "foo"}})")}, ""},
      {"no resources",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"initContainers": [], "containers": []}})")},
       ""},
      {"request only",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"containers": )" + cpu1 + "}}")},
       std::string(kRequestHeader) +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 1
)"},
      {"limits only",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"},
              "spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "1"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 1
)"},
      {"terminal pods are excluded",
       {
           // Until the node name is set, the phase is ignored.
           P(R"({"metadata": {"namespace": "test", "name": "foo-unscheduled-succeeded"},
                 "spec": {"containers": )" + cpu1 + R"(}, "status": {"phase": "Succeeded"}})"),
           P(R"({"metadata": {"namespace": "test", "name": "foo-succeeded"},
                 "spec": {"nodeName": "node-one", "containers": )" + cpu1 + R"(}, "status": {"phase": "Succeeded"}})"),
           P(R"({"metadata": {"namespace": "test", "name": "foo-failed"},
                 "spec": {"nodeName": "node-one", "containers": )" + cpu1 + R"(}, "status": {"phase": "Failed"}})"),
           P(R"({"metadata": {"namespace": "test", "name": "foo-unknown"},
                 "spec": {"nodeName": "node-one", "containers": )" + cpu1 + R"(}, "status": {"phase": "Unknown"}})"),
           P(R"({"metadata": {"namespace": "test", "name": "foo-pending"},
                 "spec": {"nodeName": "node-one", "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "1"}}}],
                          "containers": )" + cpu1 + R"(},
                 "status": {"phase": "Pending", "conditions": [{"type": "ArbitraryCondition", "status": "True"}]}})"),
       },
       std::string(kRequestHeader) +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo-unscheduled-succeeded",priority="",resource="cpu",scheduler="",unit="cores"} 1
kube_pod_resource_request{namespace="test",node="node-one",pod="foo-pending",priority="",resource="cpu",scheduler="",unit="cores"} 1
kube_pod_resource_request{namespace="test",node="node-one",pod="foo-unknown",priority="",resource="cpu",scheduler="",unit="cores"} 1
)"},
      {"zero resource should be excluded",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "initContainers": [{"name": "i", "resources": {"requests": )" + zeros + R"(, "limits": )" + zeros + R"(}}],
              "containers": [{"name": "c", "resources": {"requests": )" + zeros + R"(, "limits": )" + zeros + "}}]}}")},
       ""},
      {"optional field labels",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"schedulerName": "default-scheduler",
              "priority": 0, "nodeName": "node-one", "containers": )" + cpu1 + "}}")},
       std::string(kRequestHeader) +
           R"(kube_pod_resource_request{namespace="test",node="node-one",pod="foo",priority="0",resource="cpu",scheduler="default-scheduler",unit="cores"} 1
)"},
      {"init containers and regular containers when initialized",
       {P(InitAndRegular("2G", R"({"conditions": [{"type": "Initialized", "status": "True"}]})"))},
       init_and_regular_limits},
      {"init containers and regular containers when initializing",
       {P(InitAndRegular("2G", R"({"conditions": [{"type": "AnotherCondition", "status": "Unknown"},
                                                  {"type": "Initialized", "status": "False"}]})"))},
       init_and_regular_limits},
      {"aggregate container requests and limits",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"containers": [
              {"name": "a", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}},
              {"name": "b", "resources": {"requests": {"memory": "1G"}, "limits": {"memory": "2G"}}},
              {"name": "c", "resources": {"requests": {"cpu": "0.5"}, "limits": {"cpu": "1.25"}}},
              {"name": "d", "resources": {"limits": {"memory": "2G"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 3.25
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 4e+09
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 1.5
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 1e+09
)"},
      {"overhead added to requests and limits",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "overhead": {"cpu": "0.25", "memory": "0.75G", "custom": "0.5"},
              "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2", "custom": "3"},
                                                             "limits": {"memory": "1G", "custom": "5"}}}],
              "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "custom": "0"},
                                                         "limits": {"memory": "2G", "custom": "6"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="custom",scheduler="",unit=""} 6.5
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 2.75e+09
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 2.25
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="custom",scheduler="",unit=""} 3.5
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 7.5e+08
)"},
      {"units for standard resources",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {"containers": [{"name": "c", "resources": {
              "requests": {"storage": "5", "ephemeral-storage": "6"},
              "limits": {"hugepages-x": "1", "hugepages-": "2", "attachable-volumes-aws": "3", "attachable-volumes-": "4"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="attachable-volumes-",scheduler="",unit="integer"} 4
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="attachable-volumes-aws",scheduler="",unit="integer"} 3
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="hugepages-",scheduler="",unit="bytes"} 2
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="hugepages-x",scheduler="",unit="bytes"} 1
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="ephemeral-storage",scheduler="",unit="bytes"} 6
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="storage",scheduler="",unit="bytes"} 5
)"},
      {"pod level resources",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "resources": {"requests": {"cpu": "4", "memory": "8G"}, "limits": {"cpu": "4", "memory": "8G"}},
              "containers": [{"name": "a", "resources": {"requests": {"cpu": "2", "memory": "4G"}, "limits": {"cpu": "2", "memory": "4G"}}},
                             {"name": "b", "resources": {"requests": {"cpu": "0", "memory": "0"}, "limits": {"cpu": "0", "memory": "0"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 4
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 8e+09
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 4
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 8e+09
)"},
      {"pod level resources with unsupported resource type",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "resources": {"requests": {"custom": "2"}, "limits": {"custom": "2"}},
              "containers": [{"name": "a", "resources": {"requests": {"custom": "1"}, "limits": {"custom": "1"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="custom",scheduler="",unit=""} 1
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="custom",scheduler="",unit=""} 1
)"},
      {"pod level resources with aggregated container limits",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "resources": {"requests": {"cpu": "2", "memory": "4G"}},
              "containers": [{"name": "a", "resources": {"limits": {"cpu": "1", "memory": "2G"}}},
                             {"name": "b", "resources": {"limits": {"cpu": "2", "memory": "3G"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 3
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 5e+09
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 2
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 4e+09
)"},
      {"pod level resources with missing requests",
       {P(R"({"metadata": {"namespace": "test", "name": "foo"}, "spec": {
              "resources": {"limits": {"cpu": "2", "memory": "4G"}},
              "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "2G"}, "limits": {"cpu": "1", "memory": "2G"}}}]}})")},
       std::string(kLimitHeader) +
           R"(kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 2
kube_pod_resource_limit{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 4e+09
)" + kRequestHeader +
           R"(kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="cpu",scheduler="",unit="cores"} 1
kube_pod_resource_request{namespace="test",node="",pod="foo",priority="",resource="memory",scheduler="",unit="bytes"} 2e+09
)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(PodResourceMetricsText(c.pods) == c.expected);
  }
}

TEST_CASE("pod resource metrics: series sorted by label values, as client_golang gathers them",
          "[scheduler][metrics][resources]") {
  // Given out of order: namespace first, then node ("" first), then pod name, then resource.
  const auto pod = [](const std::string& ns, const std::string& name, const std::string& node) {
    return P(R"({"metadata": {"namespace": ")" + ns + R"(", "name": ")" + name + R"("}, "spec": {"nodeName": ")" +
             node + R"(", "priority": -5, "schedulerName": "other", "containers": [
                {"name": "c", "resources": {"requests": {"memory": "1Ki", "cpu": "100m"}}}]}})");
  };
  const Pods pods = {pod("b", "p1", ""), pod("a", "z", "n1"), pod("a", "y", "n2"), pod("a", "x", "")};
  const std::string expected = std::string(kRequestHeader) +
      R"(kube_pod_resource_request{namespace="a",node="",pod="x",priority="-5",resource="cpu",scheduler="other",unit="cores"} 0.1
kube_pod_resource_request{namespace="a",node="",pod="x",priority="-5",resource="memory",scheduler="other",unit="bytes"} 1024
kube_pod_resource_request{namespace="a",node="n1",pod="z",priority="-5",resource="cpu",scheduler="other",unit="cores"} 0.1
kube_pod_resource_request{namespace="a",node="n1",pod="z",priority="-5",resource="memory",scheduler="other",unit="bytes"} 1024
kube_pod_resource_request{namespace="a",node="n2",pod="y",priority="-5",resource="cpu",scheduler="other",unit="cores"} 0.1
kube_pod_resource_request{namespace="a",node="n2",pod="y",priority="-5",resource="memory",scheduler="other",unit="bytes"} 1024
kube_pod_resource_request{namespace="b",node="",pod="p1",priority="-5",resource="cpu",scheduler="other",unit="cores"} 0.1
kube_pod_resource_request{namespace="b",node="",pod="p1",priority="-5",resource="memory",scheduler="other",unit="bytes"} 1024
)";
  CHECK(PodResourceMetricsText(pods) == expected);
}

TEST_CASE("pod resource metrics: sidecars accumulate, container statuses are not read",
          "[scheduler][metrics][resources]") {
  // Requests: max(containers 1 + sidecar 1, init 3 + sidecar 1 started before it) = 4; the
  // status's larger requests (an in-place resize) do not count, as upstream's collector passes no
  // UseStatusResources. Limits: 2 + 2 sidecar = 4 vs init 1 + 2 = 3, plus overhead 0.5.
  const Pods pods = {P(R"({"metadata": {"namespace": "ns", "name": "side"}, "spec": {"nodeName": "n",
      "schedulerName": "default-scheduler", "priority": 1000, "overhead": {"cpu": "500m"},
      "initContainers": [
        {"name": "sidecar", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}},
        {"name": "init", "resources": {"requests": {"cpu": "3"}, "limits": {"cpu": "1"}}}],
      "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}]},
      "status": {"phase": "Running", "containerStatuses": [{"name": "c", "resources": {"requests": {"cpu": "7"}}}]}})")};
  CHECK(PodResourceMetricsText(pods) ==
        std::string(kLimitHeader) +
            R"(kube_pod_resource_limit{namespace="ns",node="n",pod="side",priority="1000",resource="cpu",scheduler="default-scheduler",unit="cores"} 4.5
)" + kRequestHeader +
            R"(kube_pod_resource_request{namespace="ns",node="n",pod="side",priority="1000",resource="cpu",scheduler="default-scheduler",unit="cores"} 4.5
)");
}

}  // namespace
