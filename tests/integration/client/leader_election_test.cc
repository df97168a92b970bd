// LeaderElector against the real API server, as three kube-scheduler replicas would run it: each
// candidate has its own HTTPS client authenticated as system:kube-scheduler (the stock RBAC: get,
// create and update on the Lease kube-system/kube-scheduler, create on events), with short
// timings (lease 3 s, renew deadline 2 s, retry 0.5 s).
//
// Shows: exactly one leader at a time, and the Lease names it; a crashed leader (abandoned: no
// release) is replaced no earlier than the lease allows and within leaseDuration plus two jittered
// retry periods (the follower sees the last renewal up to one period late, then notices expiry up to
// one period late); a released lease is taken within one jittered retry period; leaseTransitions
// counts the holder changes; the LeaderElection events exist. Failover times are printed.
#include "client/leader_elector.h"

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api/lease.h"
#include "client/api_error.h"
#include "client/build_config.h"
#include "client/new_rest_client.h"
#include "client/resource_path.h"
#include "controlplane_env.h"
#include "rapidjson/document.h"

namespace {

using ksched::client::LeaderCallbacks;
using ksched::client::LeaderElectionConfig;
using ksched::client::LeaderElector;
using ksched::client::LeadershipEnd;
using ksched::client::ResourcePath;
using ksched::client::RestClient;
using ksched::testing::ControlPlane;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr auto kLease = std::chrono::seconds(3);
constexpr auto kRenew = std::chrono::seconds(2);
constexpr auto kRetry = milliseconds(500);
// The longest jittered acquire wait: retryPeriod * (1 + 1.2).
constexpr auto kMaxRetryWait = milliseconds(1100);
constexpr auto kSlack = milliseconds(500);

std::string LeasePath() {
  return ResourcePath("coordination.k8s.io", "v1").Namespace("kube-system").Resource("leases").Name("kube-scheduler").String();
}

std::shared_ptr<RestClient> SchedulerClient() {
  auto config = ksched::client::BuildConfigFromFlags("", ControlPlane::Get()["KUBECONFIG_SCHEDULER"]);
  if (!config.ok()) throw std::runtime_error(config.status().ToString());
  ksched::client::RestClientOptions options;
  options.max_retries = 1;  // a renewal must not hide in retries past the renew deadline
  auto client = ksched::client::NewRestClient(*config, options);
  if (!client.ok()) throw std::runtime_error(client.status().ToString());
  return *client;
}

ksched::api::Lease ReadLease(RestClient& admin) {
  auto body = admin.Get(LeasePath());
  REQUIRE(body.ok());
  return ksched::api::DecodeLease(*body).value();
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The candidates and who leads, as their callbacks report it.
struct Cluster {
  std::mutex mu;
  std::set<int> leading;          // guarded by mu
  int max_leading_at_once = 0;    // guarded by mu
  std::vector<std::unique_ptr<LeaderElector>> electors;
  std::vector<std::string> identities;

  void Add(int index) {
    LeaderElectionConfig config;
    config.identity = ksched::client::MakeLeaderElectionIdentity().value() + "-" + std::to_string(index);
    config.lease_duration = kLease;
    config.renew_deadline = kRenew;
    config.retry_period = kRetry;
    LeaderCallbacks callbacks;
    callbacks.on_started_leading = [this, index] {
      std::lock_guard lock(mu);
      leading.insert(index);
      max_leading_at_once = std::max(max_leading_at_once, static_cast<int>(leading.size()));
    };
    callbacks.on_stopped_leading = [this, index](LeadershipEnd) {
      std::lock_guard lock(mu);
      leading.erase(index);
    };
    identities.push_back(config.identity);
    electors.push_back(LeaderElector::Create(SchedulerClient(), config, callbacks).value());
  }
  // The one leader by IsLeader(), -1 when none; fails the test when two lead at once.
  int Leader() {
    int leader = -1;
    for (std::size_t i = 0; i < electors.size(); ++i) {
      if (electors[i] && electors[i]->IsLeader()) {
        CHECK(leader == -1);
        leader = static_cast<int>(i);
      }
    }
    return leader;
  }
  // Waits for a leader other than `not_this`, at most `limit`; returns it and the time it took.
  std::pair<int, Clock::duration> WaitForLeader(int not_this, Clock::duration limit) {
    const auto start = Clock::now();
    while (Clock::now() - start < limit + std::chrono::seconds(5)) {
      const int leader = Leader();
      if (leader != -1 && leader != not_this) return {leader, Clock::now() - start};
      std::this_thread::sleep_for(milliseconds(5));
    }
    return {-1, Clock::now() - start};
  }
  // Simulates a crash of candidate `i`: no release, no callback.
  void Crash(int i) {
    electors[static_cast<std::size_t>(i)]->AbandonForTesting();
    std::lock_guard lock(mu);
    leading.erase(i);
  }
};

}  // namespace

TEST_CASE("LeaderElector: three candidates on a real Lease, crash and release failover", "[leader]") {
  std::shared_ptr<RestClient> admin = ksched::testing::AdminRestClient();
  (void)admin->Delete(LeasePath());  // a fresh Lease: NotFound is fine

  Cluster cluster;
  for (int i = 0; i < 3; ++i) cluster.Add(i);
  for (auto& elector : cluster.electors) elector->Start();

  // 1. One leader, named by the Lease, which it created.
  const auto [first, first_took] = cluster.WaitForLeader(-1, std::chrono::seconds(2));
  REQUIRE(first != -1);
  std::printf("leader election: first leader after %.3f s\n", Seconds(first_took));
  ksched::api::Lease lease = ReadLease(*admin);
  CHECK(lease.spec.holder_identity == cluster.identities[static_cast<std::size_t>(first)]);
  CHECK(lease.spec.lease_duration_seconds == 3);
  CHECK(lease.spec.lease_transitions == 0);
  REQUIRE(lease.spec.acquire_time.has_value());
  REQUIRE(lease.spec.renew_time.has_value());
  const auto first_renew = *lease.spec.renew_time;

  // 2. It stays the only leader and renews (3 s: six renewals).
  const auto steady_until = Clock::now() + std::chrono::seconds(3);
  while (Clock::now() < steady_until) {
    CHECK(cluster.Leader() == first);
    std::this_thread::sleep_for(milliseconds(50));
  }
  lease = ReadLease(*admin);
  CHECK(lease.spec.holder_identity == cluster.identities[static_cast<std::size_t>(first)]);
  CHECK(*lease.spec.renew_time > first_renew + std::chrono::seconds(2));
  CHECK(lease.spec.lease_transitions == 0);
  CHECK(cluster.electors[static_cast<std::size_t>(first)]->Check(std::chrono::seconds(20)).ok());
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(cluster.electors[i]->CurrentLeader() == cluster.identities[static_cast<std::size_t>(first)]);
  }

  // 3. The leader crashes: the lease must run out first, then someone takes over.
  cluster.Crash(first);
  const auto [second, crash_took] = cluster.WaitForLeader(first, kLease + 2 * kMaxRetryWait + kSlack);
  REQUIRE(second != -1);
  std::printf("leader election: after a crash (no release), a new leader in %.3f s (lease %.1f s, retry %.1f s, "
              "bound %.1f s)\n",
              Seconds(crash_took), Seconds(kLease), Seconds(kRetry), Seconds(kLease + 2 * kMaxRetryWait + kSlack));
  CHECK(crash_took >= kLease - kRetry - milliseconds(100));  // not before the lease could have expired
  CHECK(crash_took <= kLease + 2 * kMaxRetryWait + kSlack);
  lease = ReadLease(*admin);
  CHECK(lease.spec.holder_identity == cluster.identities[static_cast<std::size_t>(second)]);
  CHECK(lease.spec.lease_transitions == 1);

  // 4. The new leader stops with release: the last one takes over within one jittered retry.
  const auto stop_start = Clock::now();
  cluster.electors[static_cast<std::size_t>(second)]->Stop();
  const int third = cluster.WaitForLeader(second, kMaxRetryWait + kSlack).first;
  const auto release_took = Clock::now() - stop_start;  // Stop() (with its release) included
  REQUIRE(third != -1);
  CHECK(third != first);
  std::printf("leader election: after a release, a new leader in %.3f s from Stop() (retry %.1f s, bound %.1f s)\n",
              Seconds(release_took), Seconds(kRetry), Seconds(kMaxRetryWait + kSlack));
  CHECK(release_took <= kMaxRetryWait + kSlack);
  lease = ReadLease(*admin);
  CHECK(lease.spec.holder_identity == cluster.identities[static_cast<std::size_t>(third)]);
  CHECK(lease.spec.lease_transitions == 2);
  CHECK(lease.spec.lease_duration_seconds == 3);

  {
    std::lock_guard lock(cluster.mu);
    CHECK(cluster.max_leading_at_once == 1);
  }

  // 5. The LeaderElection events (core/v1, on the Lease), posted asynchronously.
  const std::vector<std::string> expected = {
      cluster.identities[static_cast<std::size_t>(first)] + " became leader",
      cluster.identities[static_cast<std::size_t>(second)] + " became leader",
      cluster.identities[static_cast<std::size_t>(second)] + " stopped leading",
      cluster.identities[static_cast<std::size_t>(third)] + " became leader",
  };
  std::set<std::string> seen;
  const auto events_deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < events_deadline) {
    ksched::client::ListOptions options;
    options.field_selector = "involvedObject.kind=Lease,involvedObject.name=kube-scheduler,reason=LeaderElection";
    auto body = admin->List(ResourcePath().Namespace("kube-system").Resource("events").String(), options);
    REQUIRE(body.ok());
    rapidjson::Document events;
    events.Parse(body->data(), body->size());
    REQUIRE(events.IsObject());
    seen.clear();
    for (const auto& event : events["items"].GetArray()) {
      CHECK(std::string(event["type"].GetString()) == "Normal");
      CHECK(std::string(event["source"]["component"].GetString()) == "default-scheduler");
      CHECK(std::string(event["involvedObject"]["apiVersion"].GetString()) == "coordination.k8s.io/v1");
      CHECK(std::string(event["involvedObject"]["namespace"].GetString()) == "kube-system");
      seen.insert(event["message"].GetString());
    }
    bool all = true;
    for (const std::string& message : expected) all = all && seen.count(message) == 1;
    if (all) break;
    std::this_thread::sleep_for(milliseconds(200));
  }
  for (const std::string& message : expected) {
    CAPTURE(message);
    CHECK(seen.count(message) == 1);
  }
  // The crashed leader wrote no "stopped leading".
  CHECK(seen.count(cluster.identities[static_cast<std::size_t>(first)] + " stopped leading") == 0);

  // 6. Shutting down releases the lease.
  for (auto& elector : cluster.electors) elector->Stop();
  lease = ReadLease(*admin);
  CHECK(lease.spec.holder_identity == std::string());
  CHECK(lease.spec.lease_duration_seconds == 1);
  CHECK(lease.spec.lease_transitions == 2);
}
