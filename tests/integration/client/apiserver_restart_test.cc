// Reflector against a kube-apiserver that is killed and restarted mid-watch: a Node reflector
// syncs 50 labelled nodes; tests/controlplane/restart-apiserver.sh kills the apiserver, keeps it
// down 3 s and starts it again on the same port and etcd; after it is back, 10 nodes are created,
// 10 deleted and 10 relabelled, and the reflector's store must converge to a fresh LIST (names and
// resourceVersions: no phantom, no missing node) having rewatched or relisted at least once.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "api/json_decode.h"
#include "client/http_transport.h"
#include "client/reflector.h"
#include "client/resource_path.h"
#include "client/rest_client.h"
#include "controlplane_env.h"

#ifndef KSCHED_SOURCE_DIR
#error "KSCHED_SOURCE_DIR must be defined (tests/integration/CMakeLists.txt)"
#endif

using ksched::api::Node;
using ksched::client::HttpTransport;
using ksched::client::ListOptions;
using ksched::client::PatchType;
using ksched::client::Reflector;
using ksched::client::ReflectorHandler;
using ksched::client::ReflectorOptions;
using ksched::client::ResourcePath;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::testing::AdminRestClient;
using ksched::testing::ControlPlane;

namespace {

constexpr int kInitial = 50;
constexpr int kAdded = 10;
constexpr char kLabel[] = "apiserver-restart-test";

std::string NodeName(int i) { return "restart-node-" + std::to_string(i); }
std::string NodePath(int i) { return ResourcePath().Resource("nodes").Name(NodeName(i)).String(); }
std::string NodeBody(int i) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + NodeName(i) + R"(","labels":{")" + kLabel +
         R"(":"yes"}}})";
}

// name -> resourceVersion of the labelled nodes, by a fresh LIST; nullopt when the LIST failed.
std::optional<std::map<std::string, std::string>> ListNow(RestClient& client) {
  ListOptions options;
  options.label_selector = std::string(kLabel) + "=yes";
  auto body = client.List(ResourcePath().Resource("nodes").String(), options);
  if (!body.ok()) return std::nullopt;
  auto list = ksched::api::DecodeList<Node>(*body);
  if (!list.ok()) return std::nullopt;
  std::map<std::string, std::string> out;
  for (const Node& node : list->items) out[node.metadata.name] = node.metadata.resource_version;
  return out;
}

std::map<std::string, std::string> StoreNow(const Reflector<Node>& reflector) {
  std::map<std::string, std::string> out;
  for (const Node& node : reflector.List()) out[node.metadata.name] = node.metadata.resource_version;
  return out;
}

}  // namespace

TEST_CASE("a Node reflector recovers when kube-apiserver is killed and restarted mid-watch",
          "[apiserver-restart]") {
  auto client = AdminRestClient();
  const std::string nodes = ResourcePath().Resource("nodes").String();
  for (int i = 0; i < kInitial; ++i) {
    auto created = client->Create(nodes, NodeBody(i));
    INFO(created.status().ToString());
    REQUIRE((created.ok() || created.status().code() == absl::StatusCode::kAlreadyExists));
  }

  ReflectorOptions options;
  options.path = nodes;
  options.label_selector = std::string(kLabel) + "=yes";
  options.backoff_initial = std::chrono::milliseconds(100);
  options.backoff_cap = std::chrono::milliseconds(2'000);
  Reflector<Node> reflector(client, options, std::make_shared<ReflectorHandler<Node>>());
  reflector.Start();
  REQUIRE(reflector.WaitForSync(std::chrono::milliseconds(60'000)));
  REQUIRE(reflector.size() == static_cast<std::size_t>(kInitial));

  // Kill and restart the apiserver while the reflector's watch is open.
  const std::string command = std::string("bash '") + KSCHED_SOURCE_DIR +
                              "/tests/controlplane/restart-apiserver.sh' --down-seconds 3 '" +
                              ControlPlane::Get()["KSCHED_CP_DIR"] + "'";
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);

  // Changes made after it is back: 10 creates, 10 deletes, 10 relabels, through the same client,
  // whose pooled keep-alive connections died with the old apiserver: the transport must notice
  // and not write a POST into one of them.
  for (int i = kInitial; i < kInitial + kAdded; ++i) {
    auto created = client->Create(nodes, NodeBody(i));
    INFO(created.status().ToString());
    REQUIRE(created.ok());
  }
  for (int i = 0; i < 10; ++i) {
    auto deleted = client->Delete(NodePath(i));
    INFO(deleted.status().ToString());
    REQUIRE(deleted.ok());
  }
  for (int i = 10; i < 20; ++i) {
    auto patched = client->Patch(NodePath(i), PatchType::kMerge, R"({"metadata":{"labels":{"relabelled":"yes"}}})");
    INFO(patched.status().ToString());
    REQUIRE(patched.ok());
  }

  // The store converges to a fresh LIST: same names, same resourceVersions.
  std::optional<std::map<std::string, std::string>> want;
  std::map<std::string, std::string> got;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool converged = false;
  while (std::chrono::steady_clock::now() < deadline) {
    want = ListNow(*client);
    got = StoreNow(reflector);
    if (want.has_value() && *want == got) {
      converged = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(want.has_value());
  {
    std::string phantom, missing, stale;
    for (const auto& [name, rv] : got) {
      if (!want->contains(name)) phantom += " " + name;
      else if (want->at(name) != rv) stale += " " + name + "(" + rv + "!=" + want->at(name) + ")";
    }
    for (const auto& [name, rv] : *want) {
      if (!got.contains(name)) missing += " " + name;
    }
    INFO("phantom:" << phantom << "\nmissing:" << missing << "\nstale:" << stale);
    CHECK(converged);
  }
  CHECK(want->size() == static_cast<std::size_t>(kInitial + kAdded - 10));
  for (int i = 0; i < 10; ++i) CHECK_FALSE(reflector.Get(NodeName(i)).has_value());
  for (int i = 10; i < 20; ++i) {
    auto node = reflector.Get(NodeName(i));
    REQUIRE(node.has_value());
    CHECK(node->metadata.labels.Get("relabelled") == std::optional<std::string_view>("yes"));
  }
  for (int i = kInitial; i < kInitial + kAdded; ++i) CHECK(reflector.Get(NodeName(i)).has_value());
  const auto stats = reflector.stats();
  INFO("rewatches=" << stats.rewatches << " relists=" << stats.relists);
  CHECK(stats.rewatches + stats.relists >= 1);
  CHECK(stats.decode_errors == 0);
  reflector.Stop();

  for (int i = 0; i < kInitial + kAdded; ++i) (void)client->Delete(NodePath(i));
}
