// TlsStream against a real OpenSSL server on 127.0.0.1 (a blocking SSL server on its own thread):
// handshake and data both ways, writes larger than the socket buffers, full duplex, the error
// codes callers rely on (close_notify, truncation, timeout), no SIGPIPE, and no completion inside
// the initiating call.
#include "client/tls_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <catch2/catch.hpp>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "test_certificates.h"

namespace ksched::client {
namespace {

namespace net = boost::asio;
using boost::system::error_code;

// One TLS session on a loopback listener: accepts one connection, completes the server
// handshake and hands the SSL to `session` on its own thread (blocking I/O).
class TlsServer {
 public:
  explicit TlsServer(std::function<void(SSL*, int)> session) {
    const testing::TestKeyPair pair = testing::SelfSignedPair("localhost");
    ctx_ = SSL_CTX_new(TLS_server_method());
    BIO* cert_bio = BIO_new_mem_buf(pair.cert_pem.data(), static_cast<int>(pair.cert_pem.size()));
    BIO* key_bio = BIO_new_mem_buf(pair.key_pem.data(), static_cast<int>(pair.key_pem.size()));
    X509* cert = PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr);
    EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
    REQUIRE(SSL_CTX_use_certificate(ctx_, cert) == 1);
    REQUIRE(SSL_CTX_use_PrivateKey(ctx_, key) == 1);
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(cert_bio);
    BIO_free(key_bio);
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    REQUIRE(::listen(listener_, 1) == 0);
    socklen_t length = sizeof(address);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this, session = std::move(session)] {
      const int fd = ::accept(listener_, nullptr, nullptr);
      SSL* ssl = SSL_new(ctx_);
      SSL_set_fd(ssl, fd);
      if (SSL_accept(ssl) == 1) session(ssl, fd);
      SSL_free(ssl);
      ::close(fd);
    });
  }
  ~TlsServer() {
    Join();
    ::close(listener_);
    SSL_CTX_free(ctx_);
  }
  unsigned short port() const { return port_; }
  // Waits for the session to end.
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  SSL_CTX* ctx_ = nullptr;
  int listener_ = -1;
  unsigned short port_ = 0;
  std::thread thread_;
};

// The client side: a connected socket and a TlsStream on it, handshake done.
struct Client {
  explicit Client(unsigned short port) : ctx(SSL_CTX_new(TLS_client_method())), tcp(ioc) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    tcp.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    tls.emplace(tcp.socket(), ctx);
    error_code result = net::error::would_block;
    bool initiated = false;
    tls->async_handshake([&](error_code ec) {
      CHECK(initiated);  // never inside async_handshake
      result = ec;
    });
    initiated = true;
    ioc.run();
    ioc.restart();
    REQUIRE_FALSE(result);
  }
  ~Client() {
    tls.reset();
    SSL_CTX_free(ctx);
  }
  // Reads until an error; returns it, with what was read in `data`.
  error_code ReadAll(std::string& data) {
    std::array<char, 3000> chunk;
    error_code end;
    std::function<void()> next = [&] {
      tls->async_read_some(net::buffer(chunk), [&](error_code ec, std::size_t n) {
        data.append(chunk.data(), n);
        if (ec) {
          end = ec;
          return;
        }
        next();
      });
    };
    next();
    ioc.run();
    ioc.restart();
    return end;
  }

  SSL_CTX* ctx;
  net::io_context ioc;
  boost::beast::tcp_stream tcp;
  std::optional<TlsStream> tls;
};

std::string Pattern(std::size_t size) {
  std::string text(size, '\0');
  for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return text;
}

// On the server's thread: false when a write fails. Catch2's assertions are not thread-safe (two
// threads asserting at once race on its state, as TSan reports), so the test checks the result
// on its own thread, after TlsServer::Join.
bool ServerWriteAll(SSL* ssl, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    std::size_t n = 0;
    if (SSL_write_ex(ssl, data.data() + written, data.size() - written, &n) != 1) return false;
    written += n;
  }
  return true;
}

std::string ServerRead(SSL* ssl, std::size_t size) {
  std::string data(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    std::size_t n = 0;
    if (SSL_read_ex(ssl, data.data() + got, size - got, &n) != 1) break;
    got += n;
  }
  data.resize(got);
  return data;
}

TEST_CASE("TlsStream: a request out, a response in many records, close_notify reads as eof", "[tls_stream]") {
  const std::string response = Pattern(300'000);
  std::string request_seen;
  bool wrote = false;
  TlsServer server([&](SSL* ssl, int) {
    request_seen = ServerRead(ssl, 5);
    wrote = ServerWriteAll(ssl, response);
    SSL_shutdown(ssl);
  });
  Client client(server.port());
  error_code write_ec = net::error::would_block;
  bool initiated = false;
  net::async_write(*client.tls, net::buffer(std::string_view("hello")), [&](error_code ec, std::size_t n) {
    CHECK(initiated);
    CHECK(n == 5);
    write_ec = ec;
  });
  initiated = true;
  std::string data;
  const error_code end = client.ReadAll(data);
  server.Join();  // request_seen and wrote are the server thread's
  CHECK_FALSE(write_ec);
  CHECK(data == response);
  CHECK(end == net::error::eof);
  CHECK(request_seen == "hello");
  CHECK(wrote);
}

TEST_CASE("TlsStream: a write larger than the socket buffers waits for the peer and arrives whole", "[tls_stream]") {
  const std::string payload = Pattern(8 << 20);
  std::string received;
  TlsServer server([&](SSL* ssl, int) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the client's send buffer fill
    received = ServerRead(ssl, payload.size());
  });
  Client client(server.port());
  error_code write_ec = net::error::would_block;
  std::size_t written = 0;
  net::async_write(*client.tls, net::buffer(payload), [&](error_code ec, std::size_t n) {
    write_ec = ec;
    written = n;
  });
  client.ioc.run();
  CHECK_FALSE(write_ec);
  CHECK(written == payload.size());
  server.Join();  // the server reads exactly the payload's size
  CHECK(received == payload);
}

TEST_CASE("TlsStream: several small buffers go out in one write, as one record", "[tls_stream]") {
  // A request as Beast hands it over: start line, header fields, body, each its own buffer.
  const std::array<std::string, 4> parts{"POST /x HTTP/1.1\r\n", "Host: a\r\n", "Content-Length: 2\r\n\r\n", "{}"};
  const std::string whole = parts[0] + parts[1] + parts[2] + parts[3];
  std::string first_record;
  TlsServer server([&](SSL* ssl, int) {
    std::string chunk(64 * 1024, '\0');
    std::size_t n = 0;
    // SSL_read returns one record's data at most.
    if (SSL_read_ex(ssl, chunk.data(), chunk.size(), &n) == 1) first_record.assign(chunk.data(), n);
  });
  Client client(server.port());
  const std::array<net::const_buffer, 5> buffers{net::buffer(parts[0]), net::const_buffer(), net::buffer(parts[1]),
                                                 net::buffer(parts[2]), net::buffer(parts[3])};
  error_code write_ec = net::error::would_block;
  std::size_t written = 0;
  client.tls->async_write_some(buffers, [&](error_code ec, std::size_t n) {
    write_ec = ec;
    written = n;
  });
  client.ioc.run();
  CHECK_FALSE(write_ec);
  CHECK(written == whole.size());
  server.Join();
  CHECK(first_record == whole);
}

TEST_CASE("TlsStream: a gathered write stops at one record's plaintext, the rest follows whole", "[tls_stream]") {
  const std::string head = "head";
  const std::string body = Pattern(40'000);
  std::string received;
  TlsServer server([&](SSL* ssl, int) { received = ServerRead(ssl, head.size() + body.size()); });
  Client client(server.port());
  const std::array<net::const_buffer, 2> buffers{net::buffer(head), net::buffer(body)};
  std::size_t first_write = 0;
  client.tls->async_write_some(buffers, [&](error_code ec, std::size_t n) {
    CHECK_FALSE(ec);
    first_write = n;
  });
  client.ioc.run();
  client.ioc.restart();
  CHECK(first_write == 16 * 1024);
  error_code write_ec = net::error::would_block;
  net::async_write(*client.tls, net::buffer(body.data() + (first_write - head.size()), body.size() - (first_write - head.size())),
                   [&](error_code ec, std::size_t) { write_ec = ec; });
  client.ioc.run();
  CHECK_FALSE(write_ec);
  server.Join();
  CHECK(received == head + body);
}

TEST_CASE("TlsStream: reading and writing at once (full duplex) against an echo server", "[tls_stream]") {
  const std::string payload = Pattern(2 << 20);
  TlsServer server([&](SSL* ssl, int) {
    std::array<char, 16384> chunk;
    std::size_t echoed = 0;
    while (echoed < payload.size()) {
      std::size_t n = 0;
      if (SSL_read_ex(ssl, chunk.data(), chunk.size(), &n) != 1) return;
      std::size_t written = 0;
      while (written < n) {
        std::size_t w = 0;
        if (SSL_write_ex(ssl, chunk.data() + written, n - written, &w) != 1) return;
        written += w;
      }
      echoed += n;
    }
    SSL_shutdown(ssl);
  });
  Client client(server.port());
  error_code write_ec = net::error::would_block;
  net::async_write(*client.tls, net::buffer(payload), [&](error_code ec, std::size_t) { write_ec = ec; });
  std::string echoed;
  const error_code end = client.ReadAll(echoed);  // runs the write too
  CHECK_FALSE(write_ec);
  CHECK(end == net::error::eof);
  CHECK(echoed == payload);
}

TEST_CASE("TlsStream: a peer that closes without close_notify is stream_truncated", "[tls_stream]") {
  bool wrote = false;
  TlsServer server([&](SSL* ssl, int fd) {
    wrote = ServerWriteAll(ssl, "partial");
    ::shutdown(fd, SHUT_RDWR);
  });
  Client client(server.port());
  std::string data;
  const error_code end = client.ReadAll(data);
  server.Join();
  CHECK(wrote);
  CHECK(data == "partial");
  CHECK(end == net::ssl::error::stream_truncated);
}

TEST_CASE("TlsStream: a deadline ends a wait with timeout, ExpiresNever lifts it", "[tls_stream]") {
  std::atomic<bool> send_now{false};
  bool wrote = false;
  TlsServer server([&](SSL* ssl, int) {
    while (!send_now) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    wrote = ServerWriteAll(ssl, "late");
    SSL_shutdown(ssl);
  });
  Client client(server.port());
  std::array<char, 64> chunk;

  const auto start = std::chrono::steady_clock::now();
  client.tls->ExpiresAt(start + std::chrono::milliseconds(200));
  error_code ec1;
  client.tls->async_read_some(net::buffer(chunk), [&](error_code ec, std::size_t) { ec1 = ec; });
  client.ioc.run();
  client.ioc.restart();
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(ec1 == boost::beast::error::timeout);
  CHECK(waited >= std::chrono::milliseconds(190));
  CHECK(waited < std::chrono::seconds(5));

  // Still expired: an operation started now fails at once.
  error_code ec2;
  client.tls->async_read_some(net::buffer(chunk), [&](error_code ec, std::size_t) { ec2 = ec; });
  client.ioc.run();
  client.ioc.restart();
  CHECK(ec2 == boost::beast::error::timeout);

  client.tls->ExpiresNever();
  send_now = true;
  std::string data;
  CHECK(client.ReadAll(data) == net::error::eof);
  CHECK(data == "late");
  server.Join();
  CHECK(wrote);
}

TEST_CASE("TlsStream: writing to a closed peer is an error, not SIGPIPE", "[tls_stream]") {
  TlsServer server([&](SSL*, int fd) { ::shutdown(fd, SHUT_RDWR); });
  Client client(server.port());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string payload = Pattern(1 << 20);
  error_code write_ec;
  // The first writes may land in the socket buffer; keep writing until the reset shows.
  for (int attempt = 0; attempt < 50 && !write_ec; ++attempt) {
    net::async_write(*client.tls, net::buffer(payload), [&](error_code ec, std::size_t) { write_ec = ec; });
    client.ioc.run();
    client.ioc.restart();
  }
  CHECK((write_ec == net::error::broken_pipe || write_ec == net::error::connection_reset));
}

}  // namespace
}  // namespace ksched::client
