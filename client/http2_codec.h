// Http2Codec: the client side of one HTTP/2 connection as bytes in and bytes out (nghttp2 does the
// framing, HPACK and flow control). No sockets and no Asio: HttpTransport moves the bytes over its
// TLS connection; unit tests pipe them to an nghttp2 server session in memory.
//
// What it does, as Go's http2.Transport (client-go's) does it:
//   - client preface and SETTINGS: no server push, a 4 MiB window per stream and a 1 GiB window for
//     the connection;
//   - requests as streams (Submit), the body sent from a string the codec owns until it is sent;
//   - responses as events to a Listener: the head (status, Content-Type, Retry-After; 1xx skipped),
//     DATA chunks, the stream's close with its error code (0: complete), the server's GOAWAY and
//     PING acks;
//   - flow control by consumption: a DATA chunk counts against the connection's window until it is
//     received and against its stream's until the caller calls Consume. A consumer that stops
//     consuming (a watch whose reader lags) stops the server on that stream only.
//
// Errors: Receive returns kUnavailable for a protocol error (the connection is then unusable);
// Submit returns kUnavailable once the connection may not open streams (GOAWAY received or sent).
//
// Thread-safety: none. One thread (the transport's I/O thread) drives a codec and receives its
// Listener calls, which run inside Receive and TakeOutput and may call Consume and Reset (not
// Submit). A Listener may hear of a stream id it no longer knows (a stream reset while it waited
// for a slot) and must ignore it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct nghttp2_session;

namespace ksched::client {

struct Http2ResponseHead {
  int status = 0;
  std::string content_type;
  std::optional<std::chrono::seconds> retry_after;  // ParseRetryAfter of the header, if sent
};

struct Http2Request {
  std::string_view method;     // "GET"
  std::string_view scheme;     // "https"
  std::string_view authority;  // "127.0.0.1:6443"
  std::string_view path;       // "/api/v1/nodes?limit=500"
  // Regular headers, names in lower case (HTTP/2 requires it): user-agent, accept, ...
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // sent with a content-length; empty: no DATA frame
};

class Http2Codec {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    virtual void OnResponseHead(std::int32_t stream_id, Http2ResponseHead head) = 0;
    virtual void OnData(std::int32_t stream_id, std::string_view data) = 0;
    // The stream is gone: error_code 0 after a complete response, otherwise the RST_STREAM code
    // (7, REFUSED_STREAM: the server did not process it, so it may be retried) or the code the
    // connection was torn down with.
    virtual void OnStreamClose(std::int32_t stream_id, std::uint32_t error_code) = 0;
    virtual void OnGoAway(std::int32_t last_stream_id, std::uint32_t error_code) = 0;
    virtual void OnPingAck() = 0;
  };

  static constexpr std::uint32_t kRefusedStream = 0x7;  // RST_STREAM REFUSED_STREAM (RFC 9113)
  static constexpr std::uint32_t kStreamWindow = 4u << 20;      // Go's transportDefaultStreamFlow
  static constexpr std::uint32_t kConnectionWindow = 1u << 30;  // Go's transportDefaultConnFlow

  // `listener` must outlive the codec. Queues the SETTINGS and the connection window; the client
  // preface goes out with the first TakeOutput.
  static absl::StatusOr<std::unique_ptr<Http2Codec>> Create(Listener* listener);
  ~Http2Codec();
  Http2Codec(const Http2Codec&) = delete;
  Http2Codec& operator=(const Http2Codec&) = delete;

  // Opens a stream for `request`; the frames go out with the next TakeOutput. Beyond the server's
  // SETTINGS_MAX_CONCURRENT_STREAMS the stream waits inside nghttp2 until one closes.
  absl::StatusOr<std::int32_t> Submit(Http2Request request);
  // Feeds bytes read from the connection; Listener calls happen inside.
  absl::Status Receive(std::string_view bytes);
  // Appends every frame ready to go to `out` (window updates, acks, requests, bodies).
  void TakeOutput(std::string* out);
  // Returns `bytes` of a stream's DATA to its window (Go does this as its reader reads).
  void Consume(std::int32_t stream_id, std::size_t bytes);
  // Cancels a stream (RST_STREAM CANCEL); no Listener call follows for it.
  void Reset(std::int32_t stream_id);
  void Ping();
  // GOAWAY to the server; no new streams after it.
  void Terminate();

  // False once a GOAWAY went either way, or after a protocol error: open no more streams here.
  bool CanOpenStreams() const;
  // True while nghttp2 still wants to read or write: false once it is finished with the connection.
  bool Alive() const;
  // Streams submitted and not yet closed (including those waiting for a concurrency slot).
  std::size_t open_streams() const { return streams_.size(); }

  struct StreamData;

 private:
  struct Callbacks;
  explicit Http2Codec(Listener* listener) : listener_(listener) {}
  StreamData* Find(std::int32_t stream_id) const;

  Listener* listener_;
  nghttp2_session* session_ = nullptr;
  std::unordered_map<std::int32_t, StreamData*> streams_;  // owned; erased as they close
  bool failed_ = false;
  std::string protocol_error_;  // nghttp2's words for the first connection error
};

}  // namespace ksched::client
