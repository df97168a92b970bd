#include "scheduler/extender.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace ksched::scheduler {
namespace {

bool ContainersUse(const auto& containers, std::span<const std::string> managed) {
  for (const api::Container& container : containers) {
    for (const std::string& name : managed) {
      if (container.resources.requests.Has(name) || container.resources.limits.Has(name)) return true;
    }
  }
  return false;
}

std::string PodKey(const api::Pod& pod) { return pod.metadata.namespace_ + "/" + pod.metadata.name; }

}  // namespace

bool PodUsesManagedResource(const api::Pod& pod, std::span<const std::string> managed) {
  if (managed.empty()) return true;
  return ContainersUse(pod.spec.containers, managed) || ContainersUse(pod.spec.init_containers, managed);
}

framework::Status FilterWithExtenders(std::span<Extender* const> extenders, const api::Pod& pod,
                                      std::vector<const framework::NodeInfo*>& feasible,
                                      Diagnosis& diagnosis) {
  const std::size_t before = feasible.size();
  for (Extender* extender : extenders) {
    if (feasible.empty()) break;
    if (!extender->IsFilter() || !extender->IsInterested(pod)) continue;
    absl::StatusOr<ExtenderFilterResult> result = extender->Filter(pod, feasible);
    if (!result.ok()) {
      if (extender->IsIgnorable()) {
        SPDLOG_INFO("Skipping extender as it returned error and has ignorable flag set extender=\"{}\" err=\"{}\"",
                    extender->name(), std::string(result.status().message()));
        continue;
      }
      return framework::Status::FromError(std::string(result.status().message()));
    }
    absl::flat_hash_set<std::string_view> unresolvable;
    for (const auto& [node, reason] : result->failed_unresolvable) {
      unresolvable.insert(node);
      diagnosis.node_to_status.Set(node, framework::Status(framework::Code::kUnschedulableAndUnresolvable, {reason}));
    }
    for (const auto& [node, reason] : result->failed) {
      if (unresolvable.contains(node)) continue;  // failedAndUnresolvableNodes wins
      diagnosis.node_to_status.Set(node, framework::Status(framework::Code::kUnschedulable, {reason}));
    }
    feasible = std::move(result->feasible);
  }
  // Extenders have no queueing hints: the pod waits for a flush or another rejector's event.
  if (feasible.size() != before) diagnosis.unschedulable_plugins.insert(std::string(kExtenderName));
  return framework::Status();
}

void AddExtenderScores(std::span<Extender* const> extenders, const api::Pod& pod,
                       const std::vector<const framework::NodeInfo*>& nodes,
                       std::vector<framework::NodePluginScores>& scores,
                       framework::RunningGoroutines* goroutines) {
  absl::flat_hash_map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < scores.size(); ++i) index.emplace(scores[i].node->name(), i);
  for (Extender* extender : extenders) {
    if (!extender->IsInterested(pod)) continue;
    const framework::CountedGoroutines counted(goroutines, framework::GoroutineOperation::kPrioritizingExtender);
    if (!extender->IsPrioritizer()) continue;
    absl::StatusOr<std::vector<ExtenderHostScore>> result = extender->Prioritize(pod, nodes);
    if (!result.ok()) {
      // As upstream: the other scores decide.
      SPDLOG_DEBUG("Failed to run extender's priority function. No score given by this extender. error=\"{}\" "
                   "pod=\"{}\" extender=\"{}\"",
                   std::string(result.status().message()), PodKey(pod), extender->name());
      continue;
    }
    for (const ExtenderHostScore& host : *result) {
      auto it = index.find(host.host);
      if (it == index.end()) continue;  // not a feasible node: upstream never reads its sum either
      scores[it->second].total_score +=
          host.score * extender->weight() * (framework::kMaxNodeScore / kMaxExtenderPriority);
    }
  }
}

bool ExtenderBindsPod(std::span<Extender* const> extenders, const api::Pod& pod) {
  return std::any_of(extenders.begin(), extenders.end(),
                     [&](Extender* extender) { return extender->IsBinder() && extender->IsInterested(pod); });
}

std::pair<bool, framework::Status> BindWithExtenders(std::span<Extender* const> extenders, const api::Pod& pod,
                                                     const std::string& node_name) {
  for (Extender* extender : extenders) {
    if (!extender->IsBinder() || !extender->IsInterested(pod)) continue;
    absl::Status bound = extender->Bind(pod, node_name);
    if (!bound.ok() && extender->IsIgnorable()) {
      SPDLOG_INFO("Skipping extender in bind as it returned error and has ignorable flag set extender=\"{}\" err=\"{}\"",
                  extender->name(), std::string(bound.message()));
      continue;
    }
    if (!bound.ok()) return {true, framework::Status::FromError(std::string(bound.message()))};
    return {true, framework::Status()};
  }
  return {false, framework::Status()};
}

}  // namespace ksched::scheduler
