// ResourceLock: the object leader election competes for, as client-go's resourcelock.Interface
// (v1.34). LeaseLock (client/lease_lock.h) is the real one, a coordination.k8s.io/v1 Lease; unit
// tests use a fake.
//
// LeaderElectionRecord is what the lock holds, in upstream's field names: the holder, how long its
// lease lasts, when it was acquired and last renewed (wall-clock UTC), how many times the holder
// changed, and the coordinated-election fields (strategy, preferredHolder) that the default,
// uncoordinated election never sets and therefore clears when it writes.
//
// Errors of Get/Create/Update are the API's (client/api_error.h): kNotFound when the lock object
// does not exist, kAlreadyExists when a Create lost the race, kAborted on an update conflict (a
// stale resourceVersion: someone else wrote first); anything else is a failed call.
//
// Thread-safety: implementations are called by one LeaderElector thread at a time, but must be safe
// to call from any thread (LeaseLock locks a mutex).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/time.h"

namespace ksched::client {

struct LeaderElectionRecord {
  std::string holder_identity;  // "" = nobody (a released lock)
  int lease_duration_seconds = 0;
  std::optional<api::Time> acquire_time;  // nullopt: Go's zero time
  std::optional<api::Time> renew_time;
  int leader_transitions = 0;
  std::string strategy;
  std::string preferred_holder;

  friend bool operator==(const LeaderElectionRecord&, const LeaderElectionRecord&) = default;
};

class ResourceLock {
 public:
  virtual ~ResourceLock() = default;

  // Reads the record (and remembers the object version for the next Update).
  virtual absl::StatusOr<LeaderElectionRecord> Get() = 0;
  // Creates the lock object holding `record`.
  virtual absl::Status Create(const LeaderElectionRecord& record) = 0;
  // Replaces the record, conditional on the object version last read or written (optimistic
  // concurrency). FailedPrecondition when neither Get nor Create succeeded before.
  virtual absl::Status Update(const LeaderElectionRecord& record) = 0;
  // Records an event "<identity> <message>" about the lock object; never blocks and never fails
  // (a failure to post is logged).
  virtual void RecordEvent(std::string_view message) = 0;
  // Waits up to `timeout` for the events recorded so far to be posted (before a clean shutdown,
  // so that the last one is not cut off). Default: nothing to wait for.
  virtual void FlushEvents(std::chrono::milliseconds /*timeout*/) {}
  // This candidate's identity.
  virtual std::string Identity() const = 0;
  // "namespace/name", for messages.
  virtual std::string Describe() const = 0;
};

}  // namespace ksched::client
