// Decoding of a Prometheus HTTP API instant-query answer (GET/POST /api/v1/query): the JSON
// envelope {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},
// "value":[<unix seconds>,"<number>"]}, ...]}} or {"status":"error","errorType":..,"error":..}.
//
// Values are kept per node: the node name is the value of label `node_label` of each series. A
// series without that label, with a non-numeric value, or with NaN/Inf is skipped and counted
// (bad_samples); when two series name the same node the first is kept and the rest counted.
// Errors (kInvalidArgument for a malformed body, kFailedPrecondition for status "error" or a
// result that is not a vector) carry Prometheus' own errorType and error text.
//
// Thread-safety: pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::scheduler {

struct NodeValue {
  std::string node;
  double value = 0;
  double timestamp_seconds = 0;  // the evaluation time Prometheus gave the sample
};

struct InstantVector {
  std::vector<NodeValue> values;
  std::size_t bad_samples = 0;        // non-numeric, NaN or infinite
  std::size_t unlabelled_series = 0;  // without node_label
  std::size_t duplicate_nodes = 0;
  std::string first_problem;          // a description of the first skipped series, for a log line
};

absl::StatusOr<InstantVector> ParseInstantVector(std::string_view body, std::string_view node_label);

// application/x-www-form-urlencoded encoding of one value (RFC 3986 unreserved kept).
std::string FormUrlEncode(std::string_view value);

}  // namespace ksched::scheduler
