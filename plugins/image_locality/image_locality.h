// ImageLocality (upstream plugins/imagelocality, v1.37.2): a Score plugin favouring nodes that
// already hold the pod's images: those of its containers and init containers and, since v1.36
// (kubernetes#130231, ungated), the references of its image volumes.
//
// Each image present on the node adds its size scaled by its spread, size * (nodes having it /
// all nodes), so that an image on every node does not pull pods to one of them; the sum is clamped
// to [23 MiB, 1000 MiB * number of images (containers + init containers + image volumes)] and
// mapped linearly onto [0, 100]. Image names are
// compared after normalizedImageName (":latest" appended when the name has no tag or digest).
// Scores are already in [0, 100]: no NormalizeScore.
//
// Thread-safety: stateless; Score reads the Handle's snapshot and does not allocate after a
// thread's first call (the normalized name is built in a per-thread buffer).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::image_locality {

inline constexpr std::string_view kName = "ImageLocality";

inline constexpr std::int64_t kMB = 1024 * 1024;
// Bounds of the image-size range that maps onto the score (90th percentile of registry images).
inline constexpr std::int64_t kMinThreshold = 23 * kMB;
inline constexpr std::int64_t kMaxContainerThreshold = 1000 * kMB;

class ImageLocality final : public framework::ScorePlugin {
 public:
  explicit ImageLocality(framework::Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return kName; }
  // Reads the node's NodeInfo (its image states) and the snapshot's node count, which cannot
  // change without the node list changing (which drops reused results).
  bool NodeLocalResults() const override { return true; }
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;

 private:
  framework::Handle& handle_;
};

// upstream normalizedImageName: `name` + ":latest" unless its last ':' comes after its last '/'.
std::string NormalizedImageName(std::string_view name);

// upstream calculatePriority: the clamped, scaled score of a sum of image scores.
std::int64_t CalculatePriority(std::int64_t sum_scores, std::size_t num_containers);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::image_locality
