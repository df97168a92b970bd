// ApiStatus: metav1.Status, the body of an API error response and the object of a watch ERROR
// event, reduced to what a client acts on: status ("Failure"), message, reason ("Expired",
// "Gone", ...) and the HTTP code (410 for a too old resource version). `details` is not kept.
//
// Thread-safety: plain value type.
#pragma once

#include <cstdint>
#include <string>

namespace ksched::api {

struct ApiStatus {
  std::string status;
  std::string message;
  std::string reason;
  std::int32_t code = 0;

  friend bool operator==(const ApiStatus&, const ApiStatus&) = default;
};

}  // namespace ksched::api
