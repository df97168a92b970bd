#include "plugins/default_binder/default_binder.h"

#include <utility>

namespace ksched::plugins::default_binder {

framework::Status DefaultBinder::Bind(framework::CycleState& /*state*/, const api::Pod& pod,
                                      const std::string& node_name) {
  return handle_.cluster_api().BindPod(pod, node_name);
}

bool DefaultBinder::CanBindAsync() const { return handle_.cluster_api().BindsAsynchronously(); }

void DefaultBinder::BindAsync(framework::CycleState& /*state*/, const api::Pod& pod,
                              const std::string& node_name, BindCallback done) {
  handle_.cluster_api().BindPodAsync(pod, node_name, std::move(done));
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<DefaultBinder>(handle);
}

}  // namespace ksched::plugins::default_binder
