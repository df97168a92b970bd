// AnsweringTransport: a client::Transport for unit tests of the scheduler's API writers. Every
// request is recorded and answered by a responder function (default: 201 "{}"), synchronously on
// the sending thread - or, while Hold() is on, kept until Release() (to fill the event buffer).
// Requests the destructor still holds get kCancelled, as the Transport contract asks.
//
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/rest_client.h"
#include "client/transport.h"

namespace ksched::scheduler::testing {

inline client::HttpResponse Response(int status, std::string body = "{}") {
  client::HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  response.content_type = "application/json";
  return response;
}

// A metav1.Status failure response, as the API server sends it.
inline client::HttpResponse StatusResponse(int code, const std::string& reason, const std::string& message = "x") {
  return Response(code, R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":")" + message +
                            R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}");
}

class AnsweringTransport final : public client::Transport {
 public:
  using Responder = std::function<absl::StatusOr<client::HttpResponse>(const client::HttpRequest&)>;

  ~AnsweringTransport() override {
    for (auto& [request, done] : TakeHeld()) done(absl::CancelledError("transport shut down"));
  }

  void set_responder(Responder responder) {
    std::lock_guard lock(mu_);
    responder_ = std::move(responder);
  }
  void Hold(bool hold) {
    std::lock_guard lock(mu_);
    hold_ = hold;
  }
  // Answers the held requests now.
  void Release() {
    for (auto& [request, done] : TakeHeld()) done(Answer(request));
  }

  void Send(client::HttpRequest request, Callback done) override { SendAfter({}, std::move(request), std::move(done)); }
  void SendAfter(std::chrono::steady_clock::duration /*delay*/, client::HttpRequest request, Callback done) override {
    {
      std::lock_guard lock(mu_);
      requests_.push_back(request);
      if (hold_) {
        held_.emplace_back(std::move(request), std::move(done));
        return;
      }
    }
    done(Answer(request));
  }
  absl::StatusOr<std::unique_ptr<client::LineStream>> OpenLineStream(client::HttpRequest /*request*/) override {
    return absl::UnimplementedError("AnsweringTransport has no streams");
  }
  const std::string& server() const override { return server_; }

  std::vector<client::HttpRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  std::size_t held() const {
    std::lock_guard lock(mu_);
    return held_.size();
  }

 private:
  absl::StatusOr<client::HttpResponse> Answer(const client::HttpRequest& request) {
    Responder responder;
    {
      std::lock_guard lock(mu_);
      responder = responder_;
    }
    if (!responder) return Response(201);
    return responder(request);
  }
  std::vector<std::pair<client::HttpRequest, Callback>> TakeHeld() {
    std::lock_guard lock(mu_);
    return std::exchange(held_, {});
  }

  const std::string server_ = "https://fake:6443";
  mutable std::mutex mu_;
  Responder responder_;
  bool hold_ = false;
  std::vector<client::HttpRequest> requests_;
  std::vector<std::pair<client::HttpRequest, Callback>> held_;
};

// A RestClient over `transport` without throttling or client-side retry delays.
// protobuf_writes: Binding and Event bodies in protobuf (RestClientOptions::protobuf_writes).
inline std::shared_ptr<client::RestClient> InstantClient(std::shared_ptr<client::Transport> transport,
                                                         bool protobuf_writes = false) {
  client::RestClientOptions options;
  options.protobuf_writes = protobuf_writes;
  options.qps = -1;
  options.max_retries = 0;
  options.backoff_initial = std::chrono::milliseconds(1);
  options.backoff_cap = std::chrono::milliseconds(1);
  return std::make_shared<client::RestClient>(std::move(transport), options);
}

}  // namespace ksched::scheduler::testing
