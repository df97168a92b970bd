// ExecPluginMetrics: client-go's credential plugin metrics (component-base/metrics/prometheus/
// restclient, fed by client-go's plugin/pkg/client/auth/exec), over the ExecCredentialProviders
// this observer is given to (client/exec_plugin_observer.h):
//   rest_client_exec_plugin_call_total{call_status, code}    every run of a plugin
//   rest_client_exec_plugin_ttl_seconds                       seconds from the scrape to the earliest
//                                                             NotAfter among the providers' client
//                                                             certificates (negative once expired),
//                                                             +Inf when none has one; set by
//                                                             UpdateTtl at every scrape, as
//                                                             upstream's GaugeFunc is computed
//   rest_client_exec_plugin_certificate_rotation_age          seconds a replaced client certificate
//                                                             had lived since its NotBefore
// All [ALPHA]; the gauge and the histogram are shown from the start (+Inf, empty), as upstream's.
//
// Ownership: registers its families in the Registry passed in, which must outlive it (the app owns
// both through scheduler/metrics/metrics.h; providers share this object).
// Thread-safety: every method may be called from any thread (one mutex for the expiries; the
// metrics are atomic).
#pragma once

#include <chrono>
#include <map>
#include <optional>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "base/mutex.h"
#include "client/exec_plugin_observer.h"
#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

class ExecPluginMetrics final : public client::ExecPluginObserver {
 public:
  ExecPluginMetrics(prometheus::Registry& registry, RegisteredFamilies& families);

  void OnCall(client::ExecPluginCallStatus status, int code) override;
  void OnCertificateExpiry(const void* provider,
                           std::optional<std::chrono::system_clock::time_point> not_after) override;
  void OnCertificateRotated(std::chrono::system_clock::duration age) override;

  // Sets rest_client_exec_plugin_ttl_seconds as of `now`.
  void UpdateTtl(std::chrono::system_clock::time_point now);

 private:
  prometheus::Family<prometheus::Counter>& calls_;
  prometheus::Gauge& ttl_;
  prometheus::Histogram& rotation_age_;
  base::Mutex mu_;
  // Per provider, its certificate's NotAfter (upstream's certificateExpirationTracker; a provider
  // without a certificate is left out).
  std::map<const void*, std::chrono::system_clock::time_point> expiries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler::metrics
