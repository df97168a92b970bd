// PrioritySort: ported from upstream queuesort/priority_sort_test.go (v1.34.4).
#include "plugins/queue_sort/priority_sort.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <optional>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::framework::PodInfo;
using ksched::framework::QueuedPodInfo;
using ksched::framework::QueueSortPlugin;
namespace queue_sort = ksched::plugins::queue_sort;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakePod;

QueuedPodInfo Queued(std::optional<std::int32_t> priority, QueuedPodInfo::Clock::time_point at) {
  auto pod = MakePod("p");
  pod.spec.priority = priority;
  QueuedPodInfo info;
  info.pod_info = PodInfo::CreateOrDie(std::make_shared<const ksched::api::Pod>(pod));
  info.timestamp = at;
  return info;
}

TEST_CASE("PrioritySort orders by priority, then by queue timestamp", "[plugins][queue_sort]") {
  FakeHandle handle;
  auto plugin = Build<QueueSortPlugin>(queue_sort::New, nullptr, handle);
  CHECK(plugin->Name() == "PrioritySort");

  const auto t1 = QueuedPodInfo::Clock::now();
  const auto t2 = t1 + std::chrono::seconds(1);
  struct Row {
    const char* name;
    QueuedPodInfo a;
    QueuedPodInfo b;
    bool a_first;
  };
  const Row rows[] = {
      {"lower priority goes after", Queued(10, t1), Queued(100, t1), false},
      {"higher priority goes first", Queued(100, t1), Queued(10, t1), true},
      {"equal priority: earlier timestamp first", Queued(100, t1), Queued(100, t2), true},
      {"equal priority: later timestamp after", Queued(100, t2), Queued(100, t1), false},
      {"equal priority and timestamp: neither first", Queued(100, t1), Queued(100, t1), false},
      {"absent priority counts as 0, above negative", Queued(std::nullopt, t2), Queued(-1, t1),
       true},
      {"absent priority counts as 0, below positive", Queued(std::nullopt, t1), Queued(1, t2),
       false},
      {"absent priority ties with 0 and falls back to time", Queued(std::nullopt, t1),
       Queued(0, t2), true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(plugin->Less(row.a, row.b) == row.a_first);
  }
}

}  // namespace
