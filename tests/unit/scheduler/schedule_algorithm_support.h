// What the ScheduleAlgorithm tests share: the services a framework runtime borrows, snapshots of
// numbered nodes, and one scheduling decision against a snapshot.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "framework/framework.h"
#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "queue_test_support.h"
#include "scheduler/schedule_algorithm.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler::testing {

// What every runtime borrows.
struct AlgorithmServices {
  framework::Parallelizer parallelizer{4};
  FakeClusterApi cluster_api;
  FakeEventRecorder recorder;

  framework::FrameworkServices Get() {
    framework::FrameworkServices services;
    services.parallelizer = &parallelizer;
    services.cluster_api = &cluster_api;
    services.event_recorder = &recorder;
    return services;
  }
};

// A snapshot of nodes named <prefix>1 .. <prefix>n (or 0 .. n-1 with prefix "").
inline std::unique_ptr<framework::Snapshot> SnapshotOf(int n, std::string_view prefix = "node") {
  std::vector<std::shared_ptr<const api::Node>> nodes;
  for (int i = 0; i < n; ++i) nodes.push_back(MakeNode(Numbered(prefix, prefix.empty() ? i : i + 1)));
  return framework::Snapshot::FromObjects(nodes, {});
}

inline ScheduleOutcome Schedule(ScheduleAlgorithm& algorithm, framework::Framework& framework,
                                const framework::Snapshot& snapshot, const api::Pod& pod) {
  framework.SetSnapshot(&snapshot);
  framework::CycleState state;
  return algorithm.SchedulePod(framework, state, pod, snapshot);
}

}  // namespace ksched::scheduler::testing
