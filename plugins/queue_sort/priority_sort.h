// PrioritySort: the default QueueSort plugin (upstream plugins/queuesort, v1.34): pods with a higher
// spec.priority pop first (an absent priority counts as 0, upstream corev1helpers.PodPriority);
// equal priorities pop in order of their queue timestamp, earliest first.
//
// Thread-safety: stateless.
#pragma once

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::queue_sort {

inline constexpr std::string_view kName = "PrioritySort";

class PrioritySort final : public framework::QueueSortPlugin {
 public:
  std::string_view Name() const override { return kName; }
  bool Less(const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) const override;
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::queue_sort
