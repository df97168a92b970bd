// DefaultBinder (upstream plugins/defaultbinder, v1.34): binds the pod by POSTing a Binding to
// pods/{name}/binding through the Handle's ClusterApi. A failed call is an Error status (the pod
// is unreserved, forgotten and retried with backoff by the scheduler).
//
// BindAsync goes through ClusterApi::BindPodAsync, so the plugin binds without blocking exactly when
// the ClusterApi does (RestClusterApi: always).
//
// Thread-safety: Bind runs on binding threads, BindAsync on the scheduling thread or the REST
// client's transport thread (a queued binding started when another finished), several at once;
// the plugin holds no state of its own and ClusterApi is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::default_binder {

inline constexpr std::string_view kName = "DefaultBinder";

class DefaultBinder final : public framework::AsyncBindPlugin {
 public:
  explicit DefaultBinder(framework::Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return kName; }
  framework::Status Bind(framework::CycleState& state, const api::Pod& pod,
                         const std::string& node_name) override;
  bool CanBindAsync() const override;
  void BindAsync(framework::CycleState& state, const api::Pod& pod, const std::string& node_name,
                 BindCallback done) override;

 private:
  framework::Handle& handle_;
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::default_binder
