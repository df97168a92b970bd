// TlsStream: the client side of a TLS connection, with OpenSSL reading and writing the TCP socket
// itself. Included only by http_transport.cc (Asio and Beast stay in one translation unit).
//
// Why not asio::ssl::stream: it keeps two 17 KB buffers of its own per connection and feeds
// OpenSSL through a BIO pair (another ~17 KB), and copies every byte through both. The transport
// holds one connection per request in flight (HTTP/1.1), ~100 of them at peak across the
// scheduler's two clients, so those buffers were a third of the daemon's heap. Here OpenSSL's
// own record buffers are the only ones, and they are released while the connection waits for the
// server (see ReleaseBuffers): a connection waiting for a response holds no buffer.
//
// Contract:
//   - Models Beast's AsyncReadStream and AsyncWriteStream (async_read_some, async_write_some,
//     get_executor), plus async_handshake. Completion handlers never run inside the initiating
//     call. At most one read and one write may be outstanding at a time (full duplex is allowed, as
//     HTTP/2 needs); a handshake runs alone.
//   - Not thread-safe: every call and every completion runs on the socket's (single-threaded)
//     executor. The socket must outlive the stream and be connected before async_handshake.
//   - ExpiresAt(t): an operation waiting for the socket at t, or started after t, fails with
//     beast::error::timeout (the socket's pending waits are cancelled, as beast::tcp_stream does).
//     ExpiresNever() lifts it.
//   - Errors as asio::ssl::stream reports them, so callers need not know which stream they have:
//     close_notify → net::error::eof; EOF without close_notify → ssl::error::stream_truncated;
//     OpenSSL errors → the ssl category with OpenSSL's code; socket errors → system errors.
//   - SIGPIPE: never raised (the BIO writes with MSG_NOSIGNAL).
#pragma once

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace ksched::client {

class TlsStream {
 public:
  using Socket = boost::beast::tcp_stream::socket_type;
  using executor_type = Socket::executor_type;
  using Clock = std::chrono::steady_clock;

  // Takes a reference on `ctx` (SSL_new). Aborts if OpenSSL cannot allocate.
  TlsStream(Socket& socket, SSL_CTX* ctx) : socket_(socket), ssl_(SSL_new(ctx)) {
    if (ssl_ == nullptr) std::abort();
    SSL_set_mode(ssl_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // Fewer recv calls: a record's header and body come in one read, and so do back-to-back
    // records.
    SSL_set_read_ahead(ssl_, 1);
  }
  ~TlsStream() {
    if (deadline_) {
      deadline_->owner = nullptr;
      deadline_->timer.cancel();
    }
    SSL_free(ssl_);  // frees the BIO too; the socket stays open (Asio owns it)
  }
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  SSL* native_handle() { return ssl_; }
  executor_type get_executor() { return socket_.get_executor(); }

  void ExpiresAt(Clock::time_point deadline) {
    Deadline& d = EnsureDeadline();
    ++d.generation;
    d.expired = false;
    d.timer.expires_at(deadline);
    d.timer.async_wait([state = deadline_, generation = d.generation](const boost::system::error_code& ec) {
      if (ec || state->owner == nullptr || state->generation != generation) return;
      state->expired = true;
      boost::system::error_code ignored;
      state->owner->socket_.cancel(ignored);
    });
  }
  void ExpiresNever() {
    if (!deadline_) return;
    ++deadline_->generation;
    deadline_->expired = false;
    deadline_->timer.cancel();
  }

  // Frees OpenSSL's read and write buffers (~17 KB each) when they hold nothing (OpenSSL refuses
  // otherwise); the next record allocates them again. Called when a write has gone out whole,
  // before every wait for the peer, and by the pool for an idle connection, so that a burst of
  // requests written back to back reuses one buffer instead of holding one each.
  void ReleaseBuffers() { SSL_free_buffers(ssl_); }

  template <class Handler>
  auto async_handshake(Handler&& handler) {
    // The socket is connected now: bind it.
    BIO* bio = BIO_new(SocketBioMethod());
    if (bio == nullptr) std::abort();
    BIO_set_data(bio, reinterpret_cast<void*>(static_cast<std::intptr_t>(socket_.native_handle())));
    BIO_set_init(bio, 1);
    SSL_set_bio(ssl_, bio, bio);
    SSL_set_connect_state(ssl_);
    boost::system::error_code ignored;
    socket_.non_blocking(true, ignored);
    return boost::asio::async_compose<Handler, void(boost::system::error_code)>(
        Op{this, Kind::kHandshake, nullptr, 0, Op::State::kStart, Outcome{}}, handler, socket_);
  }

  template <class MutableBufferSequence, class Handler>
  auto async_read_some(const MutableBufferSequence& buffers, Handler&& handler) {
    const boost::asio::mutable_buffer first = FirstNonEmpty<boost::asio::mutable_buffer>(buffers);
    return boost::asio::async_compose<Handler, void(boost::system::error_code, std::size_t)>(
        Op{this, Kind::kRead, first.data(), first.size(), Op::State::kStart, Outcome{}}, handler, socket_);
  }

  // Writes a prefix of `buffers`. A sequence of several small buffers (Beast hands over a request's
  // start line, each header field and the body as separate buffers) is copied into one buffer of
  // at most one TLS record first, as beast::flat_stream does for asio::ssl::stream: written one
  // buffer per call, each would be a record and a send(2) of its own, and a segment the API
  // server reads on its own.
  template <class ConstBufferSequence, class Handler>
  auto async_write_some(const ConstBufferSequence& buffers, Handler&& handler) {
    const boost::asio::const_buffer first = FirstNonEmpty<boost::asio::const_buffer>(buffers);
    Op op{this, Kind::kWrite, const_cast<void*>(first.data()), first.size(), Op::State::kStart, Outcome{}};
    if (first.size() < kMaxRecordPlaintext) {
      const std::size_t total = std::min(boost::asio::buffer_size(buffers), kMaxRecordPlaintext);
      if (total > first.size()) {
        op.gathered = std::make_unique_for_overwrite<char[]>(total);
        op.data = op.gathered.get();
        op.size = boost::asio::buffer_copy(boost::asio::buffer(op.gathered.get(), total), buffers);
      }
    }
    return boost::asio::async_compose<Handler, void(boost::system::error_code, std::size_t)>(
        std::move(op), handler, socket_);
  }

 private:
  enum class Kind { kHandshake, kRead, kWrite };
  enum class Next { kDone, kWantRead, kWantWrite };

  struct Outcome {
    Next next = Next::kDone;
    boost::system::error_code ec;
    std::size_t bytes = 0;
  };

  // The deadline timer's state, shared with its pending handler (which may run after the stream
  // is gone: owner is then null).
  struct Deadline {
    explicit Deadline(const executor_type& executor) : timer(executor) {}
    boost::asio::steady_timer timer;
    TlsStream* owner = nullptr;
    std::uint64_t generation = 0;
    bool expired = false;
  };

  // One operation: try it; on WANT_READ / WANT_WRITE wait for the socket and try again. An
  // operation that finishes at once completes through a post, never inside the initiating call.
  struct Op {
    TlsStream* stream;
    Kind kind;
    void* data;
    std::size_t size;
    enum class State { kStart, kWaiting, kPosted } state = State::kStart;
    Outcome outcome;
    // A write's copy of several buffers (data points into it); its address survives the Op's moves.
    std::unique_ptr<char[]> gathered = nullptr;

    template <class Self>
    void operator()(Self& self, boost::system::error_code ec = {}) {
      switch (state) {
        case State::kPosted:
          return Complete(self);
        case State::kWaiting:
          if (stream->TimedOut()) return Complete(self, Outcome{Next::kDone, boost::beast::error::timeout, 0});
          if (ec) return Complete(self, Outcome{Next::kDone, ec, 0});
          break;
        case State::kStart:
          if (stream->TimedOut()) return Post(self, Outcome{Next::kDone, boost::beast::error::timeout, 0});
          if (kind != Kind::kHandshake && size == 0) return Post(self, Outcome{});
          break;
      }
      const Outcome now = stream->Attempt(kind, data, size);
      if (kind == Kind::kWrite && now.next == Next::kDone && !now.ec) stream->ReleaseBuffers();
      if (now.next == Next::kDone) {
        if (state == State::kStart) return Post(self, now);
        return Complete(self, now);
      }
      state = State::kWaiting;
      if (kind == Kind::kRead && now.next == Next::kWantRead) stream->ReleaseBuffers();
      stream->socket_.async_wait(now.next == Next::kWantRead ? Socket::wait_read : Socket::wait_write,
                                 std::move(self));
    }

    template <class Self>
    void Post(Self& self, const Outcome& result) {
      outcome = result;
      state = State::kPosted;
      boost::asio::post(stream->socket_.get_executor(), std::move(self));
    }
    template <class Self>
    void Complete(Self& self, const Outcome& result) {
      outcome = result;
      Complete(self);
    }
    template <class Self>
    void Complete(Self& self) {
      if constexpr (requires { self.complete(outcome.ec, outcome.bytes); }) {
        self.complete(outcome.ec, outcome.bytes);
      } else {
        self.complete(outcome.ec);
      }
    }
  };

  template <class Buffer, class Sequence>
  static Buffer FirstNonEmpty(const Sequence& buffers) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers);
         ++it) {
      const Buffer buffer(*it);
      if (buffer.size() != 0) return buffer;
    }
    return Buffer();
  }

  // TLS 1.2 and 1.3 carry at most 16 KiB of plaintext per record.
  static constexpr std::size_t kMaxRecordPlaintext = 16 * 1024;

  Deadline& EnsureDeadline() {
    if (!deadline_) {
      deadline_ = std::make_shared<Deadline>(socket_.get_executor());
      deadline_->owner = this;
    }
    return *deadline_;
  }
  bool TimedOut() const { return deadline_ && deadline_->expired; }

  Outcome Attempt(Kind kind, void* data, std::size_t size) {
    ERR_clear_error();
    std::size_t bytes = 0;
    int rc = 0;
    switch (kind) {
      case Kind::kHandshake: rc = SSL_connect(ssl_); break;
      case Kind::kRead: rc = SSL_read_ex(ssl_, data, size, &bytes); break;
      case Kind::kWrite: rc = SSL_write_ex(ssl_, data, size, &bytes); break;
    }
    if (rc == 1) return Outcome{Next::kDone, {}, bytes};
    const int saved_errno = errno;
    const int error = SSL_get_error(ssl_, rc);
    Outcome outcome;
    switch (error) {
      case SSL_ERROR_WANT_READ: outcome.next = Next::kWantRead; break;
      case SSL_ERROR_WANT_WRITE: outcome.next = Next::kWantWrite; break;
      case SSL_ERROR_ZERO_RETURN: outcome.ec = boost::asio::error::eof; break;
      case SSL_ERROR_SYSCALL:
        outcome.ec = saved_errno != 0
                         ? boost::system::error_code(saved_errno, boost::system::system_category())
                         : boost::system::error_code(boost::asio::ssl::error::stream_truncated);
        break;
      default: {
        const unsigned long code = ERR_peek_last_error();
        if (ERR_GET_LIB(code) == ERR_LIB_SSL && ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
          outcome.ec = boost::asio::ssl::error::stream_truncated;
        } else if (code != 0) {
          outcome.ec = boost::system::error_code(static_cast<int>(code), boost::asio::error::get_ssl_category());
        } else {
          outcome.ec = boost::asio::ssl::error::unspecified_system_error;
        }
        break;
      }
    }
    ERR_clear_error();
    return outcome;
  }

  // A BIO on the socket's descriptor: recv and send (MSG_NOSIGNAL) with retry flags on EAGAIN.
  // BIO_CTRL_EOF answers whether recv returned 0, which OpenSSL 3 needs to tell an unexpected EOF.
  static BIO_METHOD* SocketBioMethod() {
    static BIO_METHOD* const method = [] {
      BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "ksched socket");
      if (m == nullptr) std::abort();
      BIO_meth_set_read_ex(m, &BioRead);
      BIO_meth_set_write_ex(m, &BioWrite);
      BIO_meth_set_ctrl(m, &BioCtrl);
      return m;
    }();
    return method;
  }
  static int Descriptor(BIO* bio) { return static_cast<int>(reinterpret_cast<std::intptr_t>(BIO_get_data(bio))); }
  static int BioRead(BIO* bio, char* data, std::size_t size, std::size_t* read) {
    BIO_clear_retry_flags(bio);
    const ssize_t n = ::recv(Descriptor(bio), data, size, MSG_NOSIGNAL);
    if (n > 0) {
      *read = static_cast<std::size_t>(n);
      return 1;
    }
    if (n == 0) {
      BIO_set_flags(bio, BIO_FLAGS_IN_EOF);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      BIO_set_retry_read(bio);
    }
    *read = 0;
    return 0;
  }
  static int BioWrite(BIO* bio, const char* data, std::size_t size, std::size_t* written) {
    BIO_clear_retry_flags(bio);
    const ssize_t n = ::send(Descriptor(bio), data, size, MSG_NOSIGNAL);
    if (n >= 0) {
      *written = static_cast<std::size_t>(n);
      return 1;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) BIO_set_retry_write(bio);
    *written = 0;
    return 0;
  }
  static long BioCtrl(BIO* bio, int command, long, void*) {
    switch (command) {
      case BIO_CTRL_FLUSH: return 1;
      case BIO_CTRL_EOF: return BIO_test_flags(bio, BIO_FLAGS_IN_EOF) != 0 ? 1 : 0;
      default: return 0;
    }
  }

  Socket& socket_;
  SSL* const ssl_;
  std::shared_ptr<Deadline> deadline_;  // created by the first ExpiresAt
};

}  // namespace ksched::client
