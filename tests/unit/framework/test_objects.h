// Test helpers for the framework unit tests: pods and nodes written as the JSON an API server
// returns (decoded by api/json_decode.h), so that test inputs read like upstream's fixtures.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <string_view>

#include "api/json_decode.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/quantity.h"
#include "framework/pod_info.h"

namespace ksched::framework::testing {

// A Quantity from its text; the test fails on a malformed one.
inline api::Quantity Q(std::string_view text) {
  auto quantity = api::Quantity::Parse(text);
  REQUIRE(quantity.ok());
  return *quantity;
}

inline std::shared_ptr<const api::Pod> PodFromJson(std::string_view json) {
  absl::StatusOr<api::Pod> pod = api::DecodePod(json);
  INFO(json);
  REQUIRE(pod.ok());
  return std::make_shared<const api::Pod>(*std::move(pod));
}

inline std::shared_ptr<const api::Node> NodeFromJson(std::string_view json) {
  absl::StatusOr<api::Node> node = api::DecodeNode(json);
  INFO(json);
  REQUIRE(node.ok());
  return std::make_shared<const api::Node>(*std::move(node));
}

inline PodInfoPtr PodInfoFromJson(std::string_view json) {
  return PodInfo::CreateOrDie(PodFromJson(json));
}

// A node with this name and allocatable (a JSON object body, e.g. R"("cpu": "4")").
inline std::shared_ptr<const api::Node> MakeNode(const std::string& name,
                                                 const std::string& allocatable = "") {
  return NodeFromJson(R"({"metadata": {"name": ")" + name +
                      R"("}, "status": {"allocatable": {)" + allocatable + "}}}");
}

// A pod with this name and uid, bound to `node_name` ("" for none), with the given container
// requests (a JSON object body).
inline PodInfoPtr MakePod(const std::string& name, const std::string& node_name,
                          const std::string& requests = "") {
  return PodInfoFromJson(R"({"metadata": {"name": ")" + name + R"(", "namespace": "default", )" +
                         R"("uid": ")" + name + R"(-uid"}, "spec": {"nodeName": ")" + node_name +
                         R"(", "containers": [{"name": "c", "resources": {"requests": {)" +
                         requests + "}}}]}}");
}

}  // namespace ksched::framework::testing
