// MetricsRecorder: where a profile's runtime reports how long its extension points and plugins
// took (upstream scheduler_framework_extension_point_duration_seconds and
// scheduler_plugin_execution_duration_seconds). The framework layer knows only this interface; the
// scheduler layer implements it over Prometheus (scheduler/metrics/metrics.h). A Framework without
// a recorder (FrameworkServices::metrics_recorder == nullptr) measures nothing.
//
// Cost model: the runtime asks for its sinks once, when it is built, and keeps the pointers; every
// observation is then a virtual call with enum arguments, no lookup by name and no allocation.
// Extension points are timed on every run; plugins only in sampled cycles
// (CycleState::record_plugin_metrics, upstream's pluginMetricsSamplePercent), PreEnqueue plugins
// on a sampled fraction of calls.
//
// Ownership: the recorder owns the sinks it hands out; they live as long as the recorder, which
// must outlive every Framework using it.
// Thread-safety: sinks and the recorder are called concurrently (Filter and Score run in parallel,
// PreEnqueue under the queue lock on event threads, binding cycles on the binding pool).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "framework/status.h"

namespace ksched::framework {

// The extension_point label values, upstream's spelling (metrics.ExtentionPoints plus PreEnqueue,
// which upstream's queue records under the same metric).
enum class ExtensionPoint : std::uint8_t {
  kPreEnqueue,
  kPreFilter,
  kFilter,
  kPreFilterExtensionAddPod,
  kPreFilterExtensionRemovePod,
  kPostFilter,
  kPreScore,
  kScore,
  kScoreExtensionNormalize,
  kReserve,
  kUnreserve,
  kPermit,
  kPreBind,
  kBind,
  kPostBind,
  kPreBindPreFlight,  // v1.35+
};
inline constexpr std::size_t kExtensionPointCount = 16;
inline constexpr std::size_t kCodeCount = 7;  // framework::Code values

std::string_view ExtensionPointName(ExtensionPoint point);

// One duration metric with some labels fixed (the profile, or the plugin); the call supplies the
// extension point and the status code.
class DurationSink {
 public:
  virtual ~DurationSink() = default;
  virtual void Observe(ExtensionPoint point, Code status, std::chrono::nanoseconds elapsed) = 0;
};

class MetricsRecorder {
 public:
  virtual ~MetricsRecorder() = default;
  // scheduler_framework_extension_point_duration_seconds{profile=`profile`}.
  virtual DurationSink& ExtensionPointDurations(std::string_view profile) = 0;
  // scheduler_plugin_execution_duration_seconds{plugin=`plugin`}.
  virtual DurationSink& PluginDurations(std::string_view plugin) = 0;
  // The percentage (0..100) of cycles, and of PreEnqueue calls, whose plugins are timed
  // (upstream's pluginMetricsSamplePercent, 10).
  virtual int plugin_sample_percent() const = 0;
  // scheduler_preemption_attempts_total, and scheduler_preemption_victims (the victims of a
  // preemption that nominated a node). Default: not recorded.
  virtual void PreemptionAttempted() {}
  virtual void ObservePreemptionVictims(int /*victims*/) {}
  // scheduler_preemption_goroutines_execution_total and _duration_seconds{result}: an asynchronous
  // preemption's API calls (victims evicted, nominations cleared) are done; `failed`: one failed.
  virtual void ObservePreemptionGoroutine(bool /*failed*/, std::chrono::nanoseconds /*elapsed*/) {}
  // scheduler_permit_wait_duration_seconds{result}: a pod waited at Permit until `result`
  // (Success when allowed, Unschedulable when a plugin rejected it or its wait timed out).
  virtual void ObservePermitWait(Code /*result*/, std::chrono::nanoseconds /*elapsed*/) {}
  // scheduler_volume_scheduling_stage_error_total{operation}: VolumeBinding's volume binder failed
  // finding volumes for a node ("predicate"), assuming them ("assume") or binding them ("bind").
  enum class VolumeStage : std::uint8_t { kPredicate, kAssume, kBind };
  virtual void VolumeSchedulingStageFailed(VolumeStage /*stage*/) {}
};

}  // namespace ksched::framework
