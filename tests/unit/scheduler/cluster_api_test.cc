// RestClusterApi and PatchPodScheduledCondition against an AnsweringTransport: the requests made
// (exact bodies), the ones not made, and how API errors end.
#include "scheduler/cluster_api.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "answering_transport.h"

namespace {

using ksched::api::Pod;
using ksched::api::PodCondition;
using ksched::api::Time;
using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::framework::Code;
using ksched::scheduler::PatchPodScheduledCondition;
using ksched::scheduler::RestClusterApi;
using ksched::scheduler::testing::AnsweringTransport;
using ksched::scheduler::testing::InstantClient;
using ksched::scheduler::testing::Response;
using ksched::scheduler::testing::StatusResponse;
using namespace std::chrono_literals;

// 2026-11-30T12:00:00Z, and an hour later.
const Time kT0{std::chrono::seconds(1796040000)};
const Time kT1 = kT0 + 1h;
constexpr char kPodPath[] = "/api/v1/namespaces/ns1/pods/p1";
constexpr char kStatusPath[] = "/api/v1/namespaces/ns1/pods/p1/status";
constexpr char kDisruptionMessage[] = "default-scheduler: preempting to accommodate a higher priority pod";

Pod MakePod() {
  Pod pod;
  pod.metadata.name = "p1";
  pod.metadata.namespace_ = "ns1";
  pod.metadata.uid = "uid-1";
  pod.metadata.generation = 3;
  return pod;
}

PodCondition Condition(std::string type, std::string status, std::string reason, std::string message,
                       std::optional<Time> transition, std::int64_t observed_generation) {
  PodCondition condition;
  condition.type = std::move(type);
  condition.status = std::move(status);
  condition.reason = std::move(reason);
  condition.message = std::move(message);
  condition.last_transition_time = transition;
  condition.observed_generation = observed_generation;
  return condition;
}

PodCondition Unschedulable(std::string message) {
  return Condition("PodScheduled", "False", "Unschedulable", std::move(message), std::nullopt, 3);
}

// Answers by method: PATCH and DELETE from their queues (200 once used up), POST with `post`.
struct ByMethod {
  std::vector<ksched::client::HttpResponse> patch;
  std::vector<ksched::client::HttpResponse> del;
  ksched::client::HttpResponse post;
};

std::string Methods(const std::vector<HttpRequest>& requests) {
  std::string methods;
  for (const HttpRequest& request : requests) {
    if (!methods.empty()) methods += ' ';
    switch (request.method) {
      case HttpMethod::kPost: methods += "POST"; break;
      case HttpMethod::kPatch: methods += "PATCH"; break;
      case HttpMethod::kDelete: methods += "DELETE"; break;
      default: methods += "?"; break;
    }
  }
  return methods;
}

struct Fixture {
  std::shared_ptr<AnsweringTransport> transport = std::make_shared<AnsweringTransport>();
  std::shared_ptr<ksched::client::RestClient> client = InstantClient(transport);
  RestClusterApi api{client, [] { return kT1; }};

  void Answer(std::vector<ksched::client::HttpResponse> patch, std::vector<ksched::client::HttpResponse> del = {},
              ksched::client::HttpResponse post = Response(201)) {
    auto state = std::make_shared<ByMethod>(ByMethod{std::move(patch), std::move(del), std::move(post)});
    transport->set_responder([state](const HttpRequest& request) -> absl::StatusOr<ksched::client::HttpResponse> {
      auto next = [](std::vector<ksched::client::HttpResponse>& queue) {
        if (queue.empty()) return Response(200);
        ksched::client::HttpResponse response = queue.front();
        queue.erase(queue.begin());
        return response;
      };
      if (request.method == HttpMethod::kPatch) return next(state->patch);
      if (request.method == HttpMethod::kDelete) return next(state->del);
      return state->post;
    });
  }
};

}  // namespace

TEST_CASE("BindPod POSTs a Binding, a refusal is an Error status with the API's message", "[cluster_api]") {
  Fixture f;
  REQUIRE(f.api.BindPod(MakePod(), "node-1").IsSuccess());
  auto requests = f.transport->requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].method == HttpMethod::kPost);
  CHECK(requests[0].target == "/api/v1/namespaces/ns1/pods/p1/binding");
  CHECK(requests[0].body == R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":"p1","namespace":"ns1",)"
                            R"("uid":"uid-1"},"target":{"kind":"Node","name":"node-1"}})");

  f.Answer({}, {}, StatusResponse(409, "Conflict", "pod p1 is already assigned to node node-0"));
  const ksched::framework::Status refused = f.api.BindPod(MakePod(), "node-1");
  CHECK(refused.code() == Code::kError);
  CHECK(refused.Message().find("pod p1 is already assigned to node node-0") != std::string::npos);
}

TEST_CASE("EvictVictim adds DisruptionTarget, then deletes with the victim's UID", "[cluster_api]") {
  Fixture f;
  Pod victim = MakePod();
  victim.status.conditions.push_back(Condition("PodScheduled", "True", "", "", kT0, 0));

  SECTION("condition patched, then deleted") {
    REQUIRE(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    const auto requests = f.transport->requests();
    REQUIRE(Methods(requests) == "PATCH DELETE");
    CHECK(requests[0].target == kStatusPath);
    CHECK(requests[0].content_type == "application/strategic-merge-patch+json");
    CHECK(requests[0].body ==
          R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"},{"type":"DisruptionTarget"}],)"
          R"("conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T13:00:00Z",)"
          R"("message":"default-scheduler: preempting to accommodate a higher priority pod","observedGeneration":3,)"
          R"("reason":"PreemptionByScheduler","status":"True","type":"DisruptionTarget"}]}})");
    CHECK(requests[1].target == kPodPath);
    CHECK(requests[1].body == R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"uid":"uid-1"}})");
  }
  SECTION("a victim already marked is only deleted") {
    victim.status.conditions.push_back(
        Condition("DisruptionTarget", "True", "PreemptionByScheduler", kDisruptionMessage, kT0, 3));
    REQUIRE(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(Methods(f.transport->requests()) == "DELETE");
  }
  SECTION("a victim gone before the patch: success, nothing deleted") {
    f.Answer({StatusResponse(404, "NotFound")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(Methods(f.transport->requests()) == "PATCH");
  }
  SECTION("a victim gone before the delete (404), or replaced by a namesake (409): success") {
    f.Answer({}, {StatusResponse(404, "NotFound"), StatusResponse(409, "Conflict", "Precondition failed")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(Methods(f.transport->requests()) == "PATCH DELETE PATCH DELETE");
  }
  SECTION("a failing delete is an error") {
    f.Answer({}, {StatusResponse(403, "Forbidden", "pods is forbidden")});
    const ksched::framework::Status status = f.api.EvictVictim(victim, kDisruptionMessage);
    CHECK(status.code() == Code::kError);
    CHECK(status.Message().find("pods is forbidden") != std::string::npos);
  }
  SECTION("a status patch answered 500 is retried 4 times in all, then an error") {
    f.Answer({StatusResponse(500, "InternalError"), StatusResponse(500, "InternalError"),
                        StatusResponse(500, "InternalError"), StatusResponse(500, "InternalError")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).code() == Code::kError);
    CHECK(Methods(f.transport->requests()) == "PATCH PATCH PATCH PATCH");
  }
  SECTION("a status patch answered 503 once succeeds on the retry") {
    f.Answer({StatusResponse(503, "ServiceUnavailable")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(Methods(f.transport->requests()) == "PATCH PATCH DELETE");
  }
  SECTION("a status patch answered 409 once succeeds on the retry (v1.37 RetriableWithConflict)") {
    f.Answer({StatusResponse(409, "Conflict")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).IsSuccess());
    CHECK(Methods(f.transport->requests()) == "PATCH PATCH DELETE");
  }
  SECTION("a status patch answered 422 is not retried") {
    f.Answer({StatusResponse(422, "Invalid")});
    CHECK(f.api.EvictVictim(victim, kDisruptionMessage).code() == Code::kError);
    CHECK(Methods(f.transport->requests()) == "PATCH");
  }
}

namespace {

// Answers POSTs from `posts` (201 once used up).
void AnswerPosts(AnsweringTransport& transport, std::vector<ksched::client::HttpResponse> posts) {
  auto queue = std::make_shared<std::vector<ksched::client::HttpResponse>>(std::move(posts));
  transport.set_responder([queue](const HttpRequest&) -> absl::StatusOr<ksched::client::HttpResponse> {
    if (queue->empty()) return Response(201);
    ksched::client::HttpResponse response = queue->front();
    queue->erase(queue->begin());
    return response;
  });
}

ksched::framework::Status BindAsync(Fixture& f) {
  std::promise<ksched::framework::Status> answer;
  f.api.BindPodAsync(MakePod(), "node-1", [&answer](ksched::framework::Status status) { answer.set_value(status); });
  return answer.get_future().get();
}

}  // namespace

TEST_CASE("Binds are retried on transient errors as v1.37 util.BindPod (k/k #138855)", "[cluster_api]") {
  const bool async = GENERATE(false, true);
  Fixture f;
  auto bind = [&] { return async ? BindAsync(f) : f.api.BindPod(MakePod(), "node-1"); };
  SECTION("500 then 503, then bound") {
    AnswerPosts(*f.transport, {StatusResponse(500, "InternalError"), StatusResponse(503, "ServiceUnavailable")});
    CHECK(bind().IsSuccess());
    CHECK(Methods(f.transport->requests()) == "POST POST POST");
  }
  SECTION("4 attempts in all") {
    AnswerPosts(*f.transport, std::vector<ksched::client::HttpResponse>(5, StatusResponse(500, "InternalError", "etcd")));
    const ksched::framework::Status status = bind();
    CHECK(status.code() == Code::kError);
    CHECK(status.Message().find("etcd") != std::string::npos);
    CHECK(Methods(f.transport->requests()) == "POST POST POST POST");
  }
  SECTION("a Conflict is final") {
    AnswerPosts(*f.transport, {StatusResponse(409, "Conflict", "pod p1 is already assigned to node node-0")});
    CHECK(bind().code() == Code::kError);
    CHECK(Methods(f.transport->requests()) == "POST");
  }
}

TEST_CASE("PatchNominatedNodeName sets the field, only when it differs", "[cluster_api]") {
  Fixture f;
  ksched::api::Pod pod = MakePod();
  REQUIRE(ksched::scheduler::PatchNominatedNodeName(*f.client, pod, "node-1").ok());
  auto requests = f.transport->requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].method == HttpMethod::kPatch);
  CHECK(requests[0].target == "/api/v1/namespaces/ns1/pods/p1/status");
  CHECK(requests[0].body == R"({"status":{"nominatedNodeName":"node-1"}})");
  pod.status.nominated_node_name = "node-1";
  REQUIRE(ksched::scheduler::PatchNominatedNodeName(*f.client, pod, "node-1").ok());
  CHECK(f.transport->requests().size() == 1);
}

TEST_CASE("ClearNominatedNodeName patches the field away, only when set", "[cluster_api]") {
  Fixture f;
  Pod pod = MakePod();
  REQUIRE(f.api.ClearNominatedNodeName(pod).IsSuccess());
  CHECK(f.transport->requests().empty());
  pod.status.nominated_node_name = "node-1";
  REQUIRE(f.api.ClearNominatedNodeName(pod).IsSuccess());
  const auto requests = f.transport->requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].method == HttpMethod::kPatch);
  CHECK(requests[0].target == kStatusPath);
  CHECK(requests[0].body == R"({"status":{"nominatedNodeName":null}})");
}

TEST_CASE("PatchPodScheduledCondition sends only changes, as updatePod does", "[cluster_api]") {
  Fixture f;
  Pod pod = MakePod();
  struct Case {
    const char* name;
    std::vector<PodCondition> conditions;  // the pod's
    std::string nominated;                 // the pod's
    PodCondition condition;
    std::optional<std::string> nominate;
    const char* patch;  // nullptr: no request
  };
  const PodCondition current = Condition("PodScheduled", "False", "Unschedulable", "0/3 nodes", kT0, 3);
  const std::vector<Case> cases = {
      {"a first condition", {}, "", Unschedulable("0/3 nodes"), std::nullopt,
       R"({"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T13:00:00Z",)"
       R"("message":"0/3 nodes","observedGeneration":3,"reason":"Unschedulable","status":"False",)"
       R"("type":"PodScheduled"}]}})"},
      {"the same condition", {current}, "", Unschedulable("0/3 nodes"), std::nullopt, nullptr},
      {"the same condition, nominated node unchanged", {current}, "node-1", Unschedulable("0/3 nodes"),
       std::string("node-1"), nullptr},
      {"the same condition, no nomination asked, a node nominated", {current}, "node-1",
       Unschedulable("0/3 nodes"), std::nullopt, nullptr},
      {"the same condition, another nominated node", {current}, "node-1", Unschedulable("0/3 nodes"),
       std::string("node-2"), R"({"status":{"nominatedNodeName":"node-2"}})"},
      {"the same condition, nomination cleared", {current}, "node-1", Unschedulable("0/3 nodes"), std::string(),
       R"({"status":{"nominatedNodeName":null}})"},
      {"a new message", {current}, "", Unschedulable("0/4 nodes"), std::nullopt,
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],)"
       R"("conditions":[{"message":"0/4 nodes","type":"PodScheduled"}]}})"},
      {"a new reason", {current}, "",
       Condition("PodScheduled", "False", "SchedulerError", "0/3 nodes", std::nullopt, 3), std::nullopt,
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],)"
       R"("conditions":[{"reason":"SchedulerError","type":"PodScheduled"}]}})"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      pod.status.conditions = c.conditions;
      pod.status.nominated_node_name = c.nominated;
      const absl::Status status = PatchPodScheduledCondition(*f.client, pod, c.condition, c.nominate, kT1);
      INFO(status.ToString());
      REQUIRE(status.ok());
      const auto requests = f.transport->requests();
      if (c.patch == nullptr) {
        CHECK(requests.empty());
      } else {
        REQUIRE(requests.size() == 1);
        CHECK(requests[0].method == HttpMethod::kPatch);
        CHECK(requests[0].target == kStatusPath);
        CHECK(requests[0].content_type == "application/strategic-merge-patch+json");
        CHECK(requests[0].body == c.patch);
      }
    }
  }
  SECTION("an API error is returned") {
    f.Answer({StatusResponse(422, "Invalid", "status.conditions: Invalid value")});
    const absl::Status status = PatchPodScheduledCondition(*f.client, pod, Unschedulable("m"), std::nullopt, kT1);
    CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  }
}

namespace {

constexpr char kClaimPath[] = "/apis/resource.k8s.io/v1/namespaces/ns1/resourceclaims/c";
constexpr char kClaimBody[] = R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1",)"
                              R"("metadata":{"name":"c","namespace":"ns1","resourceVersion":"8",)"
                              R"("finalizers":["resource.kubernetes.io/delete-protection"]},)"
                              R"("spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"d"}}]}},)"
                              R"("status":{"reservedFor":[{"resource":"pods","name":"p1","uid":"uid-1"}]}})";
constexpr char kConflictMessage[] =
    R"(Operation cannot be fulfilled on resourceclaims.resource.k8s.io \"c\": the object has been modified; )"
    R"(please apply your changes to the latest version and try again)";

// Answers every request with the next of `responses` (the last repeating).
void AnswerAll(AnsweringTransport& transport, std::vector<ksched::client::HttpResponse> responses) {
  auto state = std::make_shared<std::vector<ksched::client::HttpResponse>>(std::move(responses));
  transport.set_responder([state](const HttpRequest&) -> absl::StatusOr<ksched::client::HttpResponse> {
    ksched::client::HttpResponse response = state->front();
    if (state->size() > 1) state->erase(state->begin());
    return response;
  });
}

}  // namespace

TEST_CASE("PatchResourceClaim PATCHes the claim or its status and decodes the answer", "[cluster_api]") {
  Fixture f;
  AnswerAll(*f.transport, {Response(200, kClaimBody)});
  ksched::api::ResourceClaim updated;
  const std::string patch = R"({"metadata":{"resourceVersion":"7"},"status":{"reservedFor":[]}})";
  REQUIRE(f.api.PatchResourceClaim("ns1", "c", "status", "application/merge-patch+json", patch, &updated).IsSuccess());
  CHECK(updated.metadata.resource_version == "8");
  CHECK(updated.finalizers == std::vector<std::string>{"resource.kubernetes.io/delete-protection"});
  REQUIRE(updated.status.reserved_for.size() == 1);
  CHECK(updated.status.reserved_for[0].uid == "uid-1");
  REQUIRE(f.api.PatchResourceClaim("ns1", "c", "", "application/strategic-merge-patch+json", "{}", nullptr)
              .IsSuccess());
  const auto requests = f.transport->requests();
  REQUIRE(Methods(requests) == "PATCH PATCH");
  CHECK(requests[0].target == std::string(kClaimPath) + "/status");
  CHECK(requests[0].content_type == "application/merge-patch+json");
  CHECK(requests[0].body == patch);
  CHECK(requests[1].target == kClaimPath);
  CHECK(requests[1].content_type == "application/strategic-merge-patch+json");

  // An unknown patch type is refused before anything is sent.
  const ksched::framework::Status unknown =
      f.api.PatchResourceClaim("ns1", "c", "", "application/apply-patch+yaml", "{}", nullptr);
  CHECK(unknown.code() == Code::kError);
  CHECK(unknown.Message().find("application/apply-patch+yaml") != std::string::npos);
  CHECK(f.transport->requests().size() == 2);
}

TEST_CASE("PatchResourceClaim and GetResourceClaim: a Conflict or NotFound carries its reason", "[cluster_api]") {
  Fixture f;
  ksched::api::ResourceClaim updated;
  updated.metadata.name = "untouched";

  AnswerAll(*f.transport, {StatusResponse(409, "Conflict", kConflictMessage)});
  const ksched::framework::Status conflict =
      f.api.PatchResourceClaim("ns1", "c", "status", "application/merge-patch+json", "{}", &updated);
  CHECK(conflict.code() == Code::kError);
  CHECK(ksched::framework::HasReason(conflict, ksched::framework::kReasonConflict));
  CHECK_FALSE(ksched::framework::HasReason(conflict, ksched::framework::kReasonNotFound));
  CHECK(conflict.error().find(R"(Operation cannot be fulfilled on resourceclaims.resource.k8s.io "c": the object has )"
                              R"(been modified; please apply your changes to the latest version and try again)") !=
        std::string::npos);
  CHECK(updated.metadata.name == "untouched");
  CHECK(Methods(f.transport->requests()) == "PATCH");  // not retried

  AnswerAll(*f.transport, {StatusResponse(404, "NotFound", R"(resourceclaims.resource.k8s.io \"c\" not found)")});
  ksched::api::ResourceClaim out;
  const ksched::framework::Status missing = f.api.GetResourceClaim("ns1", "c", out);
  CHECK(missing.code() == Code::kError);
  CHECK(ksched::framework::HasReason(missing, ksched::framework::kReasonNotFound));
  CHECK_FALSE(ksched::framework::HasReason(missing, ksched::framework::kReasonConflict));
  CHECK(missing.error().find(R"(resourceclaims.resource.k8s.io "c" not found)") != std::string::npos);

  // Other failures carry neither reason.
  AnswerAll(*f.transport, {StatusResponse(403, "Forbidden", "forbidden")});
  const ksched::framework::Status forbidden =
      f.api.PatchResourceClaim("ns1", "c", "", "application/merge-patch+json", "{}", nullptr);
  CHECK(forbidden.code() == Code::kError);
  CHECK(forbidden.Reasons().size() == 1);
}

TEST_CASE("GetResourceClaim GETs and decodes the claim, an undecodable answer is an error", "[cluster_api]") {
  Fixture f;
  AnswerAll(*f.transport, {Response(200, kClaimBody), Response(200, R"({"metadata":{"name":"c"},"spec":[]})")});
  ksched::api::ResourceClaim out;
  REQUIRE(f.api.GetResourceClaim("ns1", "c", out).IsSuccess());
  CHECK(out.metadata.name == "c");
  CHECK(out.metadata.resource_version == "8");
  const auto requests = f.transport->requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].method == HttpMethod::kGet);
  CHECK(requests[0].target == kClaimPath);

  const ksched::framework::Status bad = f.api.GetResourceClaim("ns1", "c", out);
  CHECK(bad.code() == Code::kError);
  CHECK(bad.error() == "decoding ResourceClaim ns1/c: spec: expected an object, got array");
}
