// FakeHandle: a framework::Handle for plugin unit tests. It serves a Snapshot built from objects
// (framework::Snapshot::FromObjects), records the bindings asked of its ClusterApi, drops events,
// serves the storage objects a test adds (FakeStorageLister), and has no parallelizer and no
// waiting pods (plugins under unit test must not need them).
//
// Thread-safety: the recorded bindings are locked; everything else is read-only after set-up.
#pragma once

#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "framework/handle.h"
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
  std::optional<bool> PodExists(std::string_view /*ns*/, std::string_view /*name*/) const override {
    return pod_exists_;
  }
  void set_pod_exists(std::optional<bool> exists) { pod_exists_ = exists; }

 private:
  std::unique_ptr<framework::Snapshot> snapshot_;
  FakeClusterApi cluster_api_;
  DiscardingEventRecorder event_recorder_;
  FakeStorageLister storage_;
  std::optional<bool> pod_exists_;
  std::string profile_name_ = std::string(api::kDefaultSchedulerName);
};

}  // namespace ksched::plugins::testing
