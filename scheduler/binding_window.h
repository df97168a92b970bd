// BindingWindow: bounds the asynchronous binding cycles in flight, as the binding pool's thread
// count bounds the blocking ones. Run(start) calls `start` at once while fewer than `limit`
// bindings are in flight, else queues it (FIFO); each started binding calls Finished() exactly once
// when it is done, from any thread, which hands its slot to the oldest queued start.
//
// Starts run on the thread of Run or Finished, never nested: when a binding finishes inside its own
// `start` (a synchronous failure), the next queued start runs after that `start` has returned, from
// the outermost Run/Finished on the thread, so a long queue of synchronously finishing bindings
// does not deepen the stack.
//
// Thread-safety: every method from any thread; `start` must not block. WaitIdle must not be called
// from a `start` or from the thread that would call Finished (it would never return).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>

#include "base/mutex.h"

namespace ksched::scheduler {

class BindingWindow {
 public:
  // `limit` < 1 counts as 1.
  explicit BindingWindow(int limit);
  BindingWindow(const BindingWindow&) = delete;
  BindingWindow& operator=(const BindingWindow&) = delete;

  void Run(std::function<void()> start);
  void Finished();
  // Bindings started and not finished, plus queued starts.
  std::size_t in_flight() const;
  // Blocks until in_flight() is 0.
  void WaitIdle();

 private:
  static void Execute(std::function<void()> start);

  const std::size_t limit_;
  mutable base::Mutex mu_;
  base::CondVar idle_;
  std::size_t running_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<std::function<void()>> queued_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler
