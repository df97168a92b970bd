// The Prometheus text exposition format (0.0.4) written as client_golang's expfmt writes it, so
// that /metrics reads byte for byte like upstream kube-scheduler's for the same values:
//   - numbers as Go's strconv.FormatFloat(v, 'g', -1, 64): the shortest round-trip digits,
//     exponent form below 1e-4 and from 1e6 ("1e-05", "1.5000000000000002e-05", "1.234567e+06"),
//     "+Inf", "-Inf", "NaN";
//   - histogram series as buckets (le last among the labels, "+Inf" included), then _sum, _count;
//   - HELP text escaped (\ and newline), label values escaped (\, " and newline).
// prometheus::TextSerializer prints 16 significant digits and count/sum before the buckets, so
// the le labels of upstream's 1.5-factor buckets would differ from upstream's.
//
// Thread-safety: pure functions.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace ksched::scheduler::metrics {

std::string FormatGoFloat(double value);

// Writes `value` escaped as a label value is (\\, \" and newline), for writers of series that do
// not go through MetricFamily.
void WriteLabelValue(std::ostream& out, std::string_view value);

void WriteTextFormat(std::ostream& out, const std::vector<prometheus::MetricFamily>& families);

// What client_golang's gatherer serves of `families`: the empty ones left out, the others sorted
// by name and their series by labels, written in the text format.
std::string GatheredText(std::vector<prometheus::MetricFamily> families);

}  // namespace ksched::scheduler::metrics
