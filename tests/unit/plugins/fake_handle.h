// FakeHandle: a framework::Handle for plugin unit tests. It serves a Snapshot built from objects
// (framework::Snapshot::FromObjects), records the bindings, volume patches and ResourceClaim
// patches and gets asked of its ClusterApi, drops events, serves the storage objects
// (FakeStorageLister) and the dynamic resource objects (FakeResourceLister) a test adds, and has no
// parallelizer and no waiting pods (plugins under unit test must not need them).
//
// Thread-safety: the recorded calls and FakeResourceLister are locked; everything else is read-only
// after set-up.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "api/resource.h"
#include "framework/handle.h"
#include "framework/metrics_recorder.h"
#include "framework/pod_info.h"
#include "framework/snapshot.h"
#include "framework/status.h"

namespace ksched::plugins::testing {

// Records BindPod calls as ("namespace/name", node) and answers with `bind_result`.
class FakeClusterApi final : public framework::ClusterApi {
 public:
  framework::Status BindPod(const api::Pod& pod, const std::string& node_name) override {
    std::lock_guard<std::mutex> lock(mu_);
    bindings_.emplace_back(pod.metadata.namespace_ + "/" + pod.metadata.name, node_name);
    return bind_result_;
  }
  framework::Status EvictVictim(const api::Pod& /*victim*/,
                                const std::string& /*condition_message*/) override {
    return framework::Status::FromError("FakeClusterApi: EvictVictim not expected");
  }
  framework::Status ClearNominatedNodeName(const api::Pod& /*pod*/) override {
    return framework::Status::FromError("FakeClusterApi: ClearNominatedNodeName not expected");
  }

  // Records ("pv/<name>" or "pvc/<ns>/<name>", patch); answers `patch_result` and, on success,
  // the resourceVersion `patched_version`.
  framework::Status PatchPersistentVolume(const std::string& name, const std::string& merge_patch,
                                          std::string& resource_version) override {
    return RecordPatch("pv/" + name, merge_patch, resource_version);
  }
  framework::Status PatchPersistentVolumeClaim(const std::string& ns, const std::string& name,
                                               const std::string& merge_patch,
                                               std::string& resource_version) override {
    return RecordPatch("pvc/" + ns + "/" + name, merge_patch, resource_version);
  }
  void set_patch_result(framework::Status status, std::string patched_version) {
    std::lock_guard<std::mutex> lock(mu_);
    patch_result_ = std::move(status);
    patched_version_ = std::move(patched_version);
  }
  std::vector<std::pair<std::string, std::string>> patches() const {
    std::lock_guard<std::mutex> lock(mu_);
    return patches_;
  }

  // PatchResourceClaim and GetResourceClaim: the calls are recorded; each answers the next of the
  // results set (the last one repeating). With none set, a patch succeeds leaving `updated` as it
  // is, and a get fails as a claim not found would (Error with framework::kReasonNotFound).
  struct ResourceClaimPatch {
    std::string ns, name, subresource, content_type, patch;
  };
  struct ResourceClaimResult {
    framework::Status status;
    std::optional<api::ResourceClaim> claim;  // on success: what `updated` / `out` get, when set
  };
  framework::Status PatchResourceClaim(const std::string& ns, const std::string& name, const std::string& subresource,
                                       const std::string& content_type, const std::string& patch,
                                       api::ResourceClaim* updated) override {
    std::lock_guard<std::mutex> lock(mu_);
    claim_patches_.push_back({ns, name, subresource, content_type, patch});
    return claim_patch_results_.Next(framework::Status(), updated);
  }
  framework::Status GetResourceClaim(const std::string& ns, const std::string& name, api::ResourceClaim& out) override {
    std::lock_guard<std::mutex> lock(mu_);
    claim_gets_.emplace_back(ns, name);
    framework::Status not_found = framework::Status::FromError(
        "resourceclaims.resource.k8s.io \"" + name + "\" not found");
    not_found.AppendReason(std::string(framework::kReasonNotFound));
    return claim_get_results_.Next(std::move(not_found), &out);
  }
  void set_claim_patch_results(std::vector<ResourceClaimResult> results) {
    std::lock_guard<std::mutex> lock(mu_);
    claim_patch_results_ = {std::move(results), 0};
  }
  void set_claim_get_results(std::vector<ResourceClaimResult> results) {
    std::lock_guard<std::mutex> lock(mu_);
    claim_get_results_ = {std::move(results), 0};
  }
  std::vector<ResourceClaimPatch> claim_patches() const {
    std::lock_guard<std::mutex> lock(mu_);
    return claim_patches_;
  }
  std::vector<std::pair<std::string, std::string>> claim_gets() const {  // (namespace, name)
    std::lock_guard<std::mutex> lock(mu_);
    return claim_gets_;
  }

  void set_bind_result(framework::Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    bind_result_ = std::move(status);
  }
  std::vector<std::pair<std::string, std::string>> bindings() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bindings_;
  }

 private:
  mutable std::mutex mu_;
  framework::Status bind_result_;
  std::vector<std::pair<std::string, std::string>> bindings_;
  framework::Status patch_result_;
  std::string patched_version_ = "100";
  std::vector<std::pair<std::string, std::string>> patches_;

  std::vector<ResourceClaimPatch> claim_patches_;
  std::vector<std::pair<std::string, std::string>> claim_gets_;
  // Results answered in order, the last repeating.
  struct ResourceClaimResults {
    std::vector<ResourceClaimResult> results;
    std::size_t next = 0;

    // The next result, its claim copied to `claim` on success; `fallback` when there are none.
    framework::Status Next(framework::Status fallback, api::ResourceClaim* claim) {
      if (results.empty()) return fallback;
      const ResourceClaimResult& result = results[std::min(next++, results.size() - 1)];
      if (result.status.IsSuccess() && result.claim.has_value() && claim != nullptr) *claim = *result.claim;
      return result.status;
    }
  };
  ResourceClaimResults claim_patch_results_;
  ResourceClaimResults claim_get_results_;

  framework::Status RecordPatch(std::string target, const std::string& patch, std::string& resource_version) {
    std::lock_guard<std::mutex> lock(mu_);
    patches_.emplace_back(std::move(target), patch);
    if (patch_result_.IsSuccess()) resource_version = patched_version_;
    return patch_result_;
  }
};

class DiscardingEventRecorder final : public framework::EventRecorder {
 public:
  void Eventf(const api::Pod& /*regarding*/, const api::Pod* /*related*/,
              std::string_view /*type*/, std::string_view /*reason*/, std::string_view /*action*/,
              std::string /*note*/) override {}
};

// Serves the claims, volumes and classes a test added (upstream's fake informer listers).
class FakeStorageLister final : public framework::StorageLister {
 public:
  void Add(api::PersistentVolumeClaim claim) {
    claims_.push_back(std::make_shared<const api::PersistentVolumeClaim>(std::move(claim)));
  }
  void Add(api::PersistentVolume volume) {
    volumes_.push_back(std::make_shared<const api::PersistentVolume>(std::move(volume)));
  }
  void Add(api::StorageClass storage_class) {
    classes_.push_back(std::make_shared<const api::StorageClass>(std::move(storage_class)));
  }
  std::shared_ptr<const api::PersistentVolumeClaim> GetPersistentVolumeClaim(
      std::string_view ns, std::string_view name) const override {
    for (const auto& claim : claims_) {
      if (claim->metadata.namespace_ == ns && claim->metadata.name == name) return claim;
    }
    return nullptr;
  }
  std::shared_ptr<const api::PersistentVolume> GetPersistentVolume(std::string_view name) const override {
    return Find(volumes_, name);
  }
  std::shared_ptr<const api::StorageClass> GetStorageClass(std::string_view name) const override {
    return Find(classes_, name);
  }
  std::vector<std::shared_ptr<const api::PersistentVolume>> ListPersistentVolumes() const override {
    return volumes_;
  }
  void Add(api::CSINode csi_node) { csi_nodes_.push_back(std::make_shared<const api::CSINode>(std::move(csi_node))); }
  void Add(api::VolumeAttachment attachment) {
    attachments_.push_back(std::make_shared<const api::VolumeAttachment>(std::move(attachment)));
  }
  std::shared_ptr<const api::CSINode> GetCSINode(std::string_view name) const override {
    return Find(csi_nodes_, name);
  }
  void ForEachVolumeAttachment(const std::function<void(const api::VolumeAttachment&)>& fn) const override {
    for (const auto& attachment : attachments_) fn(*attachment);
  }
  void Add(api::CSIDriver driver) { csi_drivers_.push_back(std::make_shared<const api::CSIDriver>(std::move(driver))); }
  void Add(api::CSIStorageCapacity capacity) {
    capacities_.push_back(std::make_shared<const api::CSIStorageCapacity>(std::move(capacity)));
  }
  std::shared_ptr<const api::CSIDriver> GetCSIDriver(std::string_view name) const override {
    return Find(csi_drivers_, name);
  }
  void ForEachCSIStorageCapacity(const std::function<void(const api::CSIStorageCapacity&)>& fn) const override {
    for (const auto& capacity : capacities_) fn(*capacity);
  }
  // Replaces the object of the same name (an informer update), or adds it.
  void Update(api::PersistentVolumeClaim claim) {
    std::erase_if(claims_, [&](const auto& c) {
      return c->metadata.namespace_ == claim.metadata.namespace_ && c->metadata.name == claim.metadata.name;
    });
    Add(std::move(claim));
  }
  void Update(api::PersistentVolume volume) {
    std::erase_if(volumes_, [&](const auto& v) { return v->metadata.name == volume.metadata.name; });
    Add(std::move(volume));
  }

 private:
  template <typename T>
  static std::shared_ptr<const T> Find(const std::vector<std::shared_ptr<const T>>& objects,
                                       std::string_view name) {
    for (const auto& object : objects) {
      if (object->metadata.name == name) return object;
    }
    return nullptr;
  }
  std::vector<std::shared_ptr<const api::PersistentVolumeClaim>> claims_;
  std::vector<std::shared_ptr<const api::PersistentVolume>> volumes_;
  std::vector<std::shared_ptr<const api::StorageClass>> classes_;
  std::vector<std::shared_ptr<const api::CSINode>> csi_nodes_;
  std::vector<std::shared_ptr<const api::VolumeAttachment>> attachments_;
  std::vector<std::shared_ptr<const api::CSIDriver>> csi_drivers_;
  std::vector<std::shared_ptr<const api::CSIStorageCapacity>> capacities_;
};

// Serves the ResourceClaims, ResourceSlices and DeviceClasses a test added (upstream's fake
// informer listers); adding an object of the same namespace and name replaces it (an informer
// update). Safe from any thread.
class FakeResourceLister final : public framework::ResourceLister {
 public:
  void AddResourceClaim(api::ResourceClaim claim) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string key = claim.metadata.namespace_ + "/" + claim.metadata.name;
    claims_.insert_or_assign(std::move(key), std::make_shared<const api::ResourceClaim>(std::move(claim)));
  }
  void RemoveResourceClaim(std::string_view ns, std::string_view name) {
    std::lock_guard<std::mutex> lock(mu_);
    claims_.erase(std::string(ns) + "/" + std::string(name));
  }
  void AddResourceSlice(api::ResourceSlice slice) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string key = slice.metadata.name;
    slices_.insert_or_assign(std::move(key), std::make_shared<const api::ResourceSlice>(std::move(slice)));
  }
  void AddDeviceClass(api::DeviceClass device_class) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string key = device_class.metadata.name;
    classes_.insert_or_assign(std::move(key), std::make_shared<const api::DeviceClass>(std::move(device_class)));
  }

  std::shared_ptr<const api::ResourceClaim> GetResourceClaim(std::string_view ns,
                                                             std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = claims_.find(std::string(ns) + "/" + std::string(name));
    return it == claims_.end() ? nullptr : it->second;
  }
  void ForEachResourceClaim(
      const std::function<void(const std::shared_ptr<const api::ResourceClaim>&)>& fn) const override {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, claim] : claims_) fn(claim);
  }
  std::vector<std::shared_ptr<const api::ResourceSlice>> ListResourceSlices() const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<const api::ResourceSlice>> slices;
    for (const auto& [name, slice] : slices_) slices.push_back(slice);
    return slices;
  }
  std::shared_ptr<const api::DeviceClass> GetDeviceClass(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = classes_.find(name);
    return it == classes_.end() ? nullptr : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const api::ResourceClaim>> claims_;  // "namespace/name"
  std::map<std::string, std::shared_ptr<const api::ResourceSlice>, std::less<>> slices_;
  std::map<std::string, std::shared_ptr<const api::DeviceClass>, std::less<>> classes_;
};

// A metrics recorder that records nothing; tests derive from it and keep what they check.
class NullMetricsRecorder : public framework::MetricsRecorder {
 public:
  framework::DurationSink& ExtensionPointDurations(std::string_view /*profile*/) override { return sink_; }
  framework::DurationSink& PluginDurations(std::string_view /*plugin*/) override { return sink_; }
  int plugin_sample_percent() const override { return 0; }

 private:
  struct NullSink final : framework::DurationSink {
    void Observe(framework::ExtensionPoint, framework::Code, std::chrono::nanoseconds) override {}
  };
  NullSink sink_;
};

class FakeHandle final : public framework::Handle {
 public:
  FakeHandle() : FakeHandle(std::vector<std::shared_ptr<const api::Node>>{}) {}
  explicit FakeHandle(const std::vector<std::shared_ptr<const api::Node>>& nodes,
                      const std::vector<framework::PodInfoPtr>& pods = {})
      : snapshot_(framework::Snapshot::FromObjects(nodes, pods)) {}

  const framework::Snapshot& snapshot() const override { return *snapshot_; }
  framework::ClusterApi& cluster_api() override { return cluster_api_; }
  framework::EventRecorder& event_recorder() override { return event_recorder_; }
  framework::Parallelizer& parallelizer() override {
    // No plugin under unit test runs work in parallel through the handle.
    std::abort();
  }
  const std::string& profile_name() const override { return profile_name_; }
  std::optional<api::Labels> NamespaceLabels(std::string_view /*name*/) const override {
    return std::nullopt;
  }
  void IterateOverWaitingPods(const std::function<void(framework::WaitingPod&)>& /*fn*/) override {}
  bool RejectWaitingPod(std::string_view /*uid*/) override { return false; }

  FakeClusterApi& fake_cluster_api() { return cluster_api_; }
  const framework::StorageLister* storage_lister() const override { return &storage_; }
  FakeStorageLister& storage() { return storage_; }
  const framework::ResourceLister* resource_lister() const override { return &resources_; }
  FakeResourceLister& resources() { return resources_; }
  std::optional<bool> PodExists(std::string_view /*ns*/, std::string_view /*name*/) const override {
    return pod_exists_;
  }
  void set_pod_exists(std::optional<bool> exists) { pod_exists_ = exists; }
  framework::MetricsRecorder* metrics_recorder() override { return metrics_recorder_; }
  void set_metrics_recorder(framework::MetricsRecorder* recorder) { metrics_recorder_ = recorder; }

 private:
  std::unique_ptr<framework::Snapshot> snapshot_;
  FakeClusterApi cluster_api_;
  DiscardingEventRecorder event_recorder_;
  FakeStorageLister storage_;
  FakeResourceLister resources_;
  std::optional<bool> pod_exists_;
  framework::MetricsRecorder* metrics_recorder_ = nullptr;
  std::string profile_name_ = std::string(api::kDefaultSchedulerName);
};

}  // namespace ksched::plugins::testing
