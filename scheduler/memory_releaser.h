// MemoryReleaser: hands heap memory the daemon has freed back to the system.
//
// glibc keeps what a program frees for its next allocations and returns only the top of the heap;
// pages inside it stay resident. The daemon frees in bursts: the event recorder's series cache
// drops every event 6 to 12 minutes after it was recorded (upstream's finishTime, one entry per
// scheduled pod), a connection flood on the secure port ends, a big relist is replaced. Without
// help the resident size keeps each burst's high-water mark (issue #44 item 10). Every `interval`
// the releaser reads glibc's free-byte count (mallinfo2) and, when it grew by `min_new_free_bytes`
// since the last trim (or the lowest count seen since), calls malloc_trim(0), which releases every
// whole free page (madvise) inside the heap too. Free bytes scattered in small holes that no trim
// can release do not make it trim again and again.
//
// Thread-safety: Start and Stop from one thread (the daemon's main); the check runs on a thread
// of its own. A trim takes glibc's arena lock for a few milliseconds: allocations on other threads
// wait that long, at most once per interval and only after a burst of frees.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>

namespace ksched::scheduler {

struct MemoryReleaserOptions {
  std::chrono::milliseconds interval{std::chrono::seconds(30)};
  std::size_t min_new_free_bytes = std::size_t{4} << 20;
};

class MemoryReleaser {
 public:
  explicit MemoryReleaser(MemoryReleaserOptions options = {});
  ~MemoryReleaser();  // Stop()
  MemoryReleaser(const MemoryReleaser&) = delete;
  MemoryReleaser& operator=(const MemoryReleaser&) = delete;

  void Start();
  void Stop();  // idempotent; returns once the thread has ended

  // One check now (what the thread does every interval; not concurrently with it): true if it trimmed.
  [[nodiscard]] bool CheckOnce();
  // Bytes glibc holds free in its heap (mallinfo2: fordblks), i.e. what a trim could look at.
  [[nodiscard]] static std::size_t HeapFreeBytes();

 private:
  void Run();

  const MemoryReleaserOptions options_;
  std::size_t baseline_ = 0;  // free bytes after the last trim, or fewer seen since; CheckOnce only
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace ksched::scheduler
