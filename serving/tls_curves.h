// --tls-curve-preferences: Go crypto/tls CurveID numbers (apiserver SecureServingOptions'
// CurvePreferences, checked by component-base's cliflag.TLSCurvePreferences with its words) and
// the OpenSSL group names they stand for.
//
// The numbers Go 1.26 (kube-scheduler v1.37.2's toolchain) knows: 23 CurveP256, 24 CurveP384,
// 25 CurveP521, 29 X25519, 4587 SecP256r1MLKEM768, 4588 X25519MLKEM768, 4589 SecP384r1MLKEM1024.
// Errors: "curve preference 0 is out of range (must be 1-65535)", "duplicate curve preference 23",
// "curve preference 22 is not supported by the current Go version".
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::serving {

// The OpenSSL group names ("P-256", "X25519", "X25519MLKEM768", ...) of `curve_ids`, in order;
// InvalidArgument with upstream's message for the first bad one.
absl::StatusOr<std::vector<std::string>> TlsCurveGroups(const std::vector<std::int32_t>& curve_ids);

}  // namespace ksched::serving
