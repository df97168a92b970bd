#include "serving/request_authorizer.h"

#include <catch2/catch.hpp>

#include "fake_reviewers.h"

namespace ksched::serving {
namespace {

using testing::FakeAccessReviewer;
using testing::FakeClock;

UserInfo User(std::string name, std::vector<std::string> groups = {"system:authenticated"}) {
  return UserInfo{std::move(name), "", std::move(groups), {}};
}

AccessReviewResult Allowed(std::string reason = "") { return AccessReviewResult{true, false, std::move(reason), ""}; }
AccessReviewResult Denied(std::string reason) { return AccessReviewResult{false, true, std::move(reason), ""}; }

TEST_CASE("always-allow path patterns are validated as upstream", "[serving]") {
  RequestAuthorizerOptions options;
  options.always_allow_paths = {"/healthz", "/bad*path"};
  absl::StatusOr<std::unique_ptr<RequestAuthorizer>> authorizer = RequestAuthorizer::Create(nullptr, options);
  CHECK(authorizer.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(authorizer.status().message() == "only trailing * allowed in \"bad*path\"");
}

TEST_CASE("authorization decisions: groups, paths, review", "[serving]") {
  auto reviewer = std::make_shared<FakeAccessReviewer>();
  reviewer->results["prom get /metrics"] = Allowed("RBAC: allowed by ClusterRoleBinding \"prom\"");
  reviewer->results["mallory get /configz"] = Denied("blocked by policy");
  RequestAuthorizerOptions options;
  options.always_allow_paths = {"/healthz", "/readyz", "/livez", "/debug/*", "/"};
  auto authorizer = RequestAuthorizer::Create(reviewer, options);
  REQUIRE(authorizer.ok());

  struct Case {
    std::string name;
    UserInfo user;
    std::string verb;
    std::string path;
    AuthorizationDecision decision;
    std::string reason;
    int reviews;
  };
  const std::vector<Case> cases = {
      {"system:masters skips everything", User("admin", {"system:masters"}), "get", "/metrics",
       AuthorizationDecision::kAllow, "", 0},
      {"always-allow path, anonymous", UserInfo::Anonymous(), "get", "/healthz", AuthorizationDecision::kAllow, "", 0},
      {"always-allow path, any verb", UserInfo::Anonymous(), "post", "/readyz", AuthorizationDecision::kAllow, "", 0},
      {"always-allow '/' is exact", UserInfo::Anonymous(), "get", "/", AuthorizationDecision::kAllow, "", 0},
      {"prefix pattern", UserInfo::Anonymous(), "get", "/debug/pprof/heap", AuthorizationDecision::kAllow, "", 0},
      {"sub-path of an exact entry is not allowed", UserInfo::Anonymous(), "get", "/healthz/ping",
       AuthorizationDecision::kNoOpinion, "", 1},
      {"review allows", User("prom"), "get", "/metrics", AuthorizationDecision::kAllow,
       "RBAC: allowed by ClusterRoleBinding \"prom\"", 1},
      {"review for another verb has no opinion", User("prom"), "delete", "/metrics",
       AuthorizationDecision::kNoOpinion, "", 1},
      {"explicit deny", User("mallory"), "get", "/configz", AuthorizationDecision::kDeny, "blocked by policy", 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    reviewer->calls = 0;
    const AuthorizationResult result = (*authorizer)->Authorize(c.user, c.verb, c.path);
    CHECK(result.decision == c.decision);
    CHECK(result.reason == c.reason);
    CHECK(result.error.ok());
    CHECK(reviewer->calls == c.reviews);
  }
}

TEST_CASE("without a reviewer only the always-allow rules allow", "[serving]") {
  auto authorizer = RequestAuthorizer::Create(nullptr);
  REQUIRE(authorizer.ok());
  CHECK((*authorizer)->Authorize(User("prom"), "get", "/metrics").decision == AuthorizationDecision::kNoOpinion);
  CHECK((*authorizer)->Authorize(UserInfo::Anonymous(), "get", "/livez").decision == AuthorizationDecision::kAllow);
  CHECK((*authorizer)->Authorize(User("x", {"system:masters"}), "get", "/metrics").decision ==
        AuthorizationDecision::kAllow);
}

TEST_CASE("a failed review is no opinion with an error, and not cached", "[serving]") {
  auto reviewer = std::make_shared<FakeAccessReviewer>();
  reviewer->fail = absl::UnavailableError("connection refused");
  auto authorizer = RequestAuthorizer::Create(reviewer);
  REQUIRE(authorizer.ok());
  AuthorizationResult result = (*authorizer)->Authorize(User("prom"), "get", "/metrics");
  CHECK(result.decision == AuthorizationDecision::kNoOpinion);
  CHECK(result.error.message() == "connection refused");
  reviewer->fail = absl::OkStatus();
  reviewer->results["prom get /metrics"] = Allowed();
  CHECK((*authorizer)->Authorize(User("prom"), "get", "/metrics").decision == AuthorizationDecision::kAllow);
  CHECK(reviewer->calls == 2);
}

TEST_CASE("review results are cached per spec for the allowed / denied TTLs", "[serving]") {
  auto reviewer = std::make_shared<FakeAccessReviewer>();
  reviewer->results["prom get /metrics"] = Allowed();
  FakeClock clock;
  RequestAuthorizerOptions options;
  options.allowed_ttl = std::chrono::seconds(10);
  options.denied_ttl = std::chrono::seconds(3);
  options.now = clock.fn();
  auto authorizer = RequestAuthorizer::Create(reviewer, options);
  REQUIRE(authorizer.ok());
  RequestAuthorizer& a = **authorizer;

  CHECK(a.Authorize(User("prom"), "get", "/metrics").decision == AuthorizationDecision::kAllow);
  CHECK(a.Authorize(User("prom"), "get", "/metrics").decision == AuthorizationDecision::kAllow);
  CHECK(reviewer->calls == 1);
  // another group set is another spec
  CHECK(a.Authorize(User("prom", {"other"}), "get", "/metrics").decision == AuthorizationDecision::kAllow);
  CHECK(reviewer->calls == 2);
  // a denial is cached for its own, shorter TTL: the RBAC change becomes visible after it
  CHECK(a.Authorize(User("eve"), "get", "/metrics").decision == AuthorizationDecision::kNoOpinion);
  reviewer->results["eve get /metrics"] = Allowed();
  clock.Advance(std::chrono::seconds(2));
  CHECK(a.Authorize(User("eve"), "get", "/metrics").decision == AuthorizationDecision::kNoOpinion);
  CHECK(reviewer->calls == 3);
  clock.Advance(std::chrono::seconds(2));
  CHECK(a.Authorize(User("eve"), "get", "/metrics").decision == AuthorizationDecision::kAllow);
  CHECK(reviewer->calls == 4);
  // the allowed entry of prom (10s) has expired after 4s + 7s
  clock.Advance(std::chrono::seconds(7));
  reviewer->results.erase("prom get /metrics");
  CHECK(a.Authorize(User("prom"), "get", "/metrics").decision == AuthorizationDecision::kNoOpinion);
}

}  // namespace
}  // namespace ksched::serving
