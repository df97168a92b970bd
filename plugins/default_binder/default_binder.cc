#include "plugins/default_binder/default_binder.h"

namespace ksched::plugins::default_binder {

framework::Status DefaultBinder::Bind(framework::CycleState& /*state*/, const api::Pod& pod,
                                      const std::string& node_name) {
  return handle_.cluster_api().BindPod(pod, node_name);
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<DefaultBinder>(handle);
}

}  // namespace ksched::plugins::default_binder
