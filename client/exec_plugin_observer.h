// ExecPluginObserver: told about the runs of client-go credential plugins (ExecCredentialProvider),
// for client-go's exec plugin metrics (plugin/pkg/client/auth/exec/metrics.go):
//   rest_client_exec_plugin_call_total{code, call_status}   every run of a plugin, by how it ended;
//   rest_client_exec_plugin_ttl_seconds                      seconds until the earliest NotAfter
//                                                            among the providers' client certificates
//                                                            (+Inf when none has one);
//   rest_client_exec_plugin_certificate_rotation_age         how long a replaced client certificate
//                                                            had lived (since its NotBefore).
// The client layer knows only this interface; the scheduler layer implements it over Prometheus
// (scheduler/metrics/rest_client_metrics.h).
//
// Ownership: shared by the options that name it. Thread-safety: called from whichever thread runs
// a plugin (under that provider's mutex); implementations must be thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace ksched::client {

// How a run ended, as client-go's incrementCallsMetric classifies os/exec's errors.
enum class ExecPluginCallStatus {
  kNoError,               // it exited with 0 (whatever it printed); code 0
  kPluginExecutionError,  // it exited otherwise; code: its exit status, -1 when killed by a signal
  kPluginNotFoundError,   // it does not exist or cannot be executed; code 1
  kClientInternalError,   // it could not be started for another reason; code 1
};

std::string_view ExecPluginCallStatusLabel(ExecPluginCallStatus status);

class ExecPluginObserver {
 public:
  virtual ~ExecPluginObserver() = default;
  virtual void OnCall(ExecPluginCallStatus status, int code) = 0;
  // After a successful refresh of `provider` (an identity, never dereferenced): the NotAfter of
  // the client certificate its credential now carries, none when it carries no certificate.
  virtual void OnCertificateExpiry(const void* provider,
                                   std::optional<std::chrono::system_clock::time_point> not_after) = 0;
  // A refresh replaced a client certificate that had lived `age` since its NotBefore.
  virtual void OnCertificateRotated(std::chrono::system_clock::duration age) = 0;
};

}  // namespace ksched::client
