// PodHeap: a binary heap of queued pods with lookup by key (upstream pkg/scheduler/backend/heap):
// the activeQ ordered by the QueueSort plugin and the backoff queues ordered by expiry. The key is
// the pod's "namespace/name" (PodQueueKey), as upstream's heap keys; adding a pod whose key is
// present replaces it in place.
//
// Ownership: owns its QueuedPodInfos; Pop and Delete hand them back.
// Thread-safety: none; the scheduling queue guards it with its lock.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/pod.h"
#include "framework/pod_info.h"

namespace ksched::scheduler {

// "namespace/name" (upstream cache.NewObjectName(ns, name).String(), klog.KObj's text).
std::string PodQueueKey(const api::Pod& pod);

class PodHeap {
 public:
  // Strict weak order: whether `a` is popped before `b`.
  using LessFn = std::function<bool(const framework::QueuedPodInfo& a,
                                    const framework::QueuedPodInfo& b)>;

  explicit PodHeap(LessFn less) : less_(std::move(less)) {}

  // Adds the pod, or replaces the pod with the same key and restores the order.
  void AddOrUpdate(framework::QueuedPodInfoPtr pod);
  // Removes and returns the pod with `key`; nullptr when absent.
  framework::QueuedPodInfoPtr Delete(std::string_view key);
  // The head; nullptr when empty.
  const framework::QueuedPodInfo* Peek() const;
  // Removes and returns the head; nullptr when empty.
  framework::QueuedPodInfoPtr Pop();
  // The pod with `key`, nullptr when absent. After changing a field the order depends on, call
  // Fix(key).
  framework::QueuedPodInfo* Get(std::string_view key);
  const framework::QueuedPodInfo* Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key) != nullptr; }
  // Restores the order after the pod with `key` changed in place; no-op when absent.
  void Fix(std::string_view key);

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Visits every pod in no particular order.
  void ForEach(const std::function<void(const framework::QueuedPodInfo&)>& fn) const;

 private:
  struct Entry {
    std::string key;
    framework::QueuedPodInfoPtr pod;
  };
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept {
      return std::hash<std::string_view>{}(key);
    }
  };

  bool Less(std::size_t i, std::size_t j) const { return less_(*items_[i].pod, *items_[j].pod); }
  void Swap(std::size_t i, std::size_t j);
  // Returns whether the entry moved.
  bool Up(std::size_t i);
  void Down(std::size_t i);
  void Restore(std::size_t i);
  framework::QueuedPodInfoPtr RemoveAt(std::size_t i);

  LessFn less_;
  std::vector<Entry> items_;
  std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> index_;
};

}  // namespace ksched::scheduler
