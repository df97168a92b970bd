// Test fakes: scripted TokenReviewer / SubjectAccessReviewer that count their calls, and a
// settable steady clock.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "serving/expiring_cache.h"
#include "serving/subject_access_reviewer.h"
#include "serving/token_reviewer.h"

namespace ksched::serving::testing {

class FakeClock {
 public:
  std::chrono::steady_clock::time_point now() const { return now_; }
  void Advance(std::chrono::steady_clock::duration d) { now_ += d; }
  SteadyNow fn() { return [this] { return now_; }; }

 private:
  std::chrono::steady_clock::time_point now_{std::chrono::seconds(1000)};
};

// Tokens map to results; an unknown token is "not authenticated"; `fail` makes every call fail.
class FakeTokenReviewer : public TokenReviewer {
 public:
  std::map<std::string, TokenReviewResult> results;
  absl::Status fail = absl::OkStatus();
  std::atomic<int> calls{0};

  absl::StatusOr<TokenReviewResult> Review(std::string_view token) override {
    ++calls;
    if (!fail.ok()) return fail;
    auto it = results.find(std::string(token));
    if (it == results.end()) return TokenReviewResult{};
    return it->second;
  }
};

// "<user> <verb> <path>" keys map to results; anything else is no opinion.
class FakeAccessReviewer : public SubjectAccessReviewer {
 public:
  std::map<std::string, AccessReviewResult> results;
  absl::Status fail = absl::OkStatus();
  std::atomic<int> calls{0};

  absl::StatusOr<AccessReviewResult> Review(const UserInfo& user, std::string_view verb,
                                            std::string_view path) override {
    ++calls;
    if (!fail.ok()) return fail;
    auto it = results.find(user.name + " " + std::string(verb) + " " + std::string(path));
    if (it == results.end()) return AccessReviewResult{};
    return it->second;
  }
};

}  // namespace ksched::serving::testing
