#include "serving/health_checks.h"

#include <atomic>

#include <catch2/catch.hpp>

namespace ksched::serving {
namespace {

bool HasHeader(const ServingResponse& response, const std::string& name, const std::string& value) {
  for (const auto& [n, v] : response.headers) {
    if (n == name && v == value) return true;
  }
  return false;
}

TEST_CASE("a family without checks serves ping", "[serving]") {
  HealthChecks livez("livez");
  CHECK(livez.CheckNames() == std::vector<std::string>{"ping"});
  ServingResponse plain = livez.ServeRoot("");
  CHECK(plain.status == 200);
  CHECK(plain.body == "ok");
  CHECK(plain.content_type == "text/plain; charset=utf-8");
  CHECK(HasHeader(plain, "X-Content-Type-Options", "nosniff"));
  CHECK(livez.ServeRoot("verbose").body == "[+]ping ok\nlivez check passed\n");
  REQUIRE(livez.ServeCheck("ping").has_value());
  CHECK(livez.ServeCheck("ping")->body == "ok");
  CHECK_FALSE(livez.ServeCheck("log").has_value());
}

TEST_CASE("readyz output as upstream: verbose, exclude, failures", "[serving]") {
  HealthChecks readyz("readyz");
  std::atomic<bool> synced{false};
  readyz.AddCheck("leaderElection", [] { return absl::OkStatus(); });
  readyz.AddCheck("shutdown", [] { return absl::OkStatus(); });
  readyz.AddCheck("sched-handler-sync", [&] {
    return synced ? absl::OkStatus() : absl::InternalError("handlers are not fully synchronized");
  });
  CHECK(readyz.CheckNames() == std::vector<std::string>{"leaderElection", "shutdown", "sched-handler-sync"});

  struct Case {
    std::string name;
    bool synced;
    std::string query;
    int status;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"failing, not verbose: verbose anyway, reason withheld", false, "", 500,
       "[+]leaderElection ok\n[+]shutdown ok\n[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n"},
      {"failing check excluded", false, "exclude=sched-handler-sync", 200, "ok"},
      {"failing check excluded, verbose", false, "verbose&exclude=sched-handler-sync", 200,
       "[+]leaderElection ok\n[+]shutdown ok\n[+]sched-handler-sync excluded: ok\nreadyz check passed\n"},
      {"passing, plain", true, "", 200, "ok"},
      {"passing, verbose", true, "verbose", 200,
       "[+]leaderElection ok\n[+]shutdown ok\n[+]sched-handler-sync ok\nreadyz check passed\n"},
      {"unknown excludes listed sorted and quoted", true, "verbose&exclude=zeta&exclude=alpha&exclude=shutdown", 200,
       "[+]leaderElection ok\n[+]shutdown excluded: ok\n[+]sched-handler-sync ok\n"
       "warn: some health checks cannot be excluded: no matches for \"alpha\",\"zeta\"\nreadyz check passed\n"},
      {"unknown exclude without verbose is silent", true, "exclude=nope", 200, "ok"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    synced = c.synced;
    const ServingResponse response = readyz.ServeRoot(c.query);
    CHECK(response.status == c.status);
    CHECK(response.body == c.body);
    CHECK(response.content_type == "text/plain; charset=utf-8");
  }
}

TEST_CASE("/<family>/<check> shows the reason", "[serving]") {
  HealthChecks healthz("healthz");
  healthz.AddCheck("leaderElection", [] { return absl::InternalError("failed election to renew leadership on lease kube-scheduler"); });
  std::optional<ServingResponse> failing = healthz.ServeCheck("leaderElection");
  REQUIRE(failing.has_value());
  CHECK(failing->status == 500);
  CHECK(failing->body == "internal server error: failed election to renew leadership on lease kube-scheduler\n");
  // ping is only there while no check is registered
  CHECK_FALSE(healthz.ServeCheck("ping").has_value());
}

TEST_CASE("the observer hears every check a root request ran, not excluded ones or single checks", "[serving]") {
  HealthChecks readyz("readyz");
  bool synced = false;
  readyz.AddCheck("shutdown", [] { return absl::OkStatus(); });
  readyz.AddCheck("sched-handler-sync", [&] { return synced ? absl::OkStatus() : absl::InternalError("not yet"); });
  std::vector<std::string> heard;
  readyz.ServeRoot("");  // no observer yet
  readyz.SetObserver([&](std::string_view check, std::string_view family, bool passed) {
    heard.push_back(std::string(family) + "/" + std::string(check) + (passed ? " ok" : " failed"));
  });
  readyz.ServeRoot("verbose");
  synced = true;
  readyz.ServeRoot("exclude=shutdown");
  readyz.ServeCheck("shutdown");
  CHECK(heard == std::vector<std::string>{"readyz/shutdown ok", "readyz/sched-handler-sync failed",
                                          "readyz/sched-handler-sync ok"});
}

}  // namespace
}  // namespace ksched::serving
