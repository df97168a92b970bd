#include "plugins/queue_sort/priority_sort.h"

#include <cstdint>

namespace ksched::plugins::queue_sort {

bool PrioritySort::Less(const framework::QueuedPodInfo& a,
                        const framework::QueuedPodInfo& b) const {
  const std::int32_t pa = api::PodPriority(a.pod());
  const std::int32_t pb = api::PodPriority(b.pod());
  return pa > pb || (pa == pb && a.timestamp < b.timestamp);
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<PrioritySort>();
}

}  // namespace ksched::plugins::queue_sort
