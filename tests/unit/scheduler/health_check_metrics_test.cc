// /metrics/slis: the health checks' results as component-base's slis registry writes them.
#include "scheduler/metrics/health_check_metrics.h"

#include <catch2/catch.hpp>

namespace ksched::scheduler::metrics {
namespace {

TEST_CASE("HealthCheckMetrics writes upstream's slis families", "[metrics]") {
  SECTION("before any check ran: the process start time alone") {
    HealthCheckMetrics slis(1700000000.5);
    CHECK(slis.SerializeText() ==
          "# HELP process_start_time_seconds [ALPHA] Start time of the process since unix epoch in seconds.\n"
          "# TYPE process_start_time_seconds gauge\n"
          "process_start_time_seconds 1.7000000005e+09\n");
  }
  SECTION("the last result per check, and the runs by status") {
    HealthCheckMetrics slis(std::nullopt);
    slis.Observe("ping", "healthz", true);
    slis.Observe("shutdown", "readyz", true);
    slis.Observe("sched-handler-sync", "readyz", false);
    slis.Observe("sched-handler-sync", "readyz", true);
    slis.Observe("ping", "healthz", true);
    CHECK(slis.SerializeText() ==
          "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single healthcheck.\n"
          "# TYPE kubernetes_healthcheck gauge\n"
          "kubernetes_healthcheck{name=\"ping\",type=\"healthz\"} 1\n"
          "kubernetes_healthcheck{name=\"sched-handler-sync\",type=\"readyz\"} 1\n"
          "kubernetes_healthcheck{name=\"shutdown\",type=\"readyz\"} 1\n"
          "# HELP kubernetes_healthchecks_total [STABLE] This metric records the results of all healthcheck.\n"
          "# TYPE kubernetes_healthchecks_total counter\n"
          "kubernetes_healthchecks_total{name=\"ping\",status=\"success\",type=\"healthz\"} 2\n"
          "kubernetes_healthchecks_total{name=\"sched-handler-sync\",status=\"error\",type=\"readyz\"} 1\n"
          "kubernetes_healthchecks_total{name=\"sched-handler-sync\",status=\"success\",type=\"readyz\"} 1\n"
          "kubernetes_healthchecks_total{name=\"shutdown\",status=\"success\",type=\"readyz\"} 1\n");
    slis.Observe("shutdown", "readyz", false);
    CHECK(slis.SerializeText().find("kubernetes_healthcheck{name=\"shutdown\",type=\"readyz\"} 0\n") != std::string::npos);
  }
  SECTION("Reset deletes every series, the process start time for good") {
    HealthCheckMetrics slis(1700000000.5);
    slis.Observe("ping", "healthz", true);
    slis.Reset();
    CHECK(slis.SerializeText().empty());
    slis.Observe("shutdown", "readyz", true);
    CHECK(slis.SerializeText() ==
          "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single healthcheck.\n"
          "# TYPE kubernetes_healthcheck gauge\n"
          "kubernetes_healthcheck{name=\"shutdown\",type=\"readyz\"} 1\n"
          "# HELP kubernetes_healthchecks_total [STABLE] This metric records the results of all healthcheck.\n"
          "# TYPE kubernetes_healthchecks_total counter\n"
          "kubernetes_healthchecks_total{name=\"shutdown\",status=\"success\",type=\"readyz\"} 1\n");
  }
}

}  // namespace
}  // namespace ksched::scheduler::metrics
