// InformerObserver: told what client-go v0.37's informers record in component-base's informer_*
// families for one informer (component-base/metrics/prometheus/clientgo/fifo): the deltas queued
// between the watch and the handlers, the time the handlers took on each, and the store's
// resourceVersion. The client layer knows only this interface; the scheduler layer implements it
// over Prometheus (scheduler/metrics/informer_metrics.h).
//
// Ownership: shared by the ReflectorOptions that name it. Thread-safety: a reflector calls its
// observer from its own thread only; one observer serves one reflector.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ksched::client {

class InformerObserver {
 public:
  virtual ~InformerObserver() = default;
  // informer_queued_items: the deltas waiting for the handlers. This reflector hands each delta to
  // the handlers as it reads it, so the queue is empty after every delivery.
  virtual void SetQueuedItems(std::size_t items) = 0;
  // informer_processing_latency_seconds: the handlers took `elapsed` on one delta.
  virtual void ObserveProcessing(std::chrono::steady_clock::duration elapsed) = 0;
  // informer_store_resource_version: the store's resourceVersion is now `resource_version` (a
  // list's, an event's or a bookmark's).
  virtual void SetStoreResourceVersion(std::string_view resource_version) = 0;
};

// client-go's parseRVForMetricsWithTruncation: the last 15 digits of a resourceVersion as a
// number ("" -> 0), so that the gauge stays exact in a float64; nullopt when they are not a
// base-10 integer (the gauge then keeps its value, as client-go's).
std::optional<std::int64_t> ResourceVersionForMetrics(std::string_view resource_version);

}  // namespace ksched::client
