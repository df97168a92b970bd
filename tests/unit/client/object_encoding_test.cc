// CheckContentType (clientConnection.contentType, --kube-api-content-type) and ObjectPostRequest.
#include "client/object_encoding.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

namespace {

using ksched::client::CheckContentType;
using ksched::client::HttpMethod;
using ksched::client::ObjectPostRequest;

TEST_CASE("CheckContentType accepts the two encodings client-go can write", "[object_encoding]") {
  const char* accepted = GENERATE("application/json", "application/vnd.kubernetes.protobuf",
                                  "application/json; charset=utf-8", "application/vnd.kubernetes.protobuf ;x=y");
  CAPTURE(accepted);
  CHECK(CheckContentType(accepted).ok());
}

TEST_CASE("CheckContentType names the refused value and the supported ones", "[object_encoding]") {
  const char* refused = GENERATE("application/yaml", "", "application/JSON", "json", "application/vnd.kubernetes.protobuf+x");
  CAPTURE(refused);
  const absl::Status status = CheckContentType(refused);
  REQUIRE(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(status.message() == "Unsupported value: \"" + std::string(refused) +
                                "\": supported values: \"application/json\", \"application/vnd.kubernetes.protobuf\"");
}

TEST_CASE("ObjectPostRequest carries the body with its content type and the matching Accept", "[object_encoding]") {
  const auto protobuf = ObjectPostRequest("/api/v1/namespaces/ns/pods/p/binding", std::string("k8s\0x", 5), true);
  CHECK(protobuf.method == HttpMethod::kPost);
  CHECK(protobuf.target == "/api/v1/namespaces/ns/pods/p/binding");
  CHECK(protobuf.body == std::string("k8s\0x", 5));
  CHECK(protobuf.content_type == "application/vnd.kubernetes.protobuf");
  CHECK(protobuf.accept == "application/vnd.kubernetes.protobuf, */*");

  const auto json = ObjectPostRequest("/apis/events.k8s.io/v1/namespaces/ns/events", R"({"kind":"Event"})", false);
  CHECK(json.method == HttpMethod::kPost);
  CHECK(json.body == R"({"kind":"Event"})");
  CHECK(json.content_type == "application/json");
  CHECK(json.accept == "application/json");
}

}  // namespace
