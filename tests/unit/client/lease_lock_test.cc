// LeaseLock (client/lease_lock.h) over a scripted transport: the requests it makes (verb, path,
// body, timeout), how API errors come back, and the LeaderElection event it posts.
#include "client/lease_lock.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "api/lease.h"
#include "client/core_event.h"
#include "fake_transport.h"

namespace {

using ksched::api::ParseRfc3339;
using ksched::client::HttpMethod;
using ksched::client::LeaderElectionRecord;
using ksched::client::LeaseLock;
using ksched::client::LeaseLockConfig;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::client::testing::FakeTransport;

constexpr char kLeasePath[] = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler";

constexpr char kServerLease[] = R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1",
  "metadata":{"name":"kube-scheduler","namespace":"kube-system","uid":"u-1","resourceVersion":"42"},
  "spec":{"holderIdentity":"other","leaseDurationSeconds":15,"acquireTime":"2026-11-30T12:00:00.000000Z",
  "renewTime":"2026-11-30T12:00:10.000000Z","leaseTransitions":3,"preferredHolder":"x"}})";

std::string Updated(const std::string& rv) {
  return R"({"kind":"Lease","metadata":{"name":"kube-scheduler","namespace":"kube-system","uid":"u-1","resourceVersion":")" +
         rv + R"("},"spec":{}})";
}

std::string ConflictBody() {
  return R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Operation cannot be fulfilled on leases.coordination.k8s.io \"kube-scheduler\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","code":409})";
}

struct Fixture {
  std::shared_ptr<FakeTransport> transport = std::make_shared<FakeTransport>();
  std::shared_ptr<RestClient> client;
  std::unique_ptr<LeaseLock> lock;

  Fixture() {
    RestClientOptions options;
    options.qps = -1;
    options.max_retries = 0;
    client = std::make_shared<RestClient>(transport, options);
    LeaseLockConfig config;
    config.identity = "me_1";
    config.request_timeout = std::chrono::milliseconds(5000);
    lock = std::make_unique<LeaseLock>(client, config,
                                       [] { return ParseRfc3339("2026-11-30T12:00:01.5Z").value(); });
  }
};

LeaderElectionRecord Mine() {
  LeaderElectionRecord record;
  record.holder_identity = "me_1";
  record.lease_duration_seconds = 15;
  record.acquire_time = ParseRfc3339("2026-11-30T12:00:20.1234567Z").value();
  record.renew_time = record.acquire_time;
  record.leader_transitions = 4;
  return record;
}

}  // namespace

TEST_CASE("LeaseLock: Get reads the record, Update PUTs the object with resourceVersion", "[client][lease]") {
  Fixture f;
  f.transport->Respond(200, kServerLease).Respond(200, Updated("43"));
  const LeaderElectionRecord record = f.lock->Get().value();
  CHECK(record.holder_identity == "other");
  CHECK(record.lease_duration_seconds == 15);
  CHECK(record.leader_transitions == 3);
  CHECK(record.renew_time == ParseRfc3339("2026-11-30T12:00:10Z").value());
  CHECK(record.preferred_holder == "x");
  REQUIRE(f.lock->Update(Mine()).ok());
  const auto sent = f.transport->sent();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].request.method == HttpMethod::kGet);
  CHECK(sent[0].request.target == kLeasePath);
  CHECK(sent[0].request.timeout == std::chrono::milliseconds(5000));
  CHECK(sent[1].request.method == HttpMethod::kPut);
  CHECK(sent[1].request.target == kLeasePath);
  CHECK(sent[1].request.content_type == "application/json");
  CHECK_THAT(sent[1].request.body, Catch::Contains(R"("resourceVersion":"42")"));
  CHECK_THAT(sent[1].request.body,
             Catch::EndsWith(R"("spec":{"holderIdentity":"me_1","leaseDurationSeconds":15,)"
                             R"("acquireTime":"2026-11-30T12:00:20.123456Z","renewTime":"2026-11-30T12:00:20.123456Z",)"
                             R"("leaseTransitions":4}})"));
}

TEST_CASE("LeaseLock: errors as the elector tests them", "[client][lease]") {
  Fixture f;
  CHECK(f.lock->Update(Mine()).code() == absl::StatusCode::kFailedPrecondition);  // nothing read yet
  f.transport->Respond(404, R"({"kind":"Status","reason":"NotFound","code":404})");
  CHECK(f.lock->Get().status().code() == absl::StatusCode::kNotFound);
  f.transport->Respond(409, R"({"kind":"Status","reason":"AlreadyExists","code":409})");
  CHECK(f.lock->Create(Mine()).code() == absl::StatusCode::kAlreadyExists);
  f.transport->Respond(200, kServerLease).Respond(409, ConflictBody());
  REQUIRE(f.lock->Get().ok());
  CHECK(f.lock->Update(Mine()).code() == absl::StatusCode::kAborted);
  f.transport->Respond(200, "not json");
  CHECK(f.lock->Get().status().code() == absl::StatusCode::kInternal);
}

TEST_CASE("LeaseLock: Create POSTs a fresh Lease to the collection", "[client][lease]") {
  Fixture f;
  f.transport->Respond(201, Updated("1")).Respond(200, Updated("2"));
  REQUIRE(f.lock->Create(Mine()).ok());
  REQUIRE(f.lock->Update(Mine()).ok());  // the created object is the base of the next update
  const auto sent = f.transport->sent();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].request.method == HttpMethod::kPost);
  CHECK(sent[0].request.target == "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases");
  CHECK(sent[0].request.body ==
        R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"kube-scheduler","namespace":"kube-system"},)"
        R"("spec":{"holderIdentity":"me_1","leaseDurationSeconds":15,"acquireTime":"2026-11-30T12:00:20.123456Z",)"
        R"("renewTime":"2026-11-30T12:00:20.123456Z","leaseTransitions":4}})");
  CHECK_THAT(sent[1].request.body, Catch::Contains(R"("resourceVersion":"1")"));
}

TEST_CASE("LeaseLock: the LeaderElection event as the legacy recorder writes it", "[client][lease]") {
  Fixture f;
  CHECK_FALSE(f.lock->EventJsonFor("became leader").has_value());  // no Lease seen yet
  f.transport->Respond(200, kServerLease);
  REQUIRE(f.lock->Get().ok());
  // 2026-11-30T12:00:01.5Z = 1796040001500000000 ns = 0x18ecd0dd93ccaf00.
  CHECK(f.lock->EventJsonFor("became leader").value() ==
        R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"kube-scheduler.18ecd0dd93ccaf00","namespace":"kube-system"},)"
        R"("involvedObject":{"kind":"Lease","namespace":"kube-system","name":"kube-scheduler","uid":"u-1",)"
        R"("apiVersion":"coordination.k8s.io/v1","resourceVersion":"42"},"reason":"LeaderElection",)"
        R"("message":"me_1 became leader","source":{"component":"default-scheduler"},)"
        R"("firstTimestamp":"2026-11-30T12:00:01Z","lastTimestamp":"2026-11-30T12:00:01Z","count":1,"type":"Normal",)"
        R"("eventTime":null,"reportingComponent":"default-scheduler","reportingInstance":""})");

  f.transport->Respond(403, R"({"kind":"Status","reason":"Forbidden","code":403})");
  f.lock->RecordEvent("became leader");  // a refused event is logged, nothing else
  const auto sent = f.transport->sent();
  REQUIRE(sent.size() == 2);
  CHECK(sent[1].request.method == HttpMethod::kPost);
  CHECK(sent[1].request.target == "/api/v1/namespaces/kube-system/events");
  CHECK_THAT(sent[1].request.body, Catch::Contains(R"("message":"me_1 became leader")"));
}

TEST_CASE("CoreEventName: hex nanoseconds, a UUID when too long", "[client][lease]") {
  const auto t = ksched::api::Time(std::chrono::nanoseconds(0x1234abcd));
  CHECK(ksched::client::CoreEventName("kube-scheduler", t) == "kube-scheduler.1234abcd");
  const std::string name = ksched::client::CoreEventName(std::string(250, 'a'), t);
  CHECK(name.size() == 36);
}
