// The two encodings the scheduler writes object bodies in (clientConnection.contentType), and the
// POST request that carries one such body.
//
// client-go has serializers for application/json and application/vnd.kubernetes.protobuf only;
// any other content type would fail every Binding, so it is refused where it is configured.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "client/http_types.h"

namespace ksched::client {

// OK for "application/json" and "application/vnd.kubernetes.protobuf" (parameters after ';'
// ignored); otherwise InvalidArgument `Unsupported value: "<value>": supported values: ...`,
// which the caller prefixes with the field or flag that held the value.
absl::Status CheckContentType(std::string_view content_type);

// A POST of one encoded object to `target`. A protobuf body is sent with the Accept header
// client-go sends with it (protobuf first, then anything), so an error Status may come back in
// protobuf too (StatusFromResponse decodes both); a JSON body asks for JSON.
HttpRequest ObjectPostRequest(std::string target, std::string body, bool protobuf);

}  // namespace ksched::client
