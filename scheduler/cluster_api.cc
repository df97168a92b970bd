#include "scheduler/cluster_api.h"

#include <rapidjson/document.h>

#include <spdlog/spdlog.h>

#include <chrono>
#include <random>
#include <thread>
#include <utility>

#include "api/outside_json.h"
#include "api/json_decode.h"
#include "client/api_error.h"
#include "client/request_options.h"
#include "client/resource_path.h"
#include "scheduler/pod_status_patch.h"

namespace ksched::scheduler {
namespace {

// retry.DefaultBackoff.
constexpr int kPatchAttempts = 4;
constexpr std::chrono::milliseconds kPatchBackoffInitial{10};
constexpr int kPatchBackoffFactor = 5;
constexpr double kPatchBackoffJitter = 0.1;

api::Time SystemNow() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
}

std::string PodPath(const api::Pod& pod) {
  return client::ResourcePath()
      .Namespace(pod.metadata.namespace_)
      .Resource("pods")
      .Name(pod.metadata.name)
      .String();
}

// Upstream util.Retriable (InternalError, ServiceUnavailable), less connection refused, which
// RestClient retries itself.
bool Retriable(const absl::Status& status) {
  const std::optional<int> http = client::HttpStatusOf(status);
  return http == 500 || http == 503;
}

// Upstream util.RetriableWithConflict (v1.37): Retriable, or a Conflict.
bool RetriableWithConflict(const absl::Status& status) {
  return Retriable(status) || client::HttpStatusOf(status) == 409;
}

std::chrono::microseconds Jittered(std::chrono::milliseconds delay) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> fraction(0.0, kPatchBackoffJitter);
  return std::chrono::duration_cast<std::chrono::microseconds>(delay * (1.0 + fraction(rng)));
}

framework::Status ErrorStatus(const absl::Status& status) {
  return framework::Status::FromError(std::string(status.message()));
}

}  // namespace

absl::Status PatchPodStatus(client::RestClient& client, const api::Pod& pod,
                            const api::PodStatus& new_status) {
  const std::string patch = PodStatusPatch(pod.status, new_status);
  if (patch == "{}") return absl::OkStatus();
  const std::string path = client::ResourcePath()
                               .Namespace(pod.metadata.namespace_)
                               .Resource("pods")
                               .Name(pod.metadata.name)
                               .SubResource("status")
                               .String();
  std::chrono::milliseconds delay = kPatchBackoffInitial;
  absl::Status status;
  for (int attempt = 1;; ++attempt) {
    status = client.Patch(path, client::PatchType::kStrategic, patch).status();
    if (status.ok() || !RetriableWithConflict(status) || attempt == kPatchAttempts) return status;
    std::this_thread::sleep_for(Jittered(delay));
    delay *= kPatchBackoffFactor;
  }
}

absl::Status PatchPodScheduledCondition(client::RestClient& client, const api::Pod& pod,
                                        const api::PodCondition& condition,
                                        std::optional<std::string> nominated_node_name) {
  return PatchPodScheduledCondition(client, pod, condition, std::move(nominated_node_name), SystemNow());
}

absl::Status PatchPodScheduledCondition(client::RestClient& client, const api::Pod& pod,
                                        const api::PodCondition& condition,
                                        std::optional<std::string> nominated_node_name, api::Time now) {
  api::PodStatus new_status = pod.status;
  const bool nominated_changes =
      nominated_node_name.has_value() && *nominated_node_name != pod.status.nominated_node_name;
  const bool condition_changes = UpdatePodCondition(new_status, condition, now);
  if (!condition_changes && !nominated_changes) return absl::OkStatus();
  SPDLOG_DEBUG("Updating pod condition and nominated node name pod=\"{}/{}\" conditionType={} "
               "conditionStatus={} conditionReason={} nominatedNodeName={}",
               pod.metadata.namespace_, pod.metadata.name, condition.type, condition.status, condition.reason,
               nominated_node_name.value_or("<unchanged>"));
  if (nominated_changes) new_status.nominated_node_name = *nominated_node_name;
  return PatchPodStatus(client, pod, new_status);
}

absl::Status PatchNominatedNodeName(client::RestClient& client, const api::Pod& pod,
                                    const std::string& node_name) {
  if (pod.status.nominated_node_name == node_name) return absl::OkStatus();
  SPDLOG_DEBUG("Updating pod condition and nominated node name pod=\"{}/{}\" nominatedNodeName={} "
               "nominatingMode=Override",
               pod.metadata.namespace_, pod.metadata.name, node_name);
  api::PodStatus new_status = pod.status;
  new_status.nominated_node_name = node_name;
  return PatchPodStatus(client, pod, new_status);
}

namespace {

// One BindPodAsync call and its retries (upstream retry.OnError(DefaultBackoff, Retriable)).
struct AsyncBindCall {
  // Not owned: the REST client outlives the bindings in flight (the Scheduler waits for them), and
  // a callback must not hold its last reference.
  client::RestClient* client;
  std::string namespace_name, pod_name, pod_uid, node_name;
  framework::ClusterApi::BindCallback done;
  int attempt = 1;
  std::chrono::milliseconds delay = kPatchBackoffInitial;
};

void SendBinding(const std::shared_ptr<AsyncBindCall>& call, std::chrono::steady_clock::duration after) {
  AsyncBindCall& c = *call;
  c.client->CreateBindingAsync(
      c.namespace_name, c.pod_name, c.pod_uid, c.node_name,
      [call](absl::Status status) {
        if (status.ok() || !Retriable(status) || call->attempt == kPatchAttempts) {
          call->done(status.ok() ? framework::Status() : ErrorStatus(status));
          return;
        }
        ++call->attempt;
        const std::chrono::microseconds wait = Jittered(call->delay);
        call->delay *= kPatchBackoffFactor;
        SendBinding(call, wait);
      },
      after);
}

}  // namespace

RestClusterApi::RestClusterApi(std::shared_ptr<client::RestClient> client, std::function<api::Time()> now)
    : client_(std::move(client)), now_(now ? std::move(now) : SystemNow) {}

framework::Status RestClusterApi::BindPod(const api::Pod& pod, const std::string& node_name) {
  std::chrono::milliseconds delay = kPatchBackoffInitial;
  for (int attempt = 1;; ++attempt) {
    const absl::Status status =
        client_->CreateBinding(pod.metadata.namespace_, pod.metadata.name, pod.metadata.uid, node_name);
    if (status.ok()) return {};
    if (!Retriable(status) || attempt == kPatchAttempts) return ErrorStatus(status);
    std::this_thread::sleep_for(Jittered(delay));
    delay *= kPatchBackoffFactor;
  }
}

void RestClusterApi::BindPodAsync(const api::Pod& pod, const std::string& node_name, BindCallback done) {
  auto call = std::make_shared<AsyncBindCall>(AsyncBindCall{client_.get(), pod.metadata.namespace_, pod.metadata.name,
                                                            pod.metadata.uid, node_name, std::move(done)});
  SendBinding(call, std::chrono::steady_clock::duration::zero());
}

framework::Status RestClusterApi::EvictVictim(const api::Pod& victim, const std::string& condition_message) {
  api::PodCondition condition;
  condition.type = std::string(api::kDisruptionTarget);
  condition.status = std::string(api::kConditionTrue);
  condition.reason = std::string(kPreemptionByScheduler);
  condition.message = condition_message;
  // CalculatePodConditionObservedGeneration with PodObservedGenerationTracking (on in v1.34).
  condition.observed_generation = victim.metadata.generation;
  api::PodStatus new_status = victim.status;
  if (UpdatePodCondition(new_status, std::move(condition), now_())) {
    const absl::Status patched = PatchPodStatus(*client_, victim, new_status);
    if (patched.code() == absl::StatusCode::kNotFound) {
      SPDLOG_DEBUG("Victim Pod is already deleted victim=\"{}/{}\"", victim.metadata.namespace_,
                   victim.metadata.name);
      return {};
    }
    if (!patched.ok()) {
      SPDLOG_ERROR("Could not add DisruptionTarget condition due to preemption victim=\"{}/{}\": {}",
                   victim.metadata.namespace_, victim.metadata.name, std::string(patched.message()));
      return ErrorStatus(patched);
    }
  }
  client::DeleteOptions options;
  options.precondition_uid = victim.metadata.uid;
  const absl::Status deleted = client_->Delete(PodPath(victim), options).status();
  if (deleted.ok()) {
    SPDLOG_DEBUG("Preemptor Pod preempted victim Pod victim=\"{}/{}\"", victim.metadata.namespace_,
                 victim.metadata.name);
    return {};
  }
  const bool gone = deleted.code() == absl::StatusCode::kNotFound ||
                    (!victim.metadata.uid.empty() && client::HttpStatusOf(deleted) == 409);
  if (gone) {
    SPDLOG_DEBUG("Victim Pod is already deleted victim=\"{}/{}\": {}", victim.metadata.namespace_,
                 victim.metadata.name, std::string(deleted.message()));
    return {};
  }
  SPDLOG_ERROR("Tried to preempted pod pod=\"{}/{}\": {}", victim.metadata.namespace_, victim.metadata.name,
               std::string(deleted.message()));
  return ErrorStatus(deleted);
}

framework::Status RestClusterApi::ClearNominatedNodeName(const api::Pod& pod) {
  if (pod.status.nominated_node_name.empty()) return {};
  api::PodStatus new_status = pod.status;
  new_status.nominated_node_name.clear();
  const absl::Status status = PatchPodStatus(*client_, pod, new_status);
  if (!status.ok()) return ErrorStatus(status);
  return {};
}

namespace {

// metadata.resourceVersion of an API server's response body, or "" when it has none.
std::string ResourceVersionOf(const std::string& body) {
  rapidjson::Document document;
  if (!api::ParseOutsideJson(body, document).ok() || !document.IsObject()) return "";
  auto metadata = document.FindMember("metadata");
  if (metadata == document.MemberEnd() || !metadata->value.IsObject()) return "";
  auto version = metadata->value.FindMember("resourceVersion");
  if (version == metadata->value.MemberEnd() || !version->value.IsString()) return "";
  return std::string(version->value.GetString(), version->value.GetStringLength());
}

framework::Status MergePatch(client::RestClient& client, const std::string& path, const std::string& patch,
                             std::string& resource_version) {
  absl::StatusOr<std::string> body = client.Patch(path, client::PatchType::kMerge, patch);
  if (!body.ok()) return ErrorStatus(body.status());
  resource_version = ResourceVersionOf(*body);
  return {};
}

}  // namespace

framework::Status RestClusterApi::PatchPersistentVolume(const std::string& name, const std::string& merge_patch,
                                                        std::string& resource_version) {
  return MergePatch(*client_, client::ResourcePath().Resource("persistentvolumes").Name(name).String(),
                    merge_patch, resource_version);
}

framework::Status RestClusterApi::PatchPersistentVolumeClaim(const std::string& ns, const std::string& name,
                                                             const std::string& merge_patch,
                                                             std::string& resource_version) {
  return MergePatch(*client_,
                    client::ResourcePath().Namespace(ns).Resource("persistentvolumeclaims").Name(name).String(),
                    merge_patch, resource_version);
}

namespace {

std::string ResourceClaimPath(const std::string& ns, const std::string& name, const std::string& subresource) {
  return client::ResourcePath("resource.k8s.io", "v1")
      .Namespace(ns)
      .Resource("resourceclaims")
      .Name(name)
      .SubResource(subresource)
      .String();
}

// ErrorStatus, with kReasonConflict or kReasonNotFound appended for a 409 or a 404.
framework::Status ClaimErrorStatus(const absl::Status& status) {
  framework::Status result = ErrorStatus(status);
  const std::optional<int> http = client::HttpStatusOf(status);
  if (http == 409) result.AppendReason(std::string(framework::kReasonConflict));
  if (http == 404) result.AppendReason(std::string(framework::kReasonNotFound));
  return result;
}

// The claim of a response body; an error names the claim.
framework::Status DecodeClaim(const std::string& body, const std::string& ns, const std::string& name,
                              api::ResourceClaim& out) {
  absl::StatusOr<api::ResourceClaim> claim = api::DecodeResourceClaim(std::string_view(body));
  if (!claim.ok()) {
    return framework::Status::FromError("decoding ResourceClaim " + ns + "/" + name + ": " +
                                        std::string(claim.status().message()));
  }
  out = *std::move(claim);
  return {};
}

}  // namespace

framework::Status RestClusterApi::PatchResourceClaim(const std::string& ns, const std::string& name,
                                                     const std::string& subresource, const std::string& content_type,
                                                     const std::string& patch, api::ResourceClaim* updated) {
  std::optional<client::PatchType> type;
  for (client::PatchType t : {client::PatchType::kMerge, client::PatchType::kStrategic, client::PatchType::kJson}) {
    if (client::PatchContentType(t) == content_type) type = t;
  }
  if (!type.has_value()) {
    return framework::Status::FromError("PatchResourceClaim: unsupported patch content type \"" + content_type + "\"");
  }
  absl::StatusOr<std::string> body = client_->Patch(ResourceClaimPath(ns, name, subresource), *type, patch);
  if (!body.ok()) return ClaimErrorStatus(body.status());
  if (updated == nullptr) return {};
  return DecodeClaim(*body, ns, name, *updated);
}

framework::Status RestClusterApi::GetResourceClaim(const std::string& ns, const std::string& name,
                                                   api::ResourceClaim& out) {
  absl::StatusOr<std::string> body = client_->Get(ResourceClaimPath(ns, name, ""));
  if (!body.ok()) return ClaimErrorStatus(body.status());
  return DecodeClaim(*body, ns, name, out);
}

}  // namespace ksched::scheduler
