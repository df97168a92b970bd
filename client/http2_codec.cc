#include "client/http2_codec.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "client/concat.h"
#include "client/http_types.h"

namespace ksched::client {

namespace {

}  // namespace

// What a stream holds while it is open: its request body until sent, its response head as the
// header fields arrive.
struct Http2Codec::StreamData {
  std::string body;
  std::size_t body_sent = 0;
  Http2ResponseHead head;
  bool head_delivered = false;
  bool reset = false;  // cancelled by the caller: no more Listener calls for it
};

namespace {

std::string_view View(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

nghttp2_nv Field(std::string_view name, std::string_view value) {
  return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                    value.size(), NGHTTP2_NV_FLAG_NONE};  // nghttp2 copies both
}

}  // namespace

// The codec's state reachable from nghttp2's C callbacks (user_data is the codec).
struct Http2Codec::Callbacks {
  static Http2Codec& Of(void* user_data) { return *static_cast<Http2Codec*>(user_data); }

  static StreamData* Stream(void* user_data, std::int32_t stream_id) {
    return Of(user_data).Find(stream_id);
  }

  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    if (StreamData* stream = Stream(user_data, frame->hd.stream_id); stream && !stream->head_delivered) {
      stream->head = Http2ResponseHead{};  // a final head after a 1xx one starts afresh
    }
    return 0;
  }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                      std::size_t namelen, const std::uint8_t* value, std::size_t valuelen,
                      std::uint8_t, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    StreamData* stream = Stream(user_data, frame->hd.stream_id);
    if (stream == nullptr || stream->head_delivered) return 0;  // trailers: nothing to read
    const std::string_view key = View(name, namelen);
    const std::string_view text = View(value, valuelen);
    if (key == ":status") {
      int status = 0;
      std::from_chars(text.data(), text.data() + text.size(), status);
      stream->head.status = status;
    } else if (key == "content-type") {
      stream->head.content_type.assign(text);
    } else if (key == "retry-after") {
      stream->head.retry_after = ParseRetryAfter(text);
    }
    return 0;
  }

  static int OnFrameRecv(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Http2Codec& codec = Of(user_data);
    switch (frame->hd.type) {
      case NGHTTP2_HEADERS: {
        StreamData* stream = Stream(user_data, frame->hd.stream_id);
        if (stream == nullptr || stream->head_delivered || stream->head.status < 200) return 0;
        stream->head_delivered = true;
        if (!stream->reset) codec.listener_->OnResponseHead(frame->hd.stream_id, std::move(stream->head));
        return 0;
      }
      case NGHTTP2_GOAWAY:
        codec.listener_->OnGoAway(frame->goaway.last_stream_id, frame->goaway.error_code);
        return 0;
      case NGHTTP2_PING:
        if ((frame->hd.flags & NGHTTP2_FLAG_ACK) != 0) codec.listener_->OnPingAck();
        return 0;
      default:
        return 0;
    }
  }

  static int OnDataChunk(nghttp2_session* session, std::uint8_t, std::int32_t stream_id,
                         const std::uint8_t* data, std::size_t len, void* user_data) {
    Http2Codec& codec = Of(user_data);
    // The connection's window is the codec's business; the stream's is the consumer's (Consume).
    nghttp2_session_consume_connection(session, len);
    StreamData* stream = Stream(user_data, stream_id);
    if (stream == nullptr || stream->reset) return 0;
    codec.listener_->OnData(stream_id, View(data, len));
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, std::int32_t stream_id, std::uint32_t error_code,
                           void* user_data) {
    Http2Codec& codec = Of(user_data);
    const auto it = codec.streams_.find(stream_id);
    if (it == codec.streams_.end()) return 0;
    const bool notify = !it->second->reset;
    delete it->second;
    codec.streams_.erase(it);
    if (notify) codec.listener_->OnStreamClose(stream_id, error_code);
    return 0;
  }

  // nghttp2 reports a connection error (a bad frame, a bad preface) here, then queues a GOAWAY.
  static int OnError(nghttp2_session*, int, const char* message, std::size_t length, void* user_data) {
    Http2Codec& codec = Of(user_data);
    if (codec.protocol_error_.empty()) codec.protocol_error_.assign(message, length);
    return 0;
  }

  static ssize_t ReadBody(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                          std::uint32_t* data_flags, nghttp2_data_source* source, void*) {
    auto* stream = static_cast<Http2Codec::StreamData*>(source->ptr);
    const std::size_t n = std::min(length, stream->body.size() - stream->body_sent);
    std::memcpy(buf, stream->body.data() + stream->body_sent, n);
    stream->body_sent += n;
    if (stream->body_sent == stream->body.size()) {
      *data_flags |= NGHTTP2_DATA_FLAG_EOF;
      std::string().swap(stream->body);  // sent: not held while the response comes
      stream->body_sent = 0;
    }
    return static_cast<ssize_t>(n);
  }
};

absl::StatusOr<std::unique_ptr<Http2Codec>> Http2Codec::Create(Listener* listener) {
  std::unique_ptr<Http2Codec> codec(new Http2Codec(listener));
  nghttp2_session_callbacks* callbacks = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0) std::abort();  // out of memory
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::OnBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::OnHeader);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::OnFrameRecv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::OnDataChunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::OnStreamClose);
  nghttp2_session_callbacks_set_error_callback2(callbacks, &Callbacks::OnError);
  nghttp2_option* option = nullptr;
  if (nghttp2_option_new(&option) != 0) std::abort();
  nghttp2_option_set_no_auto_window_update(option, 1);
  const int rv = nghttp2_session_client_new2(&codec->session_, callbacks, codec.get(), option);
  nghttp2_option_del(option);
  nghttp2_session_callbacks_del(callbacks);
  if (rv != 0) return absl::InternalError(Concat("HTTP/2 session: ", nghttp2_strerror(rv)));
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, kStreamWindow},
  };
  if (nghttp2_submit_settings(codec->session_, NGHTTP2_FLAG_NONE, settings, std::size(settings)) != 0 ||
      nghttp2_session_set_local_window_size(codec->session_, NGHTTP2_FLAG_NONE, 0,
                                            static_cast<std::int32_t>(kConnectionWindow)) != 0) {
    return absl::InternalError("HTTP/2 session: could not queue SETTINGS");
  }
  return codec;
}

Http2Codec::StreamData* Http2Codec::Find(std::int32_t stream_id) const {
  const auto it = streams_.find(stream_id);
  return it == streams_.end() ? nullptr : it->second;
}

Http2Codec::~Http2Codec() {
  if (session_ != nullptr) nghttp2_session_del(session_);  // reports no stream closes
  for (auto& [id, stream] : streams_) delete stream;
}

absl::StatusOr<std::int32_t> Http2Codec::Submit(Http2Request request) {
  if (!CanOpenStreams()) return absl::UnavailableError("HTTP/2 connection is going away");
  std::vector<nghttp2_nv> fields;
  fields.reserve(request.headers.size() + 5);
  fields.push_back(Field(":method", request.method));
  fields.push_back(Field(":scheme", request.scheme));
  fields.push_back(Field(":authority", request.authority));
  fields.push_back(Field(":path", request.path));
  for (const auto& [name, value] : request.headers) fields.push_back(Field(name, value));
  const std::string length = std::to_string(request.body.size());
  if (!request.body.empty()) fields.push_back(Field("content-length", length));
  auto stream = std::make_unique<StreamData>();
  nghttp2_data_provider provider{};
  const bool has_body = !request.body.empty();
  if (has_body) {
    stream->body = std::move(request.body);
    provider.source.ptr = stream.get();
    provider.read_callback = &Callbacks::ReadBody;
  }
  const std::int32_t id = nghttp2_submit_request(session_, nullptr, fields.data(), fields.size(),
                                                 has_body ? &provider : nullptr, nullptr);
  if (id < 0) {
    return absl::UnavailableError(Concat("HTTP/2 request: ", nghttp2_strerror(id)));
  }
  streams_.emplace(id, stream.release());  // until OnStreamClose (or the codec's end)
  return id;
}

absl::Status Http2Codec::Receive(std::string_view bytes) {
  const ssize_t n = nghttp2_session_mem_recv(
      session_, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (n < 0) {
    failed_ = true;
    return absl::UnavailableError(
        Concat("HTTP/2 protocol error: ", nghttp2_strerror(static_cast<int>(n))));
  }
  // nghttp2 answers most protocol errors by queueing a GOAWAY of its own, not by an error return.
  if (!protocol_error_.empty()) {
    failed_ = true;
    return absl::UnavailableError(Concat("HTTP/2 protocol error: ", protocol_error_));
  }
  return absl::OkStatus();
}

void Http2Codec::TakeOutput(std::string* out) {
  while (true) {
    const std::uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session_, &data);
    if (n < 0) {
      failed_ = true;
      return;
    }
    if (n == 0) return;
    out->append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
  }
}

void Http2Codec::Consume(std::int32_t stream_id, std::size_t bytes) {
  if (bytes > 0) nghttp2_session_consume_stream(session_, stream_id, bytes);
}

void Http2Codec::Reset(std::int32_t stream_id) {
  if (StreamData* stream = Find(stream_id)) stream->reset = true;
  nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
}

void Http2Codec::Ping() { nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, nullptr); }

void Http2Codec::Terminate() { nghttp2_session_terminate_session(session_, NGHTTP2_NO_ERROR); }

bool Http2Codec::CanOpenStreams() const {
  return !failed_ && nghttp2_session_check_request_allowed(session_) != 0;
}

bool Http2Codec::Alive() const {
  return !failed_ && (nghttp2_session_want_read(session_) != 0 || nghttp2_session_want_write(session_) != 0);
}

}  // namespace ksched::client
