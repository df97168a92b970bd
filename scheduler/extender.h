// Scheduler extenders (upstream framework.Extender and schedule_one.go's findNodesThatPassExtenders,
// prioritizeNodes and extendersBinding): out-of-process filters, scorers and binders a
// KubeSchedulerConfiguration lists under `extenders`, called in their configured order.
//
//   - Filter: after the Filter plugins, each interested extender with a filterVerb narrows the
//     feasible nodes in turn (the next one sees what the previous kept). Its failedNodes become
//     Unschedulable and its failedAndUnresolvableNodes UnschedulableAndUnresolvable node statuses
//     (the latter win when a node is in both), so the FitError message counts the extender's
//     reasons; when an extender removed nodes, "Extender" joins the pod's unschedulable plugins
//     (no queueing hint knows it, so only a flush or another plugin's event requeues the pod, as
//     upstream). An extender's error fails the cycle, unless the extender is ignorable (skipped).
//   - Prioritize: each interested extender with a prioritizeVerb scores the feasible nodes; a
//     node's total gains score x weight x 10 (MaxNodeScore / MaxExtenderPriority). An error only
//     loses that extender's scores. Upstream asks the extenders concurrently; here they are
//     asked in turn (the sums are the same).
//   - Bind: the first extender with a bindVerb interested in the pod binds it instead of the Bind
//     plugins; an ignorable one that fails hands over to the next, and finally to the plugins.
//   - Preempt (framework/preemption_extender.h): DefaultPreemption hands its candidates to each
//     interested extender with a preemptVerb in turn, which may drop nodes or change victims.
//   - Interest: an extender with managedResources is asked only about pods whose containers or
//     init containers request or limit one of them.
//
// Thread-safety: an Extender is called from the scheduling thread (Filter, Prioritize) and from
// binding threads (Bind) at once; implementations must allow that.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/framework.h"
#include "framework/node_info.h"
#include "scheduler/extender_answers.h"
#include "framework/preemption_extender.h"
#include "framework/running_goroutines.h"
#include "framework/status.h"
#include "scheduler/fit_error.h"

namespace ksched::scheduler {

// upstream extenderv1.MaxExtenderPriority and framework.ExtenderName.
inline constexpr std::int64_t kMaxExtenderPriority = 10;
inline constexpr std::string_view kExtenderName = "Extender";

struct ExtenderFilterResult {
  std::vector<const framework::NodeInfo*> feasible;                     // among the given nodes
  std::vector<std::pair<std::string, std::string>> failed;               // node, reason
  std::vector<std::pair<std::string, std::string>> failed_unresolvable;  // node, reason
};

// name() (the urlPrefix), IsInterested, IsIgnorable and the preemption calls come from
// framework::PreemptionExtender, through which DefaultPreemption reaches the same extenders.
class Extender : public framework::PreemptionExtender {
 public:
  virtual bool IsFilter() const = 0;
  virtual bool IsPrioritizer() const = 0;
  virtual bool IsBinder() const = 0;
  virtual std::int64_t weight() const = 0;
  // The nodes among `nodes` the extender keeps, with its reasons for the others.
  virtual absl::StatusOr<ExtenderFilterResult> Filter(const api::Pod& pod,
                                                      const std::vector<const framework::NodeInfo*>& nodes) = 0;
  // Scores in 0..kMaxExtenderPriority (as the extender answered; not checked, as upstream).
  virtual absl::StatusOr<std::vector<ExtenderHostScore>> Prioritize(
      const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes) = 0;
  virtual absl::Status Bind(const api::Pod& pod, const std::string& node_name) = 0;
};

// upstream HTTPExtender.IsInterested: no managed resources, or a container (init containers too)
// requests or limits one of `managed`.
bool PodUsesManagedResource(const api::Pod& pod, std::span<const std::string> managed);

// findNodesThatPassExtenders: narrows `feasible` and records the extenders' reasons in
// `diagnosis`. An error status (the extender's error) fails the cycle.
framework::Status FilterWithExtenders(std::span<Extender* const> extenders, const api::Pod& pod,
                                      std::vector<const framework::NodeInfo*>& feasible,
                                      Diagnosis& diagnosis);

// prioritizeNodes' extender part: asks every interested prioritizer about `nodes` and adds its
// weighted scores to the totals of `scores` (matched by node name). Each interested extender
// counts as one "prioritizing_extender" goroutine in `goroutines` (when set) while it is asked,
// prioritizer or not, as upstream starts a goroutine for each (a non-prioritizer's answers
// nothing).
void AddExtenderScores(std::span<Extender* const> extenders, const api::Pod& pod,
                       const std::vector<const framework::NodeInfo*>& nodes,
                       std::vector<framework::NodePluginScores>& scores,
                       framework::RunningGoroutines* goroutines = nullptr);

// Whether an extender binds this pod (upstream extendersBinding's choice, before its call).
bool ExtenderBindsPod(std::span<Extender* const> extenders, const api::Pod& pod);

// extendersBinding: {true, status} when an extender bound the pod (or failed to, not ignorable);
// {false, OK} when the Bind plugins must.
std::pair<bool, framework::Status> BindWithExtenders(std::span<Extender* const> extenders, const api::Pod& pod,
                                                     const std::string& node_name);

}  // namespace ksched::scheduler
