// The resource.k8s.io/v1 JSON the DynamicResources plugin writes into a ResourceClaim's status
// (upstream sends the typed object; these render the same members, in Go's field order and with
// encoding/json's omitempty on the v1 types):
//   AllocationResultJson     status.allocation:
//                            {"devices":{"results":[{"request","driver","pool","device"[,"adminAccess"]}...],
//                                        "config":[{"source","requests","opaque":<opaque_json>}...]},
//                             "nodeSelector":{"nodeSelectorTerms":[...]},"allocationTimestamp":"..."}
//                            `devices` is always there (a struct is never omitted), results and config
//                            only when non-empty, a config's requests only when non-empty and its
//                            opaque only when opaque_json is not empty (written as that raw JSON),
//                            nodeSelector only when set (terms always, their matchExpressions /
//                            matchFields and a requirement's values only when non-empty),
//                            allocationTimestamp only when non-empty.
//   ConsumerReferenceJson    one status.reservedFor entry: {["apiGroup",]"resource","name","uid"},
//                            apiGroup only when non-empty.
// Decoding the text with api/json_decode.h gives the same value back.
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "api/resource.h"

namespace ksched::api {

std::string AllocationResultJson(const AllocationResult& allocation);
std::string ConsumerReferenceJson(const ResourceClaimConsumerReference& reference);

}  // namespace ksched::api
