// FakeTransport: a scripted Transport for unit tests. Each Send/SendAfter takes the next scripted
// result and delivers it synchronously, recording the request and the delay it was asked to wait
// (no time passes). An exhausted script answers kInternal "unscripted request".
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/transport.h"

namespace ksched::client::testing {

class FakeTransport : public Transport {
 public:
  struct Sent {
    HttpRequest request;
    std::chrono::steady_clock::duration delay{0};
  };

  // Scripts a response (status, body, optional Retry-After seconds).
  FakeTransport& Respond(int status, std::string body = "{}", std::optional<int> retry_after = std::nullopt) {
    HttpResponse response;
    response.status = status;
    response.body = std::move(body);
    response.content_type = "application/json";
    if (retry_after.has_value()) response.retry_after = std::chrono::seconds(*retry_after);
    return Script(std::move(response));
  }
  FakeTransport& Fail(absl::Status status) { return Script(std::move(status)); }
  FakeTransport& Script(absl::StatusOr<HttpResponse> result) {
    std::lock_guard<std::mutex> lock(mu_);
    script_.push_back(std::move(result));
    return *this;
  }

  void Send(HttpRequest request, Callback done) override { SendAfter({}, std::move(request), std::move(done)); }

  void SendAfter(std::chrono::steady_clock::duration delay, HttpRequest request, Callback done) override {
    absl::StatusOr<HttpResponse> result = absl::InternalError("unscripted request");
    {
      std::lock_guard<std::mutex> lock(mu_);
      sent_.push_back({request, delay});
      if (!script_.empty()) {
        result = std::move(script_.front());
        script_.pop_front();
      }
    }
    done(std::move(result));
  }

  absl::StatusOr<std::unique_ptr<LineStream>> OpenLineStream(HttpRequest request) override {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.push_back({std::move(request), {}});
    return absl::UnimplementedError("FakeTransport has no streams");
  }

  const std::string& server() const override { return server_; }

  std::vector<Sent> sent() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_;
  }
  std::size_t remaining() const {
    std::lock_guard<std::mutex> lock(mu_);
    return script_.size();
  }

 private:
  const std::string server_ = "https://fake:6443";
  mutable std::mutex mu_;
  std::deque<absl::StatusOr<HttpResponse>> script_;
  std::vector<Sent> sent_;
};

}  // namespace ksched::client::testing
