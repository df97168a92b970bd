#include "scheduler/memory_releaser.h"

#include <malloc.h>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace ksched::scheduler {

MemoryReleaser::MemoryReleaser(MemoryReleaserOptions options) : options_(options) {}

MemoryReleaser::~MemoryReleaser() { Stop(); }

void MemoryReleaser::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}

void MemoryReleaser::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::size_t MemoryReleaser::HeapFreeBytes() { return mallinfo2().fordblks; }

bool MemoryReleaser::CheckOnce() {
  const std::size_t free_bytes = HeapFreeBytes();
  if (free_bytes < baseline_ + options_.min_new_free_bytes) {
    baseline_ = std::min(baseline_, free_bytes);
    return false;
  }
  malloc_trim(0);
  baseline_ = HeapFreeBytes();  // glibc still counts trimmed pages as free: only new frees count next
  SPDLOG_DEBUG("memory: {} KiB free in the heap, returned its whole free pages to the system", free_bytes >> 10);
  return true;
}

void MemoryReleaser::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, options_.interval, [this] { return stopping_; })) {
    lock.unlock();
    (void)CheckOnce();
    lock.lock();
  }
}

}  // namespace ksched::scheduler
