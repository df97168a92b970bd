#include <catch2/catch.hpp>

#include "serving/subject_access_reviewer.h"
#include "serving/token_reviewer.h"
#include "serving/webhook_backoff.h"
#include "client/api_error.h"

namespace ksched::serving {
namespace {

TEST_CASE("TokenReview request and response", "[serving]") {
  CHECK(TokenReviewRequestJson("a\"b") ==
        R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"a\"b"}})");
  absl::StatusOr<TokenReviewResult> ok = ParseTokenReviewResponse(R"({
    "kind":"TokenReview","apiVersion":"authentication.k8s.io/v1","spec":{"token":"x"},
    "status":{"authenticated":true,"user":{"username":"system:serviceaccount:default:prom",
      "uid":"u1","groups":["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"],
      "extra":{"authentication.kubernetes.io/pod-name":["p"]}},"audiences":["https://kubernetes.default.svc"]}})");
  REQUIRE(ok.ok());
  CHECK(ok->authenticated);
  CHECK(ok->user.name == "system:serviceaccount:default:prom");
  CHECK(ok->user.uid == "u1");
  CHECK(ok->user.groups.size() == 3);
  CHECK(ok->user.extra.at("authentication.kubernetes.io/pod-name") == std::vector<std::string>{"p"});

  absl::StatusOr<TokenReviewResult> refused = ParseTokenReviewResponse(
      R"({"status":{"user":{},"error":"[invalid bearer token, token lookup failed]"}})");
  REQUIRE(refused.ok());
  CHECK_FALSE(refused->authenticated);
  CHECK(refused->error == "[invalid bearer token, token lookup failed]");
  CHECK_FALSE(ParseTokenReviewResponse("not json").ok());
}

TEST_CASE("SubjectAccessReview spec and response", "[serving]") {
  UserInfo user{"prom", "u1", {"g1", "system:authenticated"}, {{"k", {"v1", "v2"}}}};
  CHECK(SubjectAccessReviewSpecJson(user, "get", "/metrics") ==
        R"({"nonResourceAttributes":{"path":"/metrics","verb":"get"},"user":"prom",)"
        R"("groups":["g1","system:authenticated"],"extra":{"k":["v1","v2"]},"uid":"u1"})");
  CHECK(SubjectAccessReviewSpecJson(UserInfo::Anonymous(), "get", "/x") ==
        R"({"nonResourceAttributes":{"path":"/x","verb":"get"},"user":"system:anonymous",)"
        R"("groups":["system:unauthenticated"]})");
  absl::StatusOr<AccessReviewResult> allowed = ParseSubjectAccessReviewResponse(
      R"({"status":{"allowed":true,"reason":"RBAC: allowed by ClusterRoleBinding \"b\" of ClusterRole \"r\""}})");
  REQUIRE(allowed.ok());
  CHECK(allowed->allowed);
  CHECK_FALSE(allowed->denied);
  CHECK(allowed->reason == "RBAC: allowed by ClusterRoleBinding \"b\" of ClusterRole \"r\"");
  absl::StatusOr<AccessReviewResult> none = ParseSubjectAccessReviewResponse(R"({"status":{"allowed":false}})");
  REQUIRE(none.ok());
  CHECK_FALSE(none->allowed);
}

TEST_CASE("CallWithBackoff retries transient failures only", "[serving]") {
  WebhookBackoff backoff;
  backoff.initial = std::chrono::milliseconds(1);
  backoff.steps = 4;
  int calls = 0;
  absl::Status status = CallWithBackoff(backoff, [&] {
    return ++calls < 3 ? absl::UnavailableError("reset") : absl::OkStatus();
  });
  CHECK(status.ok());
  CHECK(calls == 3);

  calls = 0;
  status = CallWithBackoff(backoff, [&] {
    ++calls;
    return absl::UnavailableError("down");
  });
  CHECK(status.code() == absl::StatusCode::kUnavailable);
  CHECK(calls == 4);

  calls = 0;
  client::HttpResponse forbidden{403, R"({"kind":"Status","reason":"Forbidden","message":"no"})", "application/json", {}};
  status = CallWithBackoff(backoff, [&] {
    ++calls;
    return client::StatusFromResponse(forbidden, "POST x");
  });
  CHECK(status.code() == absl::StatusCode::kPermissionDenied);
  CHECK(calls == 1);

  calls = 0;
  client::HttpResponse internal{500, "oops", "text/plain", {}};
  status = CallWithBackoff(backoff, [&] {
    ++calls;
    return client::StatusFromResponse(internal, "POST x");
  });
  CHECK(calls == 4);
}

}  // namespace
}  // namespace ksched::serving
