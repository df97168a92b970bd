// Node and NodeList decoding (api/json_decode.h). The JSON is what a v1.34 API server returns for
// scheduler_perf's templates/node-default.yaml and for a kubelet-registered node; expected values
// are read off the JSON by hand.
#include <catch2/catch.hpp>

#include "decode_test_support.h"
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_decode.h"
#include "api/node.h"
#include "api/quantity.h"

namespace {

using ksched::api::testing::At;
using ksched::api::testing::Q;

using ksched::api::ContainerImage;
using ksched::api::DecodeList;
using ksched::api::DecodeNode;
using ksched::api::DecodeNodeInSitu;
using ksched::api::Labels;
using ksched::api::Node;
using ksched::api::NodeCondition;
using ksched::api::Quantity;
using ksched::api::ResourceList;
using ksched::api::Taint;
using ksched::api::Time;



std::string ErrorOf(std::string_view json) {
  auto node = DecodeNode(json);
  if (node.ok()) return "<ok>";
  CHECK(node.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(node.status().message());
}

// scheduler_perf's templates/node-default.yaml after creation: generateName resolved, allocatable
// defaulted from capacity, zero condition times written as null.
constexpr std::string_view kSchedulerPerfNode = R"json({
  "kind": "Node",
  "apiVersion": "v1",
  "metadata": {
    "name": "scheduler-perf-6xk2p",
    "generateName": "scheduler-perf-",
    "uid": "c1d2e3f4-0000-4000-8000-000000000001",
    "resourceVersion": "1021",
    "creationTimestamp": "2025-06-01T10:00:00Z",
    "managedFields": [
      {"manager": "scheduler_perf", "operation": "Update", "apiVersion": "v1",
       "time": "2025-06-01T10:00:00Z", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:metadata": {"f:generateName": {}}}}
    ]
  },
  "spec": {},
  "status": {
    "capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"},
    "allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"},
    "conditions": [
      {"type": "Ready", "status": "True", "lastHeartbeatTime": null, "lastTransitionTime": null}
    ],
    "phase": "Running",
    "daemonEndpoints": {"kubeletEndpoint": {"Port": 0}},
    "nodeInfo": {"machineID": "", "systemUUID": "", "bootID": "", "kernelVersion": "",
                 "osImage": "", "containerRuntimeVersion": "", "kubeletVersion": "",
                 "kubeProxyVersion": "", "operatingSystem": "", "architecture": ""}
  }
})json";

TEST_CASE("DecodeNode: a scheduler_perf node", "[api][json]") {
  auto node = DecodeNode(kSchedulerPerfNode);
  REQUIRE(node.ok());
  CHECK(node->metadata.name == "scheduler-perf-6xk2p");
  CHECK(node->metadata.namespace_.empty());
  CHECK(node->metadata.uid == "c1d2e3f4-0000-4000-8000-000000000001");
  CHECK(node->metadata.resource_version == "1021");
  CHECK(node->metadata.creation_timestamp == At(2025, 6, 1, 10, 0, 0));
  CHECK(node->metadata.labels.empty());
  CHECK_FALSE(node->spec.unschedulable);
  CHECK(node->spec.taints.empty());
  CHECK(node->status.capacity.size() == 3);
  CHECK(Q(node->status.capacity, "cpu") == "4");
  CHECK(Q(node->status.capacity, "memory") == "32Gi");
  CHECK(Q(node->status.capacity, "pods") == "110");
  CHECK(node->status.allocatable == node->status.capacity);
  CHECK(node->status.allocatable.Get("cpu")->MilliValue() == 4000);
  CHECK(node->status.allocatable.Get("memory")->Value() == 32LL << 30);
  CHECK(node->status.allocatable.Get("pods")->Value() == 110);
  CHECK(node->status.conditions == std::vector<NodeCondition>{{"Ready", "True"}});
  CHECK(node->status.images.empty());
}

TEST_CASE("DecodeNode: a kubelet-registered node", "[api][json]") {
  constexpr std::string_view kKubeletNode = R"json({
    "kind": "Node",
    "apiVersion": "v1",
    "metadata": {
      "name": "worker-3",
      "uid": "7e0b6f55-9d7c-4a8a-9f0e-3c0b9b2f6d11",
      "resourceVersion": "884213",
      "creationTimestamp": "2025-03-14T09:26:53Z",
      "labels": {
        "beta.kubernetes.io/arch": "amd64",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": "worker-3",
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "m5.xlarge",
        "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": "us-east-1b"
      },
      "annotations": {
        "node.alpha.kubernetes.io/ttl": "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true"
      }
    },
    "spec": {
      "podCIDR": "10.244.3.0/24",
      "podCIDRs": ["10.244.3.0/24"],
      "providerID": "aws:///us-east-1b/i-0123456789abcdef0",
      "unschedulable": true,
      "taints": [
        {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
         "timeAdded": "2025-06-01T08:15:00Z"},
        {"key": "node.kubernetes.io/not-ready", "effect": "NoExecute",
         "timeAdded": "2025-06-01T08:16:30Z"},
        {"key": "dedicated", "value": "gpu", "effect": "PreferNoSchedule"}
      ]
    },
    "status": {
      "capacity": {
        "cpu": "4",
        "ephemeral-storage": "101430960Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "16318328Ki",
        "nvidia.com/gpu": "1",
        "pods": "110"
      },
      "allocatable": {
        "cpu": "3920m",
        "ephemeral-storage": "93478772582",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "15167352Ki",
        "nvidia.com/gpu": "1",
        "pods": "110"
      },
      "conditions": [
        {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2025-06-01T08:20:00Z",
         "lastTransitionTime": "2025-03-14T09:26:53Z", "reason": "KubeletHasSufficientMemory",
         "message": "kubelet has sufficient memory available"},
        {"type": "DiskPressure", "status": "False", "lastHeartbeatTime": "2025-06-01T08:20:00Z",
         "lastTransitionTime": "2025-03-14T09:26:53Z", "reason": "KubeletHasNoDiskPressure",
         "message": "kubelet has no disk pressure"},
        {"type": "PIDPressure", "status": "False", "lastHeartbeatTime": "2025-06-01T08:20:00Z",
         "lastTransitionTime": "2025-03-14T09:26:53Z", "reason": "KubeletHasSufficientPID",
         "message": "kubelet has sufficient PID available"},
        {"type": "Ready", "status": "Unknown", "lastHeartbeatTime": "2025-06-01T08:15:00Z",
         "lastTransitionTime": "2025-06-01T08:16:30Z", "reason": "NodeStatusUnknown",
         "message": "Kubelet stopped posting node status."}
      ],
      "addresses": [
        {"type": "InternalIP", "address": "10.0.3.17"},
        {"type": "Hostname", "address": "worker-3"}
      ],
      "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
      "nodeInfo": {"kubeletVersion": "v1.34.4", "operatingSystem": "linux", "architecture": "amd64"},
      "images": [
        {"names": ["registry.k8s.io/etcd@sha256:0123abcd", "registry.k8s.io/etcd:3.6.4-0"],
         "sizeBytes": 74311308},
        {"names": ["docker.io/library/nginx:1.27"], "sizeBytes": 72195292},
        {"names": ["registry.k8s.io/pause:3.10"], "sizeBytes": 320368}
      ],
      "volumesAttached": [{"name": "kubernetes.io/csi/ebs.csi.aws.com^vol-1", "devicePath": ""}],
      "volumesInUse": ["kubernetes.io/csi/ebs.csi.aws.com^vol-1"]
    }
  })json";
  auto node = DecodeNode(kKubeletNode);
  REQUIRE(node.ok());
  const auto& m = node->metadata;
  CHECK(m.name == "worker-3");
  CHECK(m.labels.size() == 7);
  CHECK(m.labels.Get("topology.kubernetes.io/zone") == std::string_view("us-east-1b"));
  CHECK(m.labels.Get("kubernetes.io/hostname") == std::string_view("worker-3"));
  CHECK(m.annotations == Labels{{"node.alpha.kubernetes.io/ttl", "0"},
                                {"volumes.kubernetes.io/controller-managed-attach-detach", "true"}});
  CHECK(m.creation_timestamp == At(2025, 3, 14, 9, 26, 53));

  CHECK(node->spec.unschedulable);
  REQUIRE(node->spec.taints.size() == 3);
  CHECK(node->spec.taints[0] ==
        Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule", At(2025, 6, 1, 8, 15, 0)});
  CHECK(node->spec.taints[1] ==
        Taint{"node.kubernetes.io/not-ready", "", "NoExecute", At(2025, 6, 1, 8, 16, 30)});
  CHECK(node->spec.taints[2] == Taint{"dedicated", "gpu", "PreferNoSchedule", std::nullopt});

  const auto& capacity = node->status.capacity;
  CHECK(capacity.size() == 7);
  CHECK(Q(capacity, "memory") == "16318328Ki");
  CHECK(capacity.Get("ephemeral-storage")->Value() == 101430960LL * 1024);
  CHECK(capacity.Get("hugepages-2Mi")->IsZero());
  const auto& allocatable = node->status.allocatable;
  CHECK(allocatable.size() == 7);
  CHECK(allocatable.Get("cpu")->MilliValue() == 3920);
  CHECK(allocatable.Get("ephemeral-storage")->Value() == 93478772582LL);
  CHECK(allocatable.Get("memory")->Value() == 15167352LL * 1024);
  CHECK(allocatable.Get("nvidia.com/gpu")->Value() == 1);
  CHECK(allocatable.Get("pods")->Value() == 110);
  CHECK_FALSE(allocatable == capacity);

  CHECK(node->status.conditions == std::vector<NodeCondition>{{"MemoryPressure", "False"},
                                                              {"DiskPressure", "False"},
                                                              {"PIDPressure", "False"},
                                                              {"Ready", "Unknown"}});
  REQUIRE(node->status.images.size() == 3);
  CHECK(node->status.images[0] ==
        ContainerImage{{"registry.k8s.io/etcd@sha256:0123abcd", "registry.k8s.io/etcd:3.6.4-0"},
                       74311308});
  CHECK(node->status.images[1] == ContainerImage{{"docker.io/library/nginx:1.27"}, 72195292});
  CHECK(node->status.images[2] == ContainerImage{{"registry.k8s.io/pause:3.10"}, 320368});

  std::string buffer(kKubeletNode);
  auto in_situ = DecodeNodeInSitu(buffer);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *node);
}

TEST_CASE("DecodeNode: allocatable is not defaulted from capacity", "[api][json]") {
  auto node = DecodeNode(R"({"metadata":{"name":"n"},"status":{"capacity":{"cpu":"2"}}})");
  REQUIRE(node.ok());
  CHECK(Q(node->status.capacity, "cpu") == "2");
  CHECK(node->status.allocatable.empty());
}

TEST_CASE("DecodeNode: status.declaredFeatures (NodeDeclaredFeatures)", "[api][json]") {
  auto node = DecodeNode(
      R"({"metadata":{"name":"n"},"status":{"declaredFeatures":["RestartAllContainersOnContainerExits","VolumeBindMountOptions"]}})");
  REQUIRE(node.ok());
  CHECK(node->status.declared_features ==
        std::vector<std::string>{"RestartAllContainersOnContainerExits", "VolumeBindMountOptions"});
  auto none = DecodeNode(R"({"metadata":{"name":"n"},"status":{}})");
  REQUIRE(none.ok());
  CHECK(none->status.declared_features.empty());
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"declaredFeatures":"A"}})") ==
        "status.declaredFeatures: expected an array, got string");
}

TEST_CASE("DecodeNode: errors name the field's path", "[api][json]") {
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"capacity":{"cpu":"4","memory":"32Gx"}}})") ==
        "status.capacity[\"memory\"]: cannot parse '32Gx': " +
            std::string(ksched::api::kQuantityErrFormatWrong));
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"allocatable":{"pods":[110]}}})") ==
        "status.allocatable[\"pods\"]: expected a quantity string, got array");
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"spec":{"taints":[{"key":"a","effect":"NoExecute","timeAdded":"2025-02-29T00:00:00Z"}]}})") ==
        "spec.taints[0].timeAdded: cannot parse time \"2025-02-29T00:00:00Z\": day out of range");
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"spec":{"unschedulable":1}})") ==
        "spec.unschedulable: expected a bool, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"images":[{"names":["a"],"sizeBytes":"12"}]}})") ==
        "status.images[0].sizeBytes: expected an integer, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"images":[{"names":["a"],"sizeBytes":1e30}]}})") ==
        "status.images[0].sizeBytes: number 1e+30 out of range for int64");
  CHECK(ErrorOf(R"({"metadata":{"name":"n"},"status":{"conditions":[{"type":"Ready","status":true}]}})") ==
        "status.conditions[0].status: expected a string, got bool");
  CHECK(ErrorOf(R"({"metadata":{"name":"n","annotations":{"a":{}}}})") ==
        "metadata.annotations[\"a\"]: expected a string, got object");
  CHECK(ErrorOf(R"({"metadata":{"name":"n","ownerReferences":[{"controller":"yes"}]}})") ==
        "metadata.ownerReferences[0].controller: expected a bool, got string");
  CHECK(ErrorOf(R"({"kind":"Node","metadata":{"generateName":"scheduler-perf-"}})") ==
        "metadata.name: required field is missing or empty");
  CHECK(ErrorOf(R"({"kind":"Pod","metadata":{"name":"n"}})") ==
        "kind: expected \"Node\", got \"Pod\"");
  CHECK(ErrorOf("{\"metadata\":{\"name\":\"n\"}").rfind("invalid JSON at offset 24: ", 0) == 0);
}

TEST_CASE("DecodeList<Node>: a page with a continue token", "[api][json]") {
  auto list = DecodeList<Node>(R"json({
    "kind": "NodeList",
    "apiVersion": "v1",
    "metadata": {"resourceVersion": "2048", "continue": "eyJydiI6MjA0OCwic3RhcnQiOiJub2RlLTEifQ"},
    "items": [
      {"metadata": {"name": "node-0", "labels": {"kube-scheduler-cpp.test/node-set": "node"}},
       "spec": {},
       "status": {"allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"}}},
      {"metadata": {"name": "node-1"},
       "spec": {"taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]},
       "status": {"allocatable": {"cpu": "8"}}}
    ]
  })json");
  REQUIRE(list.ok());
  CHECK(list->metadata.resource_version == "2048");
  CHECK(list->metadata.continue_token == "eyJydiI6MjA0OCwic3RhcnQiOiJub2RlLTEifQ");
  CHECK_FALSE(list->metadata.remaining_item_count.has_value());
  REQUIRE(list->items.size() == 2);
  CHECK(list->items[0].metadata.name == "node-0");
  CHECK(list->items[0].metadata.labels == Labels{{"kube-scheduler-cpp.test/node-set", "node"}});
  CHECK(Q(list->items[0].status.allocatable, "memory") == "32Gi");
  CHECK(list->items[1].metadata.name == "node-1");
  CHECK(list->items[1].spec.taints == std::vector<Taint>{{"k", "v", "NoSchedule", std::nullopt}});
  CHECK(Q(list->items[1].status.allocatable, "cpu") == "8");

  auto bad = DecodeList<Node>(
      R"({"kind":"NodeList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"status":{"capacity":{"cpu":"four"}}}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()) ==
        "items[1].status.capacity[\"cpu\"]: cannot parse 'four': " +
            std::string(ksched::api::kQuantityErrFormatWrong));
}

}  // namespace
