// Thread-safety probe, violation (see CMakeLists.txt): the guarded member read without its mutex,
// which the analysis must refuse.
#include "guarded_counter.h"

namespace ksched::thread_safety_probe {
int GuardedCounter::UnlockedRead() { return count_; }
}  // namespace ksched::thread_safety_probe
