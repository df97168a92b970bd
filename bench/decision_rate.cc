// ksched_decision_rate: the in-process decision rate (issue #7): scheduling decisions per second
// with every compiled-in default plugin, no API server.
//
// For each node count: a scheduler Cache holding that many scheduler_perf nodes (templates/
// node-default.yaml: 4 CPU, 32Gi, 110 pods; hostname/os/arch labels, zone labels with --zones) and
// `existing` scheduler_perf pods already bound round-robin (templates/pod-default.yaml: one pause
// container, 100m CPU, 500Mi, containerPort 80). Then N pending pods, each through what one
// scheduling cycle of the daemon does (in_process_scheduler.h, after scheduler/scheduler.cc
// SchedulingCycle): UpdateSnapshot, PreFilter / Filter over every node / PreScore / Score /
// NormalizeScore / select host (ScheduleAlgorithm, percentageOfNodesToScore 100 so every feasible
// node is scored), AssumePod, Reserve, Permit; then the informer's confirmation (Cache::AddPod of
// the bound pod). No queue, no binding call, no events. The first `--warmup` decisions are not
// timed. After the run (untimed) the cache is checked: a node holding more than its allocatable
// fails the benchmark.
//
// Usage: ksched_decision_rate [--nodes 5000,15000] [--existing-per-node 0.2] [--pods 10000]
//                             [--warmup 500] [--parallelism 16] [--percentage 100] [--zones 0]
//                             [--no-reuse]
//                             [--template default|anti-affinity|topology-spreading|replicaset]
//                             [--json FILE]
// --no-reuse turns off the reuse of per-node results across identical pods (NodeResultCache), so
// that every decision runs Filter and Score on every node.
// --template picks scheduler_perf's pod template for the existing and the pending pods:
// templates/pod-with-pod-anti-affinity.yaml (label color=green, required anti-affinity to color=green
// on kubernetes.io/hostname) or templates/pod-with-topology-spreading.yaml (label color=blue, maxSkew 5
// on topology.kubernetes.io/zone, DoNotSchedule; existing pods stay default ones, as in the workload;
// needs --zones), or `replicaset`: default pods labelled app=web and owned (controller) by the
// apps/v1 ReplicaSet "web" selecting app=web, which the daemon's own lister
// (scheduler/workload_selector_lister.h) holds, so that PodTopologySpread gives them the system
// default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) and scores them across
// all nodes every cycle, as for any Deployment's pods. Their cross-node plugins (InterPodAffinity,
// PodTopologySpread) run on every node examined in every cycle; the node-local plugins' results are
// reused as for default pods.
// Prints one line per node count: pods/s, µs per decision, feasible nodes per decision.
// Exit 1 on bad flags, a decision that fails (every pod fits by construction) or a node above its
// allocatable.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json_decode.h"
#include "api/node.h"
#include "api/pod.h"
#include "config/default_plugins.h"
#include "framework/framework.h"
#include "framework/handle.h"
#include "framework/parallelizer.h"
#include "framework/pod_info.h"
#include "in_process_scheduler.h"
#include "plugins/in_tree_registry.h"
#include "scheduler/cache.h"
#include "scheduler/schedule_algorithm.h"
#include "scheduler/workload_selector_lister.h"

namespace {

namespace fw = ksched::framework;
using ksched::api::Node;
using ksched::api::Pod;

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "ksched_decision_rate: %s\n", message.c_str());
  std::exit(1);
}

struct Flags {
  std::vector<int> nodes{5000, 15000};
  double existing_per_node = 0.2;  // SchedulingBasic: 1000 initial pods on 5000 nodes
  int pods = 10000;
  int warmup = 500;
  int parallelism = 16;  // KubeSchedulerConfiguration default
  int percentage = 100;
  int zones = 0;
  bool reuse = true;  // --no-reuse: every pod takes the full Filter/Score path
  std::string pod_template = "default";
  std::string json;
};

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) Die("flag " + arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--nodes") {
        flags.nodes.clear();
        std::stringstream list(next());
        for (std::string item; std::getline(list, item, ',');) flags.nodes.push_back(std::stoi(item));
      } else if (arg == "--existing-per-node") {
        flags.existing_per_node = std::stod(next());
      } else if (arg == "--pods") {
        flags.pods = std::stoi(next());
      } else if (arg == "--warmup") {
        flags.warmup = std::stoi(next());
      } else if (arg == "--parallelism") {
        flags.parallelism = std::stoi(next());
      } else if (arg == "--percentage") {
        flags.percentage = std::stoi(next());
      } else if (arg == "--zones") {
        flags.zones = std::stoi(next());
      } else if (arg == "--no-reuse") {
        flags.reuse = false;
      } else if (arg == "--template") {
        flags.pod_template = next();
      } else if (arg == "--json") {
        flags.json = next();
      } else {
        Die("unknown flag " + arg);
      }
    } catch (const std::invalid_argument&) {
      Die("flag " + arg + ": not a number");
    } catch (const std::out_of_range&) {
      Die("flag " + arg + ": out of range");
    }
  }
  if (flags.nodes.empty() || flags.pods < 1 || flags.warmup < 0 || flags.parallelism < 1) {
    Die("need --nodes N[,N...], --pods >= 1, --warmup >= 0, --parallelism >= 1");
  }
  if (flags.pod_template != "default" && flags.pod_template != "anti-affinity" &&
      flags.pod_template != "topology-spreading" && flags.pod_template != "replicaset") {
    Die("--template must be default, anti-affinity, topology-spreading or replicaset, not " + flags.pod_template);
  }
  if (flags.pod_template == "topology-spreading" && flags.zones < 1) Die("--template topology-spreading needs --zones");
  return flags;
}

std::shared_ptr<const Node> MakeNode(int index, int zones) {
  std::string name = "scheduler-perf-";
  name += std::to_string(index);
  std::string json = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")";
  json += name;
  json += R"(","uid":"node-uid-)";
  json += std::to_string(index);
  json += R"(","labels":{"kubernetes.io/hostname":")";
  json += name;
  json += R"(","kubernetes.io/os":"linux","kubernetes.io/arch":"amd64")";
  if (zones > 0) {
    json += R"(,"topology.kubernetes.io/zone":"zone-)";
    json += std::to_string(index % zones);
    json += '"';
  }
  json += R"(}},"spec":{},"status":{"capacity":{"pods":"110","cpu":"4","memory":"32Gi"},)";
  json += R"("allocatable":{"pods":"110","cpu":"4","memory":"32Gi"},)";
  json += R"("conditions":[{"type":"Ready","status":"True"}],"phase":"Running"}})";
  absl::StatusOr<Node> node = ksched::api::DecodeNode(json);
  if (!node.ok()) Die("node template: " + std::string(node.status().message()));
  return std::make_shared<const Node>(*std::move(node));
}

std::shared_ptr<const Pod> MakePod(const std::string& name, const std::string& node_name,
                                   std::string_view pod_template) {
  std::string json = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")";
  json += name;
  json += R"(","namespace":"sched-0","uid":"uid-)";
  json += name;
  json += R"(","creationTimestamp":"2026-01-01T00:00:00Z")";
  if (pod_template == "anti-affinity") json += R"(,"labels":{"color":"green"})";
  if (pod_template == "topology-spreading") json += R"(,"labels":{"color":"blue"})";
  if (pod_template == "replicaset") {
    json += R"(,"labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)";
    json += R"("name":"web","uid":"rs-web-uid","controller":true}])";
  }
  json += R"(},"spec":{)";
  if (pod_template == "anti-affinity") {
    json += R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)";
    json += R"({"labelSelector":{"matchLabels":{"color":"green"}},"topologyKey":"kubernetes.io/hostname"}]}},)";
  }
  if (pod_template == "topology-spreading") {
    json += R"("topologySpreadConstraints":[{"maxSkew":5,"topologyKey":"topology.kubernetes.io/zone",)";
    json += R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"color":"blue"}}}],)";
  }
  if (!node_name.empty()) {
    json += R"("nodeName":")";
    json += node_name;
    json += R"(",)";
  }
  json += R"("schedulerName":"default-scheduler","priority":0,)";
  json += R"("containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10","ports":[{"containerPort":80}],)";
  json += R"("resources":{"requests":{"cpu":"100m","memory":"500Mi"},"limits":{"cpu":"100m","memory":"500Mi"}}}]},)";
  json += R"("status":{"phase":"Pending"}})";
  absl::StatusOr<Pod> pod = ksched::api::DecodePod(json);
  if (!pod.ok()) Die("pod template: " + std::string(pod.status().message()));
  return std::make_shared<const Pod>(*std::move(pod));
}

struct RunResult {
  int nodes = 0;
  int existing = 0;
  int timed = 0;
  double seconds = 0;
  double pods_per_second = 0;
  double mean_feasible = 0;
  std::vector<std::string> plugins;
  std::vector<std::string> left_out;
  ksched::scheduler::NodeResultCache::Stats reuse;
};

RunResult RunOnce(const Flags& flags, int node_count) {
  RunResult out;
  out.nodes = node_count;
  const fw::Registry registry = ksched::plugins::NewInTreeRegistry();
  fw::ProfileConfig profile = ksched::config::DefaultProfile("default-scheduler", registry, {}, &out.left_out);
  profile.percentage_of_nodes_to_score = flags.percentage;
  for (const fw::PluginRef& plugin : profile.plugins.multi_point.enabled) out.plugins.push_back(plugin.name);

  fw::Parallelizer parallelizer(flags.parallelism);
  ksched::bench::NullClusterApi cluster_api;
  ksched::bench::NullEventRecorder recorder;
  // The ReplicaSet the `replicaset` template's pods belong to.
  ksched::scheduler::WorkloadSelectorLister selectors;
  ksched::api::ReplicaSet web;
  web.metadata.namespace_ = "sched-0";
  web.metadata.name = "web";
  web.spec.selector = ksched::api::LabelSelector{ksched::api::Labels{{"app", "web"}}, {}};
  selectors.replica_sets()->OnAddShared(std::make_shared<const ksched::api::ReplicaSet>(std::move(web)));
  fw::FrameworkServices services;
  services.spread_selector_lister = &selectors;
  services.parallelizer = &parallelizer;
  services.cluster_api = &cluster_api;
  services.event_recorder = &recorder;
  absl::StatusOr<std::unique_ptr<fw::Framework>> built = fw::Framework::Create(registry, profile, services);
  if (!built.ok()) Die("framework: " + std::string(built.status().message()));
  fw::Framework& framework = **built;

  ksched::bench::InProcessScheduler scheduler(framework, flags.percentage, 1, flags.reuse);
  ksched::scheduler::Cache& cache = scheduler.cache();
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(node_count));
  for (int i = 0; i < node_count; ++i) {
    std::shared_ptr<const Node> node = MakeNode(i, flags.zones);
    names.push_back(node->metadata.name);
    cache.AddNode(std::move(node));
  }
  out.existing = static_cast<int>(flags.existing_per_node * node_count);
  for (int i = 0; i < out.existing; ++i) {
    std::string name = "init-";
    name += std::to_string(i);
    absl::Status added = cache.AddPod(fw::PodInfo::CreateOrDie(MakePod(name, names[static_cast<std::size_t>(i) % names.size()],
                                                                flags.pod_template == "anti-affinity" ? "anti-affinity" : "default")));
    if (!added.ok()) Die("existing pod: " + std::string(added.message()));
  }
  std::vector<std::shared_ptr<const Pod>> pending;
  const int total = flags.warmup + flags.pods;
  pending.reserve(static_cast<std::size_t>(total));
  for (int i = 0; i < total; ++i) {
    std::string name = "pod-";
    name += std::to_string(i);
    pending.push_back(MakePod(name, "", flags.pod_template));
  }

  long long feasible = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  for (int i = 0; i < total; ++i) {
    if (i == flags.warmup) {
      start = std::chrono::steady_clock::now();
      feasible = 0;
    }
    const Pod& pod = *pending[static_cast<std::size_t>(i)];
    absl::StatusOr<ksched::bench::InProcessScheduler::Placement> placement = scheduler.Schedule(pod);
    if (!placement.ok()) Die("pod " + pod.metadata.name + ": " + std::string(placement.status().message()));
    const ksched::scheduler::ScheduleOutcome& outcome = placement->outcome;
    if (!outcome.status.IsSuccess()) Die("pod " + pod.metadata.name + " not scheduled: " + outcome.status.Message());
    feasible += outcome.result.feasible_nodes;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (std::optional<std::string> over = scheduler.FindNodeAboveAllocatable()) Die(*over + " (above its allocatable)");
  out.timed = flags.pods;
  out.pods_per_second = out.timed / out.seconds;
  out.mean_feasible = static_cast<double>(feasible) / out.timed;
  out.reuse = scheduler.algorithm().node_result_stats();
  return out;
}

std::string JsonList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ",";
    out += '"';
    out += items[i];
    out += '"';
  }
  out += "]";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  std::vector<RunResult> results;
  for (int node_count : flags.nodes) {
    RunResult r = RunOnce(flags, node_count);
    std::printf(
        "decision rate: %d nodes, %d existing pods, %d pods timed (+%d warm-up), parallelism %d, "
        "percentageOfNodesToScore %d, template %s: %.0f pods/s (%.1f us per decision, %.0f feasible nodes scored per pod)\n",
        r.nodes, r.existing, r.timed, flags.warmup, flags.parallelism, flags.percentage, flags.pod_template.c_str(),
        r.pods_per_second,
        1e6 * r.seconds / r.timed, r.mean_feasible);
    std::printf("  node results reused in %lld of %d cycles (%lld rebuilds, %lld nodes re-filtered, %lld raw scores computed, "
                "%lld hosts chosen from incremental totals, cross-node Filter plugins run on %lld nodes)\n",
                static_cast<long long>(r.reuse.reused_cycles), r.timed + flags.warmup,
                static_cast<long long>(r.reuse.rebuilt), static_cast<long long>(r.reuse.refreshed_nodes),
                static_cast<long long>(r.reuse.scored_nodes), static_cast<long long>(r.reuse.incremental_selections),
                static_cast<long long>(r.reuse.per_cycle_filtered_nodes));
    if (!r.left_out.empty()) {
      std::printf("  upstream default plugins not compiled in (left out): %s\n", JsonList(r.left_out).c_str());
    }
    std::fflush(stdout);
    results.push_back(std::move(r));
  }
  if (!flags.json.empty()) {
    std::ofstream out(flags.json);
    out << "{\"benchmark\":\"decision_rate\",\"reuse_node_results\":" << (flags.reuse ? "true" : "false")
        << ",\"parallelism\":" << flags.parallelism
        << ",\"percentage_of_nodes_to_score\":" << flags.percentage << ",\"template\":\"" << flags.pod_template
        << "\",\"runs\":[";
    for (std::size_t i = 0; i < results.size(); ++i) {
      const RunResult& r = results[i];
      out << (i > 0 ? "," : "") << "{\"nodes\":" << r.nodes << ",\"existing_pods\":" << r.existing
          << ",\"pods\":" << r.timed << ",\"seconds\":" << r.seconds << ",\"pods_per_second\":" << r.pods_per_second
          << ",\"mean_feasible_nodes\":" << r.mean_feasible << ",\"plugins\":" << JsonList(r.plugins)
          << ",\"left_out\":" << JsonList(r.left_out) << ",\"reused_cycles\":" << r.reuse.reused_cycles
          << ",\"rebuilds\":" << r.reuse.rebuilt << ",\"refiltered_nodes\":" << r.reuse.refreshed_nodes
          << ",\"scored_nodes\":" << r.reuse.scored_nodes
          << ",\"incremental_selections\":" << r.reuse.incremental_selections
          << ",\"per_cycle_filtered_nodes\":" << r.reuse.per_cycle_filtered_nodes << "}";
    }
    out << "]}\n";
    if (!out) Die("cannot write " + flags.json);
  }
  return 0;
}
