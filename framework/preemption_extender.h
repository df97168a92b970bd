// PreemptionExtender: what preemption asks of a scheduler extender with a preemptVerb (upstream
// framework.Extender's SupportsPreemption / ProcessPreemption, called by the preemption
// evaluator's callExtenders). The scheduler layer implements it over HTTP (scheduler/http_extender.h);
// DefaultPreemption reaches the configured ones through Handle::preemption_extenders().
//
// Thread-safety: ProcessPreemption is called from the scheduling thread (PostFilter); it may
// block on the extender.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/pod_info.h"

namespace ksched::framework {

class Snapshot;

// upstream extenderv1.Victims: the pods to evict on one node, with how many of them go beyond a
// PodDisruptionBudget.
struct ExtenderVictims {
  std::vector<PodInfoPtr> pods;
  std::int64_t num_pdb_violations = 0;
};
// Victims by node name (sorted, as Go writes a map).
using NodeVictims = std::map<std::string, ExtenderVictims, std::less<>>;

class PreemptionExtender {
 public:
  virtual ~PreemptionExtender() = default;
  // The extender's urlPrefix, for logs.
  virtual const std::string& name() const = 0;
  virtual bool SupportsPreemption() const = 0;
  virtual bool IsInterested(const api::Pod& pod) const = 0;
  virtual bool IsIgnorable() const = 0;
  // The candidates the extender keeps (it may drop nodes or change victims), mapped back onto the
  // pods of `snapshot`; an error names what the extender answered wrong.
  virtual absl::StatusOr<NodeVictims> ProcessPreemption(const api::Pod& pod, const NodeVictims& victims,
                                                        const Snapshot& snapshot) = 0;
};

}  // namespace ksched::framework
