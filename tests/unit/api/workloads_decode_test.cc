// Decoding of the pod-selecting objects of api/workloads.h (Service, ReplicationController,
// ReplicaSet, StatefulSet) through DecodeList and DecodeWatchEvent, as a v1.34 API server returns
// them; expected values are read off the JSON by hand.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "api/json_decode.h"
#include "api/namespace.h"
#include "api/workloads.h"

namespace {

using ksched::api::DecodeList;
using ksched::api::DecodeListInSitu;
using ksched::api::DecodeWatchEvent;
using ksched::api::DecodeWatchEventInSitu;
using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using ksched::api::Labels;
using ksched::api::ReplicaSet;
using ksched::api::ReplicationController;
using ksched::api::Service;
using ksched::api::StatefulSet;
using ksched::api::WatchEventType;

template <typename T>
std::string WatchErrorOf(std::string_view json) {
  auto event = DecodeWatchEvent<T>(json);
  if (event.ok()) return "<ok>";
  CHECK(event.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(event.status().message());
}

// A ReplicaSet a Deployment made (`kubectl get rs -o json`, trimmed), in a watch event.
constexpr std::string_view kReplicaSetEvent = R"json({"type": "ADDED", "object": {
  "kind": "ReplicaSet", "apiVersion": "apps/v1",
  "metadata": {
    "name": "web-7d4b9c", "namespace": "shop", "uid": "0b4c1f0e-0000-4000-8000-000000000001",
    "resourceVersion": "812", "generation": 2, "creationTimestamp": "2025-06-01T10:00:00Z",
    "labels": {"app": "web", "pod-template-hash": "7d4b9c"},
    "annotations": {"deployment.kubernetes.io/revision": "2",
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"big\":\"blob\"}"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web",
                         "uid": "0b4c1f0e-0000-4000-8000-000000000000", "controller": true,
                         "blockOwnerDeletion": true}]
  },
  "spec": {
    "replicas": 3,
    "selector": {"matchLabels": {"app": "web", "pod-template-hash": "7d4b9c"},
                 "matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend"]}]},
    "template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "7d4b9c"}},
                 "spec": {"containers": [{"name": "web", "image": "nginx"}]}}
  },
  "status": {"replicas": 3, "readyReplicas": 3, "observedGeneration": 2}
}})json";

}  // namespace

TEST_CASE("DecodeWatchEvent<ReplicaSet>: metadata and spec.selector with annotations and owners dropped",
          "[api][json]") {
  auto event = DecodeWatchEvent<ReplicaSet>(kReplicaSetEvent);
  REQUIRE(event.ok());
  CHECK(event->type == WatchEventType::kAdded);
  const ReplicaSet& rs = event->object;
  CHECK(rs.metadata.name == "web-7d4b9c");
  CHECK(rs.metadata.namespace_ == "shop");
  CHECK(rs.metadata.uid == "0b4c1f0e-0000-4000-8000-000000000001");
  CHECK(rs.metadata.resource_version == "812");
  CHECK(rs.metadata.labels == Labels{{"app", "web"}, {"pod-template-hash", "7d4b9c"}});
  CHECK(rs.metadata.annotations.empty());
  CHECK(rs.metadata.owner_references.empty());
  CHECK(rs.spec.selector == LabelSelector{Labels{{"app", "web"}, {"pod-template-hash", "7d4b9c"}},
                                          {LabelSelectorRequirement{"tier", "In", {"frontend"}}}});

  std::string buffer(kReplicaSetEvent);
  auto in_situ = DecodeWatchEventInSitu<ReplicaSet>(buffer);
  REQUIRE(in_situ.ok());
  CHECK(in_situ->object == rs);
}

TEST_CASE("DecodeList<Service>: label-map selectors that are absent or null or empty", "[api][json]") {
  std::string json = R"json({
    "kind": "ServiceList", "apiVersion": "v1", "metadata": {"resourceVersion": "77"},
    "items": [
      {"metadata": {"name": "kubernetes", "namespace": "default"},
       "spec": {"clusterIP": "10.0.0.1", "ports": [{"port": 443, "targetPort": 6443}], "type": "ClusterIP"}},
      {"metadata": {"name": "web", "namespace": "shop", "annotations": {"a": "b"}},
       "spec": {"selector": {"app": "web", "tier": "frontend"}, "ports": [{"port": 80}]}},
      {"metadata": {"name": "null", "namespace": "shop"}, "spec": {"selector": null}},
      {"metadata": {"name": "empty", "namespace": "shop"}, "spec": {"selector": {}}}
    ]
  })json";
  auto list = DecodeList<Service>(std::string_view(json));
  REQUIRE(list.ok());
  CHECK(list->metadata.resource_version == "77");
  REQUIRE(list->items.size() == 4);
  CHECK_FALSE(list->items[0].spec.selector.has_value());  // a Service without a selector
  CHECK(list->items[1].spec.selector == Labels{{"app", "web"}, {"tier", "frontend"}});
  CHECK(list->items[1].metadata.annotations.empty());
  CHECK_FALSE(list->items[2].spec.selector.has_value());
  REQUIRE(list->items[3].spec.selector.has_value());  // empty is not absent
  CHECK(list->items[3].spec.selector->empty());

  auto in_situ = DecodeListInSitu<Service>(json);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *list);
}

TEST_CASE("DecodeList<ReplicationController> and DecodeList<StatefulSet>", "[api][json]") {
  auto rcs = DecodeList<ReplicationController>(
      R"({"kind":"ReplicationControllerList","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"web-rc","namespace":"shop"},"spec":{"replicas":2,"selector":{"app":"web"},"template":{}}}]})");
  REQUIRE(rcs.ok());
  REQUIRE(rcs->items.size() == 1);
  CHECK(rcs->items[0].spec.selector == Labels{{"app", "web"}});

  auto sts = DecodeList<StatefulSet>(
      R"({"kind":"StatefulSetList","metadata":{"resourceVersion":"6"},"items":[{"metadata":{"name":"db","namespace":"shop"},"spec":{"serviceName":"db","selector":{"matchExpressions":[{"key":"canary","operator":"DoesNotExist"}]}}},{"metadata":{"name":"bare","namespace":"shop"},"spec":{}}]})");
  REQUIRE(sts.ok());
  REQUIRE(sts->items.size() == 2);
  CHECK(sts->items[0].spec.selector ==
        LabelSelector{{}, {LabelSelectorRequirement{"canary", "DoesNotExist", {}}}});
  CHECK_FALSE(sts->items[1].spec.selector.has_value());
}

TEST_CASE("Decoding the workloads: errors name the field's path and the kind", "[api][json]") {
  CHECK(WatchErrorOf<Service>(R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"selector":{"app":1}}}})") ==
        "object.spec.selector[\"app\"]: expected a string, got number");
  CHECK(WatchErrorOf<Service>(R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"selector":["app"]}}})") ==
        "object.spec.selector: expected an object, got array");
  CHECK(WatchErrorOf<ReplicaSet>(
            R"({"type":"ADDED","object":{"metadata":{"name":"r"},"spec":{"selector":{"matchExpressions":{}}}}})") ==
        "object.spec.selector.matchExpressions: expected an array, got object");
  CHECK(WatchErrorOf<StatefulSet>(R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":7}})") ==
        "object.spec: expected an object, got number");
  // Dropped fields are still checked.
  CHECK(WatchErrorOf<ReplicaSet>(
            R"({"type":"ADDED","object":{"metadata":{"name":"r","annotations":{"a":2}}}})") ==
        "object.metadata.annotations[\"a\"]: expected a string, got number");
  CHECK(WatchErrorOf<ReplicationController>(R"({"type":"ADDED","object":{"metadata":{"namespace":"n"}}})") ==
        "object.metadata.name: required field is missing or empty");
  CHECK(WatchErrorOf<ReplicaSet>(R"({"type":"ADDED","object":{"kind":"StatefulSet","metadata":{"name":"r"}}})") ==
        "object.kind: expected \"ReplicaSet\", got \"StatefulSet\"");
  auto wrong_list = DecodeList<StatefulSet>(R"({"kind":"ReplicaSetList","items":[]})");
  REQUIRE_FALSE(wrong_list.ok());
  CHECK(std::string(wrong_list.status().message()) == "kind: expected \"StatefulSetList\", got \"ReplicaSetList\"");
}

TEST_CASE("DecodeList<Namespace> and DecodeWatchEvent<Namespace>: labels kept and the rest dropped",
          "[api][json]") {
  auto list = DecodeList<ksched::api::Namespace>(std::string_view(R"json({
    "kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": "40"},
    "items": [
      {"metadata": {"name": "default", "labels": {"kubernetes.io/metadata.name": "default"}},
       "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}},
      {"metadata": {"name": "team-blue", "labels": {"kubernetes.io/metadata.name": "team-blue", "team": "blue"},
                    "annotations": {"owner": "blue@example.com"}}}
    ]
  })json"));
  REQUIRE(list.ok());
  CHECK(list->metadata.resource_version == "40");
  REQUIRE(list->items.size() == 2);
  CHECK(list->items[0].metadata.name == "default");
  CHECK(list->items[1].metadata.labels == Labels{{"kubernetes.io/metadata.name", "team-blue"}, {"team", "blue"}});
  CHECK(list->items[1].metadata.annotations.empty());

  auto deleted = DecodeWatchEvent<ksched::api::Namespace>(
      std::string_view(R"({"type":"DELETED","object":{"kind":"Namespace","metadata":{"name":"gone","labels":{"a":"b"}}}})"));
  REQUIRE(deleted.ok());
  CHECK(deleted->type == WatchEventType::kDeleted);
  CHECK(deleted->object.metadata.labels == Labels{{"a", "b"}});
  CHECK(WatchErrorOf<ksched::api::Namespace>(R"({"type":"ADDED","object":{"metadata":{"labels":{"a":"b"}}}})") ==
        "object.metadata.name: required field is missing or empty");
  CHECK(WatchErrorOf<ksched::api::Namespace>(R"({"type":"ADDED","object":{"kind":"Node","metadata":{"name":"n"}}})") ==
        "object.kind: expected \"Namespace\", got \"Node\"");
}
