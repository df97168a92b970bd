// PreemptionExecutor: runs the API side of asynchronous preemptions (upstream runs each in its own
// goroutine: evict the victims, clear lower-priority nominations) on a few threads of its own, so
// that the scheduling cycle never waits for the API server.
//
// Tasks run in submission order on up to `threads` threads at once. The destructor stops taking
// tasks, lets the running ones finish (each is bounded by the REST client's request timeouts),
// drops the ones not started, and joins.
//
// Thread-safety: Submit from any thread; tasks must not call Submit's destructor.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "base/mutex.h"

namespace ksched::plugins::default_preemption {

class PreemptionExecutor {
 public:
  explicit PreemptionExecutor(int threads);
  ~PreemptionExecutor();
  PreemptionExecutor(const PreemptionExecutor&) = delete;
  PreemptionExecutor& operator=(const PreemptionExecutor&) = delete;

  void Submit(std::function<void()> task);

 private:
  void Work();

  base::Mutex mu_;
  base::CondVar wake_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace ksched::plugins::default_preemption
