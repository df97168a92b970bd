// policy/v1 PodDisruptionBudget decoding (api/json_decode.h): objects, lists and watch events as a
// v1.34 API server returns them; expected values are read off the JSON by hand.
#include <catch2/catch.hpp>

#include "decode_test_support.h"
#include <string>
#include <string_view>
#include <vector>

#include "api/json_decode.h"
#include "api/pod_disruption_budget.h"

namespace {

using ksched::api::testing::At;

using ksched::api::DecodeList;
using ksched::api::DecodeListInSitu;
using ksched::api::DecodePodDisruptionBudget;
using ksched::api::DecodePodDisruptionBudgetInSitu;
using ksched::api::DecodeWatchEvent;
using ksched::api::DecodeWatchEventInSitu;
using ksched::api::Labels;
using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using ksched::api::PodDisruptionBudget;
using ksched::api::WatchEventType;

std::string ErrorOf(std::string_view json) {
  auto pdb = DecodePodDisruptionBudget(json);
  if (pdb.ok()) return "<ok>";
  CHECK(pdb.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(pdb.status().message());
}

// A PDB the disruption controller has updated after two evictions (`kubectl get pdb -o json`).
constexpr std::string_view kWebPdb = R"json({
  "kind": "PodDisruptionBudget",
  "apiVersion": "policy/v1",
  "metadata": {
    "name": "web-pdb",
    "namespace": "shop",
    "uid": "5f0e8a1c-0000-4000-8000-000000000007",
    "resourceVersion": "4711",
    "generation": 3,
    "creationTimestamp": "2025-06-01T10:00:00Z",
    "labels": {"app": "web"},
    "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update",
                       "apiVersion": "policy/v1", "time": "2025-06-01T10:00:00Z",
                       "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]
  },
  "spec": {
    "minAvailable": 2,
    "selector": {
      "matchLabels": {"app": "web"},
      "matchExpressions": [
        {"key": "tier", "operator": "In", "values": ["frontend", "edge"]},
        {"key": "canary", "operator": "DoesNotExist"}
      ]
    },
    "unhealthyPodEvictionPolicy": "IfHealthyBudget"
  },
  "status": {
    "observedGeneration": 3,
    "disruptedPods": {
      "web-b": "2025-06-01T10:05:00Z",
      "web-a": "2025-06-01T10:04:00Z"
    },
    "disruptionsAllowed": 2,
    "currentHealthy": 5,
    "desiredHealthy": 2,
    "expectedPods": 5,
    "conditions": [{"type": "DisruptionAllowed", "status": "True", "observedGeneration": 3,
                    "lastTransitionTime": "2025-06-01T10:00:01Z", "reason": "SufficientPods",
                    "message": ""}]
  }
})json";

TEST_CASE("DecodePodDisruptionBudget: selector, disruptionsAllowed and disruptedPods", "[api][json]") {
  auto pdb = DecodePodDisruptionBudget(kWebPdb);
  REQUIRE(pdb.ok());
  CHECK(pdb->metadata.name == "web-pdb");
  CHECK(pdb->metadata.namespace_ == "shop");
  CHECK(pdb->metadata.uid == "5f0e8a1c-0000-4000-8000-000000000007");
  CHECK(pdb->metadata.resource_version == "4711");
  CHECK(pdb->metadata.generation == 3);
  CHECK(pdb->metadata.creation_timestamp == At(2025, 6, 1, 10, 0, 0));
  CHECK(pdb->metadata.labels == Labels{{"app", "web"}});
  REQUIRE(pdb->spec.selector.has_value());
  CHECK(*pdb->spec.selector ==
        LabelSelector{Labels{{"app", "web"}},
                      {LabelSelectorRequirement{"tier", "In", {"frontend", "edge"}},
                       LabelSelectorRequirement{"canary", "DoesNotExist", {}}}});
  CHECK(pdb->status.disruptions_allowed == 2);
  CHECK(pdb->status.disrupted_pods == std::vector<std::string>{"web-a", "web-b"});

  std::string buffer(kWebPdb);
  auto in_situ = DecodePodDisruptionBudgetInSitu(buffer);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *pdb);
}

TEST_CASE("DecodePodDisruptionBudget: no selector, no status", "[api][json]") {
  auto absent = DecodePodDisruptionBudget(
      R"({"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"name":"p","namespace":"ns"},"spec":{"maxUnavailable":"25%"}})");
  REQUIRE(absent.ok());
  CHECK_FALSE(absent->spec.selector.has_value());
  CHECK(absent->status.disruptions_allowed == 0);
  CHECK(absent->status.disrupted_pods.empty());

  auto null_selector = DecodePodDisruptionBudget(
      R"({"metadata":{"name":"p","namespace":"ns"},"spec":{"selector":null},"status":{"disruptedPods":null,"disruptionsAllowed":null}})");
  REQUIRE(null_selector.ok());
  CHECK_FALSE(null_selector->spec.selector.has_value());
  CHECK(null_selector->status.disrupted_pods.empty());

  // An empty selector is not an absent one: it selects every pod of the namespace.
  auto empty_selector =
      DecodePodDisruptionBudget(R"({"metadata":{"name":"p","namespace":"ns"},"spec":{"selector":{}}})");
  REQUIRE(empty_selector.ok());
  CHECK(empty_selector->spec.selector == LabelSelector{});

  // A null eviction time is Go's zero time: the pod name is kept; a repeated field merges.
  auto null_time = DecodePodDisruptionBudget(
      R"({"metadata":{"name":"p"},"status":{"disruptedPods":{"z":null,"y":"2025-06-01T10:00:00Z"},"disruptedPods":{"x":"2025-06-01T10:00:00Z","y":null}}})");
  REQUIRE(null_time.ok());
  CHECK(null_time->status.disrupted_pods == std::vector<std::string>{"x", "y", "z"});
}

TEST_CASE("DecodePodDisruptionBudget: errors name the field's path", "[api][json]") {
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"status":{"disruptionsAllowed":"x"}})") ==
        "status.disruptionsAllowed: expected an integer, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"status":{"disruptionsAllowed":2147483648}})") ==
        "status.disruptionsAllowed: integer 2147483648 out of range for int32");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"status":{"disruptedPods":["a"]}})") ==
        "status.disruptedPods: expected an object, got array");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"status":{"disruptedPods":{"a":5}}})") ==
        "status.disruptedPods[\"a\"]: expected an RFC 3339 time string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"selector":{"matchLabels":{"app":1}}}})") ==
        "spec.selector.matchLabels[\"app\"]: expected a string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"selector":{"matchExpressions":[{"key":"k","values":"v"}]}}})") ==
        "spec.selector.matchExpressions[0].values: expected an array, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":"x"})") == "spec: expected an object, got string");
  CHECK(ErrorOf(R"({"metadata":{"namespace":"ns"}})") ==
        "metadata.name: required field is missing or empty");
  CHECK(ErrorOf(R"({"kind":"Pod","metadata":{"name":"p"}})") ==
        "kind: expected \"PodDisruptionBudget\", got \"Pod\"");
}

TEST_CASE("DecodeList<PodDisruptionBudget>: a PodDisruptionBudgetList", "[api][json]") {
  std::string json = R"json({
    "kind": "PodDisruptionBudgetList",
    "apiVersion": "policy/v1",
    "metadata": {"resourceVersion": "9001"},
    "items": [
      {"metadata": {"name": "a", "namespace": "ns1", "resourceVersion": "10"},
       "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "a"}}},
       "status": {"disruptionsAllowed": 1, "currentHealthy": 2, "desiredHealthy": 1, "expectedPods": 2}},
      {"metadata": {"name": "b", "namespace": "ns2", "resourceVersion": "11"},
       "spec": {"maxUnavailable": 0},
       "status": {"disruptionsAllowed": 0, "disruptedPods": {"b-1": "2025-06-01T10:00:00Z"}}}
    ]
  })json";
  auto list = DecodeList<PodDisruptionBudget>(std::string_view(json));
  REQUIRE(list.ok());
  CHECK(list->metadata.resource_version == "9001");
  CHECK(list->metadata.continue_token.empty());
  REQUIRE(list->items.size() == 2);
  CHECK(list->items[0].metadata.name == "a");
  CHECK(list->items[0].metadata.namespace_ == "ns1");
  CHECK(list->items[0].spec.selector == LabelSelector{Labels{{"app", "a"}}, {}});
  CHECK(list->items[0].status.disruptions_allowed == 1);
  CHECK(list->items[1].metadata.namespace_ == "ns2");
  CHECK_FALSE(list->items[1].spec.selector.has_value());
  CHECK(list->items[1].status.disrupted_pods == std::vector<std::string>{"b-1"});

  auto in_situ = DecodeListInSitu<PodDisruptionBudget>(json);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *list);

  auto wrong_kind = DecodeList<PodDisruptionBudget>(R"({"kind":"PodList","items":[]})");
  REQUIRE_FALSE(wrong_kind.ok());
  CHECK(std::string(wrong_kind.status().message()) ==
        "kind: expected \"PodDisruptionBudgetList\", got \"PodList\"");

  auto bad_item = DecodeList<PodDisruptionBudget>(
      R"({"kind":"PodDisruptionBudgetList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"status":{"disruptionsAllowed":1.5}}]})");
  REQUIRE_FALSE(bad_item.ok());
  CHECK(std::string(bad_item.status().message()) ==
        "items[1].status.disruptionsAllowed: expected an integer, got 1.5");
}

TEST_CASE("DecodeWatchEvent<PodDisruptionBudget>: events and bookmarks", "[api][json]") {
  std::string json =
      R"({"type":"MODIFIED","object":{"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"name":"web-pdb","namespace":"shop","resourceVersion":"4712"},"spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1,"disruptedPods":{"web-c":"2025-06-01T10:06:00Z"}}}})";
  auto modified = DecodeWatchEvent<PodDisruptionBudget>(std::string_view(json));
  REQUIRE(modified.ok());
  CHECK(modified->type == WatchEventType::kModified);
  CHECK(modified->object.metadata.name == "web-pdb");
  CHECK(modified->object.metadata.namespace_ == "shop");
  CHECK(modified->object.metadata.resource_version == "4712");
  CHECK(modified->object.spec.selector == LabelSelector{Labels{{"app", "web"}}, {}});
  CHECK(modified->object.status.disruptions_allowed == 1);
  CHECK(modified->object.status.disrupted_pods == std::vector<std::string>{"web-c"});

  auto in_situ = DecodeWatchEventInSitu<PodDisruptionBudget>(json);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *modified);

  auto bookmark = DecodeWatchEvent<PodDisruptionBudget>(
      R"({"type":"BOOKMARK","object":{"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"resourceVersion":"5000","annotations":{"k8s.io/initial-events-end":"true"}},"spec":{},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}}})");
  REQUIRE(bookmark.ok());
  CHECK(bookmark->type == WatchEventType::kBookmark);
  CHECK(bookmark->resource_version == "5000");
  CHECK(bookmark->initial_events_end);

  auto bad = DecodeWatchEvent<PodDisruptionBudget>(
      R"({"type":"ADDED","object":{"kind":"PodDisruptionBudget","metadata":{"name":"p"},"status":{"disruptionsAllowed":"x"}}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()) ==
        "object.status.disruptionsAllowed: expected an integer, got string");
}

}  // namespace
