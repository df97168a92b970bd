// Helpers of the /metrics unit tests: Metrics without the process collector, and line lookups in
// the exposition text.
#pragma once

#include <sstream>
#include <string>

#include "scheduler/metrics/metrics.h"

namespace ksched::scheduler::testing {

// Metrics options without process_* families (they read /proc and vary).
inline metrics::MetricsOptions NoProcess() {
  metrics::MetricsOptions options;
  options.proc_self.clear();
  return options;
}

// Whether `text` has the exact line `line`.
inline bool HasLine(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string candidate; std::getline(in, candidate);) {
    if (candidate == line) return true;
  }
  return false;
}

}  // namespace ksched::scheduler::testing
