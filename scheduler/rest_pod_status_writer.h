// RestPodStatusWriter: PodStatusWriter over the REST client. Patches run on a small worker pool so
// the scheduling thread never waits; a patch that fails is logged and counted (the next failed
// attempt writes the condition again).
//
// Thread-safety: UpdatePodScheduledCondition and SetNominatedNodeName from any thread. The destructor finishes the queued
// patches.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "client/rest_client.h"
#include "scheduler/scheduler.h"
#include "scheduler/worker_pool.h"

namespace ksched::scheduler {

class RestPodStatusWriter final : public PodStatusWriter {
 public:
  RestPodStatusWriter(std::shared_ptr<client::RestClient> client, int threads);
  ~RestPodStatusWriter() override;

  void UpdatePodScheduledCondition(std::shared_ptr<const api::Pod> pod, api::PodCondition condition,
                                   std::optional<framework::NominatingInfo> nominating) override;
  // On the calling thread (PatchNominatedNodeName).
  absl::Status SetNominatedNodeName(const api::Pod& pod, const std::string& node_name) override;

  std::uint64_t failures() const { return failures_.load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<client::RestClient> client_;
  std::atomic<std::uint64_t> failures_{0};
  WorkerPool pool_;  // last: joined first
};

}  // namespace ksched::scheduler
