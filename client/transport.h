// Transport: what RestClient needs from an HTTP transport to one API server. HttpTransport
// (client/http_transport.h) is the real one; unit tests script a fake.
//
// Contract for implementations:
//   - Send/SendAfter never block the caller and deliver exactly one result to `done`, on a thread
//     of the transport's choosing (HttpTransport: its I/O thread), possibly before Send returns
//     (a fake may call it synchronously). A transport that shuts down delivers kCancelled to
//     everything still pending, delayed sends included, before its destructor returns; no callback
//     runs after that. Send and SendAfter may be called from inside a callback.
//   - Any HTTP status, 4xx/5xx included, is a successful exchange; a failed exchange is an
//     absl::Status. A failure that happened before the request was (completely) written, so that
//     the server cannot have acted on it, carries the payload kNotSentPayload (MarkNotSent /
//     WasNotSent): RestClient may then retry even a POST.
//   - OpenLineStream blocks until the response head has arrived (or the exchange failed).
//
// Thread-safety: all methods may be called concurrently from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "client/http_types.h"

namespace ksched::client {

// One element of a line stream: a complete line, or the notice that a line was too long and skipped.
struct StreamItem {
  std::string line;               // without the trailing '\n'
  std::size_t oversized_bytes = 0;  // > 0: a line of this many bytes was dropped; `line` is empty
};

// The consumer side of a streaming response. Owned by the caller; destroying it cancels the stream.
class LineStream {
 public:
  virtual ~LineStream() = default;
  // HTTP status of the response head.
  virtual int status() const = 0;
  // Blocks for the next item; nullopt at a clean end of the body; an error Status when the
  // connection failed or timed out, or the stream was cancelled.
  virtual absl::StatusOr<std::optional<StreamItem>> Next() = 0;
  // The rest of the body as one string (for non-2xx responses, whose body is a Status object).
  virtual absl::StatusOr<std::string> ReadAll() = 0;
  // Ends the stream from any thread; a blocked Next() returns kCancelled.
  virtual void Cancel() = 0;
};

// Status payload type URL marking a failure before the request was written.
inline constexpr char kNotSentPayload[] = "type.kube-scheduler-cpp/request-not-sent";

inline absl::Status MarkNotSent(absl::Status status) {
  if (!status.ok()) status.SetPayload(kNotSentPayload, absl::Cord("1"));
  return status;
}

inline bool WasNotSent(const absl::Status& status) {
  return status.GetPayload(kNotSentPayload).has_value();
}

class Transport {
 public:
  using Callback = std::function<void(absl::StatusOr<HttpResponse>)>;

  virtual ~Transport() = default;

  virtual void Send(HttpRequest request, Callback done) = 0;
  // Sends `request` once `delay` has passed (zero or negative: as Send), without blocking.
  virtual void SendAfter(std::chrono::steady_clock::duration delay, HttpRequest request,
                         Callback done) = 0;
  virtual absl::StatusOr<std::unique_ptr<LineStream>> OpenLineStream(HttpRequest request) = 0;
  // The server URL as configured, e.g. "https://127.0.0.1:6443", for messages.
  virtual const std::string& server() const = 0;
};

}  // namespace ksched::client
