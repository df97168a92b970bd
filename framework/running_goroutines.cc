#include "framework/running_goroutines.h"

#include <cstdlib>

namespace ksched::framework {

std::string_view GoroutineOperationLabel(GoroutineOperation operation) {
  switch (operation) {
    case GoroutineOperation::kBinding: return "binding";
    case GoroutineOperation::kPrioritizingExtender: return "prioritizing_extender";
    case GoroutineOperation::kFilter: return "Filter";
    case GoroutineOperation::kScore: return "Score";
    case GoroutineOperation::kInterPodAffinity: return "InterPodAffinity";
    case GoroutineOperation::kPodTopologySpread: return "PodTopologySpread";
    case GoroutineOperation::kDefaultPreemption: return "DefaultPreemption";
  }
  std::abort();  // an out-of-range operation is a broken invariant
}

}  // namespace ksched::framework
