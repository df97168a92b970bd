// PodInfo and AffinityTerm (framework/pod_info.h), against upstream's NewPodInfo,
// newAffinityTerm, getNamespacesFromPodAffinityTerm and AffinityTerm.Matches.
#include <catch2/catch.hpp>

#include <string>

#include "framework/pod_info.h"
#include "test_objects.h"

namespace {

using ksched::api::Labels;
using ksched::api::Pod;
using ksched::framework::AffinityTerm;
using ksched::framework::kDefaultMemoryRequest;
using ksched::framework::kDefaultMilliCPURequest;
using ksched::framework::PodInfo;
using ksched::framework::PodInfoPtr;
using ksched::framework::testing::PodFromJson;
using ksched::framework::testing::PodInfoFromJson;

// A pod in namespace `ns` with these labels (a JSON object body).
Pod PodIn(const std::string& ns, const std::string& labels) {
  return *PodFromJson(R"({"metadata": {"name": "other", "namespace": ")" + ns +
                      R"(", "labels": {)" + labels + "}}}");
}

// A pod in namespace "ns1" whose required pod-affinity is the one term given as JSON.
PodInfoPtr WithAffinityTerm(const std::string& term) {
  return PodInfoFromJson(R"({"metadata": {"name": "p", "namespace": "ns1"}, "spec": {"affinity": {
      "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [)" +
                         term + "]}}}}");
}

TEST_CASE("PodInfo caches the requests and the non-zero requests", "[framework][pod_info]") {
  PodInfoPtr info = PodInfoFromJson(R"({"metadata": {"name": "p"}, "spec": {"containers": [
      {"name": "a", "resources": {"requests": {"cpu": "250m", "nvidia.com/gpu": "1"}}},
      {"name": "b"}]}})");
  CHECK(info->requests().milli_cpu == 250);
  CHECK(info->requests().memory == 0);
  CHECK(info->requests().Scalar("nvidia.com/gpu") == 1);
  CHECK(info->non_zero_requests().milli_cpu == 250 + kDefaultMilliCPURequest);
  CHECK(info->non_zero_requests().memory == 2 * kDefaultMemoryRequest);
  CHECK(info->pod().metadata.name == "p");
  CHECK(info->pod_ptr().get() == &info->pod());
}

TEST_CASE("term namespaces default to the pod's own only when both lists are absent",
          "[framework][pod_info]") {
  SECTION("neither namespaces nor namespaceSelector") {
    PodInfoPtr info = WithAffinityTerm(R"({"labelSelector": {}, "topologyKey": "zone"})");
    const AffinityTerm& term = info->required_affinity_terms().at(0);
    CHECK(term.namespaces == std::set<std::string, std::less<>>{"ns1"});
    CHECK(term.namespace_selector.MatchesNothing());
    CHECK(term.topology_key == "zone");
  }
  SECTION("namespaces listed") {
    PodInfoPtr info = WithAffinityTerm(
        R"({"labelSelector": {}, "namespaces": ["a", "b"], "topologyKey": "zone"})");
    const AffinityTerm& term = info->required_affinity_terms().at(0);
    CHECK(term.namespaces == std::set<std::string, std::less<>>{"a", "b"});
    CHECK(term.namespace_selector.MatchesNothing());
  }
  SECTION("an empty namespaceSelector selects every namespace, and not the pod's by name") {
    PodInfoPtr info = WithAffinityTerm(
        R"({"labelSelector": {}, "namespaceSelector": {}, "topologyKey": "zone"})");
    const AffinityTerm& term = info->required_affinity_terms().at(0);
    CHECK(term.namespaces.empty());
    CHECK(term.namespace_selector.Empty());
  }
}

TEST_CASE("AffinityTerm::Matches as upstream", "[framework][pod_info]") {
  struct Row {
    const char* name;
    const char* term;
    const char* ns;
    const char* labels;
    Labels namespace_labels;
    bool expected;
  };
  const Row rows[] = {
      {"own namespace, matching labels", R"({"labelSelector": {"matchLabels": {"app": "web"}}})",
       "ns1", R"("app": "web")", {}, true},
      {"own namespace, other labels", R"({"labelSelector": {"matchLabels": {"app": "web"}}})",
       "ns1", R"("app": "db")", {}, false},
      {"other namespace", R"({"labelSelector": {"matchLabels": {"app": "web"}}})", "ns2",
       R"("app": "web")", {}, false},
      {"null labelSelector matches nothing", R"({})", "ns1", R"("app": "web")", {}, false},
      {"empty labelSelector matches everything", R"({"labelSelector": {}})", "ns1", "", {}, true},
      {"listed namespace", R"({"labelSelector": {}, "namespaces": ["ns2"]})", "ns2", "", {}, true},
      {"listed namespaces exclude the pod's own", R"({"labelSelector": {}, "namespaces": ["ns2"]})",
       "ns1", "", {}, false},
      {"namespaceSelector matching the namespace labels",
       R"({"labelSelector": {}, "namespaceSelector": {"matchLabels": {"team": "a"}}})", "ns9", "",
       Labels{{"team", "a"}}, true},
      {"namespaceSelector not matching",
       R"({"labelSelector": {}, "namespaceSelector": {"matchLabels": {"team": "a"}}})", "ns9", "",
       Labels{{"team", "b"}}, false},
      {"namespaces OR namespaceSelector",
       R"({"labelSelector": {}, "namespaces": ["ns2"],
           "namespaceSelector": {"matchLabels": {"team": "a"}}})",
       "ns2", "", Labels{{"team", "b"}}, true},
      {"empty namespaceSelector: any namespace",
       R"({"labelSelector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]},
           "namespaceSelector": {}})",
       "anywhere", R"("app": "x")", {}, true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    PodInfoPtr info = WithAffinityTerm(row.term);
    REQUIRE(info->required_affinity_terms().size() == 1);
    const AffinityTerm& term = info->required_affinity_terms()[0];
    CHECK(term.Matches(PodIn(row.ns, row.labels), &row.namespace_labels) == row.expected);
  }
  // No namespace labels known: an empty namespaceSelector still matches, a selective one not.
  PodInfoPtr everything = WithAffinityTerm(R"({"labelSelector": {}, "namespaceSelector": {}})");
  CHECK(everything->required_affinity_terms()[0].Matches(PodIn("x", ""), nullptr));
  PodInfoPtr team = WithAffinityTerm(
      R"({"labelSelector": {}, "namespaceSelector": {"matchLabels": {"team": "a"}}})");
  CHECK_FALSE(team->required_affinity_terms()[0].Matches(PodIn("x", ""), nullptr));
}

TEST_CASE("all four term lists are compiled, weights kept in order", "[framework][pod_info]") {
  PodInfoPtr info = PodInfoFromJson(R"({"metadata": {"name": "p", "namespace": "ns"}, "spec": {
    "affinity": {
      "podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
          {"labelSelector": {"matchLabels": {"a": "1"}}, "topologyKey": "zone"}],
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 10, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}},
          {"weight": 5, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "host"}}]},
      "podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
          {"labelSelector": {}, "topologyKey": "host"}, {"labelSelector": {}, "topologyKey": "rack"}],
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 7, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}}]}}}})");
  REQUIRE(info->required_affinity_terms().size() == 1);
  REQUIRE(info->required_anti_affinity_terms().size() == 2);
  REQUIRE(info->preferred_affinity_terms().size() == 2);
  REQUIRE(info->preferred_anti_affinity_terms().size() == 1);
  CHECK(info->required_anti_affinity_terms()[1].topology_key == "rack");
  CHECK(info->preferred_affinity_terms()[0].weight == 10);
  CHECK(info->preferred_affinity_terms()[1].weight == 5);
  CHECK(info->preferred_affinity_terms()[1].term.topology_key == "host");
  CHECK(info->preferred_anti_affinity_terms()[0].weight == 7);
  CHECK(info->has_affinity());
  CHECK(info->has_required_anti_affinity());
}

TEST_CASE("affinity flags", "[framework][pod_info]") {
  PodInfoPtr none = PodInfoFromJson(R"({"metadata": {"name": "p"}})");
  CHECK_FALSE(none->has_affinity());
  CHECK_FALSE(none->has_required_anti_affinity());
  PodInfoPtr preferred_anti = PodInfoFromJson(R"({"metadata": {"name": "p"}, "spec": {"affinity": {
      "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}}]}}}})");
  CHECK(preferred_anti->has_affinity());
  CHECK_FALSE(preferred_anti->has_required_anti_affinity());
}

TEST_CASE("an invalid selector fails Create with upstream's wording", "[framework][pod_info]") {
  const std::string bad_selector =
      R"({"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": []}]},
          "topologyKey": "zone"})";
  SECTION("one list") {
    auto info = PodInfo::Create(PodFromJson(
        R"({"metadata": {"name": "p"}, "spec": {"affinity": {"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [)" + bad_selector + "]}}}}"));
    REQUIRE_FALSE(info.ok());
    CHECK(info.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(info.status().message()) ==
          "requiredAntiAffinityTerms: values: Invalid value: null: for 'in', 'notin' operators, "
          "values set can't be empty");
  }
  SECTION("two lists: aggregated in brackets") {
    auto info = PodInfo::Create(PodFromJson(
        R"({"metadata": {"name": "p"}, "spec": {"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [)" + bad_selector + R"(],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {
              "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Bogus"}]}}}]}}}})"));
    REQUIRE_FALSE(info.ok());
    CHECK(std::string(info.status().message()) ==
          "[requiredAffinityTerms: values: Invalid value: null: for 'in', 'notin' operators, "
          "values set can't be empty, preferredAffinityTerms: \"Bogus\" is not a valid label "
          "selector operator]");
  }
  SECTION("an invalid namespaceSelector") {
    auto info = PodInfo::Create(PodFromJson(
        R"({"metadata": {"name": "p"}, "spec": {"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {},
              "namespaceSelector": {"matchLabels": {"bad key!": "x"}}}]}}}})"));
    REQUIRE_FALSE(info.ok());
    CHECK_THAT(std::string(info.status().message()),
               Catch::StartsWith("requiredAffinityTerms: key: Invalid value: \"bad key!\""));
  }
}

TEST_CASE("Create refuses a null pod", "[framework][pod_info]") {
  auto info = PodInfo::Create(nullptr);
  REQUIRE_FALSE(info.ok());
  CHECK(info.status().message() == "pod cannot be nil");
}

}  // namespace
