#include "scheduler/binding_window.h"

#include <utility>

namespace ksched::scheduler {

BindingWindow::BindingWindow(int limit) : limit_(limit < 1 ? 1 : static_cast<std::size_t>(limit)) {}

void BindingWindow::Run(std::function<void()> start) {
  {
    base::MutexLock lock(&mu_);
    if (running_ >= limit_) {
      queued_.push_back(std::move(start));
      return;
    }
    ++running_;
  }
  Execute(std::move(start));
}

void BindingWindow::Finished() {
  std::function<void()> next;
  {
    base::MutexLock lock(&mu_);
    if (queued_.empty()) {
      if (--running_ == 0) idle_.NotifyAll();
      return;
    }
    // The finished binding's slot passes to the oldest queued one: running_ stays.
    next = std::move(queued_.front());
    queued_.pop_front();
  }
  Execute(std::move(next));
}

std::size_t BindingWindow::in_flight() const {
  base::MutexLock lock(&mu_);
  return running_ + queued_.size();
}

void BindingWindow::WaitIdle() {
  base::MutexLock lock(&mu_);
  idle_.Wait(&mu_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return running_ == 0 && queued_.empty(); });
}

void BindingWindow::Execute(std::function<void()> start) {
  // The starts this thread has to run once the outermost one returns; null when none is running.
  thread_local std::deque<std::function<void()>>* pending = nullptr;
  if (pending != nullptr) {
    pending->push_back(std::move(start));
    return;
  }
  std::deque<std::function<void()>> local;
  pending = &local;
  start();
  while (!local.empty()) {
    std::function<void()> next = std::move(local.front());
    local.pop_front();
    next();
  }
  pending = nullptr;
}

}  // namespace ksched::scheduler
