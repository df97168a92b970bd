// Watch event and metav1.Status decoding (api/json_decode.h), with events as a v1.34 API server
// streams them; expected values are read off the JSON by hand.
#include <catch2/catch.hpp>

#include "decode_test_support.h"
#include <chrono>
#include <string>
#include <string_view>

#include "api/json_decode.h"
#include "api/watch_event.h"

namespace {

using ksched::api::testing::At;

using ksched::api::ApiStatus;
using ksched::api::DecodeApiStatus;
using ksched::api::DecodeWatchEvent;
using ksched::api::DecodeWatchEventInSitu;
using ksched::api::Node;
using ksched::api::Pod;
using ksched::api::Time;
using ksched::api::WatchEventType;


std::string PodEventError(std::string_view json) {
  auto event = DecodeWatchEvent<Pod>(json);
  if (event.ok()) return "<ok>";
  CHECK(event.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(event.status().message());
}

TEST_CASE("DecodeWatchEvent<Pod>: ADDED, MODIFIED and DELETED carry the pod", "[api][json]") {
  auto added = DecodeWatchEvent<Pod>(
      R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p1","namespace":"default","uid":"u1","resourceVersion":"501","creationTimestamp":"2025-06-01T09:00:00Z"},"spec":{"containers":[{"name":"c","image":"pause:3.10","resources":{}}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},"status":{"phase":"Pending","qosClass":"BestEffort"}}})");
  REQUIRE(added.ok());
  CHECK(added->type == WatchEventType::kAdded);
  CHECK(added->object.metadata.name == "p1");
  CHECK(added->object.metadata.namespace_ == "default");
  CHECK(added->object.metadata.resource_version == "501");
  CHECK(added->object.metadata.creation_timestamp == At(2025, 6, 1, 9, 0, 0));
  CHECK(added->object.spec.termination_grace_period_seconds == 30);
  CHECK(added->object.spec.preemption_policy == "PreemptLowerPriority");
  CHECK(added->object.status.phase == "Pending");
  CHECK(added->resource_version.empty());
  CHECK(added->error == ApiStatus{});

  auto modified = DecodeWatchEvent<Pod>(
      R"({"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p1","namespace":"default","resourceVersion":"502"},"spec":{"nodeName":"node-4"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T09:00:02Z"}]}}})");
  REQUIRE(modified.ok());
  CHECK(modified->type == WatchEventType::kModified);
  CHECK(modified->object.metadata.resource_version == "502");
  CHECK(modified->object.spec.node_name == "node-4");
  REQUIRE(modified->object.status.conditions.size() == 1);
  CHECK(modified->object.status.conditions[0].last_transition_time == At(2025, 6, 1, 9, 0, 2));

  auto deleted = DecodeWatchEvent<Pod>(
      R"({"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p1","namespace":"default","resourceVersion":"530","deletionTimestamp":"2025-06-01T09:05:00Z","deletionGracePeriodSeconds":0},"spec":{"nodeName":"node-4"},"status":{"phase":"Succeeded"}}})");
  REQUIRE(deleted.ok());
  CHECK(deleted->type == WatchEventType::kDeleted);
  CHECK(deleted->object.metadata.deletion_timestamp == At(2025, 6, 1, 9, 5, 0));
  CHECK(deleted->object.status.phase == "Succeeded");
}

TEST_CASE("DecodeWatchEvent<Node>: a node event", "[api][json]") {
  std::string json =
      R"({"type":"MODIFIED","object":{"kind":"Node","apiVersion":"v1","metadata":{"name":"node-4","resourceVersion":"777","labels":{"kubernetes.io/hostname":"node-4"}},"spec":{"unschedulable":true},"status":{"allocatable":{"cpu":"4"},"conditions":[{"type":"Ready","status":"False"}]}}})";
  auto copied = DecodeWatchEvent<Node>(json);
  REQUIRE(copied.ok());
  CHECK(copied->type == WatchEventType::kModified);
  CHECK(copied->object.metadata.name == "node-4");
  CHECK(copied->object.metadata.resource_version == "777");
  CHECK(copied->object.spec.unschedulable);
  CHECK(copied->object.status.allocatable.Get("cpu")->Value() == 4);
  CHECK(copied->object.status.conditions.at(0).status == "False");

  auto in_situ = DecodeWatchEventInSitu<Node>(json);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *copied);

  auto wrong_kind = DecodeWatchEvent<Node>(
      R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"}}})");
  REQUIRE_FALSE(wrong_kind.ok());
  CHECK(std::string(wrong_kind.status().message()) == "object.kind: expected \"Node\", got \"Pod\"");
}

TEST_CASE("DecodeWatchEvent: BOOKMARK keeps only the resource version", "[api][json]") {
  auto bookmark = DecodeWatchEvent<Pod>(
      R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12746","creationTimestamp":null},"spec":{"containers":null},"status":{}}})");
  REQUIRE(bookmark.ok());
  CHECK(bookmark->type == WatchEventType::kBookmark);
  CHECK(bookmark->resource_version == "12746");
  CHECK_FALSE(bookmark->initial_events_end);
  CHECK(bookmark->object == Pod{});

  auto end_of_initial = DecodeWatchEvent<Pod>(
      R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12800","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}},"spec":{"containers":null},"status":{}}})");
  REQUIRE(end_of_initial.ok());
  CHECK(end_of_initial->resource_version == "12800");
  CHECK(end_of_initial->initial_events_end);

  auto node_bookmark = DecodeWatchEvent<Node>(
      R"({"type":"BOOKMARK","object":{"kind":"Node","apiVersion":"v1","metadata":{"resourceVersion":"99","annotations":{"k8s.io/initial-events-end":"false"}},"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{}}}})");
  REQUIRE(node_bookmark.ok());
  CHECK(node_bookmark->resource_version == "99");
  CHECK_FALSE(node_bookmark->initial_events_end);

  CHECK(PodEventError(R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":12746}}})") ==
        "object.metadata.resourceVersion: expected a string, got number");
}

TEST_CASE("DecodeWatchEvent: ERROR carries the metav1.Status", "[api][json]") {
  auto expired = DecodeWatchEvent<Pod>(
      R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1000 (1500)","reason":"Expired","code":410}})json");
  REQUIRE(expired.ok());
  CHECK(expired->type == WatchEventType::kError);
  CHECK(expired->error ==
        ApiStatus{"Failure", "too old resource version: 1000 (1500)", "Expired", 410});
  CHECK(expired->object == Pod{});
  CHECK(expired->resource_version.empty());

  auto gone = DecodeWatchEvent<Node>(
      R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided watch is too old.","reason":"Gone","code":410}})");
  REQUIRE(gone.ok());
  CHECK(gone->error.reason == "Gone");
  CHECK(gone->error.code == 410);

  CHECK(PodEventError(R"({"type":"ERROR","object":{"kind":"Status","code":"410"}})") ==
        "object.code: expected an integer, got string");
  CHECK(PodEventError(R"({"type":"ERROR","object":{"kind":"Pod","metadata":{"name":"p"}}})") ==
        "object.kind: expected \"Status\", got \"Pod\"");
}

TEST_CASE("DecodeWatchEvent: malformed events", "[api][json]") {
  CHECK(PodEventError(R"({"type":"SYNC","object":{}})") == "type: invalid watch event type \"SYNC\"");
  CHECK(PodEventError(R"({"type":"added","object":{}})") == "type: invalid watch event type \"added\"");
  CHECK(PodEventError(R"({"object":{"metadata":{"name":"p"}}})") == "type: required field is missing");
  CHECK(PodEventError(R"({"type":null,"object":{"metadata":{"name":"p"}}})") ==
        "type: required field is missing");
  CHECK(PodEventError(R"({"type":1,"object":{}})") == "type: expected a string, got number");
  CHECK(PodEventError(R"({"type":"ADDED"})") == "object: required field is missing");
  CHECK(PodEventError(R"({"type":"ADDED","object":"pod"})") == "object: expected an object, got string");
  CHECK(PodEventError(R"({"type":"ADDED","object":{"metadata":{"name":"p"},"spec":{"priority":"high"}}})") ==
        "object.spec.priority: expected an integer, got string");
  CHECK(PodEventError(R"({"type":"ADDED","object":{"metadata":{"namespace":"default"}}})") ==
        "object.metadata.name: required field is missing or empty");
  CHECK(PodEventError(R"(["ADDED",{}])") == "expected an object, got array");
  CHECK(PodEventError(R"({"type":"ADDED","object":{"metadata":{"name":"p"}})").rfind(
            "invalid JSON at offset 50: ", 0) == 0);
  // Unknown fields around the event are ignored.
  CHECK(PodEventError(R"({"type":"ADDED","extra":[1,2],"object":{"metadata":{"name":"p"}}})") == "<ok>");
}

TEST_CASE("DecodeApiStatus: an API error response body", "[api][json]") {
  auto not_found = DecodeApiStatus(
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"web-1\" not found","reason":"NotFound","details":{"name":"web-1","kind":"pods"},"code":404})");
  REQUIRE(not_found.ok());
  CHECK(*not_found == ApiStatus{"Failure", "pods \"web-1\" not found", "NotFound", 404});

  auto conflict = DecodeApiStatus(
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods/binding \"web-1\": pod web-1 is already assigned to node \"node-2\"","reason":"Conflict","details":{"name":"web-1","kind":"pods/binding"},"code":409})");
  REQUIRE(conflict.ok());
  CHECK(conflict->code == 409);
  CHECK(conflict->reason == "Conflict");

  auto wrong = DecodeApiStatus(R"({"kind":"Pod"})");
  REQUIRE_FALSE(wrong.ok());
  CHECK(std::string(wrong.status().message()) == "kind: expected \"Status\", got \"Pod\"");
  auto big = DecodeApiStatus(R"({"kind":"Status","code":4294967296})");
  REQUIRE_FALSE(big.ok());
  CHECK(std::string(big.status().message()) == "code: integer 4294967296 out of range for int32");
}

}  // namespace
