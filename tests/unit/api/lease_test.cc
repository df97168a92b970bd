// Lease decoding and encoding (api/lease.h) and the API time formats (api/time_format.h). Expected
// texts are what Go's encoding/json writes for coordinationv1.Lease and metav1.(Micro)Time.
#include "api/lease.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "api/time_format.h"

namespace {

using ksched::api::DecodeLease;
using ksched::api::EncodeLease;
using ksched::api::EncodeLeaseSpec;
using ksched::api::FormatMicroTime;
using ksched::api::FormatTime;
using ksched::api::Lease;
using ksched::api::LeaseSpec;
using ksched::api::ParseRfc3339;
using ksched::api::ReplaceLeaseSpec;
using ksched::api::Time;

Time At(std::string_view text) { return ParseRfc3339(text).value(); }

// As the API server returns it (GET .../leases/kube-scheduler).
constexpr char kServerLease[] = R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1",
  "metadata":{"name":"kube-scheduler","namespace":"kube-system","uid":"u-1","resourceVersion":"42",
    "creationTimestamp":"2026-11-30T12:00:00Z","finalizers":["keep/me"],
    "managedFields":[{"manager":"kube-scheduler","operation":"Update"}]},
  "spec":{"holderIdentity":"host_0b1c","leaseDurationSeconds":15,
    "acquireTime":"2026-11-30T12:00:00.000001Z","renewTime":"2026-11-30T12:00:10.123456Z",
    "leaseTransitions":3,"strategy":"OldestEmulationVersion","preferredHolder":"other"}})";

}  // namespace

TEST_CASE("FormatTime/FormatMicroTime: Go's RFC 3339 layouts in UTC, truncated", "[api][lease]") {
  struct Case {
    Time time;
    std::string seconds;
    std::string micro;
  };
  const Case cases[] = {
      {At("2026-11-30T12:00:00Z"), "2026-11-30T12:00:00Z", "2026-11-30T12:00:00.000000Z"},
      {At("2026-11-30T12:00:00.123456789Z"), "2026-11-30T12:00:00Z", "2026-11-30T12:00:00.123456Z"},
      {At("2026-11-30T13:00:00.5+01:00"), "2026-11-30T12:00:00Z", "2026-11-30T12:00:00.500000Z"},
      {At("1969-12-31T23:59:59.9999999Z"), "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999999Z"},
      {At("2024-02-29T23:59:59Z"), "2024-02-29T23:59:59Z", "2024-02-29T23:59:59.000000Z"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.seconds);
    CHECK(FormatTime(c.time) == c.seconds);
    CHECK(FormatMicroTime(c.time) == c.micro);
    CHECK(ParseRfc3339(FormatMicroTime(c.time)).value() ==
          std::chrono::floor<std::chrono::microseconds>(c.time));
  }
}

TEST_CASE("DecodeLease: metadata and every spec field", "[api][lease]") {
  const Lease lease = DecodeLease(kServerLease).value();
  CHECK(lease.metadata.name == "kube-scheduler");
  CHECK(lease.metadata.namespace_ == "kube-system");
  CHECK(lease.metadata.uid == "u-1");
  CHECK(lease.metadata.resource_version == "42");
  CHECK(lease.spec.holder_identity == "host_0b1c");
  CHECK(lease.spec.lease_duration_seconds == 15);
  CHECK(lease.spec.acquire_time == At("2026-11-30T12:00:00.000001Z"));
  CHECK(lease.spec.renew_time == At("2026-11-30T12:00:10.123456Z"));
  CHECK(lease.spec.lease_transitions == 3);
  CHECK(lease.spec.strategy == "OldestEmulationVersion");
  CHECK(lease.spec.preferred_holder == "other");
}

TEST_CASE("DecodeLease: absent, null and empty fields stay distinct", "[api][lease]") {
  const Lease lease = DecodeLease(R"({"kind":"Lease","metadata":{"name":"l"},
      "spec":{"holderIdentity":"","acquireTime":null,"renewTime":"0001-01-01T00:00:00Z"}})")
                          .value();
  CHECK(lease.spec.holder_identity == std::string());  // present and empty
  CHECK_FALSE(lease.spec.lease_duration_seconds.has_value());
  CHECK_FALSE(lease.spec.acquire_time.has_value());
  CHECK_FALSE(lease.spec.renew_time.has_value());  // Go's zero time reads as unset
  CHECK_FALSE(lease.spec.lease_transitions.has_value());
  CHECK(DecodeLease(R"({"metadata":{"name":"l"}})").value().spec == LeaseSpec{});
}

TEST_CASE("DecodeLease: errors name the field", "[api][lease]") {
  struct Case {
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {R"({"kind":"Pod","metadata":{"name":"l"}})", "kind"},
      {R"({"kind":"Lease","metadata":{}})", "metadata.name"},
      {R"({"metadata":{"name":"l"},"spec":{"renewTime":"yesterday"}})", "spec.renewTime"},
      {R"({"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":"15"}})", "spec.leaseDurationSeconds"},
      {R"({"metadata":{"name":"l"},"spec":{"leaseTransitions":4294967296}})", "spec.leaseTransitions"},
      {R"({"metadata":{"name":"l"},"spec":[]})", "spec"},
      {R"({"metadata":)", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    const auto lease = DecodeLease(c.json);
    REQUIRE_FALSE(lease.ok());
    CHECK(lease.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(lease.status().message()), Catch::Contains(c.error));
  }
}

TEST_CASE("EncodeLeaseSpec: Go's field order, MicroTime, absent fields omitted", "[api][lease]") {
  LeaseSpec spec;
  CHECK(EncodeLeaseSpec(spec) == "{}");
  spec.holder_identity.emplace("a_1");
  spec.lease_duration_seconds = 15;
  spec.acquire_time = At("2026-11-30T12:00:00Z");
  spec.renew_time = At("2026-11-30T12:00:02.0000019Z");
  spec.lease_transitions = 0;
  CHECK(EncodeLeaseSpec(spec) ==
        R"({"holderIdentity":"a_1","leaseDurationSeconds":15,"acquireTime":"2026-11-30T12:00:00.000000Z",)"
        R"("renewTime":"2026-11-30T12:00:02.000001Z","leaseTransitions":0})");
  spec.strategy.emplace("OldestEmulationVersion");
  spec.preferred_holder.emplace("");
  CHECK_THAT(EncodeLeaseSpec(spec), Catch::EndsWith(R"("strategy":"OldestEmulationVersion","preferredHolder":""})"));
}

TEST_CASE("EncodeLease: a fresh object that decodes back to itself", "[api][lease]") {
  Lease lease;
  lease.metadata.name = "kube-scheduler";
  lease.metadata.namespace_ = "kube-system";
  lease.spec.holder_identity.emplace("");
  lease.spec.lease_duration_seconds = 1;
  CHECK(EncodeLease(lease) ==
        R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"kube-scheduler",)"
        R"("namespace":"kube-system"},"spec":{"holderIdentity":"","leaseDurationSeconds":1}})");
  lease.metadata.resource_version.assign(1, '7');
  lease.metadata.labels.Set("app", "x");
  lease.spec.renew_time = At("2026-11-30T12:00:00.25Z");
  CHECK(DecodeLease(EncodeLease(lease)).value() == lease);
}

TEST_CASE("ReplaceLeaseSpec: the server's object with a new spec, everything else kept", "[api][lease]") {
  LeaseSpec spec;
  spec.holder_identity.emplace("b_2");
  spec.lease_duration_seconds = 15;
  spec.lease_transitions = 4;
  const std::string replaced = ReplaceLeaseSpec(kServerLease, spec).value();
  CHECK_THAT(replaced, Catch::Contains(R"("resourceVersion":"42")"));
  CHECK_THAT(replaced, Catch::Contains(R"("finalizers":["keep/me"])"));
  CHECK_THAT(replaced, Catch::Contains(R"("managedFields":[{"manager":"kube-scheduler")"));
  CHECK_THAT(replaced, Catch::EndsWith(R"("spec":{"holderIdentity":"b_2","leaseDurationSeconds":15,"leaseTransitions":4}})"));
  const Lease lease = DecodeLease(replaced).value();
  CHECK(lease.spec == spec);  // strategy and preferredHolder are gone with the old spec
  CHECK(lease.metadata.uid == "u-1");

  CHECK(ReplaceLeaseSpec(R"({"metadata":{"name":"l"}})", spec).value() ==
        R"({"metadata":{"name":"l"},"spec":{"holderIdentity":"b_2","leaseDurationSeconds":15,"leaseTransitions":4}})");
  CHECK(ReplaceLeaseSpec("[1]", spec).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK_FALSE(ReplaceLeaseSpec("{", spec).ok());
}
