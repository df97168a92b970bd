#include "scheduler/event_recorder.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "client/api_error.h"
#include "client/http_types.h"
#include "client/object_encoding.h"
#include "client/request_options.h"
#include "scheduler/event_object.h"

namespace ksched::scheduler {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::string_view kEventTypeNormal = "Normal";
constexpr std::string_view kEventTypeWarning = "Warning";

api::Time SystemNow() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
}

// "Warning FailedScheduling for pod ns/name", for logs.
std::string Describe(const Event& event) {
  return event.type + " " + event.reason + " for pod " + event.regarding.namespace_ + "/" +
         event.regarding.name;
}

// The series cache's order: the regarding object's uid and name first. A recorder's keys differ
// mostly there (type, action, reason, reporting controller and instance repeat for every pod), so
// a lookup among thousands of keys compares one string per step instead of seven. Ties fall back
// to the whole key, so this is a strict weak order with the same equality as EventKey's.
struct EventKeyLess {
  bool operator()(const EventKey& a, const EventKey& b) const {
    if (const int c = a.regarding.uid.compare(b.regarding.uid); c != 0) return c < 0;
    if (const int c = a.regarding.name.compare(b.regarding.name); c != 0) return c < 0;
    return a < b;
  }
};

}  // namespace

struct RestEventRecorder::Shared {
  struct Completion {
    std::uint64_t write_id = 0;
    bool was_patch = false;
    absl::Status status;
  };

  explicit Shared(std::size_t capacity) : buffer_size(capacity) {}

  // A response arrived (on the transport's thread): hand it to the worker.
  void Complete(std::uint64_t write_id, bool was_patch, absl::Status status) {
    {
      base::MutexLock lock(&mu);
      completions.push_back({write_id, was_patch, std::move(status)});
    }
    wake.NotifyOne();
  }

  bool Idle() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) { return events.empty() && completions.empty() && live_writes == 0 && !busy; }

  const std::size_t buffer_size;
  mutable base::Mutex mu;
  base::CondVar wake;          // the worker waits on it
  mutable base::CondVar idle;  // WaitForIdle waits on it
  std::deque<Event> events ABSL_GUARDED_BY(mu);            // queued by Eventf
  std::deque<Completion> completions ABSL_GUARDED_BY(mu);  // from DoAsync callbacks
  std::size_t held ABSL_GUARDED_BY(mu) = 0;  // events accepted and not finished (the buffer's fill)
  std::size_t live_writes ABSL_GUARDED_BY(mu) = 0;  // the worker's writes, as of its last pass
  bool busy ABSL_GUARDED_BY(mu) = false;            // the worker is processing a batch
  bool stopping ABSL_GUARDED_BY(mu) = false;
  bool worker_done ABSL_GUARDED_BY(mu) = false;

  std::atomic<std::uint64_t> accepted{0};
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<std::uint64_t> created{0};
  std::atomic<std::uint64_t> series_written{0};
  std::atomic<std::uint64_t> retries{0};
  std::atomic<std::uint64_t> failed{0};
};

class RestEventRecorder::Worker {
 public:
  Worker(std::shared_ptr<client::RestClient> client, std::shared_ptr<Shared> shared,
         EventRecorderOptions options)
      : client_(std::move(client)),
        shared_(std::move(shared)),
        options_(std::move(options)),
        rng_(std::random_device{}()) {}

  void Run();

 private:
  struct Write {
    Event event;             // a series write PATCHes event.series first
    bool holds_slot = false;  // an Eventf event counted in Shared::held
    int attempts = 0;
    bool creating = false;  // this attempt fell back to POST after the PATCH's 404
    bool waiting = false;   // waiting to retry at `due`
    SteadyClock::time_point due;
  };
  // What an event holds beyond its key: the cache keeps every event for series_finish_time (6
  // minutes), one per scheduled pod, so it does not hold the key's strings twice.
  struct CacheEntry {
    std::string name;
    std::string namespace_;
    api::Time event_time;
    std::optional<EventSeries> series;
    std::string note;
    bool has_related = false;
    std::int32_t written_count = 0;  // the series count last sent

    static CacheEntry Of(Event event) {
      CacheEntry entry;
      entry.name = std::move(event.name);
      entry.namespace_ = std::move(event.namespace_);
      entry.event_time = event.event_time;
      entry.series = event.series;
      entry.note = std::move(event.note);
      entry.has_related = event.related.has_value();
      return entry;
    }
    Event ToEvent(const EventKey& key) const {
      Event event;
      event.name = name;
      event.namespace_ = namespace_;
      event.event_time = event_time;
      event.series = series;
      event.reporting_controller = key.reporting_controller;
      event.reporting_instance = key.reporting_instance;
      event.action = key.action;
      event.reason = key.reason;
      event.regarding = key.regarding;
      if (has_related) event.related = key.related;
      event.note = note;
      event.type = key.type;
      return event;
    }
  };

  void Record(Event event);
  void StartWrite(Event event, bool holds_slot);
  void Attempt(std::uint64_t id, Write& write);
  void Send(std::uint64_t id, const Write& write);
  void HandleCompletion(Shared::Completion completion);
  void EndWrite(std::map<std::uint64_t, Write>::iterator it);
  bool IsFinished(const CacheEntry& entry, api::Time now) const;
  // Writes the series count if it changed since last written.
  void WriteSeriesIfChanged(const EventKey& key, CacheEntry& entry);
  void SweepFinished(api::Time now);
  void RefreshSeries();
  SteadyClock::duration RetryDelay();
  SteadyClock::time_point NextWake(SteadyClock::time_point next_finish, SteadyClock::time_point next_refresh,
                                   std::optional<SteadyClock::time_point> stop_deadline) const;

  const std::shared_ptr<client::RestClient> client_;
  const std::shared_ptr<Shared> shared_;
  const EventRecorderOptions options_;
  std::mt19937_64 rng_;
  std::map<EventKey, CacheEntry, EventKeyLess> cache_;
  std::map<std::uint64_t, Write> writes_;
  std::uint64_t next_write_id_ = 1;
  std::size_t slots_freed_ = 0;  // Eventf events finished since the last pass
  bool stopping_ = false;
};

void RestEventRecorder::Worker::Run() {
  auto next_finish = SteadyClock::now() + options_.series_finish_time;
  auto next_refresh = SteadyClock::now() + options_.series_refresh_interval;
  std::optional<SteadyClock::time_point> stop_deadline;
  std::deque<Event> events;
  std::deque<Shared::Completion> completions;
  while (true) {
    bool stop_requested = false;
    {
      base::MutexLock lock(&shared_->mu);
      shared_->held -= slots_freed_;
      slots_freed_ = 0;
      shared_->live_writes = writes_.size();
      shared_->busy = false;
      if (shared_->Idle()) shared_->idle.NotifyAll();
      if (stop_deadline.has_value() && shared_->Idle()) break;
      shared_->wake.WaitUntil(&shared_->mu, NextWake(next_finish, next_refresh, stop_deadline),
                              [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(shared_->mu) {
        return !shared_->events.empty() || !shared_->completions.empty() ||
               (shared_->stopping && !stop_deadline.has_value());
      });
      events.swap(shared_->events);
      completions.swap(shared_->completions);
      stop_requested = shared_->stopping;
      shared_->busy = true;
    }
    for (Shared::Completion& completion : completions) HandleCompletion(std::move(completion));
    completions.clear();
    for (Event& event : events) Record(std::move(event));
    events.clear();

    const auto now = SteadyClock::now();
    if (stop_requested && !stop_deadline.has_value()) {
      stop_deadline = now + options_.stop_timeout;
      stopping_ = true;
      for (auto& [key, entry] : cache_) WriteSeriesIfChanged(key, entry);
      for (auto& [id, write] : writes_) {
        if (write.waiting) write.due = now;
      }
    }
    for (auto& [id, write] : writes_) {
      if (write.waiting && write.due <= now) Attempt(id, write);
    }
    if (!stopping_) {
      if (now >= next_finish) {
        SweepFinished(options_.now());
        next_finish = now + options_.series_finish_time;
      }
      if (now >= next_refresh) {
        RefreshSeries();
        next_refresh = now + options_.series_refresh_interval;
      }
    }
    if (stop_deadline.has_value() && now >= *stop_deadline && !writes_.empty()) {
      SPDLOG_WARN("event recorder: abandoning {} event write(s) still pending at shutdown", writes_.size());
      shared_->failed += writes_.size();
      writes_.clear();
      break;
    }
  }
  {
    base::MutexLock lock(&shared_->mu);
    shared_->worker_done = true;
    shared_->live_writes = 0;
    shared_->busy = false;
  }
  shared_->idle.NotifyAll();
}

SteadyClock::time_point RestEventRecorder::Worker::NextWake(
    SteadyClock::time_point next_finish, SteadyClock::time_point next_refresh,
    std::optional<SteadyClock::time_point> stop_deadline) const {
  SteadyClock::time_point wake =
      stopping_ ? SteadyClock::time_point::max() : std::min(next_finish, next_refresh);
  if (stop_deadline.has_value()) wake = std::min(wake, *stop_deadline);
  for (const auto& [id, write] : writes_) {
    if (write.waiting) wake = std::min(wake, write.due);
  }
  return wake;
}

void RestEventRecorder::Worker::Record(Event event) {
  EventKey key = KeyOf(event);
  auto it = cache_.find(key);
  if (it != cache_.end() && IsFinished(it->second, event.event_time)) {
    WriteSeriesIfChanged(it->first, it->second);
    cache_.erase(it);
    it = cache_.end();
  }
  if (it == cache_.end()) {
    cache_.emplace(std::move(key), CacheEntry::Of(event));
    StartWrite(std::move(event), /*holds_slot=*/true);
    return;
  }
  CacheEntry& entry = it->second;
  if (entry.series.has_value()) {
    // Counted only; the sweeps write the count.
    ++entry.series->count;
    entry.series->last_observed_time = std::max(entry.series->last_observed_time, event.event_time);
    ++slots_freed_;
    return;
  }
  entry.series = EventSeries{2, event.event_time};
  entry.written_count = 2;
  StartWrite(entry.ToEvent(it->first), /*holds_slot=*/true);
}

bool RestEventRecorder::Worker::IsFinished(const CacheEntry& entry, api::Time now) const {
  const api::Time last = entry.series.has_value() ? entry.series->last_observed_time : entry.event_time;
  return now - last > options_.series_finish_time;
}

void RestEventRecorder::Worker::WriteSeriesIfChanged(const EventKey& key, CacheEntry& entry) {
  if (!entry.series.has_value() || entry.series->count == entry.written_count) return;
  entry.written_count = entry.series->count;
  StartWrite(entry.ToEvent(key), /*holds_slot=*/false);
}

void RestEventRecorder::Worker::SweepFinished(api::Time now) {
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (IsFinished(it->second, now)) {
      WriteSeriesIfChanged(it->first, it->second);
      it = cache_.erase(it);
    } else {
      ++it;
    }
  }
}

void RestEventRecorder::Worker::RefreshSeries() {
  for (auto& [key, entry] : cache_) {
    if (!entry.series.has_value()) continue;
    entry.written_count = entry.series->count;
    StartWrite(entry.ToEvent(key), /*holds_slot=*/false);
  }
}

void RestEventRecorder::Worker::StartWrite(Event event, bool holds_slot) {
  const std::uint64_t id = next_write_id_++;
  Write& write = writes_[id];
  write.event = std::move(event);
  write.holds_slot = holds_slot;
  Attempt(id, write);
}

void RestEventRecorder::Worker::Attempt(std::uint64_t id, Write& write) {
  ++write.attempts;
  write.creating = false;
  write.waiting = false;
  Send(id, write);
}

void RestEventRecorder::Worker::Send(std::uint64_t id, const Write& write) {
  client::HttpRequest request;
  const bool patch = write.event.series.has_value() && !write.creating;
  if (patch) {
    request.method = client::HttpMethod::kPatch;
    request.target = EventPath(write.event.namespace_, write.event.name);
    request.body = EventSeriesPatchJson(*write.event.series);
    request.content_type = std::string(client::PatchContentType(client::PatchType::kStrategic));
  } else {
    const bool protobuf = client_->WritesProtobuf();
    request = client::ObjectPostRequest(EventsPath(write.event.namespace_),
                                        protobuf ? EventProtobuf(write.event) : EventJson(write.event), protobuf);
  }
  // The callback may run after this recorder is gone: it touches only the shared state.
  client_->DoAsync(std::move(request),
                   [shared = shared_, id, patch](absl::StatusOr<client::HttpResponse> result) {
                     shared->Complete(id, patch, result.status());
                   });
}

void RestEventRecorder::Worker::EndWrite(std::map<std::uint64_t, Write>::iterator it) {
  if (it->second.holds_slot) ++slots_freed_;
  writes_.erase(it);
}

void RestEventRecorder::Worker::HandleCompletion(Shared::Completion completion) {
  auto it = writes_.find(completion.write_id);
  if (it == writes_.end()) return;
  Write& write = it->second;
  const absl::Status& status = completion.status;
  const bool series = write.event.series.has_value();
  if (status.ok()) {
    ++(series ? shared_->series_written : shared_->created);
    EndWrite(it);
    return;
  }
  const std::optional<int> http = client::HttpStatusOf(status);
  if (completion.was_patch && http == 404) {
    // The event to update is gone (or was never created): create it with its series.
    write.creating = true;
    Send(completion.write_id, write);
    return;
  }
  if (http.has_value()) {
    if (status.code() == absl::StatusCode::kAlreadyExists) {
      if (!series && write.attempts > 1) {  // an earlier attempt of ours created it
        ++shared_->created;
        EndWrite(it);
        return;
      }
      if (!series) {
        SPDLOG_DEBUG("Server rejected event (will not retry!): {}: {}", Describe(write.event),
                     std::string(status.message()));
        ++shared_->failed;
        EndWrite(it);
        return;
      }
      // A series write raced the creation of its first event: the PATCH will find it now.
    } else if (*http < 500 && *http != 429) {
      SPDLOG_ERROR("Server rejected event (will not retry!): {}: {}", Describe(write.event),
                   std::string(status.message()));
      ++shared_->failed;
      EndWrite(it);
      return;
    }
  } else if (status.code() == absl::StatusCode::kCancelled) {
    SPDLOG_WARN("Unable to write event, the client shut down: {}: {}", Describe(write.event),
                std::string(status.message()));
    ++shared_->failed;
    EndWrite(it);
    return;
  }
  if (write.attempts >= options_.max_attempts) {
    SPDLOG_ERROR("Unable to write event (retry limit exceeded!): {}: {}", Describe(write.event),
                 std::string(status.message()));
    ++shared_->failed;
    EndWrite(it);
    return;
  }
  SPDLOG_WARN("Unable to write event (may retry after sleeping): {}: {}", Describe(write.event),
              std::string(status.message()));
  ++shared_->retries;
  write.waiting = true;
  write.due = SteadyClock::now() + (stopping_ ? SteadyClock::duration::zero() : RetryDelay());
}

SteadyClock::duration RestEventRecorder::Worker::RetryDelay() {
  std::uniform_real_distribution<double> fraction(0.0, options_.retry_jitter);
  const auto interval = std::chrono::duration_cast<SteadyClock::duration>(options_.retry_interval);
  return interval + std::chrono::duration_cast<SteadyClock::duration>(interval * fraction(rng_));
}

RestEventRecorder::RestEventRecorder(std::shared_ptr<client::RestClient> client,
                                     std::string reporting_controller, std::string hostname,
                                     EventRecorderOptions options)
    : reporting_controller_(std::move(reporting_controller)),
      reporting_instance_(reporting_controller_ + "-" + hostname),
      now_(options.now ? options.now : SystemNow),
      shared_(std::make_shared<Shared>(options.buffer_size)) {
  options.now = now_;
  worker_ = std::make_unique<Worker>(std::move(client), shared_, std::move(options));
  thread_ = std::thread([worker = worker_.get()] { worker->Run(); });
}

RestEventRecorder::~RestEventRecorder() { Stop(); }

void RestEventRecorder::Eventf(const api::Pod& regarding, const api::Pod* related, std::string_view type,
                               std::string_view reason, std::string_view action, std::string note) {
  if (type != kEventTypeNormal && type != kEventTypeWarning) {
    SPDLOG_ERROR("Unsupported event type: '{}'", type);
    ++shared_->dropped;
    return;
  }
  Event event;
  event.event_time = now_();
  event.regarding = PodReference(regarding);
  event.name = EventName(event.regarding.name, event.event_time);
  event.namespace_ = regarding.metadata.namespace_.empty() ? "default" : regarding.metadata.namespace_;
  event.reporting_controller = reporting_controller_;
  event.reporting_instance = reporting_instance_;
  event.action = std::string(action);
  event.reason = std::string(reason);
  if (related != nullptr) event.related = PodReference(*related);
  event.note = TruncateNote(std::move(note));
  event.type = std::string(type);

  bool accepted = false;
  bool stopping = false;
  {
    base::MutexLock lock(&shared_->mu);
    stopping = shared_->stopping;
    if (!stopping && shared_->held < shared_->buffer_size) {
      shared_->events.push_back(std::move(event));
      ++shared_->held;
      accepted = true;
    }
  }
  if (accepted) {
    ++shared_->accepted;
    shared_->wake.NotifyOne();
    return;
  }
  const std::uint64_t dropped = ++shared_->dropped;
  if (stopping) {
    SPDLOG_DEBUG("event recorder stopped: dropping {} {} for pod {}/{}", type, reason,
                 regarding.metadata.namespace_, regarding.metadata.name);
  } else if (dropped == 1 || dropped % 1000 == 0) {
    SPDLOG_WARN("event buffer full ({} events): dropping {} {} for pod {}/{} ({} dropped so far)",
                shared_->buffer_size, type, reason, regarding.metadata.namespace_, regarding.metadata.name,
                dropped);
  }
}

void RestEventRecorder::Stop() {
  base::MutexLock stop_lock(&stop_mu_);
  if (!thread_.joinable()) return;
  {
    base::MutexLock lock(&shared_->mu);
    shared_->stopping = true;
  }
  shared_->wake.NotifyAll();
  thread_.join();
}

bool RestEventRecorder::WaitForIdle(std::chrono::milliseconds timeout) const {
  base::MutexLock lock(&shared_->mu);
  return shared_->idle.WaitFor(&shared_->mu, timeout,
                               [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(shared_->mu) {
                                 return shared_->Idle() || shared_->worker_done;
                               }) &&
         shared_->Idle();
}

EventRecorderStats RestEventRecorder::stats() const {
  EventRecorderStats stats;
  stats.accepted = shared_->accepted.load();
  stats.dropped = shared_->dropped.load();
  stats.created = shared_->created.load();
  stats.series_written = shared_->series_written.load();
  stats.retries = shared_->retries.load();
  stats.failed = shared_->failed.load();
  return stats;
}

}  // namespace ksched::scheduler
