// LazyChildren: a fixed-size table of child metrics (one label set each) of a prometheus-cpp
// Family, each created on first use and then reached without a lock.
//
// Why: Family::Add is a locked hash-map lookup; the hot paths (extension points, plugins, the
// scheduling loop) index this table instead. Children are created lazily so that, as with
// upstream's client_golang vectors, a label set appears in the exposition only once observed.
//
// Ownership: the children are owned by their Family (and so by the Registry); the table holds
// pointers. Thread-safety: Get is safe from any thread; creation is serialised by mu_.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <memory>

#include "base/mutex.h"

namespace ksched::scheduler::metrics {

template <typename Child>
class LazyChildren {
 public:
  explicit LazyChildren(std::size_t size)
      : size_(size), slots_(std::make_unique<std::atomic<Child*>[]>(size)) {}

  // The child at `index`, created by `make()` (returning Child&) the first time.
  template <typename Make>
  Child& Get(std::size_t index, Make&& make) {
    if (index >= size_) std::abort();  // callers compute indexes from enums: a bug otherwise
    Child* child = slots_[index].load(std::memory_order_acquire);
    if (child != nullptr) return *child;
    base::MutexLock lock(&mu_);
    child = slots_[index].load(std::memory_order_relaxed);
    if (child == nullptr) {
      child = &make();
      slots_[index].store(child, std::memory_order_release);
    }
    return *child;
  }

 private:
  const std::size_t size_;
  std::unique_ptr<std::atomic<Child*>[]> slots_;  // nullptr until created; written under mu_
  base::Mutex mu_;
};

}  // namespace ksched::scheduler::metrics
