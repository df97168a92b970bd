// StatusFromResponse: the HTTP status -> absl::StatusCode table, messages, payload accessors.
#include "client/api_error.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

using ksched::client::HttpResponse;
using ksched::client::HttpStatusOf;
using ksched::client::ReasonOf;
using ksched::client::StatusFromResponse;

HttpResponse Response(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

std::string StatusBody(int code, const std::string& reason, const std::string& message) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
         R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

}  // namespace

TEST_CASE("2xx is OK", "[api_error]") {
  CHECK(StatusFromResponse(Response(200, "{}"), "GET x").ok());
  CHECK(StatusFromResponse(Response(201, "{}"), "POST x").ok());
  CHECK(StatusFromResponse(Response(204, ""), "DELETE x").ok());
}

TEST_CASE("the HTTP status to code table", "[api_error]") {
  struct Row {
    int http;
    std::string reason;
    absl::StatusCode code;
  };
  const Row rows[] = {
      {400, "BadRequest", absl::StatusCode::kInvalidArgument},
      {422, "Invalid", absl::StatusCode::kInvalidArgument},
      {401, "Unauthorized", absl::StatusCode::kUnauthenticated},
      {403, "Forbidden", absl::StatusCode::kPermissionDenied},
      {404, "NotFound", absl::StatusCode::kNotFound},
      {409, "AlreadyExists", absl::StatusCode::kAlreadyExists},
      {409, "Conflict", absl::StatusCode::kAborted},
      {409, "", absl::StatusCode::kAborted},
      {410, "Expired", absl::StatusCode::kOutOfRange},
      {410, "Gone", absl::StatusCode::kOutOfRange},
      {429, "TooManyRequests", absl::StatusCode::kResourceExhausted},
      {500, "InternalError", absl::StatusCode::kInternal},
      {502, "", absl::StatusCode::kUnavailable},
      {503, "ServiceUnavailable", absl::StatusCode::kUnavailable},
      {504, "Timeout", absl::StatusCode::kDeadlineExceeded},
      {405, "MethodNotAllowed", absl::StatusCode::kFailedPrecondition},
      {302, "", absl::StatusCode::kUnknown},
  };
  for (const Row& row : rows) {
    INFO(row.http << " " << row.reason);
    const std::string body = row.reason.empty() && row.http != 409 ? "plain text" : StatusBody(row.http, row.reason, "m");
    const absl::Status status = StatusFromResponse(Response(row.http, body), "GET https://s/p");
    CHECK(status.code() == row.code);
    CHECK(HttpStatusOf(status) == row.http);
  }
}

TEST_CASE("a Status body gives the message and the reason", "[api_error]") {
  const absl::Status status = StatusFromResponse(
      Response(409, StatusBody(409, "Conflict",
                               "Operation cannot be fulfilled on configmaps \\\"c\\\": the object has been modified")),
      "PUT https://127.0.0.1:6443/api/v1/namespaces/default/configmaps/c");
  CHECK(status.code() == absl::StatusCode::kAborted);
  CHECK(std::string(status.message()) ==
        "PUT https://127.0.0.1:6443/api/v1/namespaces/default/configmaps/c: HTTP 409 Conflict: "
        "Operation cannot be fulfilled on configmaps \"c\": the object has been modified");
  CHECK(HttpStatusOf(status) == 409);
  CHECK(ReasonOf(status) == "Conflict");
}

TEST_CASE("a body that is not a Status is quoted, at most 200 bytes", "[api_error]") {
  const std::string long_body(500, 'x');
  const absl::Status status = StatusFromResponse(Response(502, long_body), "GET https://s/api");
  CHECK(status.code() == absl::StatusCode::kUnavailable);
  CHECK(std::string(status.message()) == "GET https://s/api: HTTP 502: " + std::string(200, 'x'));
  CHECK_FALSE(ReasonOf(status).has_value());
  const absl::Status empty = StatusFromResponse(Response(503, ""), "GET https://s/api");
  CHECK(std::string(empty.message()) == "GET https://s/api: HTTP 503: (empty body)");
}

TEST_CASE("payload accessors on other statuses", "[api_error]") {
  CHECK_FALSE(HttpStatusOf(absl::OkStatus()).has_value());
  CHECK_FALSE(HttpStatusOf(absl::UnavailableError("reset")).has_value());
  CHECK_FALSE(ReasonOf(absl::NotFoundError("x")).has_value());
}
