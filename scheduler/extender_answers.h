// Decoders of an HTTP extender's answers: the bodies of its filter, prioritize, bind and preempt
// verbs, read as Go's encoding/json reads them into upstream's extender/v1 types (the first JSON
// value; field names matched exactly, else ignoring case; null is the zero value), with Go's words
// in the errors ("json: cannot unmarshal <kind> into Go struct field <field> of type <type>",
// "exceeded max depth", "EOF"). Pure functions of the body: no I/O, no scheduler state, thread-safe.
// HttpExtender (http_extender.h) checks what the answers name against the nodes and pods it sent.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::scheduler {

struct ExtenderHostScore {
  std::string host;
  std::int64_t score = 0;
};

struct ExtenderFilterAnswer {
  std::string error;  // the answer's Error; when set, nothing below it was read
  std::vector<std::pair<std::string, std::string>> failed;               // node, reason
  std::vector<std::pair<std::string, std::string>> failed_unresolvable;  // node, reason
  // The nodes kept: NodeNames when the extender is nodeCacheCapable and sent them, else
  // Nodes.items[].metadata.name ("" for an item without one), in the answer's order.
  std::vector<std::string> node_names;
};

struct ExtenderMetaVictims {
  std::string node;
  bool null = false;  // `"node": null`: no victims (the caller rejects the node)
  std::int64_t num_pdb_violations = 0;
  std::vector<std::string> pod_uids;  // "" for a pod without a UID string
};

[[nodiscard]] absl::StatusOr<ExtenderFilterAnswer> DecodeExtenderFilterAnswer(const std::string& body,
                                                                             bool node_cache_capable);
[[nodiscard]] absl::StatusOr<std::vector<ExtenderHostScore>> DecodeExtenderPrioritizeAnswer(const std::string& body);
// The binding result's Error ("" when none).
[[nodiscard]] absl::StatusOr<std::string> DecodeExtenderBindAnswer(const std::string& body);
// NodeNameToMetaVictims, in the answer's order (empty when absent or null).
[[nodiscard]] absl::StatusOr<std::vector<ExtenderMetaVictims>> DecodeExtenderPreemptionAnswer(const std::string& body);

}  // namespace ksched::scheduler
