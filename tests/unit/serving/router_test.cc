#include "serving/router.h"

#include <catch2/catch.hpp>

namespace ksched::serving {
namespace {

ServingRequest Get(std::string path, std::string query = "") {
  ServingRequest request;
  request.method = "GET";
  request.path = std::move(path);
  request.query = std::move(query);
  request.target = request.path + (request.query.empty() ? "" : "?" + request.query);
  return request;
}

TEST_CASE("Router matches exact paths, health families and sub-paths, else 404", "[serving]") {
  Router router;
  router.Handle("/metrics", [](const ServingRequest& r) {
    ServingResponse response;
    response.body = "metrics for " + r.method;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    return response;
  });
  router.readyz().AddCheck("shutdown", [] { return absl::UnavailableError("process is shutting down"); });

  struct Case {
    std::string path;
    std::string query;
    int status;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"/metrics", "", 200, "metrics for GET"},
      {"/metrics/", "", 404, "404 page not found\n"},
      {"/metric", "", 404, "404 page not found\n"},
      {"/", "", 404, "404 page not found\n"},
      {"/healthz", "", 200, "ok"},
      {"/healthz/ping", "", 200, "ok"},
      {"/healthz/", "", 404, "404 page not found\n"},
      {"/healthz/nope", "", 404, "404 page not found\n"},
      {"/livez", "verbose", 200, "[+]ping ok\nlivez check passed\n"},
      {"/readyz", "", 500, "[-]shutdown failed: reason withheld\nreadyz check failed\n"},
      {"/readyz/shutdown", "", 500, "internal server error: process is shutting down\n"},
      {"/readyz/shutdown/x", "", 404, "404 page not found\n"},
      {"/readyzz", "", 404, "404 page not found\n"},
  };
  for (const Case& c : cases) {
    INFO(c.path << "?" << c.query);
    const ServingResponse response = router.Serve(Get(c.path, c.query));
    CHECK(response.status == c.status);
    CHECK(response.body == c.body);
  }
}

TEST_CASE("Router: prefix handlers serve what no exact handler takes, the longest prefix first", "[serving]") {
  Router router;
  auto answer = [](std::string body) {
    return [body](const ServingRequest&) {
      ServingResponse response;
      response.body = body;
      return response;
    };
  };
  router.Handle("/debug/flags", answer("index"));
  router.Handle("/debug/flags/v", answer("v"));
  router.HandlePrefix("/debug/flags/", answer("index/"));
  router.HandlePrefix("/debug/flags/deep/", answer("deep/"));
  router.HandlePrefix("/debug/z/", answer("z/"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/debug/flags", "index"},       {"/debug/flags/v", "v"},           {"/debug/flags/", "index/"},
      {"/debug/flags/x", "index/"},    {"/debug/flags/v/x", "index/"},    {"/debug/flags/deep/a", "deep/"},
      {"/debug/flags/deep", "index/"}, {"/debug/flags/e", "index/"},      {"/debug/z/q", "z/"},
      {"/debug/fla", "404 page not found\n"}, {"/debug/", "404 page not found\n"}, {"/healthz", "ok"},
  };
  for (const auto& [path, body] : cases) {
    INFO(path);
    CHECK(router.Serve(Get(path)).body == body);
  }
}

TEST_CASE("a handler added after the first request serves the next one", "[serving]") {
  Router router;
  CHECK(router.Serve(Get("/configz")).status == 404);
  router.Handle("/configz", [](const ServingRequest&) {
    ServingResponse response;
    response.content_type = "application/json";
    response.body = "{}";
    return response;
  });
  CHECK(router.Serve(Get("/configz")).body == "{}");
}

}  // namespace
}  // namespace ksched::serving

namespace ksched::serving {
namespace {

TEST_CASE("Router::ListedPaths names what Go's PathRecorderMux lists, not the unlisted", "[serving]") {
  Router router;
  const Handler ok = [](const ServingRequest&) { return ServingResponse{}; };
  router.readyz().AddCheck("shutdown", [] { return absl::OkStatus(); });
  router.Handle("/metrics", ok);
  router.Handle("/debug/flags", ok, false);
  router.HandlePrefix("/debug/flags/", ok, false);
  router.HandlePrefix("/listed/", ok);
  CHECK(router.ListedPaths() ==
        std::vector<std::string>{"/healthz", "/healthz/ping", "/listed/", "/livez", "/livez/ping", "/metrics", "/readyz",
                                 "/readyz/shutdown"});
  // Unlisted paths are served all the same.
  ServingRequest request;
  request.method = "GET";
  request.path = "/debug/flags";
  CHECK(router.Serve(request).status == 200);
}

}  // namespace
}  // namespace ksched::serving
