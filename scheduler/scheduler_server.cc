#include "scheduler/scheduler_server.h"

#include <spdlog/spdlog.h>

#include "api/build_info.h"
#include "client/build_config.h"
#include "client/in_cluster_config.h"
#include "client/new_rest_client.h"
#include "config/write.h"
#include "scheduler/client_ca_lookup.h"
#include "scheduler/client_ca_reloader.h"
#include "scheduler/debug_flags.h"
#include "scheduler/feature_gates.h"
#include "scheduler/flagz_values.h"
#include "scheduler/logging.h"
#include "scheduler/memory_limit.h"
#include "scheduler/metrics/pod_resource_metrics.h"
#include "scheduler/metrics/process_metrics.h"
#include "serving/zpages.h"

namespace ksched::scheduler {
namespace {

// What component-base's HandlerWithReset answers a DELETE (Go sniffs it as text/plain).
constexpr char kMetricsResetBody[] = "metrics reset\n";

// upstream getClient() for the delegated authenticator/authorizer: the kubeconfig flag, else
// in-cluster, else none; QPS 200, burst 400, 10 s timeout.
absl::StatusOr<std::shared_ptr<client::RestClient>> DelegatedClient(
    const std::string& kubeconfig, std::string_view purpose, metrics::Metrics* metrics) {
  absl::StatusOr<client::RestConfig> rest;
  if (!kubeconfig.empty()) {
    rest = client::BuildConfigFromFlags("", kubeconfig);
    if (!rest.ok()) {
      const std::string prefix = "failed to get delegated " + std::string(purpose) + " kubeconfig: ";
      // The apiserver library's authentication options wrap getClient's error in the same words
      // again (authorization's do not): upstream's message says it twice.
      const std::string twice = purpose == "authentication" ? prefix + prefix : prefix;
      return absl::InvalidArgumentError(twice + std::string(rest.status().message()));
    }
  } else {
    rest = client::InClusterConfig();
    if (!rest.ok()) return std::shared_ptr<client::RestClient>();
  }
  rest->qps = 200;
  rest->burst = 400;
  rest->timeout = std::chrono::seconds(10);
  client::RestClientOptions options;
  if (metrics != nullptr) {
    options.observer = metrics->rest_client_observer();
    options.exec_observer = metrics->exec_plugin_observer();
  }
  absl::StatusOr<std::shared_ptr<client::RestClient>> made = client::NewRestClient(*rest, options);
  if (!made.ok()) {
    return absl::InvalidArgumentError("failed to create delegated " + std::string(purpose) +
                                      " client: " + std::string(made.status().message()));
  }
  return made;
}

// The secure server's client certificate authenticator (LookupClientCa), reloaded every minute by
// state.client_ca_reloader; null when client certificates are not to be authenticated. Called by
// SecureServer::Start once its serving certificate has loaded.
absl::StatusOr<std::shared_ptr<const serving::ClientCertificateAuthenticator>> LoadClientCertificates(
    const ClientCaLookupFlags& ca_flags, const std::shared_ptr<client::RestClient>& client, metrics::Metrics* metrics,
    SchedulerServerState& state) {
  absl::StatusOr<std::optional<ClientCa>> client_ca = LookupClientCa(ca_flags, client.get());
  if (!client_ca.ok()) return client_ca.status();
  if (!client_ca->has_value()) return std::shared_ptr<const serving::ClientCertificateAuthenticator>();
  serving::ClientCertificateAuthenticator::ExpirationObserver expiration;
  if (metrics != nullptr) {
    expiration = [metrics](double remaining_seconds) { metrics->ObserveClientCertificateExpiration(remaining_seconds); };
  }
  absl::StatusOr<std::unique_ptr<serving::ClientCertificateAuthenticator>> certificates =
      serving::ClientCertificateAuthenticator::Create((*client_ca)->pem, (*client_ca)->source, std::move(expiration));
  if (certificates.ok()) {
    SPDLOG_INFO("client certificates are verified against {}", (*client_ca)->source);
    std::shared_ptr<serving::ClientCertificateAuthenticator> shared = *std::move(certificates);
    state.client_ca_reloader = std::make_unique<ClientCaReloader>(
        shared, [ca = **client_ca, client] { return ReadClientCaAgain(ca, client.get()); });
    return std::shared_ptr<const serving::ClientCertificateAuthenticator>(std::move(shared));
  }
  if ((*client_ca)->from_file) {
    return absl::InvalidArgumentError("unable to load client CA provider: " + std::string(certificates.status().message()));
  }
  // Upstream's configmap controller logs the bad bundle and verifies nothing meanwhile.
  SPDLOG_ERROR("{}; client certificates are not authenticated", std::string(certificates.status().message()));
  return std::shared_ptr<const serving::ClientCertificateAuthenticator>();
}

constexpr std::string_view kComponentName = "kube-scheduler";

// compatibility.DefaultBuildEffectiveVersion as /statusz shows it: binary "1.37.2", emulation
// "1.37"; the process start in whole seconds; no Go version (this is not a Go binary, as
// kubernetes_build_info's go_version).
serving::StatuszInfo StatuszInfoNow(const serving::SecureServer& server) {
  serving::StatuszInfo info;
  const std::string release(api::GetBuildInfo().kubernetes_version);  // "1.37.2"
  info.binary_version = release;
  info.emulation_version = release.substr(0, release.rfind('.'));
  info.start_time_seconds = static_cast<std::int64_t>(metrics::ProcessMetrics().StartTimeSeconds().value_or(0));
  info.listed_paths = server.ListedPaths();
  return info;
}

}  // namespace

absl::StatusOr<std::unique_ptr<serving::SecureServer>> NewSchedulerServer(
    const CommandFlags& flags, const config::KubeSchedulerConfiguration& cfg,
    const FeatureGates& gates, metrics::Metrics* metrics, SchedulerServerState& state) {
  serving::SecureServingOptions serving_options;
  serving_options.bind_address = flags.serving.bind_address;
  serving_options.port = flags.serving.secure_port;
  serving_options.tls_cert_file = flags.serving.tls_cert_file;
  serving_options.tls_private_key_file = flags.serving.tls_private_key_file;
  serving_options.cert_dir = flags.serving.cert_dir;
  serving_options.curve_preferences = flags.serving.tls_curve_preferences;
  // A container memory limit caps the secure port's open connections (a flood of them is the one
  // thing outside clients can grow without bound): see scheduler/memory_limit.h.
  const std::optional<std::uint64_t> memory_limit = CgroupMemoryLimitBytes();
  serving_options.max_connections = MaxConnectionsForMemoryLimit(memory_limit);
  if (memory_limit) {
    SPDLOG_INFO("memory limit {} MiB (cgroup): at most {} connections open on the secure port", *memory_limit >> 20,
                serving_options.max_connections);
  }

  serving::DelegatingAuthOptions auth;
  absl::StatusOr<std::shared_ptr<client::RestClient>> authn =
      DelegatedClient(flags.authentication.kubeconfig, "authentication", metrics);
  if (!authn.ok()) return authn.status();
  absl::StatusOr<std::shared_ptr<client::RestClient>> authz =
      DelegatedClient(flags.authorization.kubeconfig, "authorization", metrics);
  if (!authz.ok()) return authz.status();
  auth.authentication_client = *authn;
  auth.authorization_client = *authz;
  ClientCaLookupFlags ca_flags;
  ca_flags.client_ca_file = flags.authentication.client_ca_file;
  ca_flags.skip_lookup = flags.authentication.skip_lookup;
  ca_flags.tolerate_lookup_failure = flags.authentication.tolerate_lookup_failure;
  auth.client_certificates_source = [ca_flags, client = auth.authentication_client, metrics, &state] {
    return LoadClientCertificates(ca_flags, client, metrics, state);
  };
  auth.always_allow_paths = flags.authorization.always_allow_paths;
  auth.token_cache_ttl = flags.authentication.token_webhook_cache_ttl;
  auth.authorized_cache_ttl = flags.authorization.cache_authorized_ttl;
  auth.unauthorized_cache_ttl = flags.authorization.cache_unauthorized_ttl;
  if (metrics != nullptr) {
    auth.token_review_observer = [metrics](int http_status, std::chrono::steady_clock::duration latency) {
      metrics->ObserveDelegatedAuthnRequest(http_status, latency);
    };
    auth.access_review_observer = [metrics](int http_status, std::chrono::steady_clock::duration latency) {
      metrics->ObserveDelegatedAuthzRequest(http_status, latency);
    };
    auth.token_cache_observer.request = [metrics](bool hit, std::chrono::steady_clock::duration elapsed) {
      metrics->ObserveTokenCacheRequest(hit, elapsed);
    };
    auth.token_cache_observer.active_fetches = [metrics](std::string_view status, int delta) {
      metrics->AddTokenCacheActiveFetches(status, delta);
    };
    auth.token_cache_observer.fetched = [metrics](bool ok) { metrics->ObserveTokenCacheFetch(ok); };
    auth.chain_observers.authentication = [metrics](const std::string* user, std::chrono::steady_clock::duration elapsed) {
      metrics->ObserveAuthentication(user, elapsed);
    };
    auth.chain_observers.authorization = [metrics](const serving::AuthorizationResult& result,
                                                   std::chrono::steady_clock::duration elapsed) {
      // The apiserver's recordAuthorizationMetrics: an allow first, then an error, then the decision.
      std::string_view label = "no-opinion";
      if (result.decision == serving::AuthorizationDecision::kAllow) {
        label = "allowed";
      } else if (!result.error.ok()) {
        label = "error";
      } else if (result.decision == serving::AuthorizationDecision::kDeny) {
        label = "denied";
      }
      metrics->ObserveAuthorization(label, elapsed);
    };
  }

  auto server = std::make_unique<serving::SecureServer>(std::move(serving_options), std::move(auth));
  if (cfg.leader_election.leader_elect) {
    auto leader = [&state] { return state.leader_check.Check(); };
    server->healthz().AddCheck(client::LeaderHealthCheck::Name(), leader);
    server->readyz().AddCheck(client::LeaderHealthCheck::Name(), leader);
  }
  server->readyz().AddCheck("shutdown", [&state] {
    return state.shutting_down.load() ? absl::UnavailableError("process is shutting down")
                                      : absl::OkStatus();
  });
  server->readyz().AddCheck("sched-handler-sync", [&state] {
    return state.handlers_synced.load() ? absl::OkStatus()
                                        : absl::UnavailableError("waiting for handlers to sync");
  });
  server->AddHandler("/metrics", [metrics](const serving::ServingRequest& request) {
    serving::ServingResponse response;
    if (request.method == "DELETE") {  // component-base HandlerWithReset
      if (metrics != nullptr) metrics->Reset();
      response.body = kMetricsResetBody;
      return response;
    }
    response.content_type = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores";
    response.body = metrics != nullptr ? metrics->SerializeText() : std::string();
    return response;
  });
  server->AddHandler("/metrics/resources", [&state](const serving::ServingRequest&) {
    serving::ServingResponse response;
    // Not leading: upstream's handler returns without writing (no Content-Type, empty body).
    response.content_type.clear();
    if (!state.leading.load()) return response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores";
    if (state.informer_pods) response.body = metrics::PodResourceMetricsText(state.informer_pods());
    return response;
  });
  state.health_check_metrics =
      std::make_shared<metrics::HealthCheckMetrics>(metrics::ProcessMetrics().StartTimeSeconds());
  for (serving::HealthChecks* family : {&server->healthz(), &server->livez(), &server->readyz()}) {
    family->SetObserver([slis = state.health_check_metrics](std::string_view check, std::string_view type, bool passed) {
      slis->Observe(check, type, passed);
    });
  }
  server->AddHandler("/metrics/slis", [slis = state.health_check_metrics](const serving::ServingRequest& request) {
    serving::ServingResponse response;
    if (request.method == "DELETE") {  // SLIMetricsWithReset
      slis->Reset();
      response.body = kMetricsResetBody;
      return response;
    }
    response.content_type = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores";
    response.body = slis->SerializeText();
    return response;
  });
  if (cfg.enable_profiling) {  // routes.DebugFlags: unlisted (not in /statusz's paths)
    server->AddHandler(
        "/debug/flags/v",
        [](const serving::ServingRequest& request) { return ServeVerbosityFlag(request, SetLogVerbosity); },
        false);
    server->AddHandler("/debug/flags", ServeDebugFlagsIndex, false);
    server->AddPrefixHandler("/debug/flags/", ServeDebugFlagsIndex, false);
  }
  // The configuration does not change while running: render it once.
  server->AddHandler("/configz", [configz = config::ConfigzJson(cfg)](const serving::ServingRequest&) {
    serving::ServingResponse response;
    response.content_type = "application/json";
    response.body = configz;
    return response;
  });
  // The z-pages, each behind its gate (ComponentFlagz, ComponentStatusz: beta, on by default since
  // 1.36), installed last as upstream's newEndpointsHandler does: /statusz lists the paths
  // registered before it.
  if (gates.Enabled("ComponentFlagz")) {
    server->AddHandler("/flagz", serving::FlagzHandler(std::string(kComponentName), FlagzValues(flags)));
  }
  if (gates.Enabled("ComponentStatusz")) {
    server->AddHandler("/statusz", serving::StatuszHandler(std::string(kComponentName), StatuszInfoNow(*server)));
  }
  return server;
}

}  // namespace ksched::scheduler
