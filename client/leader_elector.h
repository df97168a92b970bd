// LeaderElector: Lease-based leader election, as client-go's tools/leaderelection (v1.34) with a
// resourcelock.LeaseLock, configured the way kube-scheduler configures it (cmd/kube-scheduler/app/
// options.go makeLeaderElectionConfig): Lease kube-system/kube-scheduler, identity
// "<hostname>_<uuid>", 15 s / 10 s / 2 s, ReleaseOnCancel, health tolerance 20 s.
//
// Algorithm (upstream's tryAcquireOrRenew, uncoordinated path):
//   - A candidate retries every retryPeriod * (1 + U[0, 1.2)) (wait.JitterUntil, JitterFactor 1.2).
//     Each try GETs the Lease; when absent (404) it POSTs one holding itself (leaseTransitions 0).
//     When the record differs from the one last seen, it notes "observed at now" by ITS OWN
//     monotonic clock: expiry is observedTime + leaseDurationSeconds, never the record's renewTime
//     (clocks of different machines are not compared). Deviation: "differs" compares the whole
//     record, times to the microsecond the Lease holds; upstream compares json.Marshal output whose
//     metav1.Time fields have whole seconds, so with a sub-second retryPeriod an upstream follower
//     can miss renewals within one second and judge expiry up to 1 s early.
//   - Held by someone else and not expired: no write. Otherwise a PUT (resourceVersion of the GET)
//     with holderIdentity=self, leaseDurationSeconds, acquireTime=renewTime=now and
//     leaseTransitions+1 (the holder changed; an expired or released record counts too). A 409 means
//     someone else won: try again after retryPeriod.
//   - The leader renews every retryPeriod (wait.Until): first a PUT on the object it last wrote (the
//     fast path), on failure a GET and PUT; acquireTime and leaseTransitions are kept. One renewal may
//     retry every retryPeriod; when none succeeded within renewDeadline of its start, leadership is
//     lost ("failed to renew lease ns/name: context deadline exceeded").
//   - When leadership ends (lost, or Stop()) and release_on_cancel: GET, and if this elector still
//     holds it, PUT {holderIdentity: "", leaseDurationSeconds: 1, acquireTime=renewTime=now,
//     leaseTransitions unchanged}, so that others take over after about one retryPeriod.
//     Deviation: upstream checks only its own last observation before releasing; this also checks
//     the holder in the record it just read, so a late release never clears a new leader's lease.
//   - Events on the Lease (core/v1, reason LeaderElection): "<identity> became leader" after
//     acquiring, "<identity> stopped leading" when leadership ends (after the release).
//   - strategy and preferredHolder are never written (upstream writes them only for coordinated
//     election), so a write clears them.
//
// Callbacks run on the elector's own thread, in order, never with its mutex held; they must return
// promptly (start work elsewhere), since leases are renewed on that thread:
//   on_started_leading()            after acquiring and posting "became leader";
//   on_stopped_leading(end)         once per on_started_leading, after the release: kLost when a
//                                   renewal failed past renewDeadline (kube-scheduler exits 1),
//                                   kStopped after Stop(). Upstream calls OnStoppedLeading at the end
//                                   of Run even when it never led; here only after leading.
//   on_new_leader(identity)         (optional) whenever the observed holder changes, including to
//                                   this elector and to "" (a released lease).
// A callback may call Stop() (it then returns without joining; the loop ends once the callback
// returns) but must not destroy the elector.
//
// Requests: the RestClient overload makes a LeaseLock whose requests time out after
// max(renewDeadline/2, 1 s), as upstream's NewFromKubeconfig. Give it a RestClient of its own with
// few retries (RestClientOptions::max_retries), as upstream uses a separate client: a renewal
// blocked in retries cannot be abandoned at renewDeadline.
//
// Thread-safety: Start, Stop, IsLeader, CurrentLeader and Check are safe from any thread; mu_
// guards the observed record and the run state.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "client/election_clock.h"
#include "client/resource_lock.h"
#include "client/rest_client.h"

namespace ksched::client {

// wait.JitterUntil's factor for the acquire loop.
inline constexpr double kLeaderElectionJitterFactor = 1.2;
// kube-scheduler's NewLeaderHealthzAdaptor(time.Second * 20).
inline constexpr std::chrono::seconds kSchedulerLeaderHealthTolerance{20};

struct LeaderElectionConfig {
  std::string lease_namespace = "kube-system";
  std::string lease_name = "kube-scheduler";
  std::string identity;  // required: MakeLeaderElectionIdentity()
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  bool release_on_cancel = true;  // kube-scheduler sets ReleaseOnCancel: true
  // Upstream's LeaderElectionConfig.Name, used in the health-check error; kube-scheduler passes
  // "kube-scheduler" whatever the lease's name.
  std::string name = "kube-scheduler";
  // Event source component: kube-scheduler's first profile's schedulerName. Empty: no events.
  std::string event_component = "default-scheduler";
};

// Upstream's NewLeaderElector checks, in its order and words:
//   "leaseDuration must be greater than renewDeadline"
//   "renewDeadline must be greater than retryPeriod*JitterFactor"
//   "leaseDuration must be greater than zero", "renewDeadline must be greater than zero",
//   "retryPeriod must be greater than zero", "Lock identity is empty"
// plus an empty lease namespace or name ("leaseNamespace must not be empty", ...). InvalidArgument.
absl::Status ValidateLeaderElectionConfig(const LeaderElectionConfig& config);

// "<hostname>_<random v4 UUID>", as kube-scheduler's `hostname + "_" + string(uuid.NewUUID())`
// (apimachinery's NewUUID is google/uuid's New(), a v4 UUID). Error: "unable to get hostname: ...".
absl::StatusOr<std::string> MakeLeaderElectionIdentity();

enum class LeadershipEnd { kLost, kStopped };

struct LeaderCallbacks {
  std::function<void()> on_started_leading;               // required
  std::function<void(LeadershipEnd)> on_stopped_leading;  // required
  std::function<void(const std::string&)> on_new_leader;  // optional
};

// Test seams; defaults are the real clock and a seeded std::mt19937_64.
struct LeaderElectorOptions {
  std::shared_ptr<ElectionClock> clock;
  std::function<double()> random;  // uniform in [0, 1), for the jitter
};

class LeaderElector {
 public:
  // Elects on a Lease through `client`. Errors: the config's (ValidateLeaderElectionConfig) or
  // missing callbacks ("OnStartedLeading callback must not be nil", ...), InvalidArgument.
  static absl::StatusOr<std::unique_ptr<LeaderElector>> Create(std::shared_ptr<RestClient> client,
                                                               LeaderElectionConfig config,
                                                               LeaderCallbacks callbacks);
  // Elects on any lock (tests). The lock's identity must equal config.identity.
  static absl::StatusOr<std::unique_ptr<LeaderElector>> Create(std::shared_ptr<ResourceLock> lock,
                                                               LeaderElectionConfig config,
                                                               LeaderCallbacks callbacks,
                                                               LeaderElectorOptions options);
  ~LeaderElector();  // Stop()
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Starts the election thread; once only (a second call aborts).
  void Start();
  // Ends the election: when leading, releases the lease (release_on_cancel), records "stopped
  // leading" and calls on_stopped_leading(kStopped). Blocks until the thread ended (at most one
  // request timeout plus the release), except when called from a callback. Idempotent.
  void Stop();
  // Test hook simulating a crash: the thread ends as soon as it is not inside a request, without
  // release, event or callback; the Lease stays as last written until it expires. Blocks like Stop.
  void AbandonForTesting();

  // True between on_started_leading and the end of leadership.
  bool IsLeader() const;
  // The holder in the record last observed ("" when none or not yet known).
  std::string CurrentLeader() const;
  // Upstream's LeaderElector.Check, for the health endpoints: an error ("failed election to renew
  // leadership on lease <name>") when the last observed record names this elector and was observed
  // more than leaseDuration + `max_tolerable_expired_lease` ago; OK otherwise.
  absl::Status Check(std::chrono::nanoseconds max_tolerable_expired_lease) const;

  const LeaderElectionConfig& config() const { return config_; }

 private:
  LeaderElector(std::shared_ptr<ResourceLock> lock, LeaderElectionConfig config, LeaderCallbacks callbacks,
                LeaderElectorOptions options);

  void Run();
  LeadershipEnd Renew();
  bool TryAcquireOrRenew();
  void Release();
  void MaybeReportTransition();
  // Sleeps until `deadline` by the clock; false when Stop came first.
  bool SleepUntil(ElectionClock::time_point deadline);
  bool StopRequested() const;
  void EndThread(bool abandon);

  void SetObservedRecord(const LeaderElectionRecord& record);
  LeaderElectionRecord ObservedRecord() const;
  bool ObservedHolderIsMe() const;
  bool IsLeaseValid(ElectionClock::time_point now) const;

  const std::shared_ptr<ResourceLock> lock_;
  const LeaderElectionConfig config_;
  const LeaderCallbacks callbacks_;
  const std::shared_ptr<ElectionClock> clock_;
  const std::function<double()> random_;
  const std::string description_;  // "ns/name"

  mutable base::Mutex mu_;
  base::CondVar cv_;                    // wakes SleepUntil on Stop
  bool stop_requested_ ABSL_GUARDED_BY(mu_) = false;
  bool abandoned_ ABSL_GUARDED_BY(mu_) = false;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool leading_ ABSL_GUARDED_BY(mu_) = false;
  LeaderElectionRecord observed_record_ ABSL_GUARDED_BY(mu_);
  ElectionClock::time_point observed_time_ ABSL_GUARDED_BY(mu_){};

  // Only the election thread touches these.
  std::optional<LeaderElectionRecord> observed_raw_;  // the last record read
  std::string reported_leader_;

  std::thread thread_;  // assigned under mu_ by Start, joined by EndThread
  bool joined_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace ksched::client
