// Bucket boundaries and help texts as component-base builds them.
//
// ExponentialBuckets(start, factor, count) is client_golang's prometheus.ExponentialBuckets: the
// boundaries are computed by repeated multiplication, so that they are bit for bit upstream's.
// WithStability prefixes a help text the way component-base annotates it ("[STABLE] ...").
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ksched::scheduler::metrics {

enum class Stability { kAlpha, kBeta, kStable };

std::vector<double> ExponentialBuckets(double start, double factor, int count);

std::string WithStability(Stability stability, std::string_view help);

}  // namespace ksched::scheduler::metrics
