// GPU fragmentation study (issue #6): how scoring strategies pack a stream of GPU pods onto 8-GPU
// nodes, against the offline first-fit-decreasing (FFD) bound on the same pods.
//
// In-process, no API server: for each profile a real framework runtime (framework::Framework,
// plugins from the in-tree registry) decides each pod through the daemon's own scheduling cycle
// and cache (in_process_scheduler.h): Cache::UpdateSnapshot, the scheduler's placement algorithm
// (scheduler::ScheduleAlgorithm: PreFilter, Filter over all nodes, PreScore, Score,
// normalisation, weights, seeded random tie-break among equal totals; identical pods in a row
// reuse per-node results as in the daemon), AssumePod, Reserve, Permit, and the informer's
// confirmation of the binding (Cache::AddPod); a pod leaving is the informer's delete
// (Cache::RemovePod). Every profile filters with NodeResourcesFit and scores with exactly one
// plugin, the one under study:
//
//   Binpack(gpu)              Binpack, args resources [{nvidia.com/gpu, 1}]
//   Binpack(gpu 10, cpu 1)    Binpack, args resources [{nvidia.com/gpu, 10}, {cpu, 1}] (cpu breaks
//                             the many ties between nodes with as many GPUs left)
//   Binpack(cpu, article)     Binpack with its default args (remaining cpu, the article's plugin)
//   LeastAllocated (default)  NodeResourcesFit, upstream's default strategy: cpu and memory, weight 1
//   MostAllocated             NodeResourcesFit MostAllocated: cpu and memory, weight 1
//   MostAllocated(gpu 5)      NodeResourcesFit MostAllocated: nvidia.com/gpu 5, cpu 1, memory 1
//                             (manifests/configs/gpu-binpack.yaml)
//
// Checked after every placement and departure: no node of the cache holds more than its
// allocatable (GPUs, cpu, memory, pods), and the benchmark's own per-node GPU and pod counts (what
// the tables are computed from) equal the cache's. A violation prints the profile, seed, node and
// numbers and exits 1: the tables are only printed for placements a real scheduler could make.
//
// Workload (per run, seed = run number): pods asking 1, 2, 4 or 8 GPUs (by count 40/30/20/10 %),
// drawn until their GPUs reach --load of the cluster's GPUs, in random order; each also asks for
// 1-8 cpu (uniform, independent of its GPUs) and 8Gi memory per cpu. Nodes: 8 GPUs, 96 cpu,
// 768Gi, so GPUs are the only resource that runs out.
//
// Two regimes: fill-up (pods arrive once and stay; a pod no node fits stays pending, no retry, no
// preemption) and churn (one arrival per step, each placed pod leaves after a random lifetime; a
// pod no node fits is refused), see the notes the program prints under its tables.
//
// Usage: ksched_gpu_packing_bench [--nodes 64] [--runs 10] [--load 0.8,0.95] [--arrivals 3000]
//                                 [--no-reuse]
// --no-reuse turns off the reuse of per-node results across identical pods (NodeResultCache): the
// tables must not change.
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <functional>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/quantity.h"
#include "framework/framework.h"
#include "framework/node_info.h"
#include "framework/parallelizer.h"
#include "framework/profile_config.h"
#include "in_process_scheduler.h"
#include "plugins/binpack/args.h"
#include "plugins/in_tree_registry.h"
#include "plugins/node_resources/args.h"
#include "scheduler/schedule_algorithm.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::api::Quantity;
using ksched::api::QuantityFormat;
namespace framework = ksched::framework;

constexpr std::string_view kGpu = "nvidia.com/gpu";
constexpr std::int64_t kGpusPerNode = 8;
constexpr std::int64_t kNodeCpu = 96;
constexpr std::int64_t kGi = 1024LL * 1024 * 1024;
constexpr std::int64_t kNodeMemory = 768 * kGi;
constexpr std::array<std::int64_t, 4> kSizes = {1, 2, 4, 8};
constexpr std::array<int, 4> kSizePercent = {40, 30, 20, 10};

struct PodSpec {
  std::int64_t gpus = 0;
  std::int64_t cpu = 0;  // cores
};

// The pods of one run, in arrival order.
std::vector<PodSpec> MakeWorkload(std::uint64_t seed, int nodes, double load) {
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int> size(kSizePercent.begin(), kSizePercent.end());
  std::uniform_int_distribution<std::int64_t> cpu(1, 8);
  const auto target = static_cast<std::int64_t>(load * static_cast<double>(nodes * kGpusPerNode));
  std::vector<PodSpec> pods;
  std::int64_t total = 0;
  while (total < target) {
    PodSpec pod{kSizes[static_cast<std::size_t>(size(rng))], cpu(rng)};
    total += pod.gpus;
    pods.push_back(pod);
  }
  std::shuffle(pods.begin(), pods.end(), rng);
  return pods;
}

std::shared_ptr<const Node> MakeGpuNode(int index) {
  auto node = std::make_shared<Node>();
  node->metadata.name = "gpu-" + std::to_string(index);
  ksched::api::ResourceList list;
  list.Set("cpu", Quantity::FromInt(kNodeCpu, QuantityFormat::kDecimalSI));
  list.Set("memory", Quantity::FromInt(kNodeMemory, QuantityFormat::kBinarySI));
  list.Set("pods", Quantity::FromInt(110, QuantityFormat::kDecimalSI));
  list.Set(std::string(kGpu), Quantity::FromInt(kGpusPerNode, QuantityFormat::kDecimalSI));
  node->status.capacity = list;
  node->status.allocatable = list;
  return node;
}

Pod MakeGpuPod(int index, const PodSpec& spec) {
  Pod pod;
  pod.metadata.name = "pod-" + std::to_string(index);
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + std::to_string(index);
  pod.spec.scheduler_name = "default-scheduler";
  ksched::api::Container container;
  container.name = "c";
  container.resources.requests.Set("cpu", Quantity::FromInt(spec.cpu, QuantityFormat::kDecimalSI));
  container.resources.requests.Set("memory",
                                   Quantity::FromInt(spec.cpu * 8 * kGi, QuantityFormat::kBinarySI));
  container.resources.requests.Set(std::string(kGpu),
                                   Quantity::FromInt(spec.gpus, QuantityFormat::kDecimalSI));
  container.resources.limits.Set(std::string(kGpu),
                                 Quantity::FromInt(spec.gpus, QuantityFormat::kDecimalSI));
  pod.spec.containers.push_back(std::move(container));
  return pod;
}

struct Profile {
  std::string name;
  framework::ProfileConfig config;
};

std::vector<Profile> MakeProfiles() {
  namespace nr = ksched::plugins::node_resources;
  namespace bp = ksched::plugins::binpack;
  const auto base = [](std::string_view scorer) {
    framework::ProfileConfig config;
    config.plugins.queue_sort.enabled = {{"PrioritySort", 0}};
    config.plugins.pre_filter.enabled = {{"NodeResourcesFit", 0}};
    config.plugins.filter.enabled = {{"NodeResourcesFit", 0}};
    config.plugins.pre_score.enabled = {{std::string(scorer), 0}};
    config.plugins.score.enabled = {{std::string(scorer), 1}};
    config.plugins.bind.enabled = {{"DefaultBinder", 0}};
    return config;
  };
  const auto fit = [&](std::string_view strategy, std::vector<nr::ResourceSpec> resources) {
    framework::ProfileConfig config = base("NodeResourcesFit");
    auto args = std::make_shared<nr::NodeResourcesFitArgs>();
    args->scoring_strategy.type = std::string(strategy);
    args->scoring_strategy.resources = std::move(resources);
    config.plugin_args["NodeResourcesFit"] = args;
    return config;
  };
  const auto binpack = [&](std::vector<bp::BinpackResource> resources) {
    framework::ProfileConfig config = base("Binpack");
    auto args = std::make_shared<bp::BinpackArgs>();
    args->resources = std::move(resources);
    config.plugin_args["Binpack"] = args;
    return config;
  };
  return {
      {"Binpack(gpu)", binpack({{std::string(kGpu), 1}})},
      {"Binpack(gpu 10, cpu 1)", binpack({{std::string(kGpu), 10}, {"cpu", 1}})},
      {"Binpack(cpu, article)", binpack(bp::BinpackArgs::DefaultResources())},
      {"LeastAllocated (default)", fit(nr::kLeastAllocated, nr::DefaultResourceSpecs())},
      {"MostAllocated", fit(nr::kMostAllocated, nr::DefaultResourceSpecs())},
      {"MostAllocated(gpu 5)",
       fit(nr::kMostAllocated, {{std::string(kGpu), 5}, {"cpu", 1}, {"memory", 1}})},
  };
}

// The state of the cluster after a stream, and what happened on the way.
struct Outcome {
  std::vector<std::int64_t> used;  // GPUs per node
  std::vector<int> pods_on;        // pods per node
  std::vector<std::int64_t> pending_sizes;
  int eight_refused_with_room = 0;  // 8-GPU pods refused while >= 8 GPUs were free in total
  std::int64_t requested_gpus = 0;
};

struct Metrics {
  double nodes_in_use = 0;
  double stranded = 0;         // free GPUs on nodes in use
  double stranded_pending = 0;  // free GPUs on nodes with less free than the smallest pending pod
  double eight_refused = 0;
  double pending = 0;
  double placed_gpu_percent = 0;  // of the requested GPUs
};

Metrics Measure(const Outcome& outcome) {
  Metrics m;
  std::int64_t smallest_pending = kGpusPerNode + 1;
  for (std::int64_t size : outcome.pending_sizes) smallest_pending = std::min(smallest_pending, size);
  std::int64_t placed = 0;
  for (std::size_t i = 0; i < outcome.used.size(); ++i) {
    const std::int64_t free = kGpusPerNode - outcome.used[i];
    placed += outcome.used[i];
    if (outcome.pods_on[i] > 0) {
      m.nodes_in_use += 1;
      m.stranded += static_cast<double>(free);
    }
    if (!outcome.pending_sizes.empty() && free < smallest_pending) {
      m.stranded_pending += static_cast<double>(free);
    }
  }
  m.eight_refused = outcome.eight_refused_with_room;
  m.pending = static_cast<double>(outcome.pending_sizes.size());
  m.placed_gpu_percent =
      100.0 * static_cast<double>(placed) / static_cast<double>(outcome.requested_gpus);
  return m;
}

std::int64_t FreeTotal(const std::vector<std::int64_t>& used) {
  return static_cast<std::int64_t>(used.size()) * kGpusPerNode -
         std::accumulate(used.begin(), used.end(), std::int64_t{0});
}

// Changes (placements and departures) checked against the cache over the whole program.
std::int64_t& CheckedChanges() {
  static std::int64_t count = 0;
  return count;
}

// The index of node "gpu-<index>".
int NodeIndex(std::string_view name) {
  int index = -1;
  const std::string_view digits = name.substr(name.find('-') + 1);
  std::from_chars(digits.data(), digits.data() + digits.size(), index);
  return index;
}

// One profile's runtime over N empty GPU nodes: pods go through the daemon's scheduling cycle and
// cache (InProcessScheduler) and stay until removed. After every change the cache is checked (see
// the header comment); a failure ends the program.
class Cluster {
 public:
  Cluster(const framework::Registry& registry, const Profile& profile, int nodes,
          std::uint64_t seed, framework::Parallelizer& parallelizer, bool reuse_node_results)
      : profile_name_(profile.name),
        seed_(seed),
        runtime_(MakeRuntime(registry, profile, parallelizer)),
        scheduler_(*runtime_, /*percentage_of_nodes_to_score=*/0, seed, reuse_node_results) {
    for (int i = 0; i < nodes; ++i) scheduler_.cache().AddNode(MakeGpuNode(i));
    used_.assign(static_cast<std::size_t>(nodes), 0);
    pods_on_.assign(static_cast<std::size_t>(nodes), 0);
  }

  // The node index the pod went to, or -1 when no node fits.
  int Place(int index, const PodSpec& spec) {
    const Pod pod = MakeGpuPod(index, spec);
    absl::StatusOr<ksched::bench::InProcessScheduler::Placement> placement =
        scheduler_.Schedule(pod);
    if (!placement.ok()) {
      Fail("pod " + pod.metadata.name + ": " + std::string(placement.status().message()));
    }
    const std::string& host = placement->outcome.result.suggested_host;
    if (host.empty()) {
      if (placement->outcome.status.code() == framework::Code::kError) {
        Fail("pod " + pod.metadata.name + ": " + placement->outcome.status.Message());
      }
      return -1;
    }
    const int node = NodeIndex(host);
    used_[static_cast<std::size_t>(node)] += spec.gpus;
    pods_on_[static_cast<std::size_t>(node)] += 1;
    CheckAgainstCache("placing", pod.metadata.name, spec, host);
    return node;
  }

  void Remove(int index, int node, const PodSpec& spec) {
    // The informer's delete carries the pod as bound.
    Pod pod = MakeGpuPod(index, spec);
    pod.spec.node_name = "gpu-" + std::to_string(node);
    if (absl::Status removed = scheduler_.Remove(pod); !removed.ok()) {
      Fail("removing pod " + pod.metadata.name + ": " + std::string(removed.message()));
    }
    used_[static_cast<std::size_t>(node)] -= spec.gpus;
    pods_on_[static_cast<std::size_t>(node)] -= 1;
    CheckAgainstCache("removing", pod.metadata.name, spec, pod.spec.node_name);
  }

  const std::vector<std::int64_t>& used() const { return used_; }
  const std::vector<int>& pods_on() const { return pods_on_; }

 private:
  std::unique_ptr<framework::Framework> MakeRuntime(const framework::Registry& registry,
                                                   const Profile& profile,
                                                   framework::Parallelizer& parallelizer) {
    framework::FrameworkServices services;
    services.parallelizer = &parallelizer;
    services.cluster_api = &cluster_api_;
    services.event_recorder = &events_;
    auto runtime = framework::Framework::Create(registry, profile.config, services);
    if (!runtime.ok()) {
      std::fprintf(stderr, "profile %s: %s\n", profile.name.c_str(),
                   std::string(runtime.status().message()).c_str());
      std::exit(1);
    }
    return *std::move(runtime);
  }

  [[noreturn]] void Fail(const std::string& message) const {
    std::fprintf(stderr, "ksched_gpu_packing_bench: profile %s, seed %llu: %s\n",
                 profile_name_.c_str(), static_cast<unsigned long long>(seed_), message.c_str());
    std::exit(1);
  }

  // No node above its allocatable, and used_ / pods_on_ equal the cache's NodeInfos.
  void CheckAgainstCache(const char* change, const std::string& pod, const PodSpec& spec,
                         const std::string& host) const {
    ++CheckedChanges();
    const auto fail = [&](const std::string& what) {
      std::string message = "after ";
      message.append(change).append(" ").append(pod).append(" (");
      message.append(std::to_string(spec.gpus)).append(" GPUs, ").append(std::to_string(spec.cpu));
      message.append(" cpu) on ").append(host).append(": ").append(what);
      Fail(message);
    };
    if (std::optional<std::string> over = scheduler_.FindNodeAboveAllocatable()) {
      fail(*over + " (above its allocatable)");
    }
    std::optional<std::string> mismatch;
    std::size_t nodes = 0;
    scheduler_.cache().ForEachNodeInfo([&](const framework::NodeInfo& info) {
      if (mismatch.has_value() || info.node() == nullptr) return;
      ++nodes;
      const int node = NodeIndex(info.name());
      if (node < 0 || static_cast<std::size_t>(node) >= used_.size()) {
        mismatch = "unknown node " + info.name();
        return;
      }
      const std::int64_t gpus = info.requested().Scalar(kGpu);
      const auto pods = static_cast<std::int64_t>(info.pods().size());
      if (gpus == used_[static_cast<std::size_t>(node)] &&
          pods == pods_on_[static_cast<std::size_t>(node)]) {
        return;
      }
      mismatch = "node " + info.name();
      mismatch->append(": the cache has ").append(std::to_string(gpus));
      mismatch->append(" GPUs requested by ");
      mismatch->append(std::to_string(pods)).append(" pods, the benchmark counted ");
      mismatch->append(std::to_string(used_[static_cast<std::size_t>(node)])).append(" by ");
      mismatch->append(std::to_string(pods_on_[static_cast<std::size_t>(node)]));
    });
    if (!mismatch.has_value() && nodes != used_.size()) {
      mismatch = "the cache has " + std::to_string(nodes) + " nodes, the benchmark " +
                 std::to_string(used_.size());
    }
    if (mismatch.has_value()) fail(*mismatch);
  }

  std::string profile_name_;
  std::uint64_t seed_;
  ksched::bench::NullClusterApi cluster_api_;  // services the runtime borrows
  ksched::bench::NullEventRecorder events_;
  std::unique_ptr<framework::Framework> runtime_;
  ksched::bench::InProcessScheduler scheduler_;
  std::vector<std::int64_t> used_;  // GPUs per node
  std::vector<int> pods_on_;
};

// The fill-up stream through one profile: pods arrive once and stay.
Outcome RunProfile(const framework::Registry& registry, const Profile& profile,
                   const std::vector<PodSpec>& pods, int nodes, std::uint64_t seed,
                   framework::Parallelizer& parallelizer, bool reuse_node_results) {
  Cluster cluster(registry, profile, nodes, seed, parallelizer, reuse_node_results);
  Outcome outcome;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    outcome.requested_gpus += pods[i].gpus;
    if (cluster.Place(static_cast<int>(i), pods[i]) < 0) {
      if (pods[i].gpus == kGpusPerNode && FreeTotal(cluster.used()) >= kGpusPerNode) {
        ++outcome.eight_refused_with_room;
      }
      outcome.pending_sizes.push_back(pods[i].gpus);
    }
  }
  outcome.used = cluster.used();
  outcome.pods_on = cluster.pods_on();
  return outcome;
}

// Offline first-fit decreasing on the same pods and nodes: the bound the online stream is set
// against (for sizes that divide 8, FFD is optimal: every pod fits when the GPUs suffice, on
// ceil(total / 8) nodes).
Outcome RunFirstFitDecreasing(std::vector<PodSpec> pods, int nodes) {
  std::stable_sort(pods.begin(), pods.end(),
                   [](const PodSpec& a, const PodSpec& b) { return a.gpus > b.gpus; });
  Outcome outcome;
  outcome.used.assign(static_cast<std::size_t>(nodes), 0);
  outcome.pods_on.assign(static_cast<std::size_t>(nodes), 0);
  for (const PodSpec& pod : pods) {
    outcome.requested_gpus += pod.gpus;
    bool placed = false;
    for (std::size_t n = 0; n < outcome.used.size() && !placed; ++n) {
      if (outcome.used[n] + pod.gpus <= kGpusPerNode) {
        outcome.used[n] += pod.gpus;
        outcome.pods_on[n] += 1;
        placed = true;
      }
    }
    if (!placed) {
      if (pod.gpus == kGpusPerNode && FreeTotal(outcome.used) >= kGpusPerNode) {
        ++outcome.eight_refused_with_room;
      }
      outcome.pending_sizes.push_back(pod.gpus);
    }
  }
  return outcome;
}

template <typename M>
struct Summary {
  std::vector<M> runs;
  double Mean(double M::*field) const {
    double sum = 0;
    for (const M& m : runs) sum += m.*field;
    return runs.empty() ? 0 : sum / static_cast<double>(runs.size());
  }
  std::string Cell(double M::*field, int precision = 1) const {
    double lo = 1e300, hi = -1e300;
    for (const M& m : runs) {
      lo = std::min(lo, m.*field);
      hi = std::max(hi, m.*field);
    }
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%.*f (%.*f–%.*f)", precision, Mean(field), precision, lo,
                  precision, hi);
    return buffer;
  }
};

// --- churn: arrivals and departures -------------------------------------------------------------

struct ChurnArrival {
  PodSpec spec;
  int lifetime = 0;  // in arrivals
};

// Mean GPUs per pod of the size mix.
double MeanPodGpus() {
  double sum = 0;
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    sum += static_cast<double>(kSizes[i] * kSizePercent[i]) / 100.0;
  }
  return sum;
}

// One arrival per step; lifetimes uniform in [1, 2T - 1] with T chosen so that the GPUs asked
// for by the pods alive at once average `load` of the cluster (Little's law).
int MeanLifetime(int nodes, double load) {
  return std::max(1, static_cast<int>(load * static_cast<double>(nodes * kGpusPerNode) /
                                      MeanPodGpus()));
}

std::vector<ChurnArrival> MakeChurnWorkload(std::uint64_t seed, int nodes, double load,
                                            int arrivals) {
  std::mt19937_64 rng(seed * 7919 + 17);
  std::discrete_distribution<int> size(kSizePercent.begin(), kSizePercent.end());
  std::uniform_int_distribution<std::int64_t> cpu(1, 8);
  std::uniform_int_distribution<int> lifetime(1, 2 * MeanLifetime(nodes, load) - 1);
  std::vector<ChurnArrival> out;
  out.reserve(static_cast<std::size_t>(arrivals));
  for (int i = 0; i < arrivals; ++i) {
    ChurnArrival arrival;
    arrival.spec = PodSpec{kSizes[static_cast<std::size_t>(size(rng))], cpu(rng)};
    arrival.lifetime = lifetime(rng);
    out.push_back(arrival);
  }
  return out;
}

// Nodes an offline first-fit decreasing packing of these GPU counts needs (unbounded nodes).
int FirstFitDecreasingNodes(const std::array<int, 4>& running_by_size) {
  std::vector<std::int64_t> free;  // per opened node
  for (std::size_t k = kSizes.size(); k-- > 0;) {
    for (int n = 0; n < running_by_size[k]; ++n) {
      auto it = std::find_if(free.begin(), free.end(),
                             [&](std::int64_t f) { return f >= kSizes[k]; });
      if (it == free.end()) {
        free.push_back(kGpusPerNode - kSizes[k]);
      } else {
        *it -= kSizes[k];
      }
    }
  }
  return static_cast<int>(free.size());
}

struct ChurnMetrics {
  // Averages over the sampled steps (after the warm-up):
  double nodes_in_use = 0;
  double ffd_nodes = 0;  // FFD of the pods running at that step
  double stranded = 0;   // free GPUs on nodes in use
  double gpus_in_use_percent = 0;
  // Counts over the arrivals after the warm-up:
  double refused = 0;
  double eight_refused_with_room = 0;
  double eight_arrived = 0;
};

ChurnMetrics RunChurn(const framework::Registry& registry, const Profile& profile,
                      const std::vector<ChurnArrival>& arrivals, int nodes, int warmup,
                      std::uint64_t seed, framework::Parallelizer& parallelizer,
                      bool reuse_node_results) {
  Cluster cluster(registry, profile, nodes, seed, parallelizer, reuse_node_results);
  struct Departure {
    int end;
    int index;
    int node;
    bool operator>(const Departure& other) const {
      return end != other.end ? end > other.end : index > other.index;
    }
  };
  std::priority_queue<Departure, std::vector<Departure>, std::greater<>> departures;
  std::array<int, 4> running_by_size{};
  const auto size_index = [](std::int64_t gpus) {
    return static_cast<std::size_t>(std::find(kSizes.begin(), kSizes.end(), gpus) - kSizes.begin());
  };
  ChurnMetrics m;
  int samples = 0;
  for (int t = 0; t < static_cast<int>(arrivals.size()); ++t) {
    while (!departures.empty() && departures.top().end <= t) {
      const Departure d = departures.top();
      departures.pop();
      const PodSpec& spec = arrivals[static_cast<std::size_t>(d.index)].spec;
      cluster.Remove(d.index, d.node, spec);
      --running_by_size[size_index(spec.gpus)];
    }
    const ChurnArrival& arrival = arrivals[static_cast<std::size_t>(t)];
    const bool counted = t >= warmup;
    const std::int64_t free_before = FreeTotal(cluster.used());
    const int node = cluster.Place(t, arrival.spec);
    if (node >= 0) {
      departures.push(Departure{t + arrival.lifetime, t, node});
      ++running_by_size[size_index(arrival.spec.gpus)];
    }
    if (!counted) continue;
    if (arrival.spec.gpus == kGpusPerNode) {
      m.eight_arrived += 1;
      if (node < 0 && free_before >= kGpusPerNode) m.eight_refused_with_room += 1;
    }
    if (node < 0) m.refused += 1;
    ++samples;
    std::int64_t in_use = 0;
    std::int64_t stranded = 0;
    std::int64_t gpus = 0;
    for (std::size_t n = 0; n < cluster.used().size(); ++n) {
      gpus += cluster.used()[n];
      if (cluster.pods_on()[n] > 0) {
        ++in_use;
        stranded += kGpusPerNode - cluster.used()[n];
      }
    }
    m.nodes_in_use += static_cast<double>(in_use);
    m.stranded += static_cast<double>(stranded);
    m.ffd_nodes += FirstFitDecreasingNodes(running_by_size);
    m.gpus_in_use_percent +=
        100.0 * static_cast<double>(gpus) / static_cast<double>(nodes * kGpusPerNode);
  }
  if (samples > 0) {
    m.nodes_in_use /= samples;
    m.ffd_nodes /= samples;
    m.stranded /= samples;
    m.gpus_in_use_percent /= samples;
  }
  return m;
}

std::vector<double> ParseLoads(const std::string& text) {
  std::vector<double> loads;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) loads.push_back(std::stod(item));
  return loads;
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 64;
  int runs = 10;
  int arrivals = 3000;
  std::string load_text = "0.8,0.95";
  bool reuse_node_results = true;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--nodes") {
      nodes = std::stoi(value());
    } else if (arg == "--runs") {
      runs = std::stoi(value());
    } else if (arg == "--load") {
      load_text = value();
    } else if (arg == "--arrivals") {
      arrivals = std::stoi(value());
    } else if (arg == "--no-reuse") {
      reuse_node_results = false;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--nodes N] [--runs R] [--load L1,L2,...] [--arrivals A] "
                   "[--no-reuse]\n"
                   "  N 8-GPU nodes (default 64), R seeded runs per load (default 10), loads as "
                   "fractions of the cluster's GPUs (default 0.8,0.95), A arrivals per churn run "
                   "(default 3000); --no-reuse: every pod filters and scores every node (no "
                   "reuse of per-node results across identical pods; the decisions are the "
                   "same)\n",
                   argv[0]);
      return 2;
    }
  }
  if (nodes < 1 || runs < 1 || arrivals < 1) {
    std::fprintf(stderr, "--nodes, --runs and --arrivals must be positive\n");
    return 2;
  }

  const framework::Registry registry = ksched::plugins::NewInTreeRegistry();
  const std::vector<Profile> profiles = MakeProfiles();
  framework::Parallelizer parallelizer(1);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<double> loads = ParseLoads(load_text);

  std::printf("# GPU packing: %d nodes x %lld GPUs (96 cpu, 768Gi each), %d runs per load "
              "(seeds 1..%d)\n\nPods ask for 1, 2, 4 or 8 GPUs (40/30/20/10 %% of pods) and 1-8 "
              "cpu (uniform, independent of the GPUs), in random order. Every profile filters "
              "with NodeResourcesFit and scores with one plugin.\n\n",
              nodes, static_cast<long long>(kGpusPerNode), runs, runs);

  std::printf("## Fill-up: pods arrive once and stay\n\n");
  for (double load : loads) {
    std::vector<Summary<Metrics>> summaries(profiles.size());
    Summary<Metrics> ffd;
    double pods_mean = 0;
    for (int run = 1; run <= runs; ++run) {
      const std::vector<PodSpec> pods = MakeWorkload(static_cast<std::uint64_t>(run), nodes, load);
      pods_mean += static_cast<double>(pods.size()) / runs;
      for (std::size_t p = 0; p < profiles.size(); ++p) {
        summaries[p].runs.push_back(Measure(
            RunProfile(registry, profiles[p], pods, nodes, static_cast<std::uint64_t>(run),
                       parallelizer, reuse_node_results)));
      }
      ffd.runs.push_back(Measure(RunFirstFitDecreasing(pods, nodes)));
    }
    std::printf("### Pods asking for %.0f %% of the cluster's GPUs (%.1f pods per run)\n\n",
                load * 100, pods_mean);
    std::printf("| profile | nodes in use | stranded GPUs | stranded for pending pods | 8-GPU pods "
                "refused with >= 8 GPUs free | pods left pending | requested GPUs placed %% |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    const auto row = [](const std::string& name, const Summary<Metrics>& s) {
      std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", name.c_str(),
                  s.Cell(&Metrics::nodes_in_use).c_str(), s.Cell(&Metrics::stranded).c_str(),
                  s.Cell(&Metrics::stranded_pending).c_str(),
                  s.Cell(&Metrics::eight_refused).c_str(), s.Cell(&Metrics::pending).c_str(),
                  s.Cell(&Metrics::placed_gpu_percent).c_str());
    };
    for (std::size_t p = 0; p < profiles.size(); ++p) row(profiles[p].name, summaries[p]);
    row("offline first-fit decreasing (bound)", ffd);
    std::printf("\n");
  }
  std::printf(
      "Cells: mean over the runs (min–max), at the end of the stream. Nodes in use: nodes holding "
      "at least one pod. Stranded GPUs: free GPUs on nodes in use (a node in use can never take "
      "an 8-GPU pod, so these GPUs are lost to whole-node jobs). Stranded for pending pods: free "
      "GPUs on nodes whose free count is smaller than the smallest pod left pending (0 when "
      "nothing is pending): free capacity that none of the waiting pods can use. 8-GPU pods "
      "refused with >= 8 GPUs free: 8-GPU pods that found no node at their turn although the "
      "cluster had at least 8 free GPUs in total at that moment (fragmentation, not shortage). "
      "A pod no node fits stays pending (no retry, no preemption).\n\n");

  std::printf("## Churn: pods arrive and leave\n\n");
  for (double load : loads) {
    const int lifetime = MeanLifetime(nodes, load);
    const int warmup = std::min(arrivals / 2, 2 * lifetime);
    std::vector<Summary<ChurnMetrics>> summaries(profiles.size());
    for (int run = 1; run <= runs; ++run) {
      const std::vector<ChurnArrival> stream =
          MakeChurnWorkload(static_cast<std::uint64_t>(run), nodes, load, arrivals);
      for (std::size_t p = 0; p < profiles.size(); ++p) {
        summaries[p].runs.push_back(RunChurn(registry, profiles[p], stream, nodes, warmup,
                                             static_cast<std::uint64_t>(run), parallelizer,
                                             reuse_node_results));
      }
    }
    std::printf("### Offered load %.0f %% of the cluster's GPUs (%d arrivals per run, mean "
                "lifetime %d arrivals, first %d not measured)\n\n",
                load * 100, arrivals, lifetime, warmup);
    std::printf("| profile | nodes in use | FFD nodes for the same running pods | stranded GPUs | "
                "GPUs in use %% | pods refused | 8-GPU pods refused with >= 8 GPUs free | "
                "8-GPU pods arrived |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (std::size_t p = 0; p < profiles.size(); ++p) {
      const Summary<ChurnMetrics>& s = summaries[p];
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", profiles[p].name.c_str(),
                  s.Cell(&ChurnMetrics::nodes_in_use).c_str(),
                  s.Cell(&ChurnMetrics::ffd_nodes).c_str(),
                  s.Cell(&ChurnMetrics::stranded).c_str(),
                  s.Cell(&ChurnMetrics::gpus_in_use_percent).c_str(),
                  s.Cell(&ChurnMetrics::refused, 0).c_str(),
                  s.Cell(&ChurnMetrics::eight_refused_with_room, 0).c_str(),
                  s.Cell(&ChurnMetrics::eight_arrived, 0).c_str());
    }
    std::printf("\n");
  }
  std::printf(
      "Churn: one pod arrives per step; each placed pod leaves after its lifetime (uniform, mean "
      "as shown, chosen so that the GPUs asked for by the pods alive at once average the offered "
      "load); a pod no node fits at its arrival is refused and dropped. Nodes in use, FFD nodes, "
      "stranded GPUs (free GPUs on nodes in use) and GPUs in use: averages over the measured "
      "steps, then over the runs (min–max across runs). FFD nodes: the nodes an offline "
      "first-fit-decreasing packing of exactly the pods running at that step needs (the bound "
      "for that multiset). Refusals: counts over the measured arrivals.\n");
  std::printf(
      "\nChecked after each of the %lld placements and departures above: no node held more "
      "than its allocatable (GPUs, cpu, memory, pods) in the scheduler's cache, and the per-node "
      "GPU and pod counts the tables come from equal the cache's.\n",
      static_cast<long long>(CheckedChanges()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\n(%.1f s)\n", seconds);
  return 0;
}
