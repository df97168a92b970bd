#include "scheduler/rest_pod_status_writer.h"

#include <spdlog/spdlog.h>

#include "scheduler/cluster_api.h"

namespace ksched::scheduler {

RestPodStatusWriter::RestPodStatusWriter(std::shared_ptr<client::RestClient> client, int threads)
    : client_(std::move(client)), pool_(threads) {}

RestPodStatusWriter::~RestPodStatusWriter() { pool_.Stop(); }

void RestPodStatusWriter::UpdatePodScheduledCondition(
    std::shared_ptr<const api::Pod> pod, api::PodCondition condition,
    std::optional<framework::NominatingInfo> nominating) {
  pool_.Submit([this, pod = std::move(pod), condition = std::move(condition), nominating] {
    std::optional<std::string> nominated;
    if (nominating.has_value() && nominating->mode == framework::NominatingMode::kOverride) {
      nominated = nominating->nominated_node_name;
    }
    absl::Status status = PatchPodScheduledCondition(*client_, *pod, condition, nominated);
    if (!status.ok()) {
      failures_.fetch_add(1, std::memory_order_relaxed);
      SPDLOG_ERROR("Error updating pod pod=\"{}/{}\": {}", pod->metadata.namespace_,
                   pod->metadata.name, std::string(status.message()));
    }
  });
}

absl::Status RestPodStatusWriter::SetNominatedNodeName(const api::Pod& pod, const std::string& node_name) {
  return PatchNominatedNodeName(*client_, pod, node_name);
}

}  // namespace ksched::scheduler
