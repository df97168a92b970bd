#include "serving/request_authenticator.h"

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

TEST_CASE("token review results are cached for their TTLs; errors are not", "[serving]") {
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

}  // namespace
}  // namespace ksched::serving
