// LeaderElector (client/leader_elector.h) against an in-memory lock with resourceVersion semantics,
// driven by a fake clock: every step of time is explicit, and the elector is asleep between steps.
// Timings are kube-scheduler's defaults (lease 15 s, renew deadline 10 s, retry 2 s) with no
// jitter unless a case says otherwise.
#include "client/leader_elector.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fake_election_clock.h"

namespace {

using ksched::client::LeaderCallbacks;
using ksched::client::LeaderElectionConfig;
using ksched::client::LeaderElectionRecord;
using ksched::client::LeaderElector;
using ksched::client::LeaderElectorOptions;
using ksched::client::LeadershipEnd;
using ksched::client::ResourceLock;
using ksched::client::testing::FakeElectionClock;
using std::chrono::milliseconds;
using std::chrono::seconds;

// The API server's side: one lock object, versioned.
struct FakeLockServer {
  std::mutex mu;
  bool exists = false;
  LeaderElectionRecord record;
  int version = 0;
  bool failing = false;           // every call fails with Unavailable
  int conflicts_to_inject = 0;    // the next N updates fail with a conflict
  int gets = 0, creates = 0, updates = 0;
  std::vector<std::string> events;

  LeaderElectionRecord Record() {
    std::lock_guard lock(mu);
    return record;
  }
  void Put(LeaderElectionRecord r) {
    std::lock_guard lock(mu);
    record = std::move(r);
    exists = true;
    ++version;
  }
  void SetFailing(bool f) {
    std::lock_guard lock(mu);
    failing = f;
  }
  std::vector<std::string> Events() {
    std::lock_guard lock(mu);
    return events;
  }
  int Gets() {
    std::lock_guard lock(mu);
    return gets;
  }
};

// One candidate's client of the lock: remembers the version it last read or wrote.
class FakeLock final : public ResourceLock {
 public:
  FakeLock(std::shared_ptr<FakeLockServer> server, std::string identity)
      : server_(std::move(server)), identity_(std::move(identity)) {}

  absl::StatusOr<LeaderElectionRecord> Get() override {
    std::lock_guard lock(server_->mu);
    ++server_->gets;
    if (server_->failing) return absl::UnavailableError("server down");
    if (!server_->exists) return absl::NotFoundError("leases \"kube-scheduler\" not found");
    version_ = server_->version;
    return server_->record;
  }
  absl::Status Create(const LeaderElectionRecord& record) override {
    std::lock_guard lock(server_->mu);
    ++server_->creates;
    if (server_->failing) return absl::UnavailableError("server down");
    if (server_->exists) return absl::AlreadyExistsError("already exists");
    server_->exists = true;
    server_->record = record;
    version_ = ++server_->version;
    return absl::OkStatus();
  }
  absl::Status Update(const LeaderElectionRecord& record) override {
    std::lock_guard lock(server_->mu);
    ++server_->updates;
    if (server_->failing) return absl::UnavailableError("server down");
    if (!version_) return absl::FailedPreconditionError("lease not initialized, call get or create first");
    if (server_->conflicts_to_inject > 0) {
      --server_->conflicts_to_inject;
      return absl::AbortedError("the object has been modified");
    }
    if (*version_ != server_->version) return absl::AbortedError("the object has been modified");
    server_->record = record;
    version_ = ++server_->version;
    return absl::OkStatus();
  }
  void RecordEvent(std::string_view message) override {
    std::lock_guard lock(server_->mu);
    server_->events.push_back(identity_ + " " + std::string(message));
  }
  std::string Identity() const override { return identity_; }
  std::string Describe() const override { return "kube-system/kube-scheduler"; }

 private:
  std::shared_ptr<FakeLockServer> server_;
  std::string identity_;
  std::optional<int> version_;
};

struct Calls {
  std::mutex mu;
  std::vector<std::string> log;  // "started", "stopped:lost", "stopped:stopped", "leader:<id>"
  void Add(std::string entry) {
    std::lock_guard lock(mu);
    log.push_back(std::move(entry));
  }
  std::vector<std::string> Log() {
    std::lock_guard lock(mu);
    return log;
  }
};

LeaderElectionConfig Config(const std::string& identity) {
  LeaderElectionConfig config;
  config.identity = identity;
  return config;
}

struct Candidate {
  std::shared_ptr<Calls> calls = std::make_shared<Calls>();
  std::unique_ptr<LeaderElector> elector;
};

Candidate MakeCandidate(const std::shared_ptr<FakeLockServer>& server, const std::shared_ptr<FakeElectionClock>& clock,
                        const std::string& identity, LeaderElectionConfig config, double random = 0.0) {
  Candidate c;
  auto calls = c.calls;
  LeaderCallbacks callbacks;
  callbacks.on_started_leading = [calls] { calls->Add("started"); };
  callbacks.on_stopped_leading = [calls](LeadershipEnd end) {
    calls->Add(end == LeadershipEnd::kLost ? "stopped:lost" : "stopped:stopped");
  };
  callbacks.on_new_leader = [calls](const std::string& id) { calls->Add("leader:" + id); };
  LeaderElectorOptions options;
  options.clock = clock;
  options.random = [random] { return random; };
  c.elector = LeaderElector::Create(std::make_shared<FakeLock>(server, identity), std::move(config),
                                    std::move(callbacks), options)
                  .value();
  return c;
}

Candidate MakeCandidate(const std::shared_ptr<FakeLockServer>& server, const std::shared_ptr<FakeElectionClock>& clock,
                        const std::string& identity) {
  return MakeCandidate(server, clock, identity, Config(identity));
}

// Moves time in `step`s up to `total`, letting the sleepers settle after each.
void Advance(FakeElectionClock& clock, std::chrono::nanoseconds total, std::chrono::nanoseconds step = seconds(1),
             std::size_t sleepers = 1) {
  for (std::chrono::nanoseconds done{0}; done < total; done += step) {
    clock.Step(step);
    REQUIRE(clock.WaitForSleepers(sleepers));
  }
}

// Waits (real time, at most 5 s) for a condition set by the elector's thread.
template <typename Predicate>
bool Eventually(Predicate predicate) {
  const auto give_up = std::chrono::steady_clock::now() + seconds(5);
  while (!predicate()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(milliseconds(1));
  }
  return true;
}

LeaderElectionRecord HeldBy(const std::string& holder, ksched::api::Time renewed, int transitions) {
  LeaderElectionRecord record;
  record.holder_identity = holder;
  record.lease_duration_seconds = 15;
  record.acquire_time = renewed;
  record.renew_time = renewed;
  record.leader_transitions = transitions;
  return record;
}

}  // namespace

TEST_CASE("LeaderElector: acquires an absent lease by creating it", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  CHECK(a.elector->IsLeader());
  CHECK(a.elector->CurrentLeader() == "a");
  const LeaderElectionRecord record = server->Record();
  CHECK(record.holder_identity == "a");
  CHECK(record.lease_duration_seconds == 15);
  CHECK(record.leader_transitions == 0);
  CHECK(record.acquire_time == FakeElectionClock::WallStart());
  CHECK(record.renew_time == FakeElectionClock::WallStart());
  CHECK(server->creates == 1);
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started"});
  CHECK(server->Events() == std::vector<std::string>{"a became leader"});
  a.elector->Stop();
}

TEST_CASE("LeaderElector: renews every retryPeriod, keeping acquireTime and transitions", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  const int gets_after_acquire = server->Gets();
  for (int i = 1; i <= 5; ++i) {
    Advance(*clock, seconds(2), seconds(2));
    const LeaderElectionRecord record = server->Record();
    CHECK(record.renew_time == FakeElectionClock::WallStart() + seconds(2 * i));
    CHECK(record.acquire_time == FakeElectionClock::WallStart());
    CHECK(record.leader_transitions == 0);
  }
  Advance(*clock, seconds(1), seconds(1));  // between renewals: no write
  CHECK(server->Record().renew_time == FakeElectionClock::WallStart() + seconds(10));
  CHECK(server->Gets() == gets_after_acquire);  // the fast path writes without reading
  CHECK(a.elector->IsLeader());
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started"});
  a.elector->Stop();
}

TEST_CASE("LeaderElector: a held lease is left alone while its holder renews", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  server->Put(HeldBy("other", FakeElectionClock::WallStart(), 2));
  Candidate b = MakeCandidate(server, clock, "b");
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  for (int i = 1; i <= 30; ++i) {  // 60 s, three times the lease duration
    LeaderElectionRecord renewed = server->Record();
    renewed.renew_time = clock->WallNow();
    server->Put(renewed);  // "other" renews
    Advance(*clock, seconds(2), seconds(2));
    CHECK_FALSE(b.elector->IsLeader());
  }
  CHECK(server->Record().holder_identity == "other");
  CHECK(server->updates == 0);
  CHECK(b.elector->CurrentLeader() == "other");
  CHECK(b.calls->Log() == std::vector<std::string>{"leader:other"});
  CHECK(b.elector->Check(seconds(20)).ok());  // a follower is healthy
  b.elector->Stop();
  CHECK(b.calls->Log() == std::vector<std::string>{"leader:other"});  // never led: no stopped callback
  CHECK(server->Record().holder_identity == "other");                 // and no release
}

TEST_CASE("LeaderElector: takes an expired lease, judged by its own clock, not by renewTime", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  // renewTime a day ago: by the wall clock long expired, but this candidate has only just seen it.
  server->Put(HeldBy("other", FakeElectionClock::WallStart() - std::chrono::hours(24), 3));
  Candidate b = MakeCandidate(server, clock, "b");
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  CHECK_FALSE(b.elector->IsLeader());
  // Tries at 2, 4, ..., 14 s: observed at 0 s + 15 s not yet passed.
  Advance(*clock, seconds(14), seconds(2));
  CHECK_FALSE(b.elector->IsLeader());
  CHECK(server->Record().holder_identity == "other");
  Advance(*clock, seconds(2), seconds(2));  // 16 s: expired
  CHECK(b.elector->IsLeader());
  const LeaderElectionRecord record = server->Record();
  CHECK(record.holder_identity == "b");
  CHECK(record.leader_transitions == 4);
  CHECK(record.acquire_time == FakeElectionClock::WallStart() + seconds(16));
  CHECK(b.calls->Log() == std::vector<std::string>{"leader:other", "leader:b", "started"});
  b.elector->Stop();
}

TEST_CASE("LeaderElector: a renewal within the same second still counts as a change", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  LeaderElectionRecord held = HeldBy("other", FakeElectionClock::WallStart(), 0);
  held.lease_duration_seconds = 3;
  server->Put(held);
  LeaderElectionConfig config = Config("b");
  config.lease_duration = seconds(3);
  config.renew_deadline = seconds(2);
  config.retry_period = milliseconds(500);
  Candidate b = MakeCandidate(server, clock, "b", config);
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  held.renew_time = FakeElectionClock::WallStart() + milliseconds(500);  // the last renewal, same second
  server->Put(held);
  Advance(*clock, milliseconds(3000), milliseconds(500));  // seen at 0.5 s: valid until 3.5 s
  CHECK_FALSE(b.elector->IsLeader());  // (upstream, comparing whole seconds, would take it at 3 s)
  Advance(*clock, milliseconds(500), milliseconds(500));
  CHECK(b.elector->IsLeader());
  b.elector->Stop();
}

TEST_CASE("LeaderElector: acquire retries are jittered by up to 1.2 retryPeriods", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  server->Put(HeldBy("other", FakeElectionClock::WallStart(), 0));
  Candidate b = MakeCandidate(server, clock, "b", Config("b"), 0.5);  // 2 s + 0.5 * 1.2 * 2 s = 3.2 s
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  CHECK(server->Gets() == 1);
  Advance(*clock, milliseconds(3100), milliseconds(3100));
  CHECK(server->Gets() == 1);
  Advance(*clock, milliseconds(100), milliseconds(100));
  CHECK(server->Gets() == 2);
  b.elector->Stop();
}

TEST_CASE("LeaderElector: loses leadership when no renewal succeeds within renewDeadline", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  server->SetFailing(true);
  // The renewal starting at 2 s retries at 4, 6, 8, 10 s and gives up at 12 s.
  Advance(*clock, seconds(11), seconds(1));
  CHECK(a.elector->IsLeader());
  CHECK(a.elector->Check(seconds(20)).ok());
  clock->Step(seconds(1));  // 12 s
  REQUIRE(Eventually([&] { return a.calls->Log().size() == 3; }));
  a.elector->Stop();  // joins the thread, which ended by itself
  CHECK_FALSE(a.elector->IsLeader());
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started", "stopped:lost"});
  CHECK(server->Events() == std::vector<std::string>{"a became leader", "a stopped leading"});
  // The release failed too: the record still names "a", observed at 0 s. Healthy until
  // leaseDuration + tolerance (35 s) have passed since.
  CHECK(a.elector->CurrentLeader() == "a");
  clock->Step(seconds(23));  // 35 s
  CHECK(a.elector->Check(seconds(20)).ok());
  clock->Step(milliseconds(1));
  const absl::Status health = a.elector->Check(seconds(20));
  CHECK(health.message() == "failed election to renew leadership on lease kube-scheduler");
}

TEST_CASE("LeaderElector: a renewal that fails briefly keeps leadership", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  server->SetFailing(true);
  Advance(*clock, seconds(8), seconds(1));  // renewals at 2, 4, 6, 8 s fail
  server->SetFailing(false);
  Advance(*clock, seconds(2), seconds(1));  // 10 s: succeeds, 2 s before the renew deadline
  CHECK(a.elector->IsLeader());
  CHECK(server->Record().renew_time == FakeElectionClock::WallStart() + seconds(10));
  Advance(*clock, seconds(20), seconds(1));
  CHECK(a.elector->IsLeader());
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started"});
  a.elector->Stop();
}

TEST_CASE("LeaderElector: a conflicting update loses the race, the next try wins", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  server->Put(HeldBy("", FakeElectionClock::WallStart(), 5));  // released
  server->conflicts_to_inject = 1;
  Candidate b = MakeCandidate(server, clock, "b");
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  CHECK_FALSE(b.elector->IsLeader());
  Advance(*clock, seconds(2), seconds(2));
  CHECK(b.elector->IsLeader());
  CHECK(server->Record().leader_transitions == 6);
  b.elector->Stop();
}

TEST_CASE("LeaderElector: Stop while leading releases the lease as upstream's release()", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  Advance(*clock, seconds(3), seconds(1));
  a.elector->Stop();
  const LeaderElectionRecord record = server->Record();
  CHECK(record.holder_identity.empty());
  CHECK(record.lease_duration_seconds == 1);
  CHECK(record.leader_transitions == 0);
  CHECK(record.acquire_time == FakeElectionClock::WallStart() + seconds(3));
  CHECK(record.renew_time == FakeElectionClock::WallStart() + seconds(3));
  CHECK_FALSE(a.elector->IsLeader());
  CHECK(a.elector->CurrentLeader().empty());
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started", "stopped:stopped"});
  CHECK(server->Events() == std::vector<std::string>{"a became leader", "a stopped leading"});
  a.elector->Stop();  // idempotent
}

TEST_CASE("LeaderElector: without release_on_cancel, Stop leaves the lease to expire", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  LeaderElectionConfig config = Config("a");
  config.release_on_cancel = false;
  Candidate a = MakeCandidate(server, clock, "a", config);
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers());
  a.elector->Stop();
  CHECK(server->Record().holder_identity == "a");
  CHECK(a.calls->Log() == std::vector<std::string>{"leader:a", "started", "stopped:stopped"});
}

TEST_CASE("LeaderElector: transitions count holder changes across release, crash and expiry", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  Candidate a = MakeCandidate(server, clock, "a");
  Candidate b = MakeCandidate(server, clock, "b");
  a.elector->Start();
  REQUIRE(clock->WaitForSleepers(1));
  b.elector->Start();
  REQUIRE(clock->WaitForSleepers(2));
  CHECK(a.elector->IsLeader());
  CHECK_FALSE(b.elector->IsLeader());
  CHECK(server->Record().leader_transitions == 0);

  a.elector->Stop();  // release: holder "", leaseDurationSeconds 1
  CHECK(server->Record().holder_identity.empty());
  Advance(*clock, seconds(2), seconds(2));  // b's next try: released leases are free at once
  CHECK(b.elector->IsLeader());
  CHECK(server->Record().holder_identity == "b");
  CHECK(server->Record().leader_transitions == 1);

  Candidate c = MakeCandidate(server, clock, "c");
  c.elector->Start();
  REQUIRE(clock->WaitForSleepers(2));
  b.elector->AbandonForTesting();  // crash: no release, no callback
  CHECK(server->Record().holder_identity == "b");
  // The released record was seen and replaced within one try: no report of "".
  CHECK(b.calls->Log() == std::vector<std::string>{"leader:a", "leader:b", "started"});
  // c first saw b's record at 2 s and sees no change after: it takes over at its first try after
  // 2 + 15 s, i.e. at 18 s.
  Advance(*clock, seconds(14), seconds(2));
  CHECK_FALSE(c.elector->IsLeader());
  Advance(*clock, seconds(2), seconds(2));
  CHECK(c.elector->IsLeader());
  CHECK(server->Record().leader_transitions == 2);
  c.elector->Stop();
  CHECK(server->Record().leader_transitions == 2);
}

TEST_CASE("LeaderElector: Stop from a callback ends the loop without deadlock", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  auto clock = std::make_shared<FakeElectionClock>();
  LeaderElector* self = nullptr;
  std::vector<std::string> log;
  std::mutex mu;
  LeaderCallbacks callbacks;
  callbacks.on_started_leading = [&] { self->Stop(); };
  callbacks.on_stopped_leading = [&](LeadershipEnd end) {
    std::lock_guard lock(mu);
    log.push_back(end == LeadershipEnd::kStopped ? "stopped" : "lost");
  };
  LeaderElectorOptions options;
  options.clock = clock;
  auto elector = LeaderElector::Create(std::make_shared<FakeLock>(server, "a"), Config("a"), callbacks, options).value();
  self = elector.get();
  elector->Start();
  REQUIRE(Eventually([&] {
    std::lock_guard lock(mu);
    return !log.empty();
  }));
  elector->Stop();  // joins the loop, which ended by itself
  std::lock_guard lock(mu);
  CHECK(log == std::vector<std::string>{"stopped"});
  CHECK(server->Record().holder_identity.empty());
}

TEST_CASE("ValidateLeaderElectionConfig: upstream's checks and messages", "[client][leader]") {
  struct Case {
    const char* name;
    std::function<void(LeaderElectionConfig&)> change;
    const char* error;  // "" = valid
  };
  const Case cases[] = {
      {"defaults", [](LeaderElectionConfig&) {}, ""},
      {"lease == renew", [](LeaderElectionConfig& c) { c.lease_duration = seconds(10); },
       "leaseDuration must be greater than renewDeadline"},
      {"lease < renew", [](LeaderElectionConfig& c) { c.lease_duration = seconds(5); },
       "leaseDuration must be greater than renewDeadline"},
      {"renew == 1.2 * retry", [](LeaderElectionConfig& c) { c.retry_period = milliseconds(8333) + std::chrono::microseconds(334); },
       "renewDeadline must be greater than retryPeriod*JitterFactor"},
      {"renew just above 1.2 * retry", [](LeaderElectionConfig& c) { c.retry_period = milliseconds(8333); }, ""},
      {"zero retry", [](LeaderElectionConfig& c) { c.retry_period = seconds(0); }, "retryPeriod must be greater than zero"},
      {"negative renew", [](LeaderElectionConfig& c) { c.renew_deadline = seconds(-1); c.retry_period = seconds(-2); },
       "renewDeadline must be greater than zero"},
      {"negative everything",
       [](LeaderElectionConfig& c) { c.lease_duration = seconds(-1); c.renew_deadline = seconds(-2); c.retry_period = seconds(-3); },
       "leaseDuration must be greater than zero"},
      {"no identity", [](LeaderElectionConfig& c) { c.identity.clear(); }, "Lock identity is empty"},
      {"no namespace", [](LeaderElectionConfig& c) { c.lease_namespace.clear(); }, "leaseNamespace must not be empty"},
      {"no name", [](LeaderElectionConfig& c) { c.lease_name.clear(); }, "leaseName must not be empty"},
      {"short durations", [](LeaderElectionConfig& c) { c.lease_duration = seconds(3); c.renew_deadline = seconds(2); c.retry_period = milliseconds(500); }, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    LeaderElectionConfig config = Config("a");
    c.change(config);
    const absl::Status status = ksched::client::ValidateLeaderElectionConfig(config);
    CHECK(std::string(status.message()) == c.error);
    if (!status.ok()) CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("LeaderElector::Create: callbacks are required", "[client][leader]") {
  auto server = std::make_shared<FakeLockServer>();
  LeaderCallbacks callbacks;
  auto made = LeaderElector::Create(std::make_shared<FakeLock>(server, "a"), Config("a"), callbacks, {});
  CHECK(made.status().message() == "OnStartedLeading callback must not be nil");
  callbacks.on_started_leading = [] {};
  made = LeaderElector::Create(std::make_shared<FakeLock>(server, "a"), Config("a"), callbacks, {});
  CHECK(made.status().message() == "OnStoppedLeading callback must not be nil");
  callbacks.on_stopped_leading = [](LeadershipEnd) {};
  CHECK(LeaderElector::Create(std::make_shared<FakeLock>(server, "a"), Config("a"), callbacks, {}).ok());
  CHECK_FALSE(LeaderElector::Create(std::make_shared<FakeLock>(server, "x"), Config("a"), callbacks, {}).ok());
}

TEST_CASE("MakeLeaderElectionIdentity: hostname_uuid with a random v4 UUID", "[client][leader]") {
  const std::string a = ksched::client::MakeLeaderElectionIdentity().value();
  const std::string b = ksched::client::MakeLeaderElectionIdentity().value();
  CHECK(a != b);
  const auto underscore = a.rfind('_');
  REQUIRE(underscore != std::string::npos);
  CHECK(underscore > 0);
  const std::string uuid = a.substr(underscore + 1);
  REQUIRE(uuid.size() == 36);
  CHECK(uuid[8] == '-');
  CHECK(uuid[13] == '-');
  CHECK(uuid[14] == '4');
  CHECK(std::string("89ab").find(uuid[19]) != std::string::npos);
  CHECK(uuid.find_first_not_of("0123456789abcdef-") == std::string::npos);
}
