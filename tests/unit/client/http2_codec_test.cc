// Http2Codec against a real nghttp2 server session in memory: the bytes one produces are the
// bytes the other reads. Requests and responses, flow control by consumption (a stream that is
// not consumed stops at its window while another goes on), server resets, GOAWAY, PING, caller
// resets and garbage input.
#include "client/http2_codec.h"
#include "client/http_types.h"

#include <nghttp2/nghttp2.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace ksched::client {
namespace {

// What the codec told its listener, per stream.
struct Recorder final : Http2Codec::Listener {
  struct Stream {
    std::optional<Http2ResponseHead> head;
    std::string body;
    std::optional<std::uint32_t> closed;  // error code
  };
  void OnResponseHead(std::int32_t id, Http2ResponseHead head) override { streams[id].head = std::move(head); }
  void OnData(std::int32_t id, std::string_view data) override {
    streams[id].body.append(data);
    if (consume) codec->Consume(id, data.size());
  }
  void OnStreamClose(std::int32_t id, std::uint32_t error_code) override { streams[id].closed = error_code; }
  void OnGoAway(std::int32_t last, std::uint32_t error_code) override {
    goaway_last = last;
    goaway_code = error_code;
  }
  void OnPingAck() override { ++ping_acks; }

  Http2Codec* codec = nullptr;
  bool consume = true;
  std::map<std::int32_t, Stream> streams;
  std::optional<std::int32_t> goaway_last;
  std::uint32_t goaway_code = 0;
  int ping_acks = 0;
};

// A minimal HTTP/2 server: records requests, answers when told to.
class Server {
 public:
  struct Request {
    std::map<std::string, std::string> headers;
    std::string body;
    bool complete = false;
    std::optional<std::uint32_t> closed;
  };

  Server() {
    nghttp2_session_callbacks* cb = nullptr;
    REQUIRE(nghttp2_session_callbacks_new(&cb) == 0);
    nghttp2_session_callbacks_set_on_header_callback(
        cb, [](nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t namelen,
               const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* self) {
          static_cast<Server*>(self)->requests[frame->hd.stream_id].headers[std::string(
              reinterpret_cast<const char*>(name), namelen)] = std::string(reinterpret_cast<const char*>(value), valuelen);
          return 0;
        });
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
        cb, [](nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t len, void* self) {
          static_cast<Server*>(self)->requests[id].body.append(reinterpret_cast<const char*>(data), len);
          return 0;
        });
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, [](nghttp2_session*, const nghttp2_frame* frame, void* self) {
      if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
          (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
        static_cast<Server*>(self)->requests[frame->hd.stream_id].complete = true;
      }
      return 0;
    });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        cb, [](nghttp2_session*, std::int32_t id, std::uint32_t code, void* self) {
          static_cast<Server*>(self)->requests[id].closed = code;
          return 0;
        });
    REQUIRE(nghttp2_session_server_new(&session_, cb, this) == 0);
    nghttp2_session_callbacks_del(cb);
    REQUIRE(nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, nullptr, 0) == 0);
  }
  ~Server() { nghttp2_session_del(session_); }

  void Feed(const std::string& bytes) {
    if (bytes.empty()) return;
    REQUIRE(nghttp2_session_mem_recv(session_, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) ==
            static_cast<ssize_t>(bytes.size()));
  }
  std::string Output() {
    std::string out;
    const std::uint8_t* data = nullptr;
    ssize_t n;
    while ((n = nghttp2_session_mem_send(session_, &data)) > 0) out.append(reinterpret_cast<const char*>(data), n);
    REQUIRE(n == 0);
    return out;
  }

  void Respond(std::int32_t id, std::string status, std::vector<std::pair<std::string, std::string>> headers,
               std::string body) {
    bodies_[id] = Body{std::move(body), 0};
    std::vector<std::pair<std::string, std::string>> all = {{":status", std::move(status)}};
    for (auto& h : headers) all.push_back(std::move(h));
    std::vector<nghttp2_nv> nv;
    for (auto& [n, v] : all) {
      nv.push_back({reinterpret_cast<std::uint8_t*>(n.data()), reinterpret_cast<std::uint8_t*>(v.data()), n.size(),
                    v.size(), NGHTTP2_NV_FLAG_NONE});
    }
    nghttp2_data_provider provider{};
    provider.source.ptr = &bodies_[id];
    provider.read_callback = [](nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                                std::uint32_t* flags, nghttp2_data_source* source, void*) -> ssize_t {
      auto* b = static_cast<Body*>(source->ptr);
      const std::size_t n = std::min(length, b->text.size() - b->sent);
      std::memcpy(buf, b->text.data() + b->sent, n);
      b->sent += n;
      if (b->sent == b->text.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
      return static_cast<ssize_t>(n);
    };
    REQUIRE(nghttp2_submit_response(session_, id, nv.data(), nv.size(), &provider) == 0);
  }
  void ResetStream(std::int32_t id, std::uint32_t code) {
    REQUIRE(nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, code) == 0);
  }
  void GoAway(std::int32_t last_stream_id) {
    REQUIRE(nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE, last_stream_id, NGHTTP2_NO_ERROR, nullptr, 0) == 0);
  }

  std::map<std::int32_t, Request> requests;

 private:
  struct Body {
    std::string text;
    std::size_t sent = 0;
  };
  nghttp2_session* session_ = nullptr;
  std::map<std::int32_t, Body> bodies_;
};

struct Pair {
  Pair() {
    auto created = Http2Codec::Create(&recorder);
    REQUIRE(created.ok());
    codec = std::move(*created);
    recorder.codec = codec.get();
    Pump();
  }
  // Moves bytes both ways until neither side has anything to say.
  void Pump() {
    for (int round = 0; round < 10000; ++round) {
      std::string to_server;
      codec->TakeOutput(&to_server);
      server.Feed(to_server);
      const std::string to_client = server.Output();
      if (!to_client.empty()) REQUIRE(codec->Receive(to_client).ok());
      if (to_server.empty() && to_client.empty()) return;
    }
    FAIL("the two sides never went quiet");
  }
  std::int32_t Get(std::string path) {
    Http2Request request;
    request.method = "GET";
    request.scheme = "https";
    request.authority = "127.0.0.1:6443";
    request.path = path;
    auto id = codec->Submit(std::move(request));
    REQUIRE(id.ok());
    return *id;
  }

  Recorder recorder;
  Server server;
  std::unique_ptr<Http2Codec> codec;
};

}  // namespace

TEST_CASE("a request goes out with its pseudo-headers, headers and body, the response comes back",
          "[http2]") {
  Pair p;
  Http2Request request;
  request.method = "POST";
  request.scheme = "https";
  request.authority = "127.0.0.1:6443";
  request.path = "/api/v1/namespaces/default/pods/a/binding";
  request.headers = {{"user-agent", "kube-scheduler-cpp/test"}, {"content-type", "application/json"}};
  request.body = R"({"kind":"Binding"})";
  auto id = p.codec->Submit(request);
  REQUIRE(id.ok());
  CHECK(p.codec->open_streams() == 1);
  p.Pump();
  const Server::Request& seen = p.server.requests[*id];
  CHECK(seen.complete);
  CHECK(seen.headers.at(":method") == "POST");
  CHECK(seen.headers.at(":scheme") == "https");
  CHECK(seen.headers.at(":authority") == "127.0.0.1:6443");
  CHECK(seen.headers.at(":path") == "/api/v1/namespaces/default/pods/a/binding");
  CHECK(seen.headers.at("user-agent") == "kube-scheduler-cpp/test");
  CHECK(seen.headers.at("content-type") == "application/json");
  CHECK(seen.headers.at("content-length") == std::to_string(request.body.size()));
  CHECK(seen.body == request.body);

  p.server.Respond(*id, "429", {{"content-type", "application/json"}, {"retry-after", "3"}}, R"({"kind":"Status"})");
  p.Pump();
  const Recorder::Stream& got = p.recorder.streams[*id];
  REQUIRE(got.head.has_value());
  CHECK(got.head->status == 429);
  CHECK(got.head->content_type == "application/json");
  CHECK(got.head->retry_after == std::chrono::seconds(3));
  CHECK(got.body == R"({"kind":"Status"})");
  REQUIRE(got.closed.has_value());
  CHECK(*got.closed == 0);
  CHECK(p.codec->open_streams() == 0);
}

TEST_CASE("a stream that is not consumed stops at its window, the others go on, consuming resumes it",
          "[http2]") {
  Pair p;
  p.recorder.consume = false;
  const std::int32_t stalled = p.Get("/api/v1/pods?watch=1");
  const std::int32_t other = p.Get("/api/v1/nodes");
  p.Pump();
  const std::string big(Http2Codec::kStreamWindow + (1u << 20), 'p');  // 5 MiB
  p.server.Respond(stalled, "200", {}, big);
  p.Pump();
  CHECK(p.recorder.streams[stalled].body.size() == Http2Codec::kStreamWindow);
  CHECK_FALSE(p.recorder.streams[stalled].closed.has_value());

  // Another stream is not held up by the stalled one (the connection's window is 1 GiB).
  p.recorder.consume = true;
  p.server.Respond(other, "200", {}, std::string(3u << 20, 'n'));
  p.Pump();
  CHECK(p.recorder.streams[other].body.size() == (3u << 20));
  CHECK(p.recorder.streams[other].closed == 0u);

  // Giving the window back lets the rest come.
  p.codec->Consume(stalled, p.recorder.streams[stalled].body.size());
  p.Pump();
  CHECK(p.recorder.streams[stalled].body == big);
  CHECK(p.recorder.streams[stalled].closed == 0u);
}

TEST_CASE("a stream the server resets closes with the server's code", "[http2]") {
  Pair p;
  const std::int32_t id = p.Get("/api/v1/nodes");
  p.Pump();
  p.server.ResetStream(id, NGHTTP2_REFUSED_STREAM);
  p.Pump();
  CHECK(p.recorder.streams[id].closed == Http2Codec::kRefusedStream);
  CHECK_FALSE(p.recorder.streams[id].head.has_value());
}

TEST_CASE("GOAWAY: streams after the last one are refused, and no new stream may open", "[http2]") {
  Pair p;
  const std::int32_t first = p.Get("/a");
  const std::int32_t second = p.Get("/b");
  p.Pump();
  p.server.GoAway(first);
  p.server.Respond(first, "200", {}, "done");
  p.Pump();
  REQUIRE(p.recorder.goaway_last.has_value());
  CHECK(*p.recorder.goaway_last == first);
  CHECK(p.recorder.streams[first].body == "done");
  CHECK(p.recorder.streams[first].closed == 0u);
  CHECK(p.recorder.streams[second].closed == Http2Codec::kRefusedStream);
  CHECK_FALSE(p.codec->CanOpenStreams());
  Http2Request request;
  request.method = "GET";
  request.scheme = "https";
  request.authority = "x";
  request.path = "/c";
  CHECK(p.codec->Submit(request).status().code() == absl::StatusCode::kUnavailable);
}

TEST_CASE("a stream the caller resets is cancelled at the server and reports nothing more", "[http2]") {
  Pair p;
  const std::int32_t id = p.Get("/api/v1/pods?watch=1");
  p.Pump();
  p.codec->Reset(id);
  p.Pump();
  CHECK(p.server.requests[id].closed == static_cast<std::uint32_t>(NGHTTP2_CANCEL));
  CHECK(p.recorder.streams.count(id) == 0);
  CHECK(p.codec->open_streams() == 0);

  // A response already on its way when the caller resets: read, but not reported.
  const std::int32_t late = p.Get("/api/v1/nodes");
  p.Pump();
  p.server.Respond(late, "200", {}, "already sent");
  const std::string in_flight = p.server.Output();
  REQUIRE_FALSE(in_flight.empty());
  p.codec->Reset(late);
  REQUIRE(p.codec->Receive(in_flight).ok());
  p.Pump();
  CHECK(p.recorder.streams.count(late) == 0);
  CHECK(p.codec->open_streams() == 0);
  CHECK(p.codec->CanOpenStreams());
}

TEST_CASE("a PING is answered", "[http2]") {
  Pair p;
  p.codec->Ping();
  p.Pump();
  CHECK(p.recorder.ping_acks == 1);
  CHECK(p.codec->Alive());
}

TEST_CASE("bytes that are not HTTP/2 are a protocol error and end the connection", "[http2]") {
  Recorder recorder;
  auto codec = Http2Codec::Create(&recorder);
  REQUIRE(codec.ok());
  recorder.codec = codec->get();
  const absl::Status status = (*codec)->Receive("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  CHECK(status.code() == absl::StatusCode::kUnavailable);
  CHECK_FALSE((*codec)->CanOpenStreams());
}

}  // namespace ksched::client

namespace ksched::client {

// Shared by both protocols' response heads (HttpTransport's HTTP/1.1 Complete and the codec).
TEST_CASE("ParseRetryAfter takes whole non-negative seconds only", "[http2]") {
  CHECK(ParseRetryAfter("3") == std::chrono::seconds(3));
  CHECK(ParseRetryAfter("0") == std::chrono::seconds(0));
  CHECK_FALSE(ParseRetryAfter("").has_value());
  CHECK_FALSE(ParseRetryAfter("-1").has_value());
  CHECK_FALSE(ParseRetryAfter("3s").has_value());
  CHECK_FALSE(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT").has_value());
}

}  // namespace ksched::client
