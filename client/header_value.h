// ValidHeaderFieldValue: whether a value may be sent as an HTTP header field value, as Go's
// net/http checks it (httpguts.ValidHeaderFieldValue): no control bytes but horizontal tab, no
// DEL; spaces and bytes >= 0x80 allowed. A credential holding CR LF would otherwise add headers of
// its own to every request. InvalidHeaderFieldValue is net/http's error for such a field, naming
// the header only (the value may be a secret).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace ksched::client {

[[nodiscard]] inline bool ValidHeaderFieldValue(std::string_view value) {
  for (const char c : value) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && b != '\t') || b == 0x7f) return false;
  }
  return true;
}

// "net/http: invalid header field value for \"Authorization\"".
inline absl::Status InvalidHeaderFieldValue(std::string_view name) {
  return absl::InvalidArgumentError("net/http: invalid header field value for \"" + std::string(name) + "\"");
}

}  // namespace ksched::client
