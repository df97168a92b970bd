#include "scheduler/worker_pool.h"

namespace ksched::scheduler {

WorkerPool::WorkerPool(int threads) {
  threads_.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Worker(); });
}

WorkerPool::~WorkerPool() { Stop(); }

void WorkerPool::Submit(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      tasks_.push_back(std::move(task));
      cv_.notify_one();
      return;
    }
  }
  task();
}

void WorkerPool::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

std::size_t WorkerPool::in_flight() const {
  std::lock_guard lock(mu_);
  return tasks_.size() + running_;
}

void WorkerPool::Worker() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping and drained
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    ++running_;
    lock.unlock();
    task();
    lock.lock();
    --running_;
  }
}

}  // namespace ksched::scheduler
