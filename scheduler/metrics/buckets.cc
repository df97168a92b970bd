#include "scheduler/metrics/buckets.h"

#include <cstdlib>

namespace ksched::scheduler::metrics {

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  // client_golang panics on these; they are constants here, so a bad one is a bug.
  if (count < 1 || start <= 0 || factor <= 1) std::abort();
  std::vector<double> buckets;
  buckets.reserve(static_cast<std::size_t>(count));
  double next = start;
  for (int i = 0; i < count; ++i) {
    buckets.push_back(next);
    next *= factor;
  }
  return buckets;
}

std::string WithStability(Stability stability, std::string_view help) {
  std::string out;
  switch (stability) {
    case Stability::kAlpha:
      out = "[ALPHA] ";
      break;
    case Stability::kBeta:
      out = "[BETA] ";
      break;
    case Stability::kStable:
      out = "[STABLE] ";
      break;
  }
  out += help;
  return out;
}

}  // namespace ksched::scheduler::metrics
