// HttpTransport: HTTP/2 or HTTP/1.1 over TLS (or HTTP/1.1 over plain TCP) to one API server, on
// one I/O thread.
//
// What it does:
//   - HTTP/2 for unary calls, as client-go: to an HTTPS server the first handshake offers "h2"
//     (ALPN). When the server selects it, unary calls are HTTP/2 streams over
//     `http2_connections` connections, in turn (a connection the server GOAWAYs, or of a replaced
//     client certificate, takes no new streams and a new one opens); a connection silent for
//     `http2_read_idle_timeout` is PINGed and closed without an answer; calls not yet written when
//     their connection failed, and streams the server refused, are sent again once. A server that
//     declines h2 gets HTTP/1.1 as below, for good. Off by default (TransportOptions::http2);
//     Streams (watches) always take a dedicated HTTP/1.1 connection: see http_transport.cc;
//   - HTTP/1.1 unary calls (Send/SendSync) over a keep-alive connection pool: at most
//     `max_connections` exchanges in flight, more wait in FIFO order; idle connections are reused
//     for `idle_connection_ttl`; a reused connection that turns out to be closed by the server is
//     replaced once, transparently, when that is safe (idempotent method, or nothing was written);
//   - long-lived streams (OpenLineStream, for watches) on dedicated connections, never pooled,
//     delivered as newline-delimited items with back-pressure (reading pauses while the consumer
//     lags by more than `stream_buffer_bytes`);
//   - TLS with peer verification against the configured CA (or the system store), hostname or IP
//     SAN checks (OpenSSL's own), SNI, client certificates; connect+handshake and request timeouts;
//     OpenSSL works the socket directly (client/tls_stream.h), and a connection waiting for the
//     server or idle in the pool holds no TLS record buffer;
//   - client certificates that change at run time (exec credential plugins; client-go's
//     TLSConfig.GetCert plus its connection tracker): with a ClientCertificateSource, every request
//     asks it for the current pair; a pair of a newer generation than the connections use makes
//     the transport build a new TLS context for it (later connections present it), close its idle
//     pooled connections and end its open streams (kUnavailable: watchers reconnect, with the new
//     certificate). Unary exchanges already in flight finish on their connection, which is then
//     closed instead of pooled. A pair that cannot be loaded fails the request that brought it
//     (kInvalidArgument naming its source) and the transport keeps the pair it had.
//
// What it does not do: rate limiting, retries on HTTP status codes, decoding. RestClient does those.
//
// Errors: transport failures are absl::Status values naming the server: kUnavailable (refused,
// reset, closed: worth a retry), kDeadlineExceeded (timeouts), kFailedPrecondition (TLS
// verification: a retry will not help), kInvalidArgument (bad configuration, at Create),
// kCancelled (transport shut down). Any HTTP status, 4xx/5xx included, is a successful exchange.
// A unary failure before the request was completely written carries kNotSentPayload
// (client/transport.h).
//
// Threading: all sockets live on the transport's own I/O thread; Send callbacks run there and must
// be quick. Send/OpenLineStream/SendSync may be called from any thread; SendSync and
// OpenLineStream block and abort if called on the I/O thread (a deadlock otherwise). The destructor
// shuts down: pending callbacks receive kCancelled, open streams end with kCancelled.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/http_types.h"
#include "client/rest_config.h"
#include "client/transport.h"

namespace ksched::client {

struct TransportOptions {
  std::chrono::milliseconds connect_timeout{10'000};        // TCP connect plus TLS handshake
  std::chrono::milliseconds request_timeout{120'000};       // unary call default
  std::chrono::milliseconds stream_idle_timeout{600'000};   // a stream silent this long is dead
  std::size_t max_connections = 64;  // unary calls in flight (over HTTP/1.1, one connection each)
  // As many as may be in flight: a smaller idle pool closes connections after every burst and
  // opens them again (a full TLS handshake each) on the next, which cost a scheduler at 150
  // pods/s ~15 handshakes per second and a fifth of its CPU. Idle ones still expire by TTL.
  std::size_t max_idle_connections = 64;
  std::chrono::milliseconds idle_connection_ttl{50'000};
  std::size_t max_body_bytes = std::size_t{1} << 30;       // unary response bodies (large lists)
  std::size_t max_line_bytes = std::size_t{16} << 20;      // longer stream lines are skipped
  std::size_t stream_buffer_bytes = std::size_t{64} << 20;
  // HTTP/2 for unary calls to HTTPS servers that select it by ALPN. Off by default, unlike
  // client-go: on the benchmark machine it cut peak RSS by ~5 MiB but doubled or worse the pods'
  // creation-to-bound latency (README, "HTTP/2"). Create() reads the environment: KSCHED_HTTP2=1
  // turns it on, DISABLE_HTTP2 (client-go's switch) off; HTTP2_READ_IDLE_TIMEOUT_SECONDS and
  // HTTP2_PING_TIMEOUT_SECONDS set the two timeouts below, as for client-go.
  bool http2 = false;
  // HTTP/2 connections that unary calls take turns on.
  std::size_t http2_connections = 1;
  // An HTTP/2 connection silent this long gets a PING; without an answer within the ping timeout
  // it is closed and its streams fail (client-go's HTTP2_READ_IDLE_TIMEOUT_SECONDS and
  // HTTP2_PING_TIMEOUT_SECONDS, 30 s and 15 s).
  std::chrono::milliseconds http2_read_idle_timeout{30'000};
  std::chrono::milliseconds http2_ping_timeout{15'000};
};

// The value of the Authorization header for the next request ("Bearer ...", "Basic ..."), empty
// for none, or an error (an exec plugin that failed). Called on the caller's thread, never on the
// I/O thread, so it may block briefly.
using AuthorizationSource = std::function<absl::StatusOr<std::string>()>;

// A client certificate supplied at run time (by an exec credential plugin) rather than by the
// RestConfig. Immutable once handed out.
struct ClientCertificate {
  std::string cert_pem;  // both empty: no client certificate (the RestConfig's own, if any)
  std::string key_pem;
  std::string source;    // where it came from, for messages: "exec plugin <command>"
  std::uint64_t generation = 0;  // grows by one each time the pair changes; 1 is the first pair
};

// The client certificate for the next request, null for "none supplied (yet)", or an error (an
// exec plugin that failed). Called where AuthorizationSource is called, with every request.
using ClientCertificateSource =
    std::function<absl::StatusOr<std::shared_ptr<const ClientCertificate>>()>;

struct TransportStats {
  std::uint64_t connections_opened = 0;  // TCP connections, HTTP/1.1 and HTTP/2
  std::uint64_t http2_streams = 0;       // requests and streams sent as HTTP/2 streams
  std::uint64_t connections_reused = 0;  // requests on a connection that carried one before
  std::uint64_t requests = 0;
  std::uint64_t transport_failures = 0;
  std::uint64_t stale_connection_retries = 0;
  std::uint64_t client_certificate_rotations = 0;  // new pairs adopted from the source
  std::uint64_t connections_closed_for_rotation = 0;  // idle connections and streams closed then
};

class HttpTransport final : public Transport {
 public:

  // Validates the server URL and TLS material (CA, client certificate and key) and starts the I/O
  // thread. kInvalidArgument names the bad field and where it came from (config.source).
  // `client_certificate`: see "client certificates that change at run time" above; ignored for
  // plain-HTTP servers.
  static absl::StatusOr<std::unique_ptr<HttpTransport>> Create(
      const RestConfig& config, TransportOptions options = {}, AuthorizationSource auth = nullptr,
      ClientCertificateSource client_certificate = nullptr);
  ~HttpTransport() override;
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  void Send(HttpRequest request, Callback done) override;
  // A steady_timer on the I/O thread, then Send (the Authorization header is computed then, on the
  // I/O thread). Shutdown cancels waiting timers: their callbacks receive kCancelled.
  void SendAfter(std::chrono::steady_clock::duration delay, HttpRequest request,
                 Callback done) override;
  absl::StatusOr<HttpResponse> SendSync(HttpRequest request);
  // Returns once the response head has arrived (or the exchange failed).
  absl::StatusOr<std::unique_ptr<LineStream>> OpenLineStream(HttpRequest request) override;

  // "https://127.0.0.1:6443" as configured.
  const std::string& server() const override;
  TransportStats stats() const;

  class Impl;

 private:
  explicit HttpTransport(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

}  // namespace ksched::client
