// PodHeap (upstream pkg/scheduler/backend/heap/heap_test.go).
#include "scheduler/pod_heap.h"

#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "queue_test_support.h"

namespace ksched::scheduler {
namespace {

using framework::QueuedPodInfo;
using framework::QueuedPodInfoPtr;
using testing::PodBuilder;

QueuedPodInfoPtr Queued(const std::string& name, std::int32_t priority) {
  auto pod = std::make_unique<QueuedPodInfo>();
  pod->pod_info = PodBuilder(name).Priority(priority).Info();
  return pod;
}

PodHeap ByPriority() {
  return PodHeap([](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    return a.pod().spec.priority.value_or(0) > b.pod().spec.priority.value_or(0);
  });
}

std::vector<std::string> Drain(PodHeap& heap) {
  std::vector<std::string> names;
  while (QueuedPodInfoPtr pod = heap.Pop()) names.push_back(pod->pod().metadata.name);
  return names;
}

TEST_CASE("PodHeap: pops in order", "[pod_heap]") {
  PodHeap heap = ByPriority();
  for (int p : {5, 1, 9, 3, 7, 2, 8, 6, 4}) heap.AddOrUpdate(Queued(testing::Numbered("p", p), p));
  CHECK(heap.size() == 9);
  REQUIRE(heap.Peek() != nullptr);
  CHECK(heap.Peek()->pod().metadata.name == "p9");
  CHECK(Drain(heap) == std::vector<std::string>{"p9", "p8", "p7", "p6", "p5", "p4", "p3", "p2",
                                                "p1"});
  CHECK(heap.empty());
  CHECK(heap.Pop() == nullptr);
  CHECK(heap.Peek() == nullptr);
}

TEST_CASE("PodHeap: a key already present is replaced in place", "[pod_heap]") {
  PodHeap heap = ByPriority();
  heap.AddOrUpdate(Queued("a", 1));
  heap.AddOrUpdate(Queued("b", 5));
  heap.AddOrUpdate(Queued("a", 10));
  CHECK(heap.size() == 2);
  CHECK(heap.Get("ns1/a")->pod().spec.priority == 10);
  CHECK(Drain(heap) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("PodHeap: Delete by key keeps the order of the rest", "[pod_heap]") {
  PodHeap heap = ByPriority();
  for (int p = 1; p <= 8; ++p) heap.AddOrUpdate(Queued(testing::Numbered("p", p), p));
  QueuedPodInfoPtr removed = heap.Delete("ns1/p5");
  REQUIRE(removed != nullptr);
  CHECK(removed->pod().metadata.name == "p5");
  CHECK(heap.Delete("ns1/p5") == nullptr);
  CHECK_FALSE(heap.Has("ns1/p5"));
  CHECK(heap.Has("ns1/p4"));
  CHECK(Drain(heap) == std::vector<std::string>{"p8", "p7", "p6", "p4", "p3", "p2", "p1"});
}

TEST_CASE("PodHeap: Fix restores the order after an in-place change", "[pod_heap]") {
  PodHeap heap = ByPriority();
  for (int p = 1; p <= 5; ++p) heap.AddOrUpdate(Queued(testing::Numbered("p", p), p));
  QueuedPodInfo* low = heap.Get("ns1/p1");
  REQUIRE(low != nullptr);
  low->pod_info = PodBuilder("p1").Priority(100).Info();
  heap.Fix("ns1/p1");
  heap.Fix("ns1/absent");
  CHECK(Drain(heap) == std::vector<std::string>{"p1", "p5", "p4", "p3", "p2"});
}

TEST_CASE("PodHeap: ForEach visits every pod, keys are namespace/name", "[pod_heap]") {
  PodHeap heap = ByPriority();
  heap.AddOrUpdate(Queued("a", 1));
  heap.AddOrUpdate(Queued("b", 2));
  std::set<std::string> seen;
  heap.ForEach([&](const QueuedPodInfo& pod) { seen.insert(PodQueueKey(pod.pod())); });
  CHECK(seen == std::set<std::string>{"ns1/a", "ns1/b"});
}

}  // namespace
}  // namespace ksched::scheduler
