#include "client/lease_lock.h"

#include <utility>

#include "client/api_error.h"
#include "client/core_event.h"
#include "client/resource_path.h"
#include "spdlog/spdlog.h"

namespace ksched::client {
namespace {

std::string LeasesPath(const LeaseLockConfig& config) {
  return ResourcePath("coordination.k8s.io", "v1").Namespace(config.namespace_name).Resource("leases").String();
}

std::string LeasePath(const LeaseLockConfig& config) {
  return ResourcePath("coordination.k8s.io", "v1")
      .Namespace(config.namespace_name)
      .Resource("leases")
      .Name(config.name)
      .String();
}

api::Time SystemNow() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
}

}  // namespace

LeaderElectionRecord RecordFromLeaseSpec(const api::LeaseSpec& spec) {
  LeaderElectionRecord record;
  record.holder_identity = spec.holder_identity.value_or("");
  record.lease_duration_seconds = spec.lease_duration_seconds.value_or(0);
  record.leader_transitions = spec.lease_transitions.value_or(0);
  record.acquire_time = spec.acquire_time;
  record.renew_time = spec.renew_time;
  record.preferred_holder = spec.preferred_holder.value_or("");
  record.strategy = spec.strategy.value_or("");
  return record;
}

api::LeaseSpec LeaseSpecFromRecord(const LeaderElectionRecord& record) {
  api::LeaseSpec spec;
  spec.holder_identity = record.holder_identity;
  spec.lease_duration_seconds = record.lease_duration_seconds;
  spec.acquire_time = record.acquire_time;
  spec.renew_time = record.renew_time;
  spec.lease_transitions = record.leader_transitions;
  if (!record.preferred_holder.empty()) spec.preferred_holder = record.preferred_holder;
  if (!record.strategy.empty()) spec.strategy = record.strategy;
  return spec;
}

LeaseLock::LeaseLock(std::shared_ptr<RestClient> client, LeaseLockConfig config,
                     std::function<api::Time()> wall_clock)
    : client_(std::move(client)),
      config_(std::move(config)),
      wall_clock_(wall_clock ? std::move(wall_clock) : std::function<api::Time()>(SystemNow)) {}

HttpRequest LeaseLock::Request(HttpMethod method, std::string target, std::string body) const {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  if (!body.empty()) {
    request.body = std::move(body);
    request.content_type = "application/json";
  }
  request.timeout = config_.request_timeout;
  return request;
}

absl::Status LeaseLock::Remember(std::string body) {
  absl::StatusOr<api::Lease> lease = api::DecodeLease(body);
  if (!lease.ok()) {
    return absl::InternalError("lease " + Describe() + " from the server: " + std::string(lease.status().message()));
  }
  lease_ = *std::move(lease);
  lease_json_ = std::move(body);
  return absl::OkStatus();
}

absl::StatusOr<LeaderElectionRecord> LeaseLock::Get() {
  absl::StatusOr<HttpResponse> response = client_->Do(Request(HttpMethod::kGet, LeasePath(config_)));
  if (!response.ok()) return response.status();
  base::MutexLock lock(&mu_);
  if (absl::Status remembered = Remember(std::move(response->body)); !remembered.ok()) return remembered;
  return RecordFromLeaseSpec(lease_.spec);
}

absl::Status LeaseLock::Create(const LeaderElectionRecord& record) {
  api::Lease lease;
  lease.metadata.name = config_.name;
  lease.metadata.namespace_ = config_.namespace_name;
  lease.spec = LeaseSpecFromRecord(record);
  absl::StatusOr<HttpResponse> response =
      client_->Do(Request(HttpMethod::kPost, LeasesPath(config_), api::EncodeLease(lease)));
  if (!response.ok()) return response.status();
  base::MutexLock lock(&mu_);
  return Remember(std::move(response->body));
}

absl::Status LeaseLock::Update(const LeaderElectionRecord& record) {
  std::string body;
  {
    base::MutexLock lock(&mu_);
    if (lease_json_.empty()) return absl::FailedPreconditionError("lease not initialized, call get or create first");
    absl::StatusOr<std::string> replaced = api::ReplaceLeaseSpec(lease_json_, LeaseSpecFromRecord(record));
    if (!replaced.ok()) return replaced.status();
    body = *std::move(replaced);
  }
  absl::StatusOr<HttpResponse> response = client_->Do(Request(HttpMethod::kPut, LeasePath(config_), std::move(body)));
  if (!response.ok()) return response.status();
  base::MutexLock lock(&mu_);
  return Remember(std::move(response->body));
}

std::optional<std::string> LeaseLock::EventJsonFor(std::string_view message) const {
  if (config_.event_component.empty()) return std::nullopt;
  CoreEvent event;
  {
    base::MutexLock lock(&mu_);
    if (lease_json_.empty()) return std::nullopt;
    event.involved_object.kind = api::kLeaseKind;
    event.involved_object.api_version = api::kLeaseApiVersion;
    event.involved_object.namespace_ = lease_.metadata.namespace_;
    event.involved_object.name = lease_.metadata.name;
    event.involved_object.uid = lease_.metadata.uid;
    event.involved_object.resource_version = lease_.metadata.resource_version;
  }
  event.type = "Normal";
  event.reason = "LeaderElection";
  event.message = config_.identity;
  event.message += ' ';
  event.message.append(message);
  event.source_component = config_.event_component;
  event.time = wall_clock_();
  return CoreEventJson(event);
}

void LeaseLock::RecordEvent(std::string_view message) {
  std::optional<std::string> json = EventJsonFor(message);
  if (!json.has_value()) return;
  HttpRequest request = Request(HttpMethod::kPost, CoreEventsPath(config_.namespace_name), *std::move(json));
  std::string what = "LeaderElection event \"" + config_.identity + " " + std::string(message) + "\"";
  {
    base::MutexLock lock(&events_->mu);
    ++events_->count;
  }
  client_->DoAsync(std::move(request), [what = std::move(what), events = events_](
                                           absl::StatusOr<HttpResponse> response) {
    if (!response.ok()) {
      SPDLOG_ERROR("Unable to write {} (will not retry!): {}", what, std::string(response.status().message()));
    }
    base::MutexLock lock(&events->mu);
    if (--events->count == 0) events->drained.NotifyAll();
  });
}

void LeaseLock::FlushEvents(std::chrono::milliseconds timeout) {
  base::MutexLock lock(&events_->mu);
  events_->drained.WaitFor(&events_->mu, timeout,
                           [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(events_->mu) { return events_->count == 0; });
}

}  // namespace ksched::client
