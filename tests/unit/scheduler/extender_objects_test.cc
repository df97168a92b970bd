// RestExtenderObjects: the whole Pod and Node objects sent to extenders, read from the API server
// (answered here by AnsweringTransport) and kept so that a steady cluster is listed once.
#include "scheduler/extender_objects.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "answering_transport.h"

namespace ksched::scheduler {
namespace {

// An API server with nodes at resourceVersions; counts the requests it answers.
struct FakeApi {
  std::vector<std::pair<std::string, std::string>> nodes;  // name, resourceVersion
  std::shared_ptr<testing::AnsweringTransport> transport = std::make_shared<testing::AnsweringTransport>();
  RestExtenderObjects objects{testing::InstantClient(transport)};

  FakeApi() {
    transport->set_responder([this](const client::HttpRequest& request) -> absl::StatusOr<client::HttpResponse> {
      if (request.target.starts_with("/api/v1/nodes")) {
        std::string items;
        for (const auto& [name, version] : nodes) {
          if (!items.empty()) items += ",";
          items += R"({"kind":"Node","metadata":{"name":")" + name + R"(","resourceVersion":")" + version +
                   R"("},"spec":{}})";
        }
        return testing::Response(200, R"({"kind":"NodeList","metadata":{"resourceVersion":"9"},"items":[)" + items + "]}");
      }
      if (request.target == "/api/v1/namespaces/ns/pods/p") {
        return testing::Response(200, R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","uid":"u1"}})");
      }
      return testing::Response(404, R"({"kind":"Status","code":404})");
    });
  }
  std::size_t lists() const {
    std::size_t n = 0;
    for (const client::HttpRequest& request : transport->requests()) n += request.target.starts_with("/api/v1/nodes");
    return n;
  }
  std::vector<std::string> Names(const std::vector<NodeVersion>& asked) {
    absl::StatusOr<std::vector<NodeJson>> got = objects.NodesJson(asked);
    REQUIRE(got.ok());
    std::vector<std::string> out;
    for (const NodeJson& json : *got) out.push_back(*json);
    return out;
  }
};

std::string NodeJsonOf(const std::string& name, const std::string& version) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","resourceVersion":")" + version + R"("},"spec":{}})";
}

TEST_CASE("RestExtenderObjects lists the nodes once while the asked versions are kept", "[extender]") {
  FakeApi api;
  api.nodes = {{"a", "1"}, {"b", "2"}, {"c", "3"}};
  CHECK(api.Names({{"c", "3"}, {"a", "1"}}) == std::vector<std::string>{NodeJsonOf("c", "3"), NodeJsonOf("a", "1")});
  CHECK(api.lists() == 1);
  CHECK(api.transport->requests()[0].target == "/api/v1/nodes?resourceVersion=0");

  SECTION("the same nodes at the same versions, or fewer of them: no new LIST") {
    CHECK(api.Names({{"a", "1"}, {"b", "2"}, {"c", "3"}}).size() == 3);
    CHECK(api.Names({{"b", "2"}}) == std::vector<std::string>{NodeJsonOf("b", "2")});
    CHECK(api.lists() == 1);
  }
  SECTION("a node changed since: listed afresh, then kept at its new version") {
    api.nodes[1].second = "7";
    CHECK(api.Names({{"a", "1"}, {"b", "7"}}) == std::vector<std::string>{NodeJsonOf("a", "1"), NodeJsonOf("b", "7")});
    CHECK(api.lists() == 2);
    CHECK(api.Names({{"b", "7"}}).size() == 1);
    CHECK(api.lists() == 2);
  }
  SECTION("a node added since: listed afresh") {
    api.nodes.push_back({"d", "4"});
    CHECK(api.Names({{"d", "4"}}) == std::vector<std::string>{NodeJsonOf("d", "4")});
    CHECK(api.lists() == 2);
  }
  SECTION("the watch cache behind the scheduler: the listed version is sent, and listed again next time") {
    CHECK(api.Names({{"a", "5"}}) == std::vector<std::string>{NodeJsonOf("a", "1")});
    CHECK(api.lists() == 2);
    CHECK(api.Names({{"a", "5"}}).size() == 1);
    CHECK(api.lists() == 3);
  }
  SECTION("a node the API server does not have is an error naming it; the others stay served") {
    api.nodes.erase(api.nodes.begin());  // "a" deleted
    absl::StatusOr<std::vector<NodeJson>> got = api.objects.NodesJson(std::vector<NodeVersion>{{"b", "2"}, {"a", "9"}});
    REQUIRE(got.status().code() == absl::StatusCode::kNotFound);
    CHECK(got.status().message() == "listing nodes for an extender: node \"a\" not found");
    CHECK(api.Names({{"b", "2"}}).size() == 1);
    CHECK(api.lists() == 2);
  }
  SECTION("a failing LIST is the call's error") {
    api.transport->set_responder([](const client::HttpRequest&) -> absl::StatusOr<client::HttpResponse> {
      return testing::Response(200, R"({"kind":"Status"})");
    });
    absl::StatusOr<std::vector<NodeJson>> got = api.objects.NodesJson(std::vector<NodeVersion>{{"z", "1"}});
    CHECK(got.status().message() == "listing nodes for an extender: the API server's answer is not a NodeList");
  }
}

TEST_CASE("RestExtenderObjects sends the pod without kind and apiVersion, read once per version", "[extender]") {
  FakeApi api;
  api::Pod pod;
  pod.metadata.namespace_ = "ns";
  pod.metadata.name = "p";
  pod.metadata.uid = "u1";
  pod.metadata.resource_version = "10";
  absl::StatusOr<std::string> json = api.objects.PodJson(pod);
  REQUIRE(json.ok());
  CHECK(*json == R"({"metadata":{"name":"p","uid":"u1"}})");
  CHECK(api.objects.PodJson(pod).ok());
  CHECK(api.transport->requests().size() == 1);
  pod.metadata.resource_version = "11";
  CHECK(api.objects.PodJson(pod).ok());
  CHECK(api.transport->requests().size() == 2);
}

}  // namespace
}  // namespace ksched::scheduler
