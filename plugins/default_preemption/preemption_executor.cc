#include "plugins/default_preemption/preemption_executor.h"

#include <utility>

#include "spdlog/spdlog.h"

namespace ksched::plugins::default_preemption {

PreemptionExecutor::PreemptionExecutor(int threads) {
  threads_.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

PreemptionExecutor::~PreemptionExecutor() {
  std::size_t dropped = 0;
  {
    base::MutexLock lock(&mu_);
    stopping_ = true;
    dropped = tasks_.size();
    tasks_.clear();
  }
  wake_.NotifyAll();
  for (std::thread& thread : threads_) thread.join();
  if (dropped > 0) SPDLOG_INFO("Preemption: {} queued preemptions dropped at shutdown", dropped);
}

void PreemptionExecutor::Submit(std::function<void()> task) {
  {
    base::MutexLock lock(&mu_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  wake_.NotifyOne();
}

void PreemptionExecutor::Work() {
  for (;;) {
    std::function<void()> task;
    {
      base::MutexLock lock(&mu_);
      wake_.Wait(&mu_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace ksched::plugins::default_preemption
