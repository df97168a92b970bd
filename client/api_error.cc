#include "client/api_error.h"

#include <charconv>

#include "absl/strings/cord.h"
#include "api/json_decode.h"
#include "api/protobuf_wire.h"
#include "client/concat.h"

namespace ksched::client {

absl::StatusCode StatusCodeForHttp(int http_status, std::string_view reason) {
  if (http_status >= 200 && http_status < 300) return absl::StatusCode::kOk;
  switch (http_status) {
    case 400:
    case 422: return absl::StatusCode::kInvalidArgument;
    case 401: return absl::StatusCode::kUnauthenticated;
    case 403: return absl::StatusCode::kPermissionDenied;
    case 404: return absl::StatusCode::kNotFound;
    case 409:
      return reason == "AlreadyExists" ? absl::StatusCode::kAlreadyExists : absl::StatusCode::kAborted;
    case 410: return absl::StatusCode::kOutOfRange;
    case 429: return absl::StatusCode::kResourceExhausted;
    case 500: return absl::StatusCode::kInternal;
    case 503: return absl::StatusCode::kUnavailable;
    case 504: return absl::StatusCode::kDeadlineExceeded;
    default: break;
  }
  if (http_status >= 500 && http_status < 600) return absl::StatusCode::kUnavailable;
  if (http_status >= 400 && http_status < 500) return absl::StatusCode::kFailedPrecondition;
  return absl::StatusCode::kUnknown;
}

absl::Status StatusFromResponse(const HttpResponse& response, std::string_view what) {
  if (response.status >= 200 && response.status < 300) return absl::OkStatus();
  std::string reason;
  std::string message;
  // A request that accepts protobuf gets its error Status as protobuf.
  absl::StatusOr<api::ApiStatus> api_status =
      api::protobuf::IsProtobufContentType(response.content_type)
          ? api::protobuf::DecodeApiStatus(response.body)
          : api::DecodeApiStatus(std::string_view(response.body));
  if (api_status.ok() && (!api_status->message.empty() || !api_status->reason.empty())) {
    reason = api_status->reason;
    message = api_status->message;
  } else {
    message = response.body.substr(0, 200);
    if (message.empty()) message = "(empty body)";
  }
  absl::Status status(StatusCodeForHttp(response.status, reason),
                      Concat(what, ": HTTP ", response.status, reason.empty() ? "" : " ", reason,
                             ": ", message));
  status.SetPayload(kHttpStatusPayload, absl::Cord(std::to_string(response.status)));
  if (!reason.empty()) status.SetPayload(kReasonPayload, absl::Cord(reason));
  return status;
}

std::optional<int> HttpStatusOf(const absl::Status& status) {
  auto payload = status.GetPayload(kHttpStatusPayload);
  if (!payload.has_value()) return std::nullopt;
  const std::string text(*payload);
  int code = 0;
  const char* end = text.data() + text.size();
  if (text.empty() || std::from_chars(text.data(), end, code).ptr != end) return std::nullopt;
  return code;
}

std::optional<std::string> ReasonOf(const absl::Status& status) {
  auto payload = status.GetPayload(kReasonPayload);
  if (!payload.has_value()) return std::nullopt;
  return std::string(*payload);
}

}  // namespace ksched::client
