// NamespacedObjectStore<T>: the objects of one kind as its reflector has them, by namespace and
// name, for lookups from the scheduling thread and the queue's hints (upstream: a lister over the
// informer's indexer). A cluster-scoped kind (Namespace) sits under the namespace "". It is the
// reflector's handler and keeps the very objects the reflector stores (the *Shared calls), so
// nothing is copied.
//
// Ownership: shares the objects with the reflector; they are immutable. Thread-safety: the handler
// calls come from the reflector thread; Get, ForEachIn, ForEach, ForEachShared, ListIn and size are
// safe from any thread (one shared mutex: readers do not block each other). The ForEach* calls call
// `fn` under the read lock: `fn` must not call back into the store's writers.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "client/reflector.h"

namespace ksched::scheduler {

template <typename T>
class NamespacedObjectStore final : public client::ReflectorHandler<T> {
 public:
  using Shared = std::shared_ptr<const T>;

  void OnAddShared(const Shared& object) override {
    base::WriterMutexLock lock(&mu_);
    by_namespace_[std::string(std::string_view(object->metadata.namespace_))].insert_or_assign(
        object->metadata.name, object);
  }
  void OnUpdateShared(const Shared& /*old*/, const Shared& now) override { OnAddShared(now); }
  void OnDeleteShared(const Shared& last_known) override {
    base::WriterMutexLock lock(&mu_);
    auto ns = by_namespace_.find(std::string_view(last_known->metadata.namespace_));
    if (ns == by_namespace_.end()) return;
    ns->second.erase(last_known->metadata.name);
    if (ns->second.empty()) by_namespace_.erase(ns);
  }

  // The object `name` of namespace `ns`, or nullptr.
  Shared Get(std::string_view ns, std::string_view name) const {
    base::ReaderMutexLock lock(&mu_);
    auto it = by_namespace_.find(ns);
    if (it == by_namespace_.end()) return nullptr;
    auto object = it->second.find(name);
    return object == it->second.end() ? nullptr : object->second;
  }

  // Calls fn(const T&) for every object of namespace `ns`, in name order.
  template <typename Fn>
  void ForEachIn(std::string_view ns, Fn&& fn) const {
    base::ReaderMutexLock lock(&mu_);
    auto it = by_namespace_.find(ns);
    if (it == by_namespace_.end()) return;
    for (const auto& [name, object] : it->second) fn(*object);
  }

  // Calls fn(const T&) for every object of every namespace (same rule as ForEachIn).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    ForEachShared([&fn](const Shared& object) { fn(*object); });
  }

  // Calls fn(const Shared&) for every object of every namespace (same rule as ForEachIn).
  template <typename Fn>
  void ForEachShared(Fn&& fn) const {
    base::ReaderMutexLock lock(&mu_);
    for (const auto& [ns, objects] : by_namespace_) {
      for (const auto& [name, object] : objects) fn(object);
    }
  }

  // The objects of namespace `ns`, in name order.
  std::vector<Shared> ListIn(std::string_view ns) const {
    base::ReaderMutexLock lock(&mu_);
    std::vector<Shared> out;
    auto it = by_namespace_.find(ns);
    if (it == by_namespace_.end()) return out;
    out.reserve(it->second.size());
    for (const auto& [name, object] : it->second) out.push_back(object);
    return out;
  }

  std::size_t size() const {
    base::ReaderMutexLock lock(&mu_);
    std::size_t n = 0;
    for (const auto& [ns, objects] : by_namespace_) n += objects.size();
    return n;
  }

 private:
  using ByName = std::map<std::string, Shared, std::less<>>;
  mutable base::SharedMutex mu_;
  std::map<std::string, ByName, std::less<>> by_namespace_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler
