#include "serving/handler_chain.h"

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "fake_reviewers.h"

namespace ksched::serving {
namespace {

using testing::FakeAccessReviewer;
using testing::FakeTokenReviewer;

std::string Header(const ServingResponse& response, const std::string& name) {
  for (const auto& [n, v] : response.headers) {
    if (n == name) return v;
  }
  return "<none>";
}

// Observers that write what they see into `seen`, one line per call.
ChainObservers Recording(std::vector<std::string>& seen) {
  ChainObservers observers;
  observers.authentication = [&seen](const std::string* user, std::chrono::steady_clock::duration) {
    seen.push_back(user != nullptr ? "authn " + *user : "authn failed");
  };
  observers.authorization = [&seen](const AuthorizationResult& result, std::chrono::steady_clock::duration) {
    seen.push_back(result.decision == AuthorizationDecision::kAllow ? "authz allow" : "authz not allowed");
  };
  return observers;
}

struct Fixture {
  std::shared_ptr<FakeTokenReviewer> tokens = std::make_shared<FakeTokenReviewer>();
  std::shared_ptr<FakeAccessReviewer> access = std::make_shared<FakeAccessReviewer>();
  RequestAuthenticator authenticator{tokens};
  std::unique_ptr<RequestAuthorizer> authorizer = *RequestAuthorizer::Create(access);
  Router router;
  HandlerChain chain{authenticator, *authorizer, router};

  Fixture() {
    TokenReviewResult prom;
    prom.authenticated = true;
    prom.user.name = "system:serviceaccount:monitoring:prometheus";
    tokens->results["prom-token"] = prom;
    access->results["system:serviceaccount:monitoring:prometheus get /metrics"] =
        AccessReviewResult{true, false, "", ""};
    router.Handle("/metrics", [](const ServingRequest&) {
      ServingResponse response;
      response.content_type = "text/plain; version=0.0.4; charset=utf-8";
      response.body = "scheduler_pending_pods{queue=\"active\"} 0\n";
      return response;
    });
    router.Handle("/custom-cache", [](const ServingRequest&) {
      ServingResponse response;
      response.headers.emplace_back("Cache-Control", "max-age=5");
      return response;
    });
  }

  ServingResponse Send(std::string method, std::string target, std::string authorization = "",
                       std::string user_agent = "kube-probe/1.34") {
    ServingRequest request;
    request.user_agent = std::move(user_agent);
    request.method = std::move(method);
    request.target = target;
    const std::size_t q = target.find('?');
    request.path = target.substr(0, q);
    if (q != std::string::npos) request.query = target.substr(q + 1);
    request.authorization = std::move(authorization);
    return chain.Handle(request);
  }
};

TEST_CASE("the handler chain answers as kube-scheduler's", "[serving]") {
  Fixture f;
  const std::string unauthorized =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"Unauthorized\","
      "\"reason\":\"Unauthorized\",\"code\":401}\n";
  const std::string forbidden_anonymous =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"forbidden: "
      "User \\\"system:anonymous\\\" cannot get path \\\"/metrics\\\"\",\"reason\":\"Forbidden\",\"details\":{},"
      "\"code\":403}\n";
  struct Case {
    std::string name;
    std::string method;
    std::string target;
    std::string authorization;
    int status;
    std::string content_type;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"anonymous /healthz", "GET", "/healthz", "", 200, "text/plain; charset=utf-8", "ok"},
      {"anonymous /readyz?verbose", "GET", "/readyz?verbose", "", 200, "text/plain; charset=utf-8",
       "[+]ping ok\nreadyz check passed\n"},
      {"anonymous /metrics", "GET", "/metrics", "", 403, "application/json", forbidden_anonymous},
      {"anonymous unknown path is 403, not 404", "GET", "/nope", "", 403, "application/json",
       "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"forbidden: "
       "User \\\"system:anonymous\\\" cannot get path \\\"/nope\\\"\",\"reason\":\"Forbidden\",\"details\":{},"
       "\"code\":403}\n"},
      {"garbage token on /metrics", "GET", "/metrics", "Bearer garbage", 401, "application/json", unauthorized},
      {"garbage token on /healthz is refused too (authentication runs first)", "GET", "/healthz",
       "Bearer garbage", 401, "application/json", unauthorized},
      {"authorized token", "GET", "/metrics", "Bearer prom-token", 200,
       "text/plain; version=0.0.4; charset=utf-8", "scheduler_pending_pods{queue=\"active\"} 0\n"},
      {"authorized token, verb is the lowercased method", "DELETE", "/metrics", "Bearer prom-token", 403,
       "application/json",
       "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"forbidden: "
       "User \\\"system:serviceaccount:monitoring:prometheus\\\" cannot delete path \\\"/metrics\\\"\","
       "\"reason\":\"Forbidden\",\"details\":{},\"code\":403}\n"},
      {"authorization is per exact path", "GET", "/metrics/", "Bearer prom-token", 403,
       "application/json",
       "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"forbidden: "
       "User \\\"system:serviceaccount:monitoring:prometheus\\\" cannot get path \\\"/metrics/\\\"\","
       "\"reason\":\"Forbidden\",\"details\":{},\"code\":403}\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const ServingResponse response = f.Send(c.method, c.target, c.authorization);
    CHECK(response.status == c.status);
    CHECK(response.content_type == c.content_type);
    CHECK(response.body == c.body);
    CHECK(Header(response, "Cache-Control") == "no-cache, private");
  }
}

TEST_CASE("handler chain: 404 for allowed users, reasons in 403, 500 on review failure, handler's Cache-Control",
          "[serving]") {
  Fixture f;
  f.access->results["system:serviceaccount:monitoring:prometheus get /nothing"] = AccessReviewResult{true, false, "", ""};
  f.access->results["system:serviceaccount:monitoring:prometheus get /configz"] =
      AccessReviewResult{false, false, "no RBAC policy matched", ""};
  ServingResponse not_found = f.Send("GET", "/nothing", "Bearer prom-token");
  CHECK(not_found.status == 404);
  CHECK(not_found.body == "404 page not found\n");

  ServingResponse with_reason = f.Send("GET", "/configz", "Bearer prom-token");
  CHECK(with_reason.status == 403);
  CHECK(with_reason.body.find("cannot get path \\\"/configz\\\": no RBAC policy matched\"") != std::string::npos);

  f.access->fail = absl::UnavailableError("connection refused");
  ServingResponse failed = f.Send("GET", "/metrics?x=<1>", "");
  CHECK(failed.status == 500);
  CHECK(failed.body == "Internal Server Error: \"/metrics?x=&lt;1&gt;\": connection refused\n");
  CHECK(failed.content_type == "text/plain; charset=utf-8");

  f.access->fail = absl::OkStatus();
  f.access->results["system:anonymous get /custom-cache"] = AccessReviewResult{true, false, "", ""};
  ServingResponse cached = f.Send("GET", "/custom-cache");
  CHECK(cached.status == 200);
  CHECK(Header(cached, "Cache-Control") == "max-age=5");
}

TEST_CASE("handler chain: observers see each request's user or failure and its authorization result",
          "[serving]") {
  Fixture f;
  std::vector<std::string> seen;  // Handle runs on this thread here
  const ChainObservers observers = Recording(seen);
  HandlerChain chain(f.authenticator, *f.authorizer, f.router, observers);
  auto send = [&chain](std::string path, std::string authorization) {
    ServingRequest request;
    request.method = "GET";
    request.target = path;
    request.path = std::move(path);
    request.authorization = std::move(authorization);
    return chain.Handle(request).status;
  };
  CHECK(send("/healthz", "") == 200);
  CHECK(send("/metrics", "Bearer garbage") == 401);  // refused before authorization
  CHECK(send("/metrics", "Bearer prom-token") == 200);
  CHECK(send("/configz", "") == 403);
  CHECK(seen == std::vector<std::string>{"authn system:anonymous", "authz allow", "authn failed",
                                         "authn system:serviceaccount:monitoring:prometheus", "authz allow",
                                         "authn system:anonymous", "authz not allowed"});
}

TEST_CASE("handler chain: the local lane decides without reviews and hands the rest on, authenticated once",
          "[serving]") {
  Fixture f;
  std::vector<std::string> seen;
  const ChainObservers observers = Recording(seen);
  HandlerChain chain(f.authenticator, *f.authorizer, f.router, observers);
  auto request = [](std::string path, std::string authorization) {
    ServingRequest r;
    r.method = "GET";
    r.target = path;
    r.path = std::move(path);
    r.authorization = std::move(authorization);
    return r;
  };

  // A probe: anonymous, an always-allowed path: answered locally, no review.
  auto probe = chain.TryHandleLocally(request("/healthz", ""));
  REQUIRE(std::holds_alternative<ServingResponse>(probe));
  CHECK(std::get<ServingResponse>(probe).status == 200);
  CHECK(seen == std::vector<std::string>{"authn system:anonymous", "authz allow"});
  seen.clear();

  // An unknown token: handed on before anything is asked or observed.
  auto unknown = chain.TryHandleLocally(request("/metrics", "Bearer prom-token"));
  REQUIRE(std::holds_alternative<HandlerChain::Pending>(unknown));
  CHECK_FALSE(std::get<HandlerChain::Pending>(unknown).user.has_value());
  CHECK(f.tokens->calls == 0);
  CHECK(seen.empty());
  CHECK(chain.Handle(request("/metrics", "Bearer prom-token"), std::get<HandlerChain::Pending>(unknown)).status == 200);
  CHECK(f.tokens->calls == 1);
  CHECK(f.access->calls == 1);

  // Both verdicts cached now: the same request is answered locally.
  auto cached = chain.TryHandleLocally(request("/metrics", "Bearer prom-token"));
  REQUIRE(std::holds_alternative<ServingResponse>(cached));
  CHECK(std::get<ServingResponse>(cached).status == 200);
  CHECK(f.tokens->calls == 1);
  CHECK(f.access->calls == 1);

  // A cached token on a path not yet reviewed: authenticated locally, handed on with its user,
  // and Handle does not authenticate (or observe) it again.
  seen.clear();
  auto half = chain.TryHandleLocally(request("/configz", "Bearer prom-token"));
  REQUIRE(std::holds_alternative<HandlerChain::Pending>(half));
  REQUIRE(std::get<HandlerChain::Pending>(half).user.has_value());
  CHECK(std::get<HandlerChain::Pending>(half).user->name == "system:serviceaccount:monitoring:prometheus");
  CHECK(chain.Handle(request("/configz", "Bearer prom-token"), std::get<HandlerChain::Pending>(half)).status == 403);
  CHECK(seen == std::vector<std::string>{"authn system:serviceaccount:monitoring:prometheus", "authz not allowed"});
  CHECK(f.access->calls == 2);

  // A token known to be invalid (cached) is refused locally with 401.
  CHECK(chain.Handle(request("/metrics", "Bearer garbage")).status == 401);
  auto refused = chain.TryHandleLocally(request("/metrics", "Bearer garbage"));
  REQUIRE(std::holds_alternative<ServingResponse>(refused));
  CHECK(std::get<ServingResponse>(refused).status == 401);
}

TEST_CASE("error bodies are indented for curl and ?pretty, byte for byte as upstream", "[serving]") {
  Fixture f;
  // Captured from the upstream kube-scheduler v1.34.4 with curl (Content-Length 224 and 157).
  const std::string forbidden =
      "{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n  \"status\": \"Failure\",\n"
      "  \"message\": \"forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/metrics\\\"\",\n"
      "  \"reason\": \"Forbidden\",\n  \"details\": {},\n  \"code\": 403\n}";
  const std::string unauthorized =
      "{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n  \"status\": \"Failure\",\n"
      "  \"message\": \"Unauthorized\",\n  \"reason\": \"Unauthorized\",\n  \"code\": 401\n}";
  CHECK(forbidden.size() == 224);
  CHECK(unauthorized.size() == 157);
  ServingResponse by_agent = f.Send("GET", "/metrics", "", "curl/7.88.1");
  CHECK(by_agent.body == forbidden);
  CHECK(Header(by_agent, "X-Content-Type-Options") == "nosniff");
  CHECK(f.Send("GET", "/metrics?pretty=true").body == forbidden);
  CHECK(f.Send("GET", "/metrics?pretty=1").body == forbidden);
  CHECK(f.Send("GET", "/metrics?pretty=false", "", "Wget/1.21").body.front() == '{');
  CHECK(f.Send("GET", "/metrics?pretty=false", "", "Wget/1.21").body[1] == '"');
  ServingResponse denied = f.Send("GET", "/metrics", "Bearer nope", "Mozilla/5.0 (X11)");
  CHECK(denied.body == unauthorized);
  CHECK(Header(denied, "X-Content-Type-Options") == "<none>");  // upstream sends none with 401
}

TEST_CASE("StatusJson escapes as Go's encoder", "[serving]") {
  CHECK(StatusJson("a<b>&\"c\"\n", "Forbidden", 403, true) ==
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
        "\"a\\u003cb\\u003e\\u0026\\\"c\\\"\\n\",\"reason\":\"Forbidden\",\"details\":{},\"code\":403}\n");
}

}  // namespace
}  // namespace ksched::serving
