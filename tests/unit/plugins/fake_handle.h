// FakeHandle: a framework::Handle for plugin unit tests. It serves a Snapshot built from objects
// (framework::Snapshot::FromObjects), records the bindings asked of its ClusterApi, drops events,
// and has no parallelizer and no waiting pods (plugins under unit test must not need them).
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
};

class DiscardingEventRecorder final : public framework::EventRecorder {
 public:
  void Eventf(const api::Pod& /*regarding*/, const api::Pod* /*related*/,
              std::string_view /*type*/, std::string_view /*reason*/, std::string_view /*action*/,
              std::string /*note*/) override {}
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

 private:
  std::unique_ptr<framework::Snapshot> snapshot_;
  FakeClusterApi cluster_api_;
  DiscardingEventRecorder event_recorder_;
  std::string profile_name_ = std::string(api::kDefaultSchedulerName);
};

}  // namespace ksched::plugins::testing
