// The project's one translation unit that includes Boost.Beast/Asio for HTTP client work (compile
// time on 2 cores is precious). See http_transport.h for the contract.
#include "base/mutex.h"
#include "client/http_transport.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <sys/socket.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdlib>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>

#include <charconv>
#include "api/build_info.h"
#include "client/concat.h"
#include "client/header_value.h"
#include "client/http2_codec.h"
#include "client/line_framer.h"
#include "client/server_url.h"
#include "client/tls_stream.h"
#include "spdlog/spdlog.h"

namespace ksched::client {

std::string_view MethodName(HttpMethod method) {
  switch (method) {
    case HttpMethod::kGet: return "GET";
    case HttpMethod::kPost: return "POST";
    case HttpMethod::kPut: return "PUT";
    case HttpMethod::kPatch: return "PATCH";
    case HttpMethod::kDelete: return "DELETE";
  }
  std::abort();
}

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

bool IsIpAddress(const std::string& host) {
  boost::system::error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

std::string OpenSslErrors() {
  std::string text;
  while (unsigned long code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    if (!text.empty()) text += "; ";
    text += buf;
  }
  return text.empty() ? "unknown OpenSSL error" : text;
}

// Adds every certificate of a PEM bundle to the context's trust store. Returns how many were
// added, 0 when the text holds none, -1 when one could not be added. (Not asio's
// add_certificate_authority: with OpenSSL 3 it misreads the end of the bundle as an error when
// an earlier failure left state behind on the thread.)
int AddCertificateAuthorities(SSL_CTX* ctx, const std::string& pem) {
  ERR_clear_error();
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) return -1;
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int added = 0;
  while (X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    const int ok = X509_STORE_add_cert(store, cert);
    X509_free(cert);
    if (ok != 1) {
      BIO_free(bio);
      return -1;
    }
    ++added;
  }
  BIO_free(bio);
  ERR_clear_error();  // the end of the bundle reads as "no start line"
  return added;
}

absl::StatusOr<std::shared_ptr<ssl::context>> MakeTlsContext(const RestConfig& config) {
  ERR_clear_error();  // errors left on this thread's queue would be blamed on this config
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  boost::system::error_code ec;
  const TlsConfig& tls = config.tls;
  if (tls.insecure_skip_verify) {
    ctx->set_verify_mode(ssl::verify_none);
  } else {
    ctx->set_verify_mode(ssl::verify_peer);
    if (!tls.ca_pem.empty()) {
      const int added = AddCertificateAuthorities(ctx->native_handle(), tls.ca_pem);
      if (added <= 0) {
        return absl::InvalidArgumentError(Concat(
            "certificate authority from ", tls.ca_source.empty() ? "config" : tls.ca_source, " (",
            config.source, "): no valid PEM certificate in it",
            added < 0 ? Concat(": ", OpenSslErrors()) : std::string()));
      }
    } else {
      ctx->set_default_verify_paths(ec);
    }
  }
  if (!tls.client_cert_pem.empty() || !tls.client_key_pem.empty()) {
    const std::string where = tls.client_cert_source.empty() ? "config" : tls.client_cert_source;
    if (tls.client_cert_pem.empty() || tls.client_key_pem.empty()) {
      return absl::InvalidArgumentError(Concat("client certificate from ", where, " (",
                                                     config.source,
                                                     "): a certificate needs its key and a key its certificate"));
    }
    ctx->use_certificate_chain(net::buffer(tls.client_cert_pem), ec);
    if (ec) {
      return absl::InvalidArgumentError(Concat("client certificate from ", where, " (",
                                                     config.source, "): ", OpenSslErrors()));
    }
    ctx->use_private_key(net::buffer(tls.client_key_pem), ssl::context::pem, ec);
    if (ec) {
      // OpenSSL 3 checks the pair here already ("key values mismatch").
      return absl::InvalidArgumentError(Concat("client key for ", where, " (", config.source,
                                               "): not a valid PEM key or does not match the certificate: ",
                                               OpenSslErrors()));
    }
    if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
      return absl::InvalidArgumentError(Concat("client key for ", where, " (", config.source,
                                                     "): does not match the certificate"));
    }
  }
  return ctx;
}

// One TCP (or TLS over TCP) connection. Lives on the I/O thread. `tls_generation` is the
// generation of the client certificate its TLS context presents (0: the RestConfig's own).
class Connection {
 public:
  // `offer_http2`: the TLS handshake offers "h2" before "http/1.1" (ALPN); alpn() tells what the
  // server chose.
  Connection(net::io_context& ioc, std::shared_ptr<ssl::context> tls_context, std::uint64_t generation,
             bool offer_http2 = false)
      : tls_generation(generation), tls_context_(std::move(tls_context)), tcp_(ioc) {
    if (tls_context_ != nullptr) {
      tls_.emplace(tcp_.socket(), tls_context_->native_handle());
      if (offer_http2) {
        static constexpr unsigned char kProtocols[] = "\x02h2\x08http/1.1";
        if (SSL_set_alpn_protos(tls_->native_handle(), kProtocols, sizeof(kProtocols) - 1) != 0) std::abort();
      }
    }
  }
  // Connecting, and the stream itself when the server is plain HTTP.
  beast::tcp_stream& tcp() { return tcp_; }
  bool is_tls() const { return tls_.has_value(); }
  TlsStream& tls() { return *tls_; }
  // The protocol the server selected by ALPN ("h2", "http/1.1"), empty when none was negotiated.
  std::string_view alpn() {
    if (!tls_) return {};
    const unsigned char* data = nullptr;
    unsigned int size = 0;
    SSL_get0_alpn_selected(tls_->native_handle(), &data, &size);
    return {reinterpret_cast<const char*>(data), size};
  }
  template <class F>
  void Visit(F&& f) {
    if (tls_) f(*tls_);
    else f(tcp_);
  }
  // The deadline of the operations that follow (connect, handshake, request, response head).
  void ExpiresAt(Clock::time_point deadline) {
    tcp_.expires_at(deadline);
    if (tls_) tls_->ExpiresAt(deadline);
  }
  void ExpiresNever() {
    tcp_.expires_never();
    if (tls_) tls_->ExpiresNever();
  }
  // An idle connection in the pool holds no TLS record buffers.
  void ReleaseIdleBuffers() {
    if (tls_) tls_->ReleaseBuffers();
  }
  void Close() {
    boost::system::error_code ec;
    tcp_.socket().shutdown(tcp::socket::shutdown_both, ec);
    tcp_.socket().close(ec);
  }

  beast::flat_buffer buffer;
  bool reused = false;
  Clock::time_point idle_since{};
  const std::uint64_t tls_generation;

 private:
  std::shared_ptr<ssl::context> tls_context_;  // outlives the stream built on it
  beast::tcp_stream tcp_;
  std::optional<TlsStream> tls_;  // declared after tcp_: destroyed before the socket it uses
};

// An idle keep-alive connection is usable only while the server has neither closed it nor sent
// anything (an HTTP/1.1 server never speaks unasked; a TLS close_notify or an EOF means it is
// going away). Go's transport learns this from a read loop on idle connections; a non-blocking
// peek at reuse time gives the same answer without one, so a POST is not written into a dead
// connection (where it could not safely be replayed).
bool PeerClosedOrDirty(Connection& conn) {
  // Bytes OpenSSL already took off the socket (read ahead with the last response) count too.
  if (conn.is_tls() && SSL_has_pending(conn.tls().native_handle()) == 1) return true;
  char byte;
  const ssize_t n = ::recv(conn.tcp().socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n >= 0) return true;  // 0: orderly close; > 0: unsolicited bytes
  return errno != EAGAIN && errno != EWOULDBLOCK;
}

bool IsStaleConnectionError(const boost::system::error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::connection_reset || ec == net::error::broken_pipe ||
         ec == ssl::error::stream_truncated;
}

http::verb ToVerb(HttpMethod method) {
  switch (method) {
    case HttpMethod::kGet: return http::verb::get;
    case HttpMethod::kPost: return http::verb::post;
    case HttpMethod::kPut: return http::verb::put;
    case HttpMethod::kPatch: return http::verb::patch;
    case HttpMethod::kDelete: return http::verb::delete_;
  }
  std::abort();
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Impl: owns the io_context and its thread, the TLS context, the pool and the open streams.

class HttpTransport::Impl {
 public:
  struct Exchange;
  class StreamReader;
  class H2Connection;

  // How unary calls travel. HTTP/2 (multiplexed over http2_connections connections, as client-go
  // does over one) when it is enabled, the server is HTTPS and selects "h2" by ALPN; HTTP/1.1 over
  // the keep-alive pool otherwise. Decided by the first handshake; a server that declines h2 turns
  // the transport to HTTP/1.1 for good. Streams always use HTTP/1.1 (see "HTTP/2" below).
  enum class Protocol { kHttp2Offered, kHttp1 };

  Impl(RestConfig config, TransportOptions options, AuthorizationSource auth,
       ClientCertificateSource client_certificate, ServerUrlParts url,
       std::shared_ptr<ssl::context> tls_context)
      : config_(std::move(config)),
        options_(options),
        auth_(std::move(auth)),
        client_certificate_(std::move(client_certificate)),
        url_(std::move(url)),
        tls_context_(std::move(tls_context)),
        user_agent_(config_.user_agent.empty() ? api::UserAgent() : config_.user_agent),
        work_(net::make_work_guard(ioc_)),
        resolver_(ioc_),
        protocol_(url_.tls && options_.http2 ? Protocol::kHttp2Offered : Protocol::kHttp1) {
    thread_ = std::thread([this] { ioc_.run(); });
    io_thread_id_ = thread_.get_id();
  }
  ~Impl() { Shutdown(); }

  void Shutdown() {
    std::call_once(shutdown_once_, [this] {
      net::post(ioc_, [this] {
        shutting_down_ = true;
        resolver_.cancel();
        for (auto& conn : idle_) conn->Close();
        idle_.clear();
        auto pending = std::move(pending_);
        for (auto& ex : pending) Finish(ex, absl::CancelledError("transport shut down"), false);
        for (auto& ex : active_) {
          if (ex->conn) ex->conn->Close();
        }
        std::vector<std::shared_ptr<H2Connection>> h2 = std::move(h2_retiring_);
        for (auto& slot : h2_pool_) {
          if (slot) h2.push_back(std::move(slot));
        }
        for (auto& c : h2) H2Fail(c, absl::CancelledError("transport shut down"));
        for (auto& weak : streams_) {
          if (auto reader = weak.lock()) CloseReader(*reader);
        }
        for (auto& timer : timers_) timer->cancel();  // their handlers deliver kCancelled
      });
      {
        base::MutexLock lock(&stop_mu_);  // posts before this still run
        stopped_ = true;
      }
      work_.reset();
      if (thread_.joinable()) {
        if (std::this_thread::get_id() == io_thread_id_) std::abort();  // would join itself
        thread_.join();
      }
    });
  }

  bool OnIoThread() const { return std::this_thread::get_id() == io_thread_id_; }
  const std::string& server() const { return config_.server; }
  TransportStats stats() const {
    base::MutexLock lock(&stats_mu_);
    return stats_;
  }

  // Builds the Beast request on the caller's thread, and takes the client certificate it is to be
  // sent with (when a source supplies one); a credential failure is returned.
  absl::StatusOr<http::request<http::string_body>> BuildRequest(
      const HttpRequest& request, std::shared_ptr<const ClientCertificate>* certificate) {
    http::request<http::string_body> req{ToVerb(request.method), url_.prefix + request.target, 11};
    req.set(http::field::host, url_.host_header);
    req.set(http::field::user_agent, user_agent_);
    req.set(http::field::accept, request.accept);
    if (auth_) {
      absl::StatusOr<std::string> authorization = auth_();
      if (!authorization.ok()) return authorization.status();
      // Any source (kubeconfig, token file, exec plugin, a metrics plugin's token): never sent
      // with control characters that would add headers of their own.
      if (!ValidHeaderFieldValue(*authorization)) return InvalidHeaderFieldValue("Authorization");
      if (!authorization->empty()) req.set(http::field::authorization, *authorization);
    }
    if (client_certificate_ && url_.tls) {
      absl::StatusOr<std::shared_ptr<const ClientCertificate>> cert = client_certificate_();
      if (!cert.ok()) return cert.status();
      *certificate = std::move(*cert);
    }
    if (!config_.impersonate_user.empty()) {
      if (!ValidHeaderFieldValue(config_.impersonate_user)) return InvalidHeaderFieldValue("Impersonate-User");
      req.set("Impersonate-User", config_.impersonate_user);
      for (const std::string& group : config_.impersonate_groups) {
        if (!ValidHeaderFieldValue(group)) return InvalidHeaderFieldValue("Impersonate-Group");
        req.insert("Impersonate-Group", group);
      }
    }
    if (!request.content_type.empty()) req.set(http::field::content_type, request.content_type);
    req.body() = request.body;
    req.keep_alive(true);
    req.prepare_payload();
    return req;
  }

  // ---- unary exchanges --------------------------------------------------------------------------

  struct Exchange {
    HttpMethod method;
    std::string target;
    http::request<http::string_body> req;
    Callback done;
    Clock::time_point deadline;
    std::shared_ptr<Connection> conn;
    std::optional<http::response_parser<http::string_body>> parser;
    std::shared_ptr<const ClientCertificate> certificate;  // null: none supplied
    bool written = false;
    bool retried = false;
    // HTTP/2 only: the deadline (HTTP/1.1 has the stream's expiry), the connection and stream,
    // the submission number (written once a write taken after it completed), the response.
    std::optional<net::steady_timer> timer;
    std::shared_ptr<H2Connection> h2;
    std::int32_t h2_stream = 0;
    std::uint64_t h2_submission = 0;
    std::optional<Http2ResponseHead> h2_head;
    std::string h2_body;
  };

  void Send(HttpRequest request, Callback done) {
    auto ex = std::make_shared<Exchange>();
    ex->method = request.method;
    ex->target = request.target;
    ex->done = std::move(done);
    const auto timeout = request.timeout.count() > 0 ? request.timeout : options_.request_timeout;
    absl::StatusOr<http::request<http::string_body>> req = BuildRequest(request, &ex->certificate);
    if (req.ok()) ex->req = std::move(*req);
    net::post(ioc_, [this, ex, timeout, status = req.status()]() mutable {
      ex->deadline = Clock::now() + timeout;
      if (!status.ok()) return Finish(ex, std::move(status), false);
      if (shutting_down_) return Finish(ex, absl::CancelledError("transport shut down"), false);
      if (active_.size() >= options_.max_connections) {
        pending_.push_back(std::move(ex));
        return;
      }
      active_.insert(ex);
      StartActive(ex);
    });
  }

  // SendAfter: the timer lives on the I/O thread; Shutdown cancels it.
  void SendAfter(Clock::duration delay, HttpRequest request, Callback done) {
    if (delay <= Clock::duration::zero()) return Send(std::move(request), std::move(done));
    auto timer = std::make_shared<net::steady_timer>(ioc_);
    net::post(ioc_, [this, timer, delay, request = std::move(request), done = std::move(done)]() mutable {
      if (shutting_down_) {
        done(MarkNotSent(absl::CancelledError(Concat(MethodName(request.method), " ", config_.server,
                                                     request.target, ": transport shut down"))));
        return;
      }
      timers_.insert(timer);
      timer->expires_after(delay);
      timer->async_wait([this, timer, request = std::move(request),
                         done = std::move(done)](beast::error_code ec) mutable {
        timers_.erase(timer);
        if (ec || shutting_down_) {
          done(MarkNotSent(absl::CancelledError(Concat(MethodName(request.method), " ", config_.server,
                                                       request.target, ": transport shut down"))));
          return;
        }
        Send(std::move(request), std::move(done));
      });
    });
  }

  void Start(const std::shared_ptr<Exchange>& ex) {
    {
      base::MutexLock lock(&stats_mu_);
      ++stats_.requests;
    }
    if (absl::Status adopted = AdoptCertificate(ex->certificate); !adopted.ok()) {
      return Finish(ex, Prefixed(adopted, MethodName(ex->method), ex->target), true);
    }
    ex->written = false;
    if (!ex->retried) ex->conn = TakeIdle();
    if (ex->conn) {
      ex->conn->reused = true;
      base::MutexLock lock(&stats_mu_);
      ++stats_.connections_reused;
    }
    if (ex->conn) return Write(ex);
    ex->conn = NewConnection();
    Connect(ex->conn, ex->deadline, [this, ex](absl::Status status) {
      if (!status.ok()) return Finish(ex, std::move(status), true);
      Write(ex);
    });
  }

  std::shared_ptr<Connection> NewConnection() {
    return std::make_shared<Connection>(ioc_, tls_context_, tls_generation_);
  }

  absl::Status Prefixed(const absl::Status& status, std::string_view method,
                        std::string_view target) const {
    return absl::Status(status.code(),
                        Concat(method, " ", config_.server, target, ": ", status.message()));
  }

  // Switches new connections to `certificate` when it is newer than the one in use, and closes
  // the connections of the old one that nobody is waiting on: the idle pool and the streams
  // (client-go closes every connection its exec authenticator's dialer made). A pair that does not
  // load is an error for the request that brought it; the transport keeps its current pair.
  absl::Status AdoptCertificate(const std::shared_ptr<const ClientCertificate>& certificate) {
    if (!certificate || !tls_context_ || certificate->generation <= tls_generation_) {
      return absl::OkStatus();
    }
    RestConfig with_certificate = config_;
    with_certificate.tls.client_cert_pem = certificate->cert_pem;
    with_certificate.tls.client_key_pem = certificate->key_pem;
    with_certificate.tls.client_cert_source = certificate->source;
    absl::StatusOr<std::shared_ptr<ssl::context>> context = MakeTlsContext(with_certificate);
    if (!context.ok()) return context.status();
    tls_context_ = std::move(*context);
    const std::uint64_t old_generation = tls_generation_;
    tls_generation_ = certificate->generation;
    std::uint64_t closed = idle_.size();
    for (auto& conn : idle_) conn->Close();
    idle_.clear();
    for (std::shared_ptr<H2Connection> slot : h2_pool_) {  // each closes once its calls are done
      if (slot && slot->tls_generation < tls_generation_) {
        H2Retire(slot);
        ++closed;
      }
    }
    for (auto& weak : streams_) {
      std::shared_ptr<StreamReader> reader = weak.lock();
      if (!reader || reader->closed_ || !reader->conn_ ||
          reader->conn_->tls_generation >= tls_generation_) {
        continue;
      }
      ++closed;
      EndStream(*reader, absl::UnavailableError(Concat(
                             "stream GET ", config_.server, reader->target_,
                             ": closed because the client certificate from ", certificate->source,
                             " changed")));
    }
    {
      base::MutexLock lock(&stats_mu_);
      ++stats_.client_certificate_rotations;
      stats_.connections_closed_for_rotation += closed;
    }
    // The first pair (nothing to close) is routine; a rotation is worth a line.
    spdlog::log(old_generation == 0 && closed == 0 ? spdlog::level::debug : spdlog::level::info,
                "{}: client certificate from {} changed (generation {} -> {}): {} idle "
                "connection(s) and stream(s) closed",
                config_.server, certificate->source, old_generation, tls_generation_, closed);
    return absl::OkStatus();
  }

  std::shared_ptr<Connection> TakeIdle() {
    const Clock::time_point now = Clock::now();
    while (!idle_.empty()) {
      std::shared_ptr<Connection> conn = std::move(idle_.back());
      idle_.pop_back();
      if (now - conn->idle_since < options_.idle_connection_ttl && !PeerClosedOrDirty(*conn)) return conn;
      conn->Close();
    }
    return nullptr;
  }

  // The pool is used last-in first-out, so its oldest connections sit at the front; those idle
  // longer than the TTL are closed here rather than only when TakeIdle reaches them.
  void CloseExpiredIdle() {
    const Clock::time_point now = Clock::now();
    std::size_t expired = 0;
    while (expired < idle_.size() && now - idle_[expired]->idle_since >= options_.idle_connection_ttl) {
      idle_[expired]->Close();
      ++expired;
    }
    idle_.erase(idle_.begin(), idle_.begin() + static_cast<std::ptrdiff_t>(expired));
  }

  void Write(const std::shared_ptr<Exchange>& ex) {
    ex->conn->ExpiresAt(ex->deadline);
    ex->conn->Visit([&](auto& stream) {
      http::async_write(stream, ex->req, [this, ex](beast::error_code ec, std::size_t) {
        if (ec) return OnFailure(ex, ec);
        ex->written = true;
        Read(ex);
      });
    });
  }

  void Read(const std::shared_ptr<Exchange>& ex) {
    ex->parser.emplace();
    ex->parser->body_limit(options_.max_body_bytes);
    ex->conn->Visit([&](auto& stream) {
      http::async_read(stream, ex->conn->buffer, *ex->parser,
                       [this, ex](beast::error_code ec, std::size_t) {
                         if (ec) return OnFailure(ex, ec);
                         Complete(ex);
                       });
    });
  }

  void OnFailure(const std::shared_ptr<Exchange>& ex, const beast::error_code& ec) {
    const bool reused = ex->conn && ex->conn->reused;
    if (ex->conn) ex->conn->Close();
    // A keep-alive connection the server closed while it sat idle: replay on a fresh one, when
    // the request cannot have taken effect or may be repeated.
    if (!shutting_down_ && reused && !ex->retried && IsStaleConnectionError(ec) &&
        (!ex->written || IsIdempotent(ex->method))) {
      ex->retried = true;
      ex->conn = NewConnection();
      {
        base::MutexLock lock(&stats_mu_);
        ++stats_.stale_connection_retries;
      }
      Connect(ex->conn, ex->deadline, [this, ex](absl::Status status) {
        if (!status.ok()) return Finish(ex, std::move(status), true);
        Write(ex);
      });
      return;
    }
    Finish(ex, ErrorStatus(ec, MethodName(ex->method), ex->target), true);
  }

  void Complete(const std::shared_ptr<Exchange>& ex) {
    http::response<http::string_body> res = ex->parser->release();
    HttpResponse response;
    response.status = static_cast<int>(res.result_int());
    response.content_type = std::string(res[http::field::content_type]);
    const auto retry_after = res[http::field::retry_after];
    response.retry_after = ParseRetryAfter(std::string_view(retry_after.data(), retry_after.size()));
    response.body = std::move(res.body());
    // A connection of a replaced client certificate is not reused (client-go closes it).
    if (res.keep_alive() && !shutting_down_) CloseExpiredIdle();
    if (res.keep_alive() && !shutting_down_ && idle_.size() < options_.max_idle_connections &&
        ex->conn->tls_generation == tls_generation_) {
      ex->conn->idle_since = Clock::now();
      ex->conn->buffer.consume(ex->conn->buffer.size());
      ex->conn->ReleaseIdleBuffers();
      idle_.push_back(std::move(ex->conn));
    } else {
      ex->conn->Close();
    }
    ex->conn.reset();
    Finish(ex, std::move(response), true);
  }

  void Finish(const std::shared_ptr<Exchange>& ex, absl::StatusOr<HttpResponse> result, bool was_active) {
    if (!result.ok()) {
      if (!ex->written) result = MarkNotSent(result.status());
      base::MutexLock lock(&stats_mu_);
      ++stats_.transport_failures;
    }
    if (was_active) active_.erase(ex);
    ex->conn.reset();
    ex->h2.reset();
    if (ex->timer) ex->timer->cancel();
    Callback done = std::move(ex->done);
    if (done) done(std::move(result));
    while (!pending_.empty() && active_.size() < options_.max_connections && !shutting_down_) {
      std::shared_ptr<Exchange> next = std::move(pending_.front());
      pending_.pop_front();
      active_.insert(next);
      StartActive(next);
    }
  }

  // At most max_connections unary calls are in flight, whichever protocol carries them.
  void StartActive(const std::shared_ptr<Exchange>& ex) {
    if (protocol_ == Protocol::kHttp2Offered) return H2Start(ex);
    Start(ex);
  }

  absl::Status ErrorStatus(const beast::error_code& ec, std::string_view method,
                           std::string_view target) const {
    const std::string what = Concat(method, " ", config_.server, target);
    if (shutting_down_) return absl::CancelledError(Concat(what, ": transport shut down"));
    if (ec == beast::error::timeout) {
      return absl::DeadlineExceededError(Concat(what, ": timed out (", ec.category().name(), ":", ec.value(), ")"));
    }
    if (ec == http::error::body_limit) {
      return absl::ResourceExhaustedError(
          Concat(what, ": response body larger than ", options_.max_body_bytes, " bytes (", ec.category().name(), ":", ec.value(), ")"));
    }
    return absl::UnavailableError(Concat(what, ": ", ec.message(), " (", ec.category().name(), ":", ec.value(), ")"));
  }

  // ---- connecting ---------------------------------------------------------------------------------

  void Connect(const std::shared_ptr<Connection>& conn, Clock::time_point deadline,
               std::function<void(absl::Status)> done) {
    {
      base::MutexLock lock(&stats_mu_);
      ++stats_.connections_opened;
    }
    const Clock::time_point connect_deadline = std::min(deadline, Clock::now() + options_.connect_timeout);
    auto on_connected = [this, conn, connect_deadline, done](beast::error_code ec) mutable {
      if (ec) {
        if (shutting_down_) return done(absl::CancelledError("transport shut down"));
        if (ec == beast::error::timeout) {
          return done(absl::DeadlineExceededError(
              Concat("connecting to ", config_.server, ": timed out")));
        }
        return done(absl::UnavailableError(
            Concat("connecting to ", config_.server, ": ", ec.message())));
      }
      conn->tcp().socket().set_option(tcp::no_delay(true), ec);
      if (!conn->is_tls()) return done(absl::OkStatus());
      Handshake(conn, connect_deadline, std::move(done));
    };
    conn->ExpiresAt(connect_deadline);
    boost::system::error_code ec;
    const net::ip::address address = net::ip::make_address(url_.host, ec);
    if (!ec) {
      const auto port = static_cast<unsigned short>(std::stoi(url_.port));
      conn->tcp().async_connect(tcp::endpoint(address, port), std::move(on_connected));
      return;
    }
    resolver_.async_resolve(
        url_.host, url_.port,
        [conn, on_connected = std::move(on_connected)](
            beast::error_code rec, const tcp::resolver::results_type& results) mutable {
          if (rec) {
            on_connected(rec);
            return;
          }
          conn->tcp().async_connect(results, [on_connected = std::move(on_connected)](
                                                 beast::error_code cec, const tcp::endpoint&) mutable {
            on_connected(cec);
          });
        });
  }

  void Handshake(const std::shared_ptr<Connection>& conn, Clock::time_point deadline,
                 std::function<void(absl::Status)> done) {
    SSL* ssl_handle = conn->tls().native_handle();
    const std::string& name = config_.tls.server_name.empty() ? url_.host : config_.tls.server_name;
    const bool ip = IsIpAddress(name);
    if (!ip) SSL_set_tlsext_host_name(ssl_handle, name.c_str());
    if (!config_.tls.insecure_skip_verify) {
      if (ip) X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_handle), name.c_str());
      else SSL_set1_host(ssl_handle, name.c_str());
    }
    conn->ExpiresAt(deadline);
    conn->tls().async_handshake([this, conn, done](beast::error_code ec) {
      if (!ec) return done(absl::OkStatus());
      if (shutting_down_) return done(absl::CancelledError("transport shut down"));
      const long verify = SSL_get_verify_result(conn->tls().native_handle());
      if (verify != X509_V_OK) {
        return done(absl::FailedPreconditionError(Concat(
            "TLS: the certificate of ", config_.server, " failed verification: ",
            X509_verify_cert_error_string(verify), " (trusting ",
            config_.tls.ca_pem.empty() ? std::string("the system CA store")
                                       : "the CA from " + config_.tls.ca_source,
            "; ", config_.source, ")")));
      }
      if (ec == beast::error::timeout) {
        return done(absl::DeadlineExceededError(
            Concat("TLS handshake with ", config_.server, ": timed out")));
      }
      done(absl::UnavailableError(
          Concat("TLS handshake with ", config_.server, " failed: ", ec.message())));
    });
  }

  // ---- streams ------------------------------------------------------------------------------------

  struct StreamShared {
    base::Mutex mu;
    base::CondVar cv;
    std::deque<StreamItem> items ABSL_GUARDED_BY(mu);
    std::size_t queued_bytes ABSL_GUARDED_BY(mu) = 0;
    bool head_ready ABSL_GUARDED_BY(mu) = false;
    int status ABSL_GUARDED_BY(mu) = 0;
    bool ended ABSL_GUARDED_BY(mu) = false;
    absl::Status end_status ABSL_GUARDED_BY(mu);  // OK = clean end of body
    bool paused ABSL_GUARDED_BY(mu) = false;
  };

  class StreamReader : public std::enable_shared_from_this<StreamReader> {
   public:
    StreamReader(Impl* impl, std::shared_ptr<Impl> keep_alive, std::string target)
        : impl_(impl), keep_alive_(std::move(keep_alive)), target_(std::move(target)),
          shared_(std::make_shared<StreamShared>()), lines_(impl->options().max_line_bytes) {}

    Impl* impl_;
    std::shared_ptr<Impl> keep_alive_;  // sockets must not outlive the io_context they belong to
    std::string target_;
    std::shared_ptr<StreamShared> shared_;
    std::shared_ptr<Connection> conn_;
    http::request<http::string_body> req_;
    std::shared_ptr<const ClientCertificate> certificate_;  // null: none supplied
    http::response_parser<http::buffer_body> parser_;
    // One TLS record's plaintext at most (16 KiB): an SSL read never returns more, so a larger
    // buffer would only add to the memory every idle watch holds.
    char buf_[16 * 1024];
    LineFramer lines_;
    bool closed_ = false;
    // Idle detection on our own timer, not Beast's stream timeouts: those are per operation, and
    // a stream is one long exchange whose only deadline is "some byte every N seconds".
    std::optional<net::steady_timer> idle_timer_;
    Clock::time_point last_activity_{};
    std::chrono::milliseconds idle_timeout_{0};  // set before the stream opens
  };

  void OpenStream(const std::shared_ptr<StreamReader>& reader, std::chrono::milliseconds timeout) {
    const Clock::time_point deadline = Clock::now() + timeout;
    if (shutting_down_) return EndStream(*reader, absl::CancelledError("transport shut down"));
    if (absl::Status adopted = AdoptCertificate(reader->certificate_); !adopted.ok()) {
      return EndStream(*reader, Prefixed(adopted, "stream GET", reader->target_));
    }
    streams_.push_back(reader);
    reader->conn_ = NewConnection();
    Connect(reader->conn_, deadline, [this, reader, deadline](absl::Status status) {
      if (!status.ok()) return EndStream(*reader, std::move(status));
      reader->conn_->ExpiresAt(deadline);
      reader->conn_->Visit([&](auto& stream) {
        http::async_write(stream, reader->req_, [this, reader](beast::error_code ec, std::size_t) {
          if (ec) return EndStream(*reader, ErrorStatus(ec, "GET", reader->target_));
          // Not boost::none: Beast 1.74 compares a Content-Length against an empty optional as
          // "too large".
          reader->parser_.body_limit(std::numeric_limits<std::uint64_t>::max());
          reader->conn_->Visit([&](auto& s) {
            http::async_read_header(s, reader->conn_->buffer, reader->parser_,
                                    [this, reader](beast::error_code hec, std::size_t) {
                                      if (hec) return EndStream(*reader, ErrorStatus(hec, "GET", reader->target_));
                                      {
                                        base::MutexLock lock(&reader->shared_->mu);
                                        reader->shared_->head_ready = true;
                                        reader->shared_->status =
                                            static_cast<int>(reader->parser_.get().result_int());
                                      }
                                      reader->shared_->cv.NotifyAll();
                                      ReadBody(reader);
                                    });
          });
        });
      });
    });
  }

  void ReadBody(const std::shared_ptr<StreamReader>& reader) {
    if (reader->closed_) return;
    if (reader->parser_.is_done()) return FinishBody(reader);
    reader->parser_.get().body().data = reader->buf_;
    reader->parser_.get().body().size = sizeof(reader->buf_);
    reader->conn_->ExpiresNever();
    if (!reader->idle_timer_) {
      reader->idle_timer_.emplace(ioc_);
      reader->last_activity_ = Clock::now();
      ArmIdleTimer(reader, reader->idle_timeout_);
    }
    reader->conn_->Visit([&](auto& stream) {
      http::async_read_some(stream, reader->conn_->buffer, reader->parser_,
                       [this, reader](beast::error_code ec, std::size_t) {
                         const std::size_t n = sizeof(reader->buf_) - reader->parser_.get().body().size;
                         if (n > 0) {
                           reader->last_activity_ = Clock::now();
                           Deliver(*reader, std::string_view(reader->buf_, n));
                         }
                         if (ec == http::error::need_buffer) ec = {};
                         if (ec) return EndStream(*reader, ErrorStatus(ec, "GET", reader->target_));
                         if (reader->parser_.is_done()) return FinishBody(reader);
                         bool paused;
                         {
                           base::MutexLock lock(&reader->shared_->mu);
                           paused = reader->shared_->paused;
                         }
                         if (!paused) ReadBody(reader);
                       });
    });
  }

  // Fires when nothing arrived for the reader's idle timeout; re-arms for the remainder otherwise.
  // Time spent paused for a lagging consumer does not count: we were not reading.
  void ArmIdleTimer(const std::shared_ptr<StreamReader>& reader, Clock::duration wait) {
    reader->idle_timer_->expires_after(wait);
    reader->idle_timer_->async_wait([this, reader](beast::error_code ec) {
      if (ec || reader->closed_) return;
      const Clock::duration limit = reader->idle_timeout_;
      bool paused;
      {
        base::MutexLock lock(&reader->shared_->mu);
        paused = reader->shared_->paused;
      }
      if (paused) {
        reader->last_activity_ = Clock::now();
        return ArmIdleTimer(reader, limit);
      }
      const Clock::duration idle = Clock::now() - reader->last_activity_;
      if (idle < limit) return ArmIdleTimer(reader, limit - idle);
      EndStream(*reader, absl::DeadlineExceededError(Concat("stream GET ", config_.server, reader->target_,
                                                         ": nothing received for ",
                                                         reader->idle_timeout_.count(), " ms")));
      // A connection gone silent is most likely a network path that drops everything without a
      // FIN or RST; the idle pooled connections took the same path and would swallow the next
      // requests (a Binding) until their timeout. New ones are cheap next to that.
      if (!idle_.empty()) {
        spdlog::info("{}: {} idle connection(s) closed after a silent stream", config_.server, idle_.size());
        for (auto& conn : idle_) conn->Close();
        idle_.clear();
      }
    });
  }

  void FinishBody(const std::shared_ptr<StreamReader>& reader) {
    reader->lines_.Finish([&](StreamItem item) { PushItem(*reader, std::move(item)); });
    EndStream(*reader, absl::OkStatus());
  }

  void Deliver(StreamReader& reader, std::string_view data) {
    reader.lines_.Feed(data, [&](StreamItem item) { PushItem(reader, std::move(item)); });
  }

  void PushItem(StreamReader& reader, StreamItem item) {
    StreamShared& shared = *reader.shared_;
    {
      base::MutexLock lock(&shared.mu);
      shared.queued_bytes += item.line.size();
      shared.items.push_back(std::move(item));
      if (shared.queued_bytes > options_.stream_buffer_bytes) shared.paused = true;
    }
    shared.cv.NotifyAll();
  }

  void EndStream(StreamReader& reader, absl::Status status) {
    if (reader.conn_) reader.conn_->Close();
    if (reader.idle_timer_) reader.idle_timer_->cancel();
    reader.closed_ = true;
    {
      base::MutexLock lock(&reader.shared_->mu);
      if (!reader.shared_->ended) {
        reader.shared_->ended = true;
        reader.shared_->end_status = std::move(status);
      }
    }
    reader.shared_->cv.NotifyAll();
  }

  void CloseReader(StreamReader& reader) {
    EndStream(reader, absl::CancelledError(Concat("stream GET ", config_.server, reader.target_,
                                                        ": cancelled")));
  }

  // Called by the consumer after it drained a paused stream below half of the buffer.
  void Resume(const std::shared_ptr<StreamReader>& reader) {
    PostUnlessStopped([this, reader] {
      reader->last_activity_ = Clock::now();
      ReadBody(reader);
    });
  }
  void Cancel(const std::shared_ptr<StreamReader>& reader) {
    PostUnlessStopped([this, reader] { CloseReader(*reader); });
  }

  // A LineStream may outlive its transport. Once the I/O thread is told to stop, a handler posted
  // would never run, and the reader it holds keeps this Impl (and the io_context holding the
  // handler) alive: a cycle LeakSanitizer reported. Shutdown closed every reader already.
  template <typename F>
  void PostUnlessStopped(F&& handler) {
    base::MutexLock lock(&stop_mu_);
    if (!stopped_) net::post(ioc_, std::forward<F>(handler));
  }

  void ForgetClosedStreams() {
    std::erase_if(streams_, [](const std::weak_ptr<StreamReader>& w) { return w.expired(); });
  }

  // ---- HTTP/2 -------------------------------------------------------------------------------------
  // Unary calls travel as HTTP/2 streams over `http2_connections` TLS connections, in turn
  // (client-go multiplexes over one). Watches do not: they keep dedicated HTTP/1.1 connections.
  // Over HTTP/2 the API server writes each watch event through the connection's serve loop and
  // frame writer, and under load a pod watch fell behind the watch cache, which ended it: 2-14
  // clean ends per 6-second GPU run, each a rewatch, with or without other streams on its
  // connection; none over HTTP/1.1.
  // A connection that the server GOAWAYs, or whose client certificate was replaced, retires: it
  // takes no new streams and closes when its last one ends; the next request opens a new one.
  // Requests whose frames had not been written when the connection failed, and streams the server
  // refused (REFUSED_STREAM, e.g. past its GOAWAY's last stream), are sent again once, on a new
  // connection, whatever the method: the server cannot have acted on them.

  class H2Connection final : public Http2Codec::Listener {
   public:
    enum class State { kConnecting, kReady, kClosed };

    H2Connection(Impl* impl, std::uint64_t generation)
        : impl_(impl), tls_generation(generation), health_timer(impl->ioc_) {}

    void OnResponseHead(std::int32_t id, Http2ResponseHead head) override {
      impl_->H2OnHead(*this, id, std::move(head));
    }
    void OnData(std::int32_t id, std::string_view data) override { impl_->H2OnData(*this, id, data); }
    void OnStreamClose(std::int32_t id, std::uint32_t error_code) override {
      impl_->H2OnClose(*this, id, error_code);
    }
    void OnGoAway(std::int32_t last_stream_id, std::uint32_t error_code) override {
      impl_->H2OnGoAway(*this, last_stream_id, error_code);
    }
    void OnPingAck() override { ping_outstanding = false; }

    Impl* impl_;
    const std::uint64_t tls_generation;
    std::shared_ptr<Connection> conn;
    std::unique_ptr<Http2Codec> codec;  // from the handshake on
    State state = State::kConnecting;
    std::vector<std::shared_ptr<Exchange>> waiting;  // submitted once connected
    std::unordered_map<std::int32_t, std::shared_ptr<Exchange>> exchanges;
    std::string output;         // frames taken from the codec, being written
    bool writing = false;
    std::uint64_t submissions = 0;      // exchanges submitted so far
    std::uint64_t written_through = 0;  // exchanges 1..this went out with a completed write
    std::array<char, 16 * 1024> input;
    net::steady_timer health_timer;     // PINGs a connection silent for http2_read_idle_timeout
    Clock::time_point last_read{};
    Clock::time_point ping_sent{};
    bool ping_outstanding = false;
  };

  void H2Start(const std::shared_ptr<Exchange>& ex) {
    if (absl::Status adopted = AdoptCertificate(ex->certificate); !adopted.ok()) {
      return Finish(ex, Prefixed(adopted, MethodName(ex->method), ex->target), true);
    }
    ex->timer.emplace(ioc_);
    ex->timer->expires_at(ex->deadline);
    ex->timer->async_wait([this, ex](beast::error_code ec) {
      if (!ec) H2Timeout(ex);
    });
    H2Dispatch(ex);
  }

  // The connection new streams go to, opened when there is none (or the current one retired).
  std::shared_ptr<H2Connection> H2Current() {
    if (h2_pool_.empty()) h2_pool_.resize(std::max<std::size_t>(1, options_.http2_connections));
    std::shared_ptr<H2Connection> c = h2_pool_[h2_next_++ % h2_pool_.size()];
    if (c && (c->state == H2Connection::State::kClosed ||
              (c->state == H2Connection::State::kReady && !c->codec->CanOpenStreams()))) {
      H2Retire(c);
      c.reset();
    }
    if (!c) {
      c = std::make_shared<H2Connection>(this, tls_generation_);
      h2_pool_[(h2_next_ - 1) % h2_pool_.size()] = c;
      H2Connect(c);
    }
    return c;
  }

  void H2Dispatch(const std::shared_ptr<Exchange>& ex) {
    if (shutting_down_) return Finish(ex, absl::CancelledError("transport shut down"), true);
    if (protocol_ == Protocol::kHttp1) return H2FallBack(ex);
    std::shared_ptr<H2Connection> c = H2Current();
    ex->h2 = c;
    ex->h2_stream = 0;
    if (c->state == H2Connection::State::kConnecting) return c->waiting.push_back(ex);
    H2Submit(c, ex);
  }

  // Hands an exchange that was meant for HTTP/2 to the HTTP/1.1 pool.
  void H2FallBack(const std::shared_ptr<Exchange>& ex) {
    ex->h2.reset();
    if (ex->timer) {
      ex->timer->cancel();
      ex->timer.reset();
    }
    Start(ex);  // still counted in active_
  }

  Http2Request ToHttp2(const http::request<http::string_body>& req) const {
    Http2Request out;
    out.method = std::string_view(req.method_string().data(), req.method_string().size());
    out.scheme = "https";
    out.authority = url_.host_header;
    out.path = std::string_view(req.target().data(), req.target().size());
    for (const auto& field : req) {
      switch (field.name()) {
        case http::field::host:  // :authority instead
        case http::field::connection:
        case http::field::keep_alive:
        case http::field::content_length:  // the codec sets it
        case http::field::transfer_encoding:
          continue;
        default:
          break;
      }
      std::string name(field.name_string());
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      out.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    out.body = req.body();  // a copy: a refused stream is sent again
    return out;
  }

  void H2Submit(const std::shared_ptr<H2Connection>& c, const std::shared_ptr<Exchange>& ex) {
    if (Clock::now() >= ex->deadline) {
      ex->h2.reset();
      return Finish(ex, absl::DeadlineExceededError(Concat(MethodName(ex->method), " ", config_.server,
                                                           ex->target, ": timed out")), true);
    }
    absl::StatusOr<std::int32_t> id = c->codec->Submit(ToHttp2(ex->req));
    if (!id.ok()) {  // the connection is going away: the next dispatch opens another
      H2Retire(c);
      if (!ex->retried) {
        ex->retried = true;
        return H2Dispatch(ex);
      }
      ex->h2.reset();
      return Finish(ex, Prefixed(id.status(), MethodName(ex->method), ex->target), true);
    }
    {
      base::MutexLock lock(&stats_mu_);
      ++stats_.requests;
      ++stats_.http2_streams;
      if (c->submissions > 0) ++stats_.connections_reused;
    }
    ex->written = false;
    ex->h2_stream = *id;
    ex->h2_submission = ++c->submissions;
    c->exchanges.emplace(*id, ex);
    H2Flush(c);
  }

  void H2Connect(const std::shared_ptr<H2Connection>& c) {
    c->conn = std::make_shared<Connection>(ioc_, tls_context_, tls_generation_, /*offer_http2=*/true);
    Connect(c->conn, Clock::now() + options_.connect_timeout,
            [this, c](absl::Status status) { H2Connected(c, std::move(status)); });
  }

  void H2Connected(const std::shared_ptr<H2Connection>& c, absl::Status status) {
    if (status.ok() && c->state == H2Connection::State::kClosed) {
      status = absl::CancelledError("transport shut down");
    }
    if (status.ok() && c->conn->alpn() != "h2") {
      // The server speaks HTTP/1.1 only: this connection becomes the pool's first, and everything
      // waiting goes to the pool.
      spdlog::info("{}: the server did not select HTTP/2 (ALPN \"{}\"); using HTTP/1.1", config_.server,
                   c->conn->alpn());
      protocol_ = Protocol::kHttp1;
      c->state = H2Connection::State::kClosed;
      H2LeavePool(*c);
      c->conn->idle_since = Clock::now();
      idle_.push_back(std::move(c->conn));
      for (auto& ex : std::exchange(c->waiting, {})) H2FallBack(ex);
      return;
    }
    absl::StatusOr<std::unique_ptr<Http2Codec>> codec =
        status.ok() ? Http2Codec::Create(c.get()) : absl::StatusOr<std::unique_ptr<Http2Codec>>(status);
    if (!codec.ok()) {
      c->state = H2Connection::State::kClosed;
      if (c->conn) c->conn->Close();
      H2LeavePool(*c);
      for (auto& ex : std::exchange(c->waiting, {})) {
        ex->h2.reset();
        Finish(ex, Prefixed(codec.status(), MethodName(ex->method), ex->target), true);
      }
      return;
    }
    c->codec = std::move(*codec);
    c->state = H2Connection::State::kReady;
    c->conn->ExpiresNever();  // streams have their own deadlines; PINGs watch the connection
    c->last_read = Clock::now();
    H2Read(c);
    H2ArmHealth(c, options_.http2_read_idle_timeout);
    for (auto& ex : std::exchange(c->waiting, {})) H2Submit(c, ex);
    H2Flush(c);
  }

  void H2Read(const std::shared_ptr<H2Connection>& c) {
    c->conn->tls().async_read_some(net::buffer(c->input), [this, c](beast::error_code ec, std::size_t n) {
      if (c->state == H2Connection::State::kClosed) return;
      if (ec) return H2Fail(c, H2Error(ec));
      c->last_read = Clock::now();
      c->ping_outstanding = false;  // the peer is alive
      if (absl::Status received = c->codec->Receive(std::string_view(c->input.data(), n)); !received.ok()) {
        return H2Fail(c, received);
      }
      H2Flush(c);
      if (c->state == H2Connection::State::kClosed) return;
      if (!c->codec->Alive()) return H2Fail(c, absl::UnavailableError("HTTP/2 connection closed"));
      H2Read(c);
    });
  }

  void H2Flush(std::shared_ptr<H2Connection> c) {
    if (c->writing || c->state != H2Connection::State::kReady) return;
    c->codec->TakeOutput(&c->output);
    if (c->output.empty()) return H2CloseIfDone(c);
    c->writing = true;
    const std::uint64_t through = c->submissions;
    net::async_write(c->conn->tls(), net::buffer(c->output),
                     [this, c, through](beast::error_code ec, std::size_t) {
                       c->writing = false;
                       c->output.clear();
                       if (c->state == H2Connection::State::kClosed) return;
                       if (ec) return H2Fail(c, H2Error(ec));
                       c->written_through = through;
                       H2Flush(c);
                     });
  }

  // Sends a PING after http2_read_idle_timeout of silence and gives up on the connection when no
  // answer comes within http2_ping_timeout (client-go's ReadIdleTimeout and PingTimeout).
  void H2ArmHealth(const std::shared_ptr<H2Connection>& c, Clock::duration wait) {
    c->health_timer.expires_after(wait);
    c->health_timer.async_wait([this, c](beast::error_code ec) {
      if (ec || c->state != H2Connection::State::kReady) return;
      const Clock::time_point now = Clock::now();
      if (c->ping_outstanding) {
        if (now - c->ping_sent >= options_.http2_ping_timeout) {
          return H2Fail(c, absl::UnavailableError(Concat("HTTP/2 connection: no PING answer within ",
                                                         options_.http2_ping_timeout.count(), " ms")));
        }
        return H2ArmHealth(c, options_.http2_ping_timeout - (now - c->ping_sent));
      }
      const Clock::duration silent = now - c->last_read;
      if (silent < options_.http2_read_idle_timeout) return H2ArmHealth(c, options_.http2_read_idle_timeout - silent);
      c->codec->Ping();
      c->ping_outstanding = true;
      c->ping_sent = now;
      H2Flush(c);
      H2ArmHealth(c, options_.http2_ping_timeout);
    });
  }

  absl::Status H2Error(const beast::error_code& ec) const {
    if (shutting_down_) return absl::CancelledError("transport shut down");
    return absl::UnavailableError(Concat("HTTP/2 connection: ", ec.message(), " (", ec.category().name(), ":",
                                         ec.value(), ")"));
  }

  // The connection is unusable: its streams fail (or go again, when they cannot have reached the
  // server) and it closes.
  void H2Fail(std::shared_ptr<H2Connection> c, absl::Status status) {
    if (c->state == H2Connection::State::kClosed) return;
    const bool connecting = c->state == H2Connection::State::kConnecting;
    c->state = H2Connection::State::kClosed;
    if (c->conn) c->conn->Close();
    c->health_timer.cancel();
    H2LeavePool(*c);
    std::erase(h2_retiring_, c);
    if (connecting) return;  // H2Connected fails what waits
    // Not while shutting down: a transport destroyed during static destruction (a test's
    // singleton) would find spdlog's registry gone (ASan: heap-use-after-free).
    if (!shutting_down_) spdlog::debug("{}: {}", config_.server, std::string(status.message()));
    for (auto& [id, ex] : std::exchange(c->exchanges, {})) {
      ex->h2.reset();
      ex->written = ex->h2_submission <= c->written_through;
      if (!ex->written && !ex->retried && !shutting_down_) {
        ex->retried = true;
        {
          base::MutexLock lock(&stats_mu_);
          ++stats_.stale_connection_retries;
        }
        net::post(ioc_, [this, ex] { H2Dispatch(ex); });
        continue;
      }
      Finish(ex, Prefixed(status, MethodName(ex->method), ex->target), true);
    }
    c->codec.reset();
  }

  // No new streams on the current connection; it closes once its streams are done.
  void H2Retire(std::shared_ptr<H2Connection> c) {  // by value: the pool's pointer is reset inside
    H2LeavePool(*c);
    if (c->state == H2Connection::State::kClosed) return;
    if (std::find(h2_retiring_.begin(), h2_retiring_.end(), c) == h2_retiring_.end()) {
      h2_retiring_.push_back(c);
    }
    H2CloseIfDone(c);
  }

  void H2CloseIfDone(std::shared_ptr<H2Connection> c) {
    if (c->state != H2Connection::State::kReady || H2InPool(*c) || c->writing || !c->exchanges.empty()) {
      return;
    }
    if (c->codec->CanOpenStreams()) {
      c->codec->Terminate();  // a GOAWAY, then the close
      return H2Flush(c);
    }
    H2Fail(c, absl::CancelledError("retired"));
  }

  void H2Timeout(const std::shared_ptr<Exchange>& ex) {
    std::shared_ptr<H2Connection> c = ex->h2;
    if (!c) return;  // finished, or between a refusal and its retry
    if (ex->h2_stream != 0) {
      if (c->exchanges.erase(ex->h2_stream) == 0) return;
      if (c->codec) c->codec->Reset(ex->h2_stream);
      ex->written = ex->h2_submission <= c->written_through;
      H2Flush(c);
    } else {
      const auto it = std::find(c->waiting.begin(), c->waiting.end(), ex);
      if (it == c->waiting.end()) return;
      c->waiting.erase(it);
    }
    ex->h2.reset();
    Finish(ex, absl::DeadlineExceededError(Concat(MethodName(ex->method), " ", config_.server, ex->target,
                                                  ": timed out")), true);
  }

  void H2OnHead(H2Connection& c, std::int32_t id, Http2ResponseHead head) {
    if (auto it = c.exchanges.find(id); it != c.exchanges.end()) it->second->h2_head = std::move(head);
  }

  void H2OnData(H2Connection& c, std::int32_t id, std::string_view data) {
    if (auto it = c.exchanges.find(id); it != c.exchanges.end()) {
      std::shared_ptr<Exchange> ex = it->second;
      if (ex->h2_body.size() + data.size() > options_.max_body_bytes) {
        c.exchanges.erase(it);
        c.codec->Reset(id);
        ex->written = true;
        ex->h2.reset();
        return Finish(ex, absl::ResourceExhaustedError(Concat(MethodName(ex->method), " ", config_.server,
                                                             ex->target, ": response body larger than ",
                                                             options_.max_body_bytes, " bytes")), true);
      }
      ex->h2_body.append(data);
      c.codec->Consume(id, data.size());
    }
  }

  void H2OnClose(H2Connection& c, std::int32_t id, std::uint32_t error_code) {
    if (auto it = c.exchanges.find(id); it != c.exchanges.end()) {
      std::shared_ptr<Exchange> ex = std::move(it->second);
      c.exchanges.erase(it);
      ex->h2.reset();
      if (error_code == Http2Codec::kRefusedStream && !ex->retried && !shutting_down_) {
        ex->retried = true;  // not processed by the server: any method may go again
        net::post(ioc_, [this, ex] { H2Dispatch(ex); });
        return;
      }
      if (error_code != 0 || !ex->h2_head) {
        ex->written = error_code != Http2Codec::kRefusedStream;
        return Finish(ex, absl::UnavailableError(Concat(MethodName(ex->method), " ", config_.server, ex->target,
                                                        ": HTTP/2 stream closed by the server (error code ",
                                                        error_code, ")")), true);
      }
      ex->written = true;
      HttpResponse response;
      response.status = ex->h2_head->status;
      response.content_type = std::move(ex->h2_head->content_type);
      response.retry_after = ex->h2_head->retry_after;
      response.body = std::move(ex->h2_body);
      Finish(ex, std::move(response), true);
    }
    if (c.state == H2Connection::State::kReady && !H2InPool(c)) {
      net::post(ioc_, [this, weak = std::weak_ptr<H2Connection>(H2Shared(c))] {
        if (auto conn = weak.lock()) H2CloseIfDone(conn);
      });
    }
  }

  void H2OnGoAway(H2Connection& c, std::int32_t last_stream_id, std::uint32_t error_code) {
    spdlog::log(error_code == 0 ? spdlog::level::debug : spdlog::level::info,
                "{}: HTTP/2 GOAWAY (last stream {}, error code {}); new requests use a new connection",
                config_.server, last_stream_id, error_code);
    if (std::shared_ptr<H2Connection> shared = H2Shared(c)) {
      H2LeavePool(c);
      if (std::find(h2_retiring_.begin(), h2_retiring_.end(), shared) == h2_retiring_.end()) {
        h2_retiring_.push_back(shared);
      }
    }
  }

  bool H2InPool(const H2Connection& c) const {
    return std::any_of(h2_pool_.begin(), h2_pool_.end(), [&](const auto& slot) { return slot.get() == &c; });
  }
  void H2LeavePool(const H2Connection& c) {
    for (auto& slot : h2_pool_) {
      if (slot.get() == &c) slot.reset();
    }
  }

  // The owning pointer of a connection whose Listener call is running.
  std::shared_ptr<H2Connection> H2Shared(H2Connection& c) {
    for (auto& slot : h2_pool_) {
      if (slot.get() == &c) return slot;
    }
    for (auto& retiring : h2_retiring_) {
      if (retiring.get() == &c) return retiring;
    }
    return nullptr;
  }

  net::io_context& ioc() { return ioc_; }
  const TransportOptions& options() const { return options_; }

 private:
  const RestConfig config_;
  const TransportOptions options_;
  const AuthorizationSource auth_;
  const ClientCertificateSource client_certificate_;
  const ServerUrlParts url_;
  // Null for plain HTTP (url_.tls false). Replaced (AdoptCertificate) and read on the I/O thread
  // only.
  std::shared_ptr<ssl::context> tls_context_;
  const std::string user_agent_;

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_;
  tcp::resolver resolver_;
  std::thread thread_;
  std::thread::id io_thread_id_;
  std::once_flag shutdown_once_;
  base::Mutex stop_mu_;
  bool stopped_ ABSL_GUARDED_BY(stop_mu_) = false;  // the I/O thread takes no new handlers

  // I/O-thread state.
  bool shutting_down_ = false;
  std::uint64_t tls_generation_ = 0;  // the ClientCertificate generation tls_context_ presents
  std::vector<std::shared_ptr<Connection>> idle_;
  std::set<std::shared_ptr<Exchange>> active_;
  std::deque<std::shared_ptr<Exchange>> pending_;
  std::vector<std::weak_ptr<StreamReader>> streams_;
  std::set<std::shared_ptr<net::steady_timer>> timers_;  // SendAfter timers waiting
  Protocol protocol_;
  // Where new unary HTTP/2 streams go, in turn; a slot is null until needed (or after its
  // connection failed or retired).
  std::vector<std::shared_ptr<H2Connection>> h2_pool_;
  std::size_t h2_next_ = 0;
  // Connections that take no new streams (GOAWAY, a newer client certificate) until theirs end.
  std::vector<std::shared_ptr<H2Connection>> h2_retiring_;

  mutable base::Mutex stats_mu_;
  TransportStats stats_ ABSL_GUARDED_BY(stats_mu_);
};

// ------------------------------------------------------------------------------------------------
// The consumer side of a stream.

namespace {

class LineStreamImpl final : public LineStream {
 public:
  LineStreamImpl(HttpTransport::Impl* impl, std::shared_ptr<HttpTransport::Impl::StreamReader> reader)
      : impl_(impl), reader_(std::move(reader)), shared_(reader_->shared_) {}
  ~LineStreamImpl() override { Cancel(); }

  int status() const override {
    base::MutexLock lock(&shared_->mu);
    return shared_->status;
  }

  absl::StatusOr<std::optional<StreamItem>> Next() override {
    base::MutexLock lock(&shared_->mu);
    shared_->cv.Wait(&shared_->mu, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(shared_->mu) {
      return !shared_->items.empty() || shared_->ended;
    });
    if (shared_->items.empty()) {
      if (shared_->end_status.ok()) return std::optional<StreamItem>();
      return shared_->end_status;
    }
    StreamItem item = std::move(shared_->items.front());
    shared_->items.pop_front();
    shared_->queued_bytes -= item.line.size();
    const bool resume = shared_->paused && shared_->queued_bytes < impl_->options().stream_buffer_bytes / 2;
    if (resume) shared_->paused = false;
    lock.Unlock();
    if (resume) impl_->Resume(reader_);
    return std::optional<StreamItem>(std::move(item));
  }

  absl::StatusOr<std::string> ReadAll() override {
    std::string all;
    while (true) {
      absl::StatusOr<std::optional<StreamItem>> item = Next();
      if (!item.ok()) return item.status();
      if (!item->has_value()) return all;
      if (!all.empty()) all += '\n';
      all += (*item)->line;
    }
  }

  void Cancel() override {
    bool already;
    {
      base::MutexLock lock(&shared_->mu);
      already = shared_->ended;
      if (!already) {
        shared_->ended = true;
        shared_->end_status = absl::CancelledError("stream cancelled");
      }
    }
    shared_->cv.NotifyAll();
    if (!already || reader_) impl_->Cancel(reader_);
  }

 private:
  HttpTransport::Impl* impl_;
  std::shared_ptr<HttpTransport::Impl::StreamReader> reader_;
  std::shared_ptr<HttpTransport::Impl::StreamShared> shared_;
};

}  // namespace

// ------------------------------------------------------------------------------------------------

namespace {

bool EnvSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

// KSCHED_HTTP2 turns HTTP/2 on; DISABLE_HTTP2 (client-go's switch) turns it off and wins;
// HTTP2_READ_IDLE_TIMEOUT_SECONDS and HTTP2_PING_TIMEOUT_SECONDS as for client-go.
void ApplyHttp2Environment(TransportOptions& options) {
  if (EnvSet("KSCHED_HTTP2")) {
    const std::string value = std::getenv("KSCHED_HTTP2");
    options.http2 = value != "0" && value != "false";
  }
  if (EnvSet("DISABLE_HTTP2") && options.http2) {
    static std::once_flag logged;
    std::call_once(logged, [] { spdlog::info("HTTP2 has been explicitly disabled"); });  // client-go's words
    options.http2 = false;
  }
  for (auto [name, field] : {std::pair{"HTTP2_READ_IDLE_TIMEOUT_SECONDS", &options.http2_read_idle_timeout},
                             std::pair{"HTTP2_PING_TIMEOUT_SECONDS", &options.http2_ping_timeout}}) {
    if (!EnvSet(name)) continue;
    int seconds = 0;
    const std::string_view text = std::getenv(name);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || end != text.data() + text.size() || seconds <= 0) {
      spdlog::warn("{}={:?} is not a positive number of seconds; ignored", name, std::string(text));
      continue;
    }
    *field = std::chrono::seconds(seconds);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpTransport>> HttpTransport::Create(
    const RestConfig& config, TransportOptions options, AuthorizationSource auth,
    ClientCertificateSource client_certificate) {
  absl::StatusOr<ServerUrlParts> url = ParseServerUrl(config.server, config.source);
  if (!url.ok()) return url.status();
  ApplyHttp2Environment(options);
  std::shared_ptr<ssl::context> tls_context;
  if (url->tls) {
    absl::StatusOr<std::shared_ptr<ssl::context>> ctx = MakeTlsContext(config);
    if (!ctx.ok()) return ctx.status();
    tls_context = std::move(*ctx);
  }
  auto impl = std::make_shared<Impl>(config, options, std::move(auth), std::move(client_certificate),
                                     std::move(*url), std::move(tls_context));
  return std::unique_ptr<HttpTransport>(new HttpTransport(std::move(impl)));
}

HttpTransport::HttpTransport(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpTransport::~HttpTransport() { impl_->Shutdown(); }

void HttpTransport::Send(HttpRequest request, Callback done) { impl_->Send(std::move(request), std::move(done)); }

void HttpTransport::SendAfter(std::chrono::steady_clock::duration delay, HttpRequest request,
                              Callback done) {
  impl_->SendAfter(delay, std::move(request), std::move(done));
}

absl::StatusOr<HttpResponse> HttpTransport::SendSync(HttpRequest request) {
  if (impl_->OnIoThread()) std::abort();  // would wait for itself
  base::Mutex mu;
  base::CondVar cv;
  std::optional<absl::StatusOr<HttpResponse>> result;
  impl_->Send(std::move(request), [&](absl::StatusOr<HttpResponse> r) {
    base::MutexLock lock(&mu);
    result = std::move(r);
    cv.NotifyAll();
  });
  base::MutexLock lock(&mu);
  cv.Wait(&mu, [&] { return result.has_value(); });
  return std::move(*result);
}

absl::StatusOr<std::unique_ptr<LineStream>> HttpTransport::OpenLineStream(HttpRequest request) {
  if (impl_->OnIoThread()) std::abort();  // would wait for itself
  auto reader = std::make_shared<Impl::StreamReader>(impl_.get(), impl_, request.target);
  absl::StatusOr<http::request<http::string_body>> req =
      impl_->BuildRequest(request, &reader->certificate_);
  if (!req.ok()) return req.status();
  reader->req_ = std::move(*req);
  reader->idle_timeout_ = request.stream_idle_timeout.count() > 0 ? request.stream_idle_timeout
                                                                   : impl_->options().stream_idle_timeout;
  const auto timeout = request.timeout.count() > 0 ? request.timeout : impl_->options().request_timeout;
  net::post(impl_->ioc(), [impl = impl_.get(), reader, timeout] {
    impl->ForgetClosedStreams();
    impl->OpenStream(reader, timeout);
  });
  std::shared_ptr<Impl::StreamShared> shared = reader->shared_;
  {
    base::MutexLock lock(&shared->mu);
    shared->cv.Wait(&shared->mu,
                    [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(shared->mu) { return shared->head_ready || shared->ended; });
    if (!shared->head_ready) return shared->end_status;
  }
  return std::unique_ptr<LineStream>(new LineStreamImpl(impl_.get(), std::move(reader)));
}

const std::string& HttpTransport::server() const { return impl_->server(); }
TransportStats HttpTransport::stats() const { return impl_->stats(); }

}  // namespace ksched::client
