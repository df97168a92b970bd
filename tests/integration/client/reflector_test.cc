// Reflector against the real kube-apiserver: a Node reflector lists 200 labelled nodes (pages of
// 50 here, to exercise continue tokens), reaches sync, then tracks 50 deletes and 50 label
// updates exactly.
#include "client/reflector.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "client/http_transport.h"
#include "client/resource_path.h"
#include "client/rest_client.h"
#include "controlplane_env.h"

using ksched::api::Node;
using ksched::client::HttpTransport;
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

constexpr int kNodes = 200;
constexpr char kLabel[] = "reflector-test";

std::string NodeName(int i) { return "reflector-node-" + std::to_string(i); }
std::string NodePath(int i) { return ResourcePath().Resource("nodes").Name(NodeName(i)).String(); }

class Counter : public ReflectorHandler<Node> {
 public:
  void OnAdd(const Node& node) override { Record([&] { added.insert(node.metadata.name); }); }
  void OnUpdate(const Node&, const Node& now) override {
    Record([&] {
      if (now.metadata.labels.Get("updated") == std::optional<std::string_view>("yes")) {
        updated.insert(now.metadata.name);
      }
    });
  }
  void OnDelete(const Node& last) override { Record([&] { deleted.insert(last.metadata.name); }); }

  template <typename Pred>
  bool WaitUntil(Pred pred) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(60), pred);
  }

  std::mutex mu;
  std::condition_variable cv;
  std::set<std::string> added, updated, deleted;

 private:
  template <typename F>
  void Record(F f) {
    {
      std::lock_guard<std::mutex> lock(mu);
      f();
    }
    cv.notify_all();
  }
};

}  // namespace

TEST_CASE("a Node reflector syncs 200 nodes and tracks deletes and label updates", "[reflector]") {
  auto client = AdminRestClient();
  const std::string nodes = ResourcePath().Resource("nodes").String();
  for (int i = 0; i < kNodes; ++i) {
    auto created = client->Create(nodes, R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + NodeName(i) +
                                             R"(","labels":{")" + kLabel + R"(":"yes"}}})");
    INFO(created.status().ToString());
    REQUIRE((created.ok() || created.status().code() == absl::StatusCode::kAlreadyExists));
  }

  auto counter = std::make_shared<Counter>();
  ReflectorOptions options;
  options.path = nodes;
  options.label_selector = std::string(kLabel) + "=yes";
  options.page_size = 50;
  Reflector<Node> reflector(client, options, counter);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(std::chrono::milliseconds(60'000)));
  CHECK(reflector.size() == kNodes);
  {
    std::lock_guard<std::mutex> lock(counter->mu);
    CHECK(counter->added.size() == kNodes);
  }

  for (int i = 0; i < 50; ++i) {
    auto deleted = client->Delete(NodePath(i));
    INFO(deleted.status().ToString());
    REQUIRE(deleted.ok());
  }
  for (int i = 50; i < 100; ++i) {
    auto patched = client->Patch(NodePath(i), PatchType::kMerge, R"({"metadata":{"labels":{"updated":"yes"}}})");
    INFO(patched.status().ToString());
    REQUIRE(patched.ok());
  }
  CHECK(counter->WaitUntil([&] { return counter->deleted.size() >= 50 && counter->updated.size() >= 50; }));
  {
    std::lock_guard<std::mutex> lock(counter->mu);
    CHECK(counter->deleted.size() == 50);
    CHECK(counter->updated.size() == 50);
    CHECK(counter->added.size() == kNodes);
    for (int i = 0; i < 50; ++i) CHECK(counter->deleted.contains(NodeName(i)));
    for (int i = 50; i < 100; ++i) CHECK(counter->updated.contains(NodeName(i)));
  }
  CHECK(reflector.size() == kNodes - 50);
  for (int i = 50; i < 100; ++i) {
    auto node = reflector.Get(NodeName(i));
    REQUIRE(node.has_value());
    CHECK(node->metadata.labels.Get("updated") == std::optional<std::string_view>("yes"));
  }
  CHECK_FALSE(reflector.Get(NodeName(0)).has_value());
  CHECK(reflector.stats().decode_errors == 0);
  reflector.Stop();

  for (int i = 50; i < kNodes; ++i) (void)client->Delete(NodePath(i));
}
