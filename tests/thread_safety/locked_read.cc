// Thread-safety probe, control (see CMakeLists.txt): the guarded member read under its mutex.
#include "guarded_counter.h"

namespace ksched::thread_safety_probe {
int GuardedCounter::LockedRead() {
  base::MutexLock lock(&mu_);
  return count_;
}
}  // namespace ksched::thread_safety_probe
