// Thread-safety probes (see CMakeLists.txt): a counter guarded by a base::Mutex, read with the
// lock (locked_read.cc) and without it (unlocked_read.cc).
#pragma once

#include "base/mutex.h"

namespace ksched::thread_safety_probe {

class GuardedCounter {
 public:
  int LockedRead();
  int UnlockedRead();

 private:
  base::Mutex mu_;
  int count_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace ksched::thread_safety_probe
