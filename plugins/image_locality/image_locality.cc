#include "plugins/image_locality/image_locality.h"

#include <span>
#include <vector>

namespace ksched::plugins::image_locality {
namespace {

bool NeedsLatestTag(std::string_view name) {
  // Go's strings.LastIndex returns -1 when absent; npos + 1 == 0 gives the same ordering.
  const std::size_t colon = name.rfind(':');
  const std::size_t slash = name.rfind('/');
  return colon + 1 <= slash + 1;
}

// upstream scaledImageScore, with the same float64 arithmetic.
std::int64_t ScaledImageScore(const framework::ImageStateSummary& state, std::size_t total_nodes) {
  const double spread = static_cast<double>(state.num_nodes) / static_cast<double>(total_nodes);
  return static_cast<std::int64_t>(static_cast<double>(state.size_bytes) * spread);
}

// The image state of a container's image on the node, nullptr when the node does not have it.
const framework::ImageStateSummary* FindImage(const framework::NodeInfo& node,
                                              std::string_view image) {
  const auto& states = node.image_states();
  auto it = states.end();
  if (NeedsLatestTag(image)) {
    // Reused per thread: Score runs on the parallelizer's workers, once per node.
    thread_local std::string normalized;
    normalized.assign(image);
    normalized += ":latest";
    it = states.find(normalized);
  } else {
    it = states.find(image);
  }
  return it == states.end() ? nullptr : &it->second;
}

std::int64_t SumImageScores(const framework::NodeInfo& node, std::span<const api::Container> containers,
                            std::size_t total_nodes) {
  std::int64_t sum = 0;
  for (const api::Container& container : containers) {
    if (const framework::ImageStateSummary* state = FindImage(node, container.image)) {
      sum += ScaledImageScore(*state, total_nodes);
    }
  }
  return sum;
}

}  // namespace

std::string NormalizedImageName(std::string_view name) {
  std::string normalized(name);
  if (NeedsLatestTag(name)) normalized += ":latest";
  return normalized;
}

std::int64_t CalculatePriority(std::int64_t sum_scores, std::size_t num_containers) {
  const std::int64_t max_threshold =
      kMaxContainerThreshold * static_cast<std::int64_t>(num_containers);
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return framework::kMaxNodeScore * (sum_scores - kMinThreshold) / (max_threshold - kMinThreshold);
}

std::pair<std::int64_t, framework::Status> ImageLocality::Score(const framework::CycleState& /*state*/,
                                                                const api::Pod& pod,
                                                                const framework::NodeInfo& node) {
  const std::size_t total_nodes = handle_.snapshot().size();
  std::size_t image_count = pod.spec.init_containers.size() + pod.spec.containers.size();
  // Neither can happen when scoring a node of the snapshot for a valid pod; guard the divisions.
  if (total_nodes == 0 || image_count == 0) return {0, {}};
  std::int64_t sum = SumImageScores(node, pod.spec.init_containers, total_nodes) +
                     SumImageScores(node, pod.spec.containers, total_nodes);
  // Image volumes count as images too, whether or not the node has them (upstream
  // sumImageScores, kubernetes#130231).
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!volume.image) continue;
    if (const framework::ImageStateSummary* state = FindImage(node, volume.image_reference)) {
      sum += ScaledImageScore(*state, total_nodes);
    }
    ++image_count;
  }
  return {CalculatePriority(sum, image_count), {}};
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<ImageLocality>(handle);
}

}  // namespace ksched::plugins::image_locality
