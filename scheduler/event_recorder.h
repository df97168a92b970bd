// RestEventRecorder: framework::EventRecorder writing events.k8s.io/v1 Events through the REST
// client, as client-go's tools/events broadcaster and recorder do for kube-scheduler (v1.34). One
// recorder per profile: reportingController is the profile's schedulerName, reportingInstance
// reportingController + "-" + hostname.
//
// Eventf never blocks and never fails: it builds the Event (name "<pod>.<hex UnixNano>", eventTime
// now, note cut by TruncateNote) and queues it. The recorder holds at most `buffer_size` events
// (queued, being written, or waiting to retry); further events are dropped and counted, as
// client-go's 1000-event broadcaster queue drops when full. An event type other than Normal or
// Warning is logged and dropped (client-go: "Unsupported event type").
//
// One worker thread owns the series cache and the writes; requests go out with RestClient::DoAsync,
// many at once, so a slow or failing write does not hold up the others. Wiring: upstream gives
// events a clientset of their own (createClients: its own QPS/burst token bucket), so that a burst
// of events never delays bindings; give the recorders a RestClient of their own likewise (one
// shared by all profiles' recorders). Upstream has one broadcaster (one cache, one 1000-event
// queue) for all profiles; here each profile's recorder has its own.
//
// Series, as client-go: events with the same EventKey (type, action, reason, reporting controller
// and instance, regarding, related; the note is not part of it) form a series. The second one
// PATCHes the first event (strategic merge {"series":{"count":2,"lastObservedTime":..}}); later
// ones only count in the cache. The count is written by the refresh sweep (every
// `series_refresh_interval`, every series, keeping it alive against the API server's event TTL) and
// when the series finishes: `series_finish_time` after its last occurrence (checked by a sweep
// every `series_finish_time`, and when an event with its key arrives; a finished key starts a new
// event). A single event leaves the cache `series_finish_time` after its eventTime. A PATCH
// answered 404 (the event expired or was never created) becomes a POST of the event with its
// series.
//
// Writes and retries (client-go recordEvent/attemptRecording): success ends the write; a 4xx
// ends it (logged, counted as failed), except AlreadyExists on a series write (retried: the
// first event was created meanwhile) and on a repeated POST (an earlier attempt landed: counted
// as created); 5xx and transport failures are retried up to `max_attempts` attempts in all, each
// after `retry_interval` plus up to `retry_jitter` of it. Deviations from client-go, all harmless
// because event names are fixed: 5xx are retried (client-go gives up on any HTTP error), the
// sweeps' writes get the same retries (client-go tries them once per sweep), and a finishing series
// whose count was already written is not written again.
//
// Stop (and the destructor): refuses new events, writes what is queued, writes the counts of series
// not yet written (client-go loses them), retries pending writes at once, and waits for all of it
// up to `stop_timeout`; what is left then is abandoned (counted as failed). Responses arriving
// after that are ignored safely.
//
// Thread-safety: Eventf, stats and WaitForIdle from any thread; Stop from any thread but not from
// a RestClient callback.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "base/mutex.h"
#include "api/pod.h"
#include "api/time.h"
#include "client/rest_client.h"
#include "framework/handle.h"

namespace ksched::scheduler {

struct EventRecorderOptions {
  std::size_t buffer_size = 1000;                                // client-go maxQueuedEvents
  int max_attempts = 12;                                         // client-go maxTriesPerEvent
  std::chrono::milliseconds retry_interval{10'000};              // client-go defaultSleepDuration
  double retry_jitter = 0.25;
  std::chrono::milliseconds series_finish_time{6 * 60 * 1000};   // client-go finishTime
  std::chrono::milliseconds series_refresh_interval{30 * 60 * 1000};  // client-go refreshTime
  std::chrono::milliseconds stop_timeout{5'000};
  // Wall clock for eventTime, event names and series ages; empty: the system clock.
  std::function<api::Time()> now;
};

// Monotonic counters.
struct EventRecorderStats {
  std::uint64_t accepted = 0;        // events Eventf queued
  std::uint64_t dropped = 0;         // events Eventf refused: buffer full, stopped, bad type
  std::uint64_t created = 0;         // events written by POST
  std::uint64_t series_written = 0;  // series counts written (PATCH, or POST after a 404)
  std::uint64_t retries = 0;         // attempts repeated after a retryable failure
  std::uint64_t failed = 0;          // writes given up (rejected, out of attempts, abandoned)
};

class RestEventRecorder final : public framework::EventRecorder {
 public:
  RestEventRecorder(std::shared_ptr<client::RestClient> client, std::string reporting_controller,
                    std::string hostname, EventRecorderOptions options = {});
  ~RestEventRecorder() override;
  RestEventRecorder(const RestEventRecorder&) = delete;
  RestEventRecorder& operator=(const RestEventRecorder&) = delete;

  void Eventf(const api::Pod& regarding, const api::Pod* related, std::string_view type,
              std::string_view reason, std::string_view action, std::string note) override;

  // Flushes (see above) and ends the worker. Idempotent.
  void Stop();

  // Waits until nothing is queued, being written or waiting to retry; false on timeout.
  bool WaitForIdle(std::chrono::milliseconds timeout) const;

  EventRecorderStats stats() const;
  const std::string& reporting_controller() const { return reporting_controller_; }
  const std::string& reporting_instance() const { return reporting_instance_; }

 private:
  struct Shared;  // state shared with the worker and with callbacks in flight
  class Worker;

  const std::string reporting_controller_;
  const std::string reporting_instance_;
  const std::function<api::Time()> now_;
  std::shared_ptr<Shared> shared_;
  std::unique_ptr<Worker> worker_;
  base::Mutex stop_mu_;
  std::thread thread_ ABSL_GUARDED_BY(stop_mu_);  // runs worker_
};

}  // namespace ksched::scheduler
