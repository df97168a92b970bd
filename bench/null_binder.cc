// ksched-null-binder: the API server's binding ceiling with no scheduling logic (issue #7).
//
// It does what a scheduler does on the wire and nothing else: list+watch the nodes and the pending
// pods (client::Reflector, as the daemon's informers), and POST a Binding for each pending pod of
// its scheduler name (RestClient::CreateBinding), choosing nodes round-robin, with `--workers`
// bindings in flight at once (the daemon's binding pool has 32 threads) through the same client
// settings as the daemon (NewRestClient from the kubeconfig; QPS/burst from the flags, 5000/5000 by
// default as scheduler_perf uses; Bindings in protobuf, the daemon's default content type, unless
// --kube-api-content-type says "application/json"). No capacity is checked: the figure it gives is how fast this API
// server accepts bindings from this client, the upper bound for any scheduler on the same machine.
//
// Usage: ksched-null-binder --kubeconfig FILE [--qps 5000] [--burst 5000] [--workers 32]
//                           [--scheduler-name default-scheduler] [--node-label-selector SEL]
//                           [--kube-api-content-type application/vnd.kubernetes.protobuf]
// Runs until SIGTERM/SIGINT; then prints one line of totals and exits 0. Prints "null-binder:
// ready" on stderr once both informers have synced (the benchmark harness waits for it).
// Exit 1 with one line on bad flags or an unusable kubeconfig.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "api/node.h"
#include "api/pod.h"
#include "client/api_error.h"
#include "client/build_config.h"
#include "client/new_rest_client.h"
#include "client/object_encoding.h"
#include "client/reflector.h"
#include "client/rest_client.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;

struct Flags {
  std::string kubeconfig;
  float qps = 5000.0F;
  int burst = 5000;
  int workers = 32;
  std::string scheduler_name = "default-scheduler";
  std::string node_label_selector;
  std::string content_type = "application/vnd.kubernetes.protobuf";
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "ksched-null-binder: %s\n", message.c_str());
  std::exit(1);
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    const std::size_t eq = arg.find('=');
    bool has_value = false;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
      has_value = true;
    }
    auto next = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) Die("flag " + arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--kubeconfig") {
        flags.kubeconfig = next();
      } else if (arg == "--qps") {
        flags.qps = std::stof(next());
      } else if (arg == "--burst") {
        flags.burst = std::stoi(next());
      } else if (arg == "--workers") {
        flags.workers = std::stoi(next());
      } else if (arg == "--scheduler-name") {
        flags.scheduler_name = next();
      } else if (arg == "--node-label-selector") {
        flags.node_label_selector = next();
      } else if (arg == "--kube-api-content-type") {
        flags.content_type = next();
        if (absl::Status supported = ksched::client::CheckContentType(flags.content_type); !supported.ok()) {
          Die("--kube-api-content-type: " + std::string(supported.message()));
        }
      } else if (arg == "-h" || arg == "--help") {
        std::printf(
            "usage: ksched-null-binder --kubeconfig FILE [--qps 5000] [--burst 5000] [--workers 32]\n"
            "                          [--scheduler-name default-scheduler] [--node-label-selector SEL]\n"
            "                          [--kube-api-content-type application/vnd.kubernetes.protobuf]\n");
        std::exit(0);
      } else {
        Die("unknown flag " + arg);
      }
    } catch (const std::exception&) {
      Die("flag " + arg + ": not a number: " + value);
    }
  }
  if (flags.kubeconfig.empty()) Die("--kubeconfig is required");
  if (flags.workers < 1) Die("--workers must be >= 1");
  return flags;
}

// The pods to bind, and the nodes to bind them to. Guarded by mu.
class Work {
 public:
  void AddNode(const std::string& name) {
    std::lock_guard lock(mu_);
    nodes_.push_back(name);
    cv_.notify_all();
  }
  void RemoveNode(const std::string& name) {
    std::lock_guard lock(mu_);
    std::erase(nodes_, name);
  }
  void AddPod(const Pod& pod) {
    std::lock_guard lock(mu_);
    pending_.push_back(Item{pod.metadata.namespace_, pod.metadata.name, pod.metadata.uid, 0});
    cv_.notify_one();
  }
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }

  struct Item {
    std::string namespace_name;
    std::string name;
    std::string uid;
    int attempts = 0;
  };
  // Blocks until a pod and at least one node are there; false once closed. Picks the next node
  // round-robin.
  bool Next(Item& item, std::string& node) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return closed_ || (!pending_.empty() && !nodes_.empty()); });
    if (closed_) return false;
    item = std::move(pending_.front());
    pending_.pop_front();
    node = nodes_[next_node_++ % nodes_.size()];
    return true;
  }
  void Retry(Item item) {
    std::lock_guard lock(mu_);
    pending_.push_back(std::move(item));
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> pending_;        // guarded by mu_
  std::vector<std::string> nodes_;  // guarded by mu_
  std::size_t next_node_ = 0;       // guarded by mu_
  bool closed_ = false;             // guarded by mu_
};

class PodHandler final : public ksched::client::ReflectorHandler<Pod> {
 public:
  PodHandler(Work& work, std::string scheduler_name) : work_(work), scheduler_name_(std::move(scheduler_name)) {}
  // Only adds: the selector keeps unbound pods, and an update of a pending pod (a status patch)
  // must not queue it twice.
  void OnAdd(const Pod& pod) override {
    if (pod.spec.node_name.empty() && pod.spec.scheduler_name == scheduler_name_ &&
        !pod.metadata.deletion_timestamp.has_value()) {
      work_.AddPod(pod);
    }
  }

 private:
  Work& work_;
  std::string scheduler_name_;
};

class NodeHandler final : public ksched::client::ReflectorHandler<Node> {
 public:
  explicit NodeHandler(Work& work) : work_(work) {}
  void OnAdd(const Node& node) override { work_.AddNode(node.metadata.name); }
  void OnDelete(const Node& node) override { work_.RemoveNode(node.metadata.name); }

 private:
  Work& work_;
};

std::atomic<bool> g_stop{false};
extern "C" void OnSignal(int /*signal*/) { g_stop.store(true); }

}  // namespace

int main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  absl::StatusOr<ksched::client::RestConfig> config =
      ksched::client::BuildConfigFromFlags("", flags.kubeconfig);
  if (!config.ok()) Die(std::string(config.status().message()));
  config->qps = flags.qps;
  config->burst = flags.burst;
  config->content_type = flags.content_type;
  absl::StatusOr<std::shared_ptr<ksched::client::RestClient>> client = ksched::client::NewRestClient(*config);
  if (!client.ok()) Die(std::string(client.status().message()));

  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);

  Work work;
  ksched::client::ReflectorOptions node_options;
  node_options.path = "/api/v1/nodes";
  node_options.label_selector = flags.node_label_selector;
  ksched::client::Reflector<Node> nodes(*client, node_options, std::make_shared<NodeHandler>(work));
  ksched::client::ReflectorOptions pod_options;
  pod_options.path = "/api/v1/pods";
  pod_options.field_selector = "spec.nodeName=,status.phase!=Succeeded,status.phase!=Failed";
  ksched::client::Reflector<Pod> pods(*client, pod_options,
                                      std::make_shared<PodHandler>(work, flags.scheduler_name));

  std::atomic<std::uint64_t> bound{0};
  std::atomic<std::uint64_t> conflicts{0};
  std::atomic<std::uint64_t> failures{0};
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(flags.workers));
  for (int i = 0; i < flags.workers; ++i) {
    workers.emplace_back([&] {
      Work::Item item;
      std::string node;
      while (work.Next(item, node)) {
        const absl::Status status =
            (*client)->CreateBinding(item.namespace_name, item.name, item.uid, node);
        if (status.ok()) {
          bound.fetch_add(1);
        } else if (ksched::client::HttpStatusOf(status) == 409 || ksched::client::HttpStatusOf(status) == 404) {
          conflicts.fetch_add(1);  // already bound by someone, or gone: nothing to do
        } else {
          failures.fetch_add(1);
          std::fprintf(stderr, "ksched-null-binder: binding %s/%s to %s: %s\n", item.namespace_name.c_str(),
                       item.name.c_str(), node.c_str(), std::string(status.message()).c_str());
          if (++item.attempts < 5) work.Retry(std::move(item));
        }
      }
    });
  }

  nodes.Start();
  pods.Start();
  while (!g_stop.load() && !(nodes.HasSynced() && pods.HasSynced())) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!g_stop.load()) std::fprintf(stderr, "null-binder: ready (%zu nodes)\n", nodes.size());
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));

  pods.Stop();
  nodes.Stop();
  work.Close();
  for (std::thread& worker : workers) worker.join();
  std::fprintf(stderr, "null-binder: stopped: %llu bound, %llu conflicts, %llu failures\n",
               static_cast<unsigned long long>(bound.load()), static_cast<unsigned long long>(conflicts.load()),
               static_cast<unsigned long long>(failures.load()));
  return 0;
}
