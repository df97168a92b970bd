// LeaseLock: a ResourceLock on a coordination.k8s.io/v1 Lease, as client-go's
// resourcelock.LeaseLock (v1.34).
//
// Calls (the stock system:kube-scheduler RBAC allows get, create and update on leases, not patch):
//   Get     GET  /apis/coordination.k8s.io/v1/namespaces/{ns}/leases/{name}
//   Create  POST /apis/coordination.k8s.io/v1/namespaces/{ns}/leases       (a fresh Lease)
//   Update  PUT  .../leases/{name}: the object last returned by the server with its spec replaced,
//           so its metadata.resourceVersion makes the write conditional (409 -> kAborted)
// Each request has its own timeout (LeaseLockConfig::request_timeout; upstream gives the lock's
// client renewDeadline/2, at least 1 s). Record <-> spec conversion as upstream's
// LeaseSpecToLeaderElectionRecord / LeaderElectionRecordToLeaseSpec: holderIdentity,
// leaseDurationSeconds, acquireTime, renewTime and leaseTransitions are always written (times as
// MicroTime); strategy and preferredHolder only when non-empty.
//
// RecordEvent posts a core/v1 Event (client/core_event.h) about the Lease last read or written:
// type Normal, reason "LeaderElection", message "<identity> <message>", involvedObject
// {kind: Lease, apiVersion: coordination.k8s.io/v1, namespace, name, uid, resourceVersion}, source
// component `event_component`. The POST is asynchronous (RestClient::DoAsync); a failure is logged
// (spdlog, error level) and otherwise ignored, as upstream's recorder drops it. No event is posted
// when event_component is empty or no Lease was seen yet.
//
// Ownership: shares the RestClient. Thread-safety: every method is safe from any thread; mu_
// guards the last object seen.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/mutex.h"
#include "api/lease.h"
#include "client/resource_lock.h"
#include "client/rest_client.h"

namespace ksched::client {

struct LeaseLockConfig {
  std::string namespace_name = "kube-system";
  std::string name = "kube-scheduler";
  std::string identity;
  // source.component of the events; kube-scheduler uses its first profile's schedulerName.
  // Empty: no events.
  std::string event_component = "default-scheduler";
  std::chrono::milliseconds request_timeout{5000};
};

LeaderElectionRecord RecordFromLeaseSpec(const api::LeaseSpec& spec);
api::LeaseSpec LeaseSpecFromRecord(const LeaderElectionRecord& record);

class LeaseLock final : public ResourceLock {
 public:
  // `wall_clock` gives event timestamps; null: the system clock.
  LeaseLock(std::shared_ptr<RestClient> client, LeaseLockConfig config,
            std::function<api::Time()> wall_clock = nullptr);

  absl::StatusOr<LeaderElectionRecord> Get() override;
  absl::Status Create(const LeaderElectionRecord& record) override;
  absl::Status Update(const LeaderElectionRecord& record) override;
  void RecordEvent(std::string_view message) override;
  void FlushEvents(std::chrono::milliseconds timeout) override;
  std::string Identity() const override { return config_.identity; }
  std::string Describe() const override { return config_.namespace_name + "/" + config_.name; }

  // The event RecordEvent would post now (for tests); nullopt when it would post none.
  std::optional<std::string> EventJsonFor(std::string_view message) const;

 private:
  // Remembers the server's copy of the Lease; an undecodable body is an error.
  absl::Status Remember(std::string body) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  HttpRequest Request(HttpMethod method, std::string target, std::string body = {}) const;

  const std::shared_ptr<RestClient> client_;
  const LeaseLockConfig config_;
  const std::function<api::Time()> wall_clock_;

  // Events posted and not yet answered; shared with the posts' callbacks, which may outlive this
  // lock when a flush timed out.
  struct EventsInFlight {
    base::Mutex mu;
    base::CondVar drained;
    int count ABSL_GUARDED_BY(mu) = 0;
  };
  const std::shared_ptr<EventsInFlight> events_ = std::make_shared<EventsInFlight>();

  mutable base::Mutex mu_;
  std::string lease_json_ ABSL_GUARDED_BY(mu_);  // "" until a Get or Create succeeded
  api::Lease lease_ ABSL_GUARDED_BY(mu_);  // lease_json_ decoded
};

}  // namespace ksched::client
