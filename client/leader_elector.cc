#include "client/leader_elector.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>

#include "client/lease_lock.h"
#include "client/uuid.h"
#include "spdlog/spdlog.h"

namespace ksched::client {
namespace {

// How long a clean stop waits for its "stopped leading" event to be posted.
constexpr std::chrono::milliseconds kEventFlushTimeout{2000};

std::function<double()> DefaultRandom() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  auto mu = std::make_shared<base::Mutex>();
  return [engine, mu] {
    base::MutexLock lock(mu.get());
    return std::uniform_real_distribution<double>(0.0, 1.0)(*engine);
  };
}

std::string Message(const absl::Status& status) { return std::string(status.message()); }

}  // namespace

absl::Status ValidateLeaderElectionConfig(const LeaderElectionConfig& config) {
  if (config.lease_duration <= config.renew_deadline) {
    return absl::InvalidArgumentError("leaseDuration must be greater than renewDeadline");
  }
  const auto jittered_retry = std::chrono::nanoseconds(
      static_cast<std::int64_t>(kLeaderElectionJitterFactor * static_cast<double>(config.retry_period.count())));
  if (config.renew_deadline <= jittered_retry) {
    return absl::InvalidArgumentError("renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (config.lease_duration.count() < 1) return absl::InvalidArgumentError("leaseDuration must be greater than zero");
  if (config.renew_deadline.count() < 1) return absl::InvalidArgumentError("renewDeadline must be greater than zero");
  if (config.retry_period.count() < 1) return absl::InvalidArgumentError("retryPeriod must be greater than zero");
  if (config.lease_namespace.empty()) return absl::InvalidArgumentError("leaseNamespace must not be empty");
  if (config.lease_name.empty()) return absl::InvalidArgumentError("leaseName must not be empty");
  if (config.identity.empty()) return absl::InvalidArgumentError("Lock identity is empty");
  return absl::OkStatus();
}

absl::StatusOr<std::string> MakeLeaderElectionIdentity() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) {
    return absl::InternalError(std::string("unable to get hostname: ") + std::strerror(errno));
  }
  // Add a uniquifier so that two processes on the same host don't both become active.
  std::string identity = host;
  identity += '_';
  identity += NewRandomUuid();
  return identity;
}

absl::StatusOr<std::unique_ptr<LeaderElector>> LeaderElector::Create(std::shared_ptr<RestClient> client,
                                                                     LeaderElectionConfig config,
                                                                     LeaderCallbacks callbacks) {
  if (client == nullptr) return absl::InvalidArgumentError("leader election needs a REST client");
  LeaseLockConfig lock_config;
  lock_config.namespace_name = config.lease_namespace;
  lock_config.name = config.lease_name;
  lock_config.identity = config.identity;
  lock_config.event_component = config.event_component;
  lock_config.request_timeout = std::max<std::chrono::milliseconds>(
      std::chrono::duration_cast<std::chrono::milliseconds>(config.renew_deadline / 2), std::chrono::seconds(1));
  auto lock = std::make_shared<LeaseLock>(std::move(client), std::move(lock_config));
  return Create(std::move(lock), std::move(config), std::move(callbacks), {});
}

absl::StatusOr<std::unique_ptr<LeaderElector>> LeaderElector::Create(std::shared_ptr<ResourceLock> lock,
                                                                     LeaderElectionConfig config,
                                                                     LeaderCallbacks callbacks,
                                                                     LeaderElectorOptions options) {
  if (absl::Status valid = ValidateLeaderElectionConfig(config); !valid.ok()) return valid;
  if (!callbacks.on_started_leading) return absl::InvalidArgumentError("OnStartedLeading callback must not be nil");
  if (!callbacks.on_stopped_leading) return absl::InvalidArgumentError("OnStoppedLeading callback must not be nil");
  if (lock == nullptr) return absl::InvalidArgumentError("Lock must not be nil.");
  if (lock->Identity() != config.identity) {
    return absl::InvalidArgumentError("the lock's identity differs from the configured identity");
  }
  if (options.clock == nullptr) options.clock = std::make_shared<RealElectionClock>();
  if (!options.random) options.random = DefaultRandom();
  return std::unique_ptr<LeaderElector>(
      new LeaderElector(std::move(lock), std::move(config), std::move(callbacks), std::move(options)));
}

LeaderElector::LeaderElector(std::shared_ptr<ResourceLock> lock, LeaderElectionConfig config,
                             LeaderCallbacks callbacks, LeaderElectorOptions options)
    : lock_(std::move(lock)),
      config_(std::move(config)),
      callbacks_(std::move(callbacks)),
      clock_(std::move(options.clock)),
      random_(std::move(options.random)),
      description_(lock_->Describe()) {}

LeaderElector::~LeaderElector() { Stop(); }

void LeaderElector::Start() {
  base::MutexLock lock(&mu_);
  if (started_) {
    SPDLOG_CRITICAL("LeaderElector::Start called twice for {}", description_);
    std::abort();
  }
  started_ = true;
  thread_ = std::thread([this] { Run(); });
}

void LeaderElector::Stop() { EndThread(false); }
void LeaderElector::AbandonForTesting() { EndThread(true); }

void LeaderElector::EndThread(bool abandon) {
  {
    base::MutexLock lock(&mu_);
    if (!stop_requested_) abandoned_ = abandon;
    stop_requested_ = true;
    cv_.NotifyAll();
    // From a callback: the loop ends after the callback returns; nothing to join here.
    if (!started_ || joined_ || thread_.get_id() == std::this_thread::get_id()) return;
    joined_ = true;
  }
  thread_.join();
}

bool LeaderElector::StopRequested() const {
  base::MutexLock lock(&mu_);
  return stop_requested_;
}

bool LeaderElector::SleepUntil(ElectionClock::time_point deadline) {
  base::MutexLock lock(&mu_);
  while (!stop_requested_ && clock_->Now() < deadline) clock_->WaitUntil(cv_, &mu_, deadline);
  return !stop_requested_;
}

bool LeaderElector::IsLeader() const {
  base::MutexLock lock(&mu_);
  return leading_;
}

std::string LeaderElector::CurrentLeader() const { return ObservedRecord().holder_identity; }

absl::Status LeaderElector::Check(std::chrono::nanoseconds max_tolerable_expired_lease) const {
  base::MutexLock lock(&mu_);
  if (observed_record_.holder_identity != config_.identity) return absl::OkStatus();
  if (clock_->Now() - observed_time_ > config_.lease_duration + max_tolerable_expired_lease) {
    return absl::UnavailableError("failed election to renew leadership on lease " + config_.name);
  }
  return absl::OkStatus();
}

void LeaderElector::SetObservedRecord(const LeaderElectionRecord& record) {
  base::MutexLock lock(&mu_);
  observed_record_ = record;
  observed_time_ = clock_->Now();
}

LeaderElectionRecord LeaderElector::ObservedRecord() const {
  base::MutexLock lock(&mu_);
  return observed_record_;
}

bool LeaderElector::ObservedHolderIsMe() const {
  base::MutexLock lock(&mu_);
  return observed_record_.holder_identity == config_.identity;
}

bool LeaderElector::IsLeaseValid(ElectionClock::time_point now) const {
  base::MutexLock lock(&mu_);
  return observed_time_ + std::chrono::seconds(observed_record_.lease_duration_seconds) > now;
}

void LeaderElector::Run() {
  // client-go v0.37's structured lines (leaderelection.go acquire).
  SPDLOG_INFO("\"Attempting to acquire leader lease...\" lock=\"{}\"", description_);
  bool acquired = false;
  while (!StopRequested()) {
    acquired = TryAcquireOrRenew();
    MaybeReportTransition();
    if (acquired) break;
    SPDLOG_TRACE("\"Failed to acquire lease\" lock=\"{}\"", description_);
    const double jitter = random_() * kLeaderElectionJitterFactor;
    const auto wait = config_.retry_period +
                      std::chrono::nanoseconds(static_cast<std::int64_t>(jitter * static_cast<double>(config_.retry_period.count())));
    if (!SleepUntil(clock_->Now() + wait)) break;
  }
  {
    base::MutexLock lock(&mu_);
    if (!acquired || abandoned_) return;
    leading_ = true;
  }
  lock_->RecordEvent("became leader");
  SPDLOG_INFO("\"Successfully acquired lease\" lock=\"{}\"", description_);
  callbacks_.on_started_leading();

  const LeadershipEnd end = Renew();
  {
    base::MutexLock lock(&mu_);
    leading_ = false;
    if (abandoned_) return;
  }
  if (config_.release_on_cancel) Release();
  lock_->RecordEvent("stopped leading");
  // A clean stop is followed by the process's exit: let the last event out first (a lost lease
  // exits at once, as upstream).
  if (end == LeadershipEnd::kStopped) lock_->FlushEvents(kEventFlushTimeout);
  callbacks_.on_stopped_leading(end);
}

LeadershipEnd LeaderElector::Renew() {
  while (true) {
    // wait.PollUntilContextTimeout(retryPeriod, renewDeadline, immediate): tries at start, start +
    // retryPeriod, ... (the period includes the try) until one succeeds or renewDeadline passed.
    const auto deadline = clock_->Now() + config_.renew_deadline;
    bool renewed = false;
    while (true) {
      if (StopRequested()) return LeadershipEnd::kStopped;
      const auto attempt_start = clock_->Now();
      if (TryAcquireOrRenew()) {
        renewed = true;
        break;
      }
      const auto next = std::min(attempt_start + config_.retry_period, deadline);
      if (!SleepUntil(next)) return LeadershipEnd::kStopped;
      if (clock_->Now() >= deadline) break;
    }
    MaybeReportTransition();
    if (!renewed) {
      SPDLOG_INFO("failed to renew lease {}: context deadline exceeded", description_);
      return LeadershipEnd::kLost;
    }
    SPDLOG_TRACE("successfully renewed lease {}", description_);
    // wait.Until(..., retryPeriod): the period starts after the renewal.
    if (!SleepUntil(clock_->Now() + config_.retry_period)) return LeadershipEnd::kStopped;
  }
}

bool LeaderElector::TryAcquireOrRenew() {
  const api::Time now = clock_->WallNow();
  const auto now_monotonic = clock_->Now();
  LeaderElectionRecord record;
  record.holder_identity = config_.identity;
  record.lease_duration_seconds =
      static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count());
  record.renew_time = now;
  record.acquire_time = now;

  // Fast path: the leader updates the object it last wrote, without reading it first.
  if (ObservedHolderIsMe() && IsLeaseValid(now_monotonic)) {
    const LeaderElectionRecord old = ObservedRecord();
    record.acquire_time = old.acquire_time;
    record.leader_transitions = old.leader_transitions;
    const absl::Status updated = lock_->Update(record);
    if (updated.ok()) {
      SetObservedRecord(record);
      return true;
    }
    SPDLOG_ERROR("Failed to update lock optimistically: {}, falling back to slow path", Message(updated));
  }

  // 1. Get or create the lock.
  absl::StatusOr<LeaderElectionRecord> old = lock_->Get();
  if (!old.ok()) {
    if (old.status().code() != absl::StatusCode::kNotFound) {
      SPDLOG_ERROR("error retrieving resource lock {}: {}", description_, Message(old.status()));
      return false;
    }
    if (const absl::Status created = lock_->Create(record); !created.ok()) {
      SPDLOG_ERROR("error initially creating leader election record: {}", Message(created));
      return false;
    }
    SetObservedRecord(record);
    return true;
  }

  // 2. Record obtained: note when it changed, by our clock.
  if (!observed_raw_.has_value() || *observed_raw_ != *old) {
    SetObservedRecord(*old);
    observed_raw_ = *old;
  }
  if (!old->holder_identity.empty() && IsLeaseValid(now_monotonic) && !ObservedHolderIsMe()) {
    SPDLOG_TRACE("lock is held by {} and has not yet expired", old->holder_identity);
    return false;
  }

  // 3. Expired or ours: take it (or keep it).
  if (ObservedHolderIsMe()) {
    record.acquire_time = old->acquire_time;
    record.leader_transitions = old->leader_transitions;
  } else {
    record.leader_transitions = old->leader_transitions + 1;
  }
  if (const absl::Status updated = lock_->Update(record); !updated.ok()) {
    SPDLOG_ERROR("Failed to update lock: {}", Message(updated));
    return false;
  }
  SetObservedRecord(record);
  return true;
}

void LeaderElector::Release() {
  absl::StatusOr<LeaderElectionRecord> old = lock_->Get();
  if (!old.ok()) {
    if (old.status().code() != absl::StatusCode::kNotFound) {
      SPDLOG_ERROR("error retrieving resource lock {}: {}", description_, Message(old.status()));
    } else {
      SPDLOG_INFO("lease lock not found: {}", description_);
    }
    return;
  }
  if (!ObservedHolderIsMe()) return;
  // Not in upstream: never clear a lease someone else took meanwhile.
  if (old->holder_identity != config_.identity) {
    SPDLOG_INFO("not releasing lease {}: now held by {}", description_, old->holder_identity);
    return;
  }
  const api::Time now = clock_->WallNow();
  LeaderElectionRecord record;
  record.leader_transitions = old->leader_transitions;
  record.lease_duration_seconds = 1;
  record.renew_time = now;
  record.acquire_time = now;
  if (const absl::Status updated = lock_->Update(record); !updated.ok()) {
    SPDLOG_ERROR("Failed to release lock: {}", Message(updated));
    return;
  }
  SetObservedRecord(record);
  SPDLOG_INFO("released lease {}", description_);
}

void LeaderElector::MaybeReportTransition() {
  const std::string holder = CurrentLeader();
  if (holder == reported_leader_) return;
  reported_leader_ = holder;
  if (callbacks_.on_new_leader) callbacks_.on_new_leader(reported_leader_);
}

}  // namespace ksched::client
