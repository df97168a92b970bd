// PodRequestsState: CycleState data holding the pod's request of each resource a score plugin
// weighs, computed once in PreScore and read by Score for every node (NodeResourcesFit,
// NodeResourcesBalancedAllocation, Binpack). Each plugin writes it under its own key.
//
// Thread-safety: immutable once written; Score reads it concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "framework/cycle_state.h"

namespace ksched::plugins::helper {

class PodRequestsState final : public framework::StateData {
 public:
  explicit PodRequestsState(std::vector<std::int64_t> pod_requests)
      : pod_requests_(std::move(pod_requests)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PodRequestsState>(pod_requests_);
  }
  const std::vector<std::int64_t>& pod_requests() const { return pod_requests_; }

 private:
  std::vector<std::int64_t> pod_requests_;
};

}  // namespace ksched::plugins::helper
