// Plain HTTP request/response values exchanged with the transport. No Beast types leak out of the
// transport's one translation unit; these are what the rest of the client layer sees.
#pragma once

#include <charconv>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace ksched::client {

enum class HttpMethod { kGet, kPost, kPut, kPatch, kDelete };

std::string_view MethodName(HttpMethod method);

// GET, PUT and DELETE may be retried after a failure that could have reached the server; POST and
// PATCH only when the failure happened before the request was written.
inline bool IsIdempotent(HttpMethod method) {
  return method == HttpMethod::kGet || method == HttpMethod::kPut || method == HttpMethod::kDelete;
}

struct HttpRequest {
  HttpMethod method = HttpMethod::kGet;
  std::string target;        // path and query, e.g. "/api/v1/nodes?limit=500"
  std::string body;
  std::string content_type;  // of the body; empty when there is none
  std::string accept = "application/json";
  // Whole exchange (connect, write, read). Zero: the transport's default for its kind of call.
  std::chrono::milliseconds timeout{0};
  // Streams only: silent this long (while the consumer keeps up), the stream is dead and ends
  // with kDeadlineExceeded. Zero: TransportOptions::stream_idle_timeout.
  std::chrono::milliseconds stream_idle_timeout{0};
};

// A Retry-After header in whole seconds ("3"); nullopt for anything else (an HTTP date included,
// which the API server does not send).
inline std::optional<std::chrono::seconds> ParseRetryAfter(std::string_view value) {
  int seconds = -1;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, seconds);
  if (value.empty() || ec != std::errc() || ptr != end || seconds < 0) return std::nullopt;
  return std::chrono::seconds(seconds);
}

struct HttpResponse {
  int status = 0;
  std::string body;
  std::string content_type;
  std::optional<std::chrono::seconds> retry_after;  // from a Retry-After header in seconds
};

}  // namespace ksched::client
