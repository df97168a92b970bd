// WorkerPool: a fixed set of threads running submitted tasks in FIFO order. The scheduler runs
// its binding cycles (WaitOnPermit, PreBind, Bind, PostBind) on one, so that the scheduling thread
// hands a pod over and takes the next one at once, and writes pod statuses on another. Upstream
// starts a goroutine per pod; a fixed pool bounds the calls in flight (and the API load) instead:
// with `threads` workers at most that many tasks wait on the API server at a time. Threads start
// as they are needed (a task submitted while none is idle starts one, up to `threads`), so that a
// pool sized for rare blocking work (VolumeBinding's PreBind waits) costs nothing until used.
//
// Thread-safety: Submit from any thread. The destructor (or Stop) runs every task already
// submitted, then joins.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "base/mutex.h"

namespace ksched::scheduler {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> task);
  // Finishes the submitted tasks and joins the threads; Submit afterwards runs the task inline.
  void Stop();
  // Tasks queued or running.
  std::size_t in_flight() const;
  // Threads started so far (at most `threads`).
  std::size_t threads_started() const;

 private:
  void Worker();

  mutable base::Mutex mu_;
  base::CondVar cv_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mu_);
  std::size_t running_ ABSL_GUARDED_BY(mu_) = 0;
  std::size_t idle_ ABSL_GUARDED_BY(mu_) = 0;  // threads waiting for a task
  std::size_t max_threads_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_ ABSL_GUARDED_BY(mu_);  // (grows in Submit)
};

}  // namespace ksched::scheduler
