#include "scheduler/pod_heap.h"

#include <cstdlib>
#include <utility>

namespace ksched::scheduler {

std::string PodQueueKey(const api::Pod& pod) {
  std::string key;
  key.reserve(pod.metadata.namespace_.size() + 1 + pod.metadata.name.size());
  key += pod.metadata.namespace_;
  key += '/';
  key += pod.metadata.name;
  return key;
}

void PodHeap::AddOrUpdate(framework::QueuedPodInfoPtr pod) {
  if (pod == nullptr || pod->pod_info == nullptr) std::abort();  // a queued pod always has a pod
  std::string key = PodQueueKey(pod->pod());
  if (auto it = index_.find(key); it != index_.end()) {
    items_[it->second].pod = std::move(pod);
    Restore(it->second);
    return;
  }
  index_.emplace(key, items_.size());
  items_.push_back(Entry{std::move(key), std::move(pod)});
  Up(items_.size() - 1);
}

framework::QueuedPodInfoPtr PodHeap::Delete(std::string_view key) {
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  return RemoveAt(it->second);
}

const framework::QueuedPodInfo* PodHeap::Peek() const {
  return items_.empty() ? nullptr : items_.front().pod.get();
}

framework::QueuedPodInfoPtr PodHeap::Pop() {
  if (items_.empty()) return nullptr;
  return RemoveAt(0);
}

framework::QueuedPodInfo* PodHeap::Get(std::string_view key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : items_[it->second].pod.get();
}

const framework::QueuedPodInfo* PodHeap::Get(std::string_view key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : items_[it->second].pod.get();
}

void PodHeap::Fix(std::string_view key) {
  if (auto it = index_.find(key); it != index_.end()) Restore(it->second);
}

void PodHeap::ForEach(const std::function<void(const framework::QueuedPodInfo&)>& fn) const {
  for (const Entry& entry : items_) fn(*entry.pod);
}

void PodHeap::Swap(std::size_t i, std::size_t j) {
  std::swap(items_[i], items_[j]);
  index_.find(items_[i].key)->second = i;
  index_.find(items_[j].key)->second = j;
}

bool PodHeap::Up(std::size_t i) {
  const std::size_t start = i;
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!Less(i, parent)) break;
    Swap(i, parent);
    i = parent;
  }
  return i != start;
}

void PodHeap::Down(std::size_t i) {
  const std::size_t n = items_.size();
  for (;;) {
    std::size_t smallest = i;
    const std::size_t left = 2 * i + 1;
    const std::size_t right = left + 1;
    if (left < n && Less(left, smallest)) smallest = left;
    if (right < n && Less(right, smallest)) smallest = right;
    if (smallest == i) return;
    Swap(i, smallest);
    i = smallest;
  }
}

void PodHeap::Restore(std::size_t i) {
  if (!Up(i)) Down(i);
}

framework::QueuedPodInfoPtr PodHeap::RemoveAt(std::size_t i) {
  const std::size_t last = items_.size() - 1;
  if (i != last) Swap(i, last);
  Entry removed = std::move(items_.back());
  items_.pop_back();
  index_.erase(removed.key);
  if (i < items_.size()) Restore(i);
  return std::move(removed.pod);
}

}  // namespace ksched::scheduler
