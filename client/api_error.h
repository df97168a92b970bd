// API errors: a non-2xx HTTP response turned into an absl::Status, as client-go's
// errors.FromObject / newUnstructuredResponseError do, so that callers test codes, not numbers.
//
// Code mapping (HTTP status -> absl::StatusCode):
//   400, 422  kInvalidArgument      401  kUnauthenticated     403  kPermissionDenied
//   404       kNotFound             409  kAlreadyExists when the reason is "AlreadyExists",
//                                        else kAborted (a conflict: stale resourceVersion, failed
//                                        precondition, pod already bound)
//   410       kOutOfRange ("Gone"/"Expired": resourceVersion too old)
//   429       kResourceExhausted    500  kInternal            503  kUnavailable
//   504       kDeadlineExceeded     other 5xx kUnavailable    other 4xx kFailedPrecondition
//   anything else that is not 2xx: kUnknown
//
// The message is "<what>: HTTP <code>[ <reason>]: <message>" where <what> names the verb, server
// and path ("GET https://10.0.0.1:6443/api/v1/..."), <reason> and <message> come from the body
// when it is a metav1.Status, else the message is the first 200 bytes of the body.
// The HTTP code is kept as a payload (kHttpStatusPayload, decimal text) and the Status reason, when
// there is one, as kReasonPayload; read them with HttpStatusOf / ReasonOf.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "client/http_types.h"

namespace ksched::client {

inline constexpr char kHttpStatusPayload[] = "type.kube-scheduler-cpp/http-status";
inline constexpr char kReasonPayload[] = "type.kube-scheduler-cpp/status-reason";

// OK for a 2xx response, the mapped error otherwise.
absl::Status StatusFromResponse(const HttpResponse& response, std::string_view what);

// The code for an HTTP status and a metav1.Status reason (see the table above).
absl::StatusCode StatusCodeForHttp(int http_status, std::string_view reason);

// The HTTP status of an error made by StatusFromResponse; nullopt for any other Status.
std::optional<int> HttpStatusOf(const absl::Status& status);
// The metav1.Status reason ("NotFound", "Conflict", "AlreadyExists", ...); nullopt when the
// response carried none.
std::optional<std::string> ReasonOf(const absl::Status& status);

}  // namespace ksched::client
