#include "scheduler/worker_pool.h"

#include <algorithm>

namespace ksched::scheduler {

WorkerPool::WorkerPool(int threads) : max_threads_(static_cast<std::size_t>(std::max(threads, 1))) {
  threads_.reserve(max_threads_);
}

WorkerPool::~WorkerPool() { Stop(); }

void WorkerPool::Submit(std::function<void()> task) {
  {
    base::MutexLock lock(&mu_);
    if (!stopping_) {
      tasks_.push_back(std::move(task));
      // Every idle thread will take one queued task; start one more for the rest, if allowed.
      if (tasks_.size() > idle_ && threads_.size() < max_threads_) {
        threads_.emplace_back([this] { Worker(); });
      } else {
        cv_.NotifyOne();
      }
      return;
    }
  }
  task();
}

void WorkerPool::Stop() {
  std::vector<std::thread> threads;
  {
    base::MutexLock lock(&mu_);
    stopping_ = true;
    threads.swap(threads_);  // no thread starts once stopping_ is set
  }
  cv_.NotifyAll();
  for (std::thread& thread : threads) thread.join();
}

std::size_t WorkerPool::in_flight() const {
  base::MutexLock lock(&mu_);
  return tasks_.size() + running_;
}

std::size_t WorkerPool::threads_started() const {
  base::MutexLock lock(&mu_);
  return threads_.size();
}

void WorkerPool::Worker() {
  base::MutexLock lock(&mu_);
  while (true) {
    ++idle_;
    cv_.Wait(&mu_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !tasks_.empty(); });
    --idle_;
    if (tasks_.empty()) return;  // stopping and drained
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    ++running_;
    lock.Unlock();
    task();
    lock.Lock();
    --running_;
  }
}

}  // namespace ksched::scheduler
