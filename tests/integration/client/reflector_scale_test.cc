// Reflector at scale against the real kube-apiserver: 5000 nodes and 20000 pods created from C++
// (asynchronously, ~64 requests in flight, no client-side rate limit), a Node and a Pod reflector
// sync them, then 1000 mixed pod changes (creates, label patches, deletes) must leave the pod
// reflector's store exactly equal to a fresh paginated LIST (names and resourceVersions), and the
// node reflector's count equal to `kubectl get nodes`. Prints the creation rates and the times to
// sync and to converge.
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api/json_decode.h"
#include "client/http_transport.h"
#include "client/reflector.h"
#include "client/request_options.h"
#include "client/resource_path.h"
#include "client/rest_client.h"
#include "controlplane_env.h"

using ksched::api::Node;
using ksched::api::Pod;
using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::client::HttpTransport;
using ksched::client::ListOptions;
using ksched::client::ListQuery;
using ksched::client::PatchContentType;
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

constexpr int kNodes = 5000;
constexpr int kPods = 20000;
constexpr int kInFlight = 64;
constexpr int kShards = 8;  // pods carry shard=i%8: the cleanup runs one deletecollection per shard at once
constexpr char kNamespace[] = "reflector-scale";
constexpr char kNodeSetLabel[] = "kube-scheduler-cpp.test/node-set";
constexpr char kNodeSet[] = "reflector-scale";
constexpr char kPodFieldSelector[] = "status.phase!=Succeeded,status.phase!=Failed";

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct BatchResult {
  int failed = 0;
  std::string first_error;
};

// Sends every request through DoAsync with at most kInFlight outstanding; waits for all.
BatchResult RunAll(RestClient& client, std::vector<HttpRequest> requests) {
  std::mutex mu;
  std::condition_variable cv;
  int in_flight = 0;
  BatchResult result;
  for (auto& request : requests) {
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return in_flight < kInFlight; });
      ++in_flight;
    }
    const std::string what = std::string(ksched::client::MethodName(request.method)) + " " + request.target;
    client.DoAsync(std::move(request), [&, what](absl::StatusOr<HttpResponse> response) {
      // Notified under the lock: RunAll (and its condition variable) may end as soon as it is released.
      std::lock_guard<std::mutex> lock(mu);
      --in_flight;
      if (!response.ok()) {
        if (result.failed++ == 0) result.first_error = what + ": " + response.status().ToString();
      }
      cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return in_flight == 0; });
  return result;
}

HttpRequest Request(HttpMethod method, std::string target, std::string body = {},
                    std::string content_type = "application/json") {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  if (!body.empty()) {
    request.body = std::move(body);
    request.content_type = std::move(content_type);
  }
  return request;
}

std::string NodeName(int i) { return "scale-node-" + std::to_string(i); }
std::string PodName(int i) { return "scale-pod-" + std::to_string(i); }
std::string PodsPath() { return ResourcePath().Namespace(kNamespace).Resource("pods").String(); }
std::string PodPath(int i) { return ResourcePath().Namespace(kNamespace).Resource("pods").Name(PodName(i)).String(); }

std::string NodeJson(int i) {
  const std::string name = NodeName(i);
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name + R"(",")" + kNodeSetLabel + R"(":")" + kNodeSet +
         R"("}},"spec":{},"status":{"capacity":{"cpu":"4","memory":"32Gi","pods":"110"},)"
         R"("allocatable":{"cpu":"4","memory":"32Gi","pods":"110"},)"
         R"("conditions":[{"type":"Ready","status":"True","reason":"KubeletReady"}],"phase":"Running"}})";
}

std::string PodJson(int i) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + PodName(i) + R"(","namespace":")" +
         kNamespace + R"(","labels":{"app":"scale","shard":")" + std::to_string(i % kShards) + R"("}},"spec":{"schedulerName":"no-such-scheduler",)"
         R"("terminationGracePeriodSeconds":0,"containers":[{"name":"c","image":"registry.k8s.io/pause:3.9",)"
         R"("resources":{"requests":{"cpu":"100m","memory":"500Mi"}}}]}})";
}

// name -> resourceVersion of every pod of the namespace, by a paginated LIST (pages of 500).
std::map<std::string, std::string> ListPods(RestClient& client) {
  std::map<std::string, std::string> out;
  ListOptions options;
  options.field_selector = kPodFieldSelector;
  options.limit = 500;
  while (true) {
    auto body = client.List(PodsPath(), options);
    if (!body.ok()) throw std::runtime_error(body.status().ToString());
    auto list = ksched::api::DecodeListInSitu<Pod>(*body);
    if (!list.ok()) throw std::runtime_error(list.status().ToString());
    for (const Pod& pod : list->items) out[pod.metadata.name] = pod.metadata.resource_version;
    if (list->metadata.continue_token.empty()) break;
    options.continue_token = list->metadata.continue_token;
  }
  return out;
}

std::map<std::string, std::string> StoredPods(const Reflector<Pod>& reflector) {
  std::map<std::string, std::string> out;
  for (const Pod& pod : reflector.List()) out[pod.metadata.name] = pod.metadata.resource_version;
  return out;
}

int KubectlNodeCount() {
  const ControlPlane& cp = ControlPlane::Get();
  const std::string command =
      "KUBECONFIG='" + cp["KUBECONFIG_ADMIN"] + "' '" + cp["KUBECTL"] + "' get nodes -o name | wc -l";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed: " + command);
  int count = -1;
  if (std::fscanf(pipe, "%d", &count) != 1) count = -1;
  const int rc = pclose(pipe);
  if (rc != 0) throw std::runtime_error("kubectl failed (" + std::to_string(rc) + "): " + command);
  return count;
}

}  // namespace

TEST_CASE("reflectors sync 5000 nodes and 20000 pods and converge after 1000 changes", "[scale]") {
  auto client = AdminRestClient();
  const std::string nodes_path = ResourcePath().Resource("nodes").String();
  ListOptions node_set;
  node_set.label_selector = std::string(kNodeSetLabel) + "=" + kNodeSet;

  // The namespace (no ServiceAccount admission: no default service account needed).
  {
    auto created = client->Create(ResourcePath().Resource("namespaces").String(),
                                  std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") +
                                      kNamespace + R"("}})");
    INFO(created.status().ToString());
    REQUIRE((created.ok() || created.status().code() == absl::StatusCode::kAlreadyExists));
  }

  // Creation.
  {
    std::vector<HttpRequest> requests;
    requests.reserve(kNodes);
    for (int i = 0; i < kNodes; ++i) requests.push_back(Request(HttpMethod::kPost, nodes_path, NodeJson(i)));
    const auto start = Clock::now();
    const BatchResult result = RunAll(*client, std::move(requests));
    const double seconds = SecondsSince(start);
    std::printf("[scale] created %d nodes in %.2f s (%.0f nodes/s, %d in flight)\n", kNodes, seconds,
                kNodes / seconds, kInFlight);
    std::fflush(stdout);
    INFO(result.first_error);
    REQUIRE(result.failed == 0);
  }
  {
    std::vector<HttpRequest> requests;
    requests.reserve(kPods);
    for (int i = 0; i < kPods; ++i) requests.push_back(Request(HttpMethod::kPost, PodsPath(), PodJson(i)));
    const auto start = Clock::now();
    const BatchResult result = RunAll(*client, std::move(requests));
    const double seconds = SecondsSince(start);
    std::printf("[scale] created %d pods in %.2f s (%.0f pods/s, %d in flight)\n", kPods, seconds,
                kPods / seconds, kInFlight);
    std::fflush(stdout);
    INFO(result.first_error);
    REQUIRE(result.failed == 0);
  }

  // Sync.
  auto node_handler = std::make_shared<ReflectorHandler<Node>>();
  auto pod_handler = std::make_shared<ReflectorHandler<Pod>>();
  ReflectorOptions node_options;
  node_options.path = nodes_path;
  ReflectorOptions pod_options;
  pod_options.path = PodsPath();
  pod_options.field_selector = kPodFieldSelector;
  Reflector<Node> node_reflector(client, node_options, node_handler);
  Reflector<Pod> pod_reflector(client, pod_options, pod_handler);
  {
    const auto start = Clock::now();
    node_reflector.Start();
    pod_reflector.Start();
    REQUIRE(node_reflector.WaitForSync(std::chrono::milliseconds(120'000)));
    const double node_seconds = SecondsSince(start);
    REQUIRE(pod_reflector.WaitForSync(std::chrono::milliseconds(120'000)));
    const double seconds = SecondsSince(start);
    std::printf("[scale] synced: nodes after %.2f s, pods after %.2f s (both started together)\n",
                node_seconds, seconds);
    std::fflush(stdout);
  }
  int our_nodes = 0;
  for (const Node& node : node_reflector.List()) {
    if (node.metadata.labels.Get(kNodeSetLabel) == std::optional<std::string_view>(kNodeSet)) ++our_nodes;
  }
  CHECK(our_nodes == kNodes);
  CHECK(pod_reflector.size() == static_cast<std::size_t>(kPods));

  // 1000 mixed changes, interleaved: 400 creates, 300 label patches, 300 deletes.
  {
    std::vector<HttpRequest> requests;
    for (int k = 0; k < 400; ++k) {
      requests.push_back(Request(HttpMethod::kPost, PodsPath(), PodJson(kPods + k)));
      if (k < 300) {
        requests.push_back(Request(HttpMethod::kPatch, PodPath(k),
                                   R"({"metadata":{"labels":{"updated":"yes"}}})",
                                   std::string(PatchContentType(PatchType::kMerge))));
        requests.push_back(Request(HttpMethod::kDelete, PodPath(300 + k) + "?gracePeriodSeconds=0"));
      }
    }
    REQUIRE(requests.size() == 1000);
    const auto start = Clock::now();
    const BatchResult result = RunAll(*client, std::move(requests));
    const double applied = SecondsSince(start);
    INFO(result.first_error);
    REQUIRE(result.failed == 0);

    std::map<std::string, std::string> stored, listed;
    bool converged = false;
    int rounds = 0;
    while (SecondsSince(start) < 60.0) {
      ++rounds;
      listed = ListPods(*client);
      stored = StoredPods(pod_reflector);
      if (stored == listed) {
        converged = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    const double seconds = SecondsSince(start);
    std::printf("[scale] 1000 changes applied in %.2f s; store == LIST after %.2f s (%d comparisons), "
                "%zu pods\n", applied, seconds, rounds, stored.size());
    std::fflush(stdout);
    CHECK(converged);
    CHECK(listed.size() == static_cast<std::size_t>(kPods + 400 - 300));
    CHECK(stored.size() == listed.size());
    for (int k = 0; k < 300; ++k) {
      auto pod = pod_reflector.Get(std::string(kNamespace) + "/" + PodName(k));
      REQUIRE(pod.has_value());
      CHECK(pod->metadata.labels.Get("updated") == std::optional<std::string_view>("yes"));
      CHECK_FALSE(pod_reflector.Get(std::string(kNamespace) + "/" + PodName(300 + k)).has_value());
    }
  }
  const int kubectl_nodes = KubectlNodeCount();
  std::printf("[scale] kubectl get nodes: %d, node reflector: %zu\n", kubectl_nodes, node_reflector.size());
  std::fflush(stdout);
  CHECK(static_cast<std::size_t>(kubectl_nodes) == node_reflector.size());
  CHECK(pod_reflector.stats().decode_errors == 0);
  CHECK(node_reflector.stats().decode_errors == 0);
  pod_reflector.Stop();
  node_reflector.Stop();

  // Cleanup.
  {
    // The API server deletes a collection's items one by one: a deletecollection per shard, all at
    // once, and the nodes' alongside.
    std::vector<HttpRequest> requests;
    for (int k = 0; k < kShards; ++k) {
      ListOptions shard;
      shard.label_selector = "shard=" + std::to_string(k);
      requests.push_back(Request(HttpMethod::kDelete, PodsPath() + ListQuery(shard) + "&gracePeriodSeconds=0"));
    }
    requests.push_back(Request(HttpMethod::kDelete, nodes_path + ListQuery(node_set)));
    for (auto& request : requests) request.timeout = std::chrono::milliseconds(150'000);
    const auto start = Clock::now();
    const BatchResult result = RunAll(*client, std::move(requests));
    std::printf("[scale] cleanup (deletecollection of pods in %d shards and of nodes, at once) took %.2f s\n",
                kShards, SecondsSince(start));
    std::fflush(stdout);
    INFO(result.first_error);
    CHECK(result.failed == 0);
    CHECK(ListPods(*client).empty());
  }
}
