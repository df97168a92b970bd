#include "serving/request_authenticator.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "fake_reviewers.h"

namespace ksched::serving {
namespace {

using testing::FakeClock;
using testing::FakeTokenReviewer;

TokenReviewResult Authenticated(std::string name, std::vector<std::string> groups) {
  TokenReviewResult result;
  result.authenticated = true;
  result.user.name = std::move(name);
  result.user.uid = "uid-1";
  result.user.groups = std::move(groups);
  return result;
}

TEST_CASE("BearerToken reads the header as upstream's bearertoken authenticator", "[serving]") {
  struct Case {
    std::string header;
    std::string token;
  };
  const std::vector<Case> cases = {
      {"", ""},
      {"Bearer abc", "abc"},
      {"bearer abc", "abc"},
      {"BEARER abc", "abc"},
      {"  Bearer abc  ", "abc"},
      {"Bearer abc def", "abc"},
      {"Bearer", ""},
      {"Bearer  abc", ""},  // the empty token before the extra space
      {"Basic dXNlcjpwYXNz", ""},
      {"Token abc", ""},
  };
  for (const Case& c : cases) {
    INFO("'" << c.header << "'");
    CHECK(BearerToken(c.header) == c.token);
  }
}

TEST_CASE("without a TokenReviewer every request is anonymous", "[serving]") {
  RequestAuthenticator authenticator(nullptr);
  absl::StatusOr<UserInfo> user = authenticator.Authenticate("Bearer whatever");
  REQUIRE(user.ok());
  CHECK(user->name == "system:anonymous");
  CHECK(user->groups == std::vector<std::string>{"system:unauthenticated"});
}

TEST_CASE("token review decisions", "[serving]") {
  auto reviewer = std::make_shared<FakeTokenReviewer>();
  reviewer->results["good"] = Authenticated("system:serviceaccount:ns:prom", {"system:serviceaccounts"});
  reviewer->results["already"] = Authenticated("alice", {"system:authenticated", "devs"});
  TokenReviewResult refused;
  refused.error = "token has expired";
  reviewer->results["expired"] = refused;
  RequestAuthenticator authenticator(reviewer);

  SECTION("no credentials: anonymous without a review") {
    absl::StatusOr<UserInfo> user = authenticator.Authenticate("");
    REQUIRE(user.ok());
    CHECK(*user == UserInfo::Anonymous());
    CHECK(authenticator.Authenticate("Basic Zm9vOmJhcg==")->name == "system:anonymous");
    CHECK(reviewer->calls == 0);
  }
  SECTION("a valid token: the user plus system:authenticated") {
    absl::StatusOr<UserInfo> user = authenticator.Authenticate("Bearer good");
    REQUIRE(user.ok());
    CHECK(user->name == "system:serviceaccount:ns:prom");
    CHECK(user->uid == "uid-1");
    CHECK(user->groups == std::vector<std::string>{"system:serviceaccounts", "system:authenticated"});
    CHECK(authenticator.Authenticate("Bearer already")->groups ==
          std::vector<std::string>{"system:authenticated", "devs"});
  }
  SECTION("an unknown token is an error, not anonymous") {
    absl::StatusOr<UserInfo> user = authenticator.Authenticate("Bearer garbage");
    CHECK(user.status().code() == absl::StatusCode::kUnauthenticated);
    CHECK(user.status().message() == "invalid bearer token");
  }
  SECTION("status.error is the reason") {
    CHECK(authenticator.Authenticate("Bearer expired").status().message() == "token has expired");
  }
  SECTION("a failed review is an error") {
    reviewer->fail = absl::UnavailableError("connection refused");
    absl::StatusOr<UserInfo> user = authenticator.Authenticate("Bearer good");
    CHECK(user.status().code() == absl::StatusCode::kUnauthenticated);
    CHECK(user.status().message() == "TokenReview failed: connection refused");
  }
}

TEST_CASE("token review results are cached for their TTLs, errors are not", "[serving]") {
  auto reviewer = std::make_shared<FakeTokenReviewer>();
  reviewer->results["good"] = Authenticated("bob", {});
  TokenReviewResult refused;
  refused.error = "token has expired";
  reviewer->results["expired"] = refused;
  FakeClock clock;
  RequestAuthenticatorOptions options;
  options.success_ttl = std::chrono::seconds(10);
  options.failure_ttl = std::chrono::seconds(5);
  options.now = clock.fn();
  RequestAuthenticator authenticator(reviewer, options);

  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  CHECK(reviewer->calls == 1);
  clock.Advance(std::chrono::seconds(9));
  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  CHECK(reviewer->calls == 1);
  clock.Advance(std::chrono::seconds(2));
  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  CHECK(reviewer->calls == 2);

  reviewer->calls = 0;
  CHECK_FALSE(authenticator.Authenticate("Bearer bad").ok());
  CHECK_FALSE(authenticator.Authenticate("Bearer bad").ok());
  CHECK(reviewer->calls == 1);  // a plain "not authenticated" is cached
  clock.Advance(std::chrono::seconds(6));
  CHECK_FALSE(authenticator.Authenticate("Bearer bad").ok());
  CHECK(reviewer->calls == 2);

  reviewer->calls = 0;
  CHECK_FALSE(authenticator.Authenticate("Bearer expired").ok());
  CHECK_FALSE(authenticator.Authenticate("Bearer expired").ok());
  CHECK(reviewer->calls == 2);  // refusals with status.error are not cached

  reviewer->calls = 0;
  reviewer->fail = absl::UnavailableError("down");
  CHECK_FALSE(authenticator.Authenticate("Bearer new").ok());
  reviewer->fail = absl::OkStatus();
  reviewer->results["new"] = Authenticated("carol", {});
  CHECK(authenticator.Authenticate("Bearer new")->name == "carol");  // the failure was not cached
  CHECK(reviewer->calls == 2);
}

// Every TokenCacheObserver call, in order, as text.
struct ObserverLog {
  std::mutex mu;
  std::vector<std::string> calls;

  TokenCacheObserver Observer() {
    TokenCacheObserver observer;
    observer.request = [this](bool hit, std::chrono::steady_clock::duration) { Add(hit ? "hit" : "miss"); };
    observer.active_fetches = [this](std::string_view status, int delta) {
      Add(std::string(status) + (delta > 0 ? "+" : "-") + std::to_string(delta > 0 ? delta : -delta));
    };
    observer.fetched = [this](bool ok) { Add(ok ? "fetched ok" : "fetched error"); };
    return observer;
  }
  void Add(std::string call) {
    std::lock_guard lock(mu);
    calls.push_back(std::move(call));
  }
  long Count(const std::string& call) {
    std::lock_guard lock(mu);
    return std::count(calls.begin(), calls.end(), call);
  }
  std::vector<std::string> Take() {
    std::lock_guard lock(mu);
    return std::exchange(calls, {});
  }
};

TEST_CASE("the token cache tells its observer what upstream's authentication_token_cache metrics count",
          "[serving]") {
  auto reviewer = std::make_shared<FakeTokenReviewer>();
  reviewer->results["good"] = Authenticated("bob", {});
  TokenReviewResult refused;
  refused.error = "token has expired";
  reviewer->results["expired"] = refused;
  ObserverLog log;
  RequestAuthenticatorOptions options;
  options.observer = log.Observer();
  RequestAuthenticator authenticator(reviewer, options);

  // A miss: blocked while the fetch runs, counted once it has the answer; then a hit.
  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  CHECK(log.Take() ==
        std::vector<std::string>{"blocked+1", "in_flight+1", "fetched ok", "in_flight-1", "miss", "blocked-1"});
  REQUIRE(authenticator.Authenticate("Bearer good").ok());
  CHECK(log.Take() == std::vector<std::string>{"hit"});

  // "Not authenticated" is an answer (ok, and cached); a status.error or a failed review is not.
  CHECK_FALSE(authenticator.Authenticate("Bearer unknown").ok());
  CHECK(log.Take() ==
        std::vector<std::string>{"blocked+1", "in_flight+1", "fetched ok", "in_flight-1", "miss", "blocked-1"});
  CHECK_FALSE(authenticator.Authenticate("Bearer unknown").ok());
  CHECK(log.Take() == std::vector<std::string>{"hit"});
  CHECK_FALSE(authenticator.Authenticate("Bearer expired").ok());
  CHECK(log.Take() ==
        std::vector<std::string>{"blocked+1", "in_flight+1", "fetched error", "in_flight-1", "miss", "blocked-1"});
  reviewer->fail = absl::UnavailableError("down");
  CHECK_FALSE(authenticator.Authenticate("Bearer new").ok());
  CHECK(log.Take() ==
        std::vector<std::string>{"blocked+1", "in_flight+1", "fetched error", "in_flight-1", "miss", "blocked-1"});

  // No bearer token: the cache is not asked.
  CHECK(authenticator.Authenticate("Basic abc").ok());
  CHECK(log.Take().empty());
}

// A reviewer whose reviews wait until Release; counts them.
class GatedTokenReviewer : public TokenReviewer {
 public:
  absl::StatusOr<TokenReviewResult> Review(std::string_view) override {
    std::unique_lock lock(mu_);
    ++calls_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
    return Authenticated("bob", {});
  }
  void WaitForCalls(int n) {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return calls_ >= n; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    changed_.notify_all();
  }
  int calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int calls_ = 0;
  bool released_ = false;
};

TEST_CASE("requests carrying one uncached token share one TokenReview", "[serving]") {
  auto reviewer = std::make_shared<GatedTokenReviewer>();
  ObserverLog log;
  RequestAuthenticatorOptions options;
  options.observer = log.Observer();
  RequestAuthenticator authenticator(reviewer, options);

  std::vector<std::string> users(3);
  std::vector<std::thread> requests;
  requests.emplace_back([&] { users[0] = authenticator.Authenticate("Bearer t")->name; });
  reviewer->WaitForCalls(1);  // the first request's review is under way
  for (int i = 1; i < 3; ++i) {
    requests.emplace_back([&, i] { users[i] = authenticator.Authenticate("Bearer t")->name; });
  }
  // The others missed the cache too and are blocked: on the review under way or, had they come
  // after it, on the cache it filled (upstream's second look) — never on a second review.
  while (log.Count("blocked+1") < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  reviewer->Release();
  for (std::thread& request : requests) request.join();
  CHECK(users == std::vector<std::string>{"bob", "bob", "bob"});
  CHECK(reviewer->calls() == 1);
  CHECK(log.Count("miss") == 3);
  CHECK(log.Count("blocked-1") == 3);
}

}  // namespace
}  // namespace ksched::serving
