// The daemon's HTTPS endpoints (port 10259) as kube-scheduler v1.37.2 serves them
// (cmd/kube-scheduler/app/server.go newHealthEndpointsAndMetricsHandler and Run):
//   /healthz   checks: leaderElection (with leader election), else ping
//   /livez     ping
//   /readyz    checks: leaderElection (with leader election), shutdown, sched-handler-sync
//   /metrics   the Prometheus text exposition of `metrics` (nullptr: an empty page), which also
//              sees the TokenReview and SubjectAccessReview requests (rest_client_* and
//              apiserver_delegated_authn/authz_request_* metrics)
//   /configz   {"componentconfig": ...} of the configuration in use
//   /metrics/slis  the health checks' results (metrics/health_check_metrics.h)
//   /metrics/resources  while leading, kube_pod_resource_request / _limit of the informer's pods
//              (metrics/pod_resource_metrics.h); an empty 200 otherwise
//   /debug/flags/v, /debug/flags  with enableProfiling (the default): the log verbosity set by PUT
//              (debug_flags.h)
//   /flagz     with ComponentFlagz (on by default): the flags' values (flagz_values.h), as text or
//              as config.k8s.io Flagz (serving/zpages.h)
//   /statusz   with ComponentStatusz (on by default): start time, uptime, versions and the paths
//              served, as text or as config.k8s.io Statusz
// behind delegated authentication (TokenReview through --authentication-kubeconfig) and
// authorization (SubjectAccessReview through --authorization-kubeconfig), --authorization-always-
// allow-paths skipping authorization. Without a kubeconfig flag the in-cluster configuration is
// used, and without that none (as upstream: every request is then anonymous, and only the
// always-allow paths are served).
//
// Errors: a kubeconfig flag naming a bad file ("failed to get delegated authentication kubeconfig:
// ..."); certificate and listener errors come from SecureServer::Start.
//
// Thread-safety: SchedulerServerState is read by the server's threads and written by the owner.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "api/pod.h"
#include "client/leader_health_check.h"
#include "client/request_observer.h"
#include "config/kube_scheduler_configuration.h"
#include "scheduler/client_ca_reloader.h"
#include "scheduler/command_flags.h"
#include "scheduler/feature_gates.h"
#include "scheduler/metrics/health_check_metrics.h"
#include "scheduler/metrics/metrics.h"
#include "serving/secure_server.h"

namespace ksched::scheduler {

struct SchedulerServerState {
  std::atomic<bool> handlers_synced{false};  // sched-handler-sync
  std::atomic<bool> shutting_down{false};    // shutdown
  client::LeaderHealthCheck leader_check;    // leaderElection (registered with leader election only)
  // /metrics/slis, fed by the health endpoints (made by NewSchedulerServer).
  std::shared_ptr<metrics::HealthCheckMetrics> health_check_metrics;
  // /metrics/resources answers with an empty body until this is set (upstream isLeader: once
  // leadership starts, or once the informers synced without leader election; never cleared).
  std::atomic<bool> leading{false};
  // /metrics/resources: the pod informer's pods (SchedulerApp::InformerPods). Set before the server
  // starts and not changed after; empty: no series.
  std::function<std::vector<std::shared_ptr<const api::Pod>>()> informer_pods;
  // Re-reads the client CA bundle every minute (set by the server's Start when client certificates
  // are authenticated); destroyed with the state.
  std::unique_ptr<ClientCaReloader> client_ca_reloader;
};

absl::StatusOr<std::unique_ptr<serving::SecureServer>> NewSchedulerServer(
    const CommandFlags& flags, const config::KubeSchedulerConfiguration& cfg,
    const FeatureGates& gates, metrics::Metrics* metrics, SchedulerServerState& state);

}  // namespace ksched::scheduler
