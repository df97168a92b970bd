// The serving layer's one translation unit that includes Boost.Beast/Asio (compile time): the
// listener, TLS and HTTP/1.1 sessions. Everything the sessions decide is in handler_chain.cc and
// below, written against plain values.
#include "serving/secure_server.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "serving/handler_chain.h"
#include "serving/query_string.h"
#include "serving/request_authenticator.h"
#include "serving/request_authorizer.h"
#include "serving/serving_certificate.h"
#include "serving/tls_curves.h"

namespace ksched::serving {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr auto kRequestTimeout = std::chrono::seconds(60);  // idle keep-alive or slow request
constexpr auto kWriteTimeout = std::chrono::seconds(60);
constexpr std::uint64_t kMaxRequestBodyBytes = 1 << 20;
constexpr std::uint32_t kMaxHeaderBytes = 64 << 10;

// ServingRequest from a parsed request; nullopt when the path is not valid percent-encoding.
std::optional<ServingRequest> ToServingRequest(http::request<http::string_body>& req, std::string remote) {
  ServingRequest out;
  out.method = std::string(req.method_string());
  out.target = std::string(req.target());
  const std::size_t question = out.target.find('?');
  std::optional<std::string> path = PercentDecode(std::string_view(out.target).substr(0, question), false);
  if (!path || path->empty() || (*path)[0] != '/') return std::nullopt;
  out.path = *std::move(path);
  if (question != std::string::npos) out.query = out.target.substr(question + 1);
  out.authorization = std::string(req[http::field::authorization]);
  out.user_agent = std::string(req[http::field::user_agent]);
  out.accept = std::string(req[http::field::accept]);
  out.remote = std::move(remote);
  out.body = std::move(req.body());
  return out;
}

// The certificates the peer sent, leaf first, DER-encoded. On the server side OpenSSL's peer chain
// leaves the leaf out.
std::vector<std::string> PeerCertificates(SSL* ssl) {
  std::vector<std::string> out;
  auto add = [&out](X509* cert) {
    unsigned char* der = nullptr;
    const int length = i2d_X509(cert, &der);
    if (length > 0) out.emplace_back(reinterpret_cast<const char*>(der), static_cast<std::size_t>(length));
    OPENSSL_free(der);
  };
  X509* leaf = SSL_get1_peer_certificate(ssl);
  if (leaf == nullptr) return out;
  add(leaf);
  X509_free(leaf);
  if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl)) {
    for (int i = 0; i < sk_X509_num(chain); ++i) add(sk_X509_value(chain, i));
  }
  return out;
}

// `head`: a HEAD request gets the headers of the GET answer, Content-Length included, and no body
// (as Go's server).
http::response<http::string_body> ToBeastResponse(ServingResponse response, unsigned version, bool keep_alive,
                                                  bool head) {
  http::response<http::string_body> res{static_cast<http::status>(response.status), version};
  if (!response.content_type.empty()) res.set(http::field::content_type, response.content_type);
  for (auto& [name, value] : response.headers) res.insert(name, value);
  res.body() = std::move(response.body);
  res.keep_alive(keep_alive);
  res.prepare_payload();
  if (head) {
    const std::size_t length = res.body().size();
    res.body().clear();
    res.content_length(length);
  }
  return res;
}

}  // namespace

class SecureServer::Impl {
 public:
  Impl(std::unique_ptr<RequestAuthenticator> authenticator, std::unique_ptr<RequestAuthorizer> authorizer,
       const Router& router, ChainObservers observers, std::unique_ptr<ssl::context> tls,
       const SecureServingOptions& options)
      : authenticator_(std::move(authenticator)),
        authorizer_(std::move(authorizer)),
        chain_(*authenticator_, *authorizer_, router, std::move(observers)),
        tls_(std::move(tls)),
        local_workers_(static_cast<std::size_t>(std::max(1, options.local_threads))),
        review_workers_(static_cast<std::size_t>(std::max(1, options.worker_threads))),
        max_waiting_for_review_(std::max(1, options.max_waiting_for_review)),
        max_connections_(std::max(0, options.max_connections)),
        loopback_reserve_(std::max(0, options.loopback_reserve)),
        work_(net::make_work_guard(ioc_)),
        io_threads_(std::max(1, options.io_threads)),
        accept_strand_(net::make_strand(ioc_)),
        acceptor_(accept_strand_),
        accept_retry_(accept_strand_) {}

  ~Impl() { Stop(); }

  absl::Status Listen(const std::string& bind_address, int port) {
    boost::system::error_code ec;
    const net::ip::address address = net::ip::make_address(bind_address, ec);
    if (ec) return absl::InvalidArgumentError("invalid --bind-address \"" + bind_address + "\": " + ec.message());
    if (port < 0 || port > 65535) {
      return absl::InvalidArgumentError(fmt::format("--secure-port {} must be between 0 and 65535, inclusive", port));
    }
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
    const std::string where = address.is_v6() ? fmt::format("[{}]:{}", bind_address, port)
                                              : fmt::format("{}:{}", bind_address, port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          fmt::format("failed to create listener: listen tcp {}: {}", where, ec.message()));
    }
    port_ = acceptor_.local_endpoint().port();
    net::post(accept_strand_, [this] { DoAccept(); });
    for (int i = 0; i < io_threads_; ++i) io_threads_pool_.emplace_back([this] { ioc_.run(); });
    return absl::OkStatus();
  }

  int port() const { return port_; }

  void Stop() {
    if (stopped_.exchange(true)) return;
    if (!io_threads_pool_.empty()) {
      // Close the listener on its strand, then every connection on its own.
      std::promise<std::vector<std::shared_ptr<Session>>> listed;
      net::post(accept_strand_, [this, &listed] {
        boost::system::error_code ignored;
        acceptor_.close(ignored);
        accept_retry_.cancel();
        listed.set_value(LiveSessions());
      });
      std::vector<std::future<void>> closed;
      for (const std::shared_ptr<Session>& session : listed.get_future().get()) {
        closed.push_back(CloseOnItsStrand(session));
      }
      for (std::future<void>& done : closed) done.wait();
    }
    // Running handlers finish; their replies are posted to their sessions' strands. The local lane first:
    // it hands requests on to the review lane, which must still run what it was given.
    local_workers_.join();
    review_workers_.join();
    work_.reset();
    ioc_.stop();
    for (std::thread& thread : io_threads_pool_) thread.join();
    io_threads_pool_.clear();
  }

 private:
  class Session;

  // On accept_strand_. Each connection gets a strand of its own.
  void DoAccept() {
    acceptor_.async_accept(net::make_strand(ioc_), [this](boost::system::error_code ec, tcp::socket socket) {
      if (ec) {
        if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
        // Out of file descriptors or memory: as Go's http.Server, wait 5 ms, doubling to 1 s,
        // rather than spin on the same error.
        accept_delay_ = accept_delay_ == std::chrono::milliseconds(0) ? std::chrono::milliseconds(5)
                                                                       : std::min(accept_delay_ * 2, std::chrono::milliseconds(1000));
        SPDLOG_WARN("http: Accept error: {}; retrying in {}ms", ec.message(), accept_delay_.count());
        accept_retry_.expires_after(accept_delay_);
        accept_retry_.async_wait([this](boost::system::error_code wait_ec) {
          if (!wait_ec && acceptor_.is_open()) DoAccept();
        });
        return;
      }
      accept_delay_ = std::chrono::milliseconds(0);
      if (max_connections_ > 0 && live_sessions_.load() >= max_connections_ + ReserveFor(socket)) {
        // At the cap: closed at once, before any TLS state is made for it (memory, not fairness:
        // the cap comes from the memory limit, see SecureServingOptions::max_connections).
        boost::system::error_code ignored;
        socket.close(ignored);
        if (const std::uint64_t refused = refused_connections_++; refused % 1000 == 0) {
          SPDLOG_WARN("serving: {} connections open, the most this memory limit allows; closing new ones "
                      "(closed so far: {})", max_connections_, refused + 1);
        }
      } else {
        // As Go's net package does for every TCP connection: with Nagle's algorithm on, a response
        // written as two TLS records (headers, body) waits for the client's delayed ACK of the
        // first, ~40 ms on Linux, on every request.
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        StartSession(std::move(socket));
      }
      DoAccept();
    });
  }

  // Places above max_connections kept for loopback peers: a static pod's kubelet probes come from
  // 127.0.0.1 (the manifest's httpGet host), a flood from outside does not.
  int ReserveFor(const tcp::socket& socket) const {
    boost::system::error_code ec;
    const tcp::endpoint peer = socket.remote_endpoint(ec);
    return !ec && peer.address().is_loopback() ? loopback_reserve_ : 0;
  }

  // Runs `request` on the local lane, then (when it needs a review) on the review lane or shed;
  // `reply` gets the response on a worker thread.
  template <typename Reply>
  void Dispatch(ServingRequest request, Reply reply) {
    net::post(local_workers_, [this, request = std::move(request), reply = std::move(reply)]() mutable {
      std::variant<ServingResponse, HandlerChain::Pending> local = chain_.TryHandleLocally(request);
      if (ServingResponse* response = std::get_if<ServingResponse>(&local)) {
        reply(std::move(*response));
        return;
      }
      if (waiting_for_review_.fetch_add(1) >= max_waiting_for_review_) {
        waiting_for_review_.fetch_sub(1);
        if (const std::uint64_t shed = shed_.fetch_add(1); shed % 1000 == 0) {
          SPDLOG_WARN("serving: {} requests already wait for a TokenReview or SubjectAccessReview; answering 429 "
                      "(shed so far: {})", max_waiting_for_review_, shed + 1);
        }
        reply(TooManyRequests());
        return;
      }
      net::post(review_workers_, [this, request = std::move(request), pending = std::get<HandlerChain::Pending>(std::move(local)),
                                  reply = std::move(reply)]() mutable {
        ServingResponse response = chain_.Handle(request, std::move(pending));
        waiting_for_review_.fetch_sub(1);
        reply(std::move(response));
      });
    });
  }

  // The apiserver's max-in-flight refusal (tooManyRequests).
  static ServingResponse TooManyRequests() {
    ServingResponse response = ServingResponse::Error(429, "Too many requests, please try again later.");
    response.headers.emplace_back("Retry-After", "1");
    return response;
  }

  void StartSession(tcp::socket socket);  // on accept_strand_
  std::vector<std::shared_ptr<Session>> LiveSessions();  // on accept_strand_
  static std::future<void> CloseOnItsStrand(const std::shared_ptr<Session>& session);

  // Sessions count themselves, for max_connections. (What a burst of them leaves in the heap is
  // returned to the system by the daemon's MemoryReleaser, not here.)
  void SessionOpened() { live_sessions_.fetch_add(1); }
  void SessionClosed() { live_sessions_.fetch_sub(1); }

  std::unique_ptr<RequestAuthenticator> authenticator_;
  std::unique_ptr<RequestAuthorizer> authorizer_;
  HandlerChain chain_;
  std::unique_ptr<ssl::context> tls_;
  net::io_context ioc_;
  net::thread_pool local_workers_;   // requests decided without a review
  net::thread_pool review_workers_;  // requests waiting for a TokenReview or SubjectAccessReview
  const int max_waiting_for_review_;
  const int max_connections_;  // 0: no cap
  const int loopback_reserve_;
  std::atomic<int> live_sessions_{0};
  std::atomic<std::uint64_t> refused_connections_{0};
  std::atomic<int> waiting_for_review_{0};
  std::atomic<std::uint64_t> shed_{0};
  net::executor_work_guard<net::io_context::executor_type> work_;
  const int io_threads_;
  net::strand<net::io_context::executor_type> accept_strand_;
  tcp::acceptor acceptor_;            // accept_strand_ only (after Listen)
  net::steady_timer accept_retry_;    // accept_strand_ only
  std::chrono::milliseconds accept_delay_{0};  // accept_strand_ only
  std::vector<std::weak_ptr<Session>> sessions_;  // accept_strand_ only
  std::vector<std::thread> io_threads_pool_;  // started by Listen, joined by Stop
  std::atomic<int> port_{0};
  std::atomic<bool> stopped_{false};
};

// One TLS connection: handshake, then request -> worker -> response, repeated while keep-alive.
// All its socket operations run on its strand (the socket's executor, on one of the I/O threads);
// only the chain runs on a worker (Dispatch).
class SecureServer::Impl::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Impl& server, tcp::socket socket)
      : server_(server), stream_(std::move(socket), *server.tls_) {
    server_.SessionOpened();
    boost::system::error_code ec;
    const tcp::endpoint peer = beast::get_lowest_layer(stream_).socket().remote_endpoint(ec);
    if (!ec) remote_ = fmt::format("{}:{}", peer.address().to_string(), peer.port());
  }

  ~Session() { server_.SessionClosed(); }

  beast::tcp_stream::executor_type executor() { return beast::get_lowest_layer(stream_).get_executor(); }

  void Start() {
    beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
    stream_.async_handshake(ssl::stream_base::server,
                            [self = shared_from_this()](beast::error_code ec) {
                              if (ec) {
                                SPDLOG_DEBUG("serving: TLS handshake with {} failed: {}", self->remote_, ec.message());
                                return;
                              }
                              self->peer_certificates_ = PeerCertificates(self->stream_.native_handle());
                              self->Read();
                            });
  }

  // On the session's strand.
  void Close() {
    boost::system::error_code ignored;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

 private:
  void Read() {
    parser_.emplace();
    parser_->body_limit(kMaxRequestBodyBytes);
    parser_->header_limit(kMaxHeaderBytes);
    beast::get_lowest_layer(stream_).expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec) {
      if (ec != http::error::end_of_stream && ec != net::error::operation_aborted &&
          ec != beast::error::timeout && ec != ssl::error::stream_truncated) {
        SPDLOG_DEBUG("serving: reading a request from {}: {}", remote_, ec.message());
      }
      if (ec == http::error::body_limit || ec == http::error::header_limit) {
        head_ = false;
        Respond(ServingResponse::Error(413, "Request Entity Too Large"), 11, false);
        return;
      }
      Shutdown();
      return;
    }
    beast::get_lowest_layer(stream_).expires_never();
    http::request<http::string_body> req = parser_->release();
    const unsigned version = req.version();
    const bool keep_alive = req.keep_alive();
    head_ = req.method() == http::verb::head;
    std::optional<ServingRequest> request = ToServingRequest(req, remote_);
    if (request) request->peer_certificates = peer_certificates_;
    if (!request) {
      head_ = false;
      Respond(ServingResponse::Error(400, "400 Bad Request"), version, false);
      return;
    }
    server_.Dispatch(*std::move(request), [self = shared_from_this(), version, keep_alive](ServingResponse response) {
      net::post(self->executor(), [self, response = std::move(response), version, keep_alive]() mutable {
        self->Respond(std::move(response), version, keep_alive);
      });
    });
  }

  void Respond(ServingResponse response, unsigned version, bool keep_alive) {
    response_ = ToBeastResponse(std::move(response), version, keep_alive, head_);
    beast::get_lowest_layer(stream_).expires_after(kWriteTimeout);
    http::async_write(stream_, response_, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
      if (ec) {
        SPDLOG_DEBUG("serving: writing a response to {}: {}", self->remote_, ec.message());
        return;
      }
      if (keep_alive) {
        // An idle keep-alive connection keeps no request-sized buffer (OpenSSL drops its own
        // record buffers when idle too: SSL_MODE_RELEASE_BUFFERS).
        self->response_ = {};
        if (self->buffer_.size() == 0) self->buffer_.shrink_to_fit();
        self->Read();
      } else {
        self->Shutdown();
      }
    });
  }

  void Shutdown() {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = shared_from_this()](beast::error_code) { self->Close(); });
  }

  Impl& server_;
  beast::ssl_stream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  bool head_ = false;  // the request being answered is a HEAD
  std::string remote_ = "unknown";
  std::vector<std::string> peer_certificates_;  // set once, after the handshake
};

void SecureServer::Impl::StartSession(tcp::socket socket) {
  auto session = std::make_shared<Session>(*this, std::move(socket));
  if (sessions_.size() >= 64) {
    std::erase_if(sessions_, [](const std::weak_ptr<Session>& s) { return s.expired(); });
  }
  sessions_.push_back(session);
  session->Start();
}

std::vector<std::shared_ptr<SecureServer::Impl::Session>> SecureServer::Impl::LiveSessions() {
  std::vector<std::shared_ptr<Session>> live;
  for (const std::weak_ptr<Session>& weak : sessions_) {
    if (std::shared_ptr<Session> session = weak.lock()) live.push_back(std::move(session));
  }
  sessions_.clear();
  return live;
}

std::future<void> SecureServer::Impl::CloseOnItsStrand(const std::shared_ptr<Session>& session) {
  auto closed = std::make_shared<std::promise<void>>();
  std::future<void> done = closed->get_future();
  net::post(session->executor(), [session, closed] {
    session->Close();
    closed->set_value();
  });
  return done;
}

SecureServer::SecureServer(SecureServingOptions serving, DelegatingAuthOptions auth)
    : serving_(std::move(serving)), auth_(std::move(auth)) {}

SecureServer::~SecureServer() { Stop(); }

void SecureServer::AddHandler(std::string path, Handler handler, bool listed) {
  router_.Handle(std::move(path), std::move(handler), listed);
}
std::vector<std::string> SecureServer::ListedPaths() const { return router_.ListedPaths(); }
void SecureServer::AddPrefixHandler(std::string prefix, Handler handler, bool listed) {
  router_.HandlePrefix(std::move(prefix), std::move(handler), listed);
}

int SecureServer::port() const { return impl_ == nullptr ? 0 : impl_->port(); }

void SecureServer::Stop() {
  if (impl_ != nullptr) impl_->Stop();
}

absl::Status SecureServer::Start() {
  if (impl_ != nullptr) return absl::FailedPreconditionError("SecureServer::Start called twice");
  {
    boost::system::error_code ec;
    net::ip::make_address(serving_.bind_address, ec);
    if (ec) {
      return absl::InvalidArgumentError("invalid --bind-address \"" + serving_.bind_address + "\": " + ec.message());
    }
  }

  absl::StatusOr<ServingCertificate> certificate = LoadServingCertificate(serving_);
  if (!certificate.ok()) return certificate.status();
  auto tls = std::make_unique<ssl::context>(ssl::context::tls_server);
  SSL_CTX_set_min_proto_version(tls->native_handle(), TLS1_2_VERSION);
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_compression |
                   ssl::context::single_dh_use);
  if (!serving_.curve_preferences.empty()) {
    // After the certificate and before the minimum TLS version, as apiserver's ApplyTo.
    absl::StatusOr<std::vector<std::string>> groups = TlsCurveGroups(serving_.curve_preferences);
    if (!groups.ok()) return groups.status();
    std::string usable, missing;
    // SSL_CTX_set1_groups_list's macro casts its argument to char*: mutable strings (-Wcast-qual).
    for (std::string group : *groups) {
      // OpenSSL before 3.5 has no ML-KEM hybrids: each group is tried alone.
      if (SSL_CTX_set1_groups_list(tls->native_handle(), group.data()) == 1) {
        if (!usable.empty()) usable += ':';
        usable += group;
      } else {
        if (!missing.empty()) missing += ", ";
        missing += group;
      }
    }
    ERR_clear_error();
    if (usable.empty()) {
      return absl::InvalidArgumentError("--tls-curve-preferences: none of " + missing + " is available in " +
                                        OpenSSL_version(OPENSSL_VERSION));
    }
    if (!missing.empty()) {
      SPDLOG_WARN("--tls-curve-preferences: {} not available in {}, left out", missing, OpenSSL_version(OPENSSL_VERSION));
    }
    SSL_CTX_set1_groups_list(tls->native_handle(), usable.data());
  }
  // Idle connections give their TLS record buffers (~34 KB read, ~17 KB write) back to the heap.
  SSL_CTX_set_mode(tls->native_handle(), SSL_MODE_RELEASE_BUFFERS);
  std::shared_ptr<const ClientCertificateAuthenticator> client_certificates = auth_.client_certificates;
  if (client_certificates == nullptr && auth_.client_certificates_source) {
    absl::StatusOr<std::shared_ptr<const ClientCertificateAuthenticator>> loaded = auth_.client_certificates_source();
    if (!loaded.ok()) return loaded.status();
    client_certificates = *std::move(loaded);
  }
  if (client_certificates != nullptr) {
    // Go's tls.RequestClientCert, as the apiserver library serves with a client CA: ask for a
    // certificate, accept the handshake whatever comes, and let the authenticator verify it.
    SSL_CTX_set_verify(tls->native_handle(), SSL_VERIFY_PEER, [](int, X509_STORE_CTX*) { return 1; });
    static constexpr unsigned char kSessionContext[] = "kube-scheduler-cpp";
    SSL_CTX_set_session_id_context(tls->native_handle(), kSessionContext, sizeof(kSessionContext) - 1);
    for (const std::string& subject : client_certificates->ca_subjects_der()) {
      const auto* data = reinterpret_cast<const unsigned char*>(subject.data());
      if (X509_NAME* name = d2i_X509_NAME(nullptr, &data, static_cast<long>(subject.size()))) {
        STACK_OF(X509_NAME)* names = SSL_CTX_get_client_CA_list(tls->native_handle());
        if (names == nullptr) {
          names = sk_X509_NAME_new_null();
          SSL_CTX_set_client_CA_list(tls->native_handle(), names);
        }
        sk_X509_NAME_push(names, name);  // owned by the context now
      }
    }
  }
  boost::system::error_code ec;
  tls->use_certificate_chain(net::buffer(certificate->cert_pem), ec);
  if (!ec) tls->use_private_key(net::buffer(certificate->key_pem), ssl::context::pem, ec);
  if (ec) {
    return absl::InvalidArgumentError("unable to load server certificate (" + certificate->source + "): " + ec.message());
  }

  std::shared_ptr<TokenReviewer> token_reviewer = auth_.token_reviewer;
  if (token_reviewer == nullptr && auth_.authentication_client != nullptr) {
    token_reviewer = std::make_shared<RestTokenReviewer>(auth_.authentication_client, auth_.webhook_backoff,
                                                         std::chrono::seconds(10), auth_.token_review_observer);
  }
  std::shared_ptr<SubjectAccessReviewer> access_reviewer = auth_.access_reviewer;
  if (access_reviewer == nullptr && auth_.authorization_client != nullptr) {
    access_reviewer = std::make_shared<RestSubjectAccessReviewer>(auth_.authorization_client, auth_.webhook_backoff,
                                                                 std::chrono::seconds(10), auth_.access_review_observer);
  }

  RequestAuthenticatorOptions authn_options;
  authn_options.success_ttl = auth_.token_cache_ttl;
  authn_options.failure_ttl = auth_.token_cache_ttl;
  authn_options.observer = auth_.token_cache_observer;
  authn_options.client_certificates = client_certificates;
  auto authenticator = std::make_unique<RequestAuthenticator>(std::move(token_reviewer), authn_options);

  RequestAuthorizerOptions authz_options;
  authz_options.always_allow_paths = auth_.always_allow_paths;
  authz_options.always_allow_groups = auth_.always_allow_groups;
  authz_options.allowed_ttl = auth_.authorized_cache_ttl;
  authz_options.denied_ttl = auth_.unauthorized_cache_ttl;
  absl::StatusOr<std::unique_ptr<RequestAuthorizer>> authorizer =
      RequestAuthorizer::Create(std::move(access_reviewer), authz_options);
  if (!authorizer.ok()) return authorizer.status();

  auto impl = std::make_unique<Impl>(std::move(authenticator), *std::move(authorizer), router_,
                                     auth_.chain_observers, std::move(tls), serving_);
  if (absl::Status listening = impl->Listen(serving_.bind_address, serving_.port); !listening.ok()) {
    return listening;  // impl's destructor stops its (unstarted) threads
  }
  impl_ = std::move(impl);
  SPDLOG_INFO("Serving securely on {}:{} (certificate: {})", serving_.bind_address, impl_->port(),
               certificate->source);
  return absl::OkStatus();
}

}  // namespace ksched::serving
