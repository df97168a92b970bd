// Binpack: a score plugin that fills nodes before starting on empty ones (the seed article's
// "Binpack" plugin, generalised and corrected). Configured under the name "Binpack"; it only
// scores, so it runs beside NodeResourcesFit, whose Filter keeps pods off nodes that lack room.
//
// Raw score (Score), per node, for the pod being scheduled:
//   For each configured resource r (args.h; default: cpu, weight 1, as the article) that counts
//   for this pod:
//     free_r  = allocatable_r - requested_r - pod_r, clamped to [0, allocatable_r]: what remains
//               after placing the pod. requested_r is the NodeInfo's requested total, so pods
//               assumed but not yet bound count; pod_r is framework::PodRequests (containers, init
//               containers, sidecars, pod-level resources, overhead; no defaults for missing
//               requests).
//     scale_r = the largest allocatable_r among the cluster's nodes (the cycle's snapshot), so that
//               amounts in different units (millicores, bytes, GPUs) become comparable while the
//               ranking stays the article's: fewer absolute remaining resources is better
//               (best fit), e.g. a pod of 1 GPU prefers a 4-GPU node with 2 free to an 8-GPU node
//               with 3 free. Computed once per snapshot generation and cached.
//     used_r  = (scale_r - free_r) / scale_r in [0, 1], in parts per 10^9 (exact integer
//               arithmetic on 128 bits: no overflow for any int64 amounts).
//   raw = sum(weight_r * used_r) / sum(weight_r), in [0, kRawScoreScale].
//
//   Which resources count: cpu, memory and ephemeral-storage always (a best-effort pod is still
//   packed); a scalar resource (nvidia.com/gpu, ...) only when the pod requests it, as upstream's
//   resource scorers do, so that CPU-only pods are not drawn to GPU nodes by their GPU usage.
//   A resource no node has (scale 0) is left out. A node that lacks a resource the others
//   have gets no credit for it (free = scale: as if it had the most, all free), so lacking a
//   resource is never rewarded. A node already over-committed counts as full (free 0).
//   When no configured resource counts (e.g. only nvidia.com/gpu configured and the pod asks for
//   none), PreScore returns Skip (or, without PreScore, every node scores 0): the plugin adds
//   nothing for this pod.
//
// PreScore is optional: a configuration that enables Binpack only under `score` (as the article's
// does; upstream then runs no PreScore for it) gets the same scores, with the pod's requests
// computed in each Score call instead of once (upstream's in-tree scorers fall back the same way).
// Enabled through multiPoint (or under preScore too), PreScore computes them once per cycle.
//
// NormalizeScore: min-max to [0, 100]: (raw - lowest) * 100 / (highest - lowest), truncated; all
// equal (including a single node) -> 100 for every node, as the article describes. Computed on
// 128 bits, so any int64 raw scores work (the article's version overflows and, with its -rest
// scores, depends on the int64 extremes).
//
// Fixed from the article: no snapshot lookup by name (and no error path) in Score: the NodeInfo
// is given; the pod's own request is counted (remaining after placing it, as upstream's scorers
// do); several resources with weights instead of CPU only; no per-node log line at Info level in
// the hot path; no overflow; nodes lacking a resource handled.
//
// Thread-safety: Score runs concurrently for different nodes; the only mutable state is the
// per-snapshot scale cache, guarded by its mutex. With PreScore, Score does not allocate.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "api/pod.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "framework/resource.h"
#include "framework/snapshot.h"
#include "plugins/binpack/args.h"

namespace ksched::plugins::binpack {

inline constexpr std::string_view kName = "Binpack";

// The raw score of a node whose counted resources are all used up: scores are parts per 10^9.
inline constexpr std::int64_t kRawScoreScale = 1'000'000'000;

class Binpack final : public framework::PreScorePlugin,
                      public framework::ScorePlugin,
                      public framework::ScoreExtensions {
 public:
  // `args` must be valid (ValidateBinpackArgs). `handle` (its snapshot) must outlive the plugin.
  Binpack(BinpackArgs args, const framework::Handle& handle);
  Binpack(const Binpack&) = delete;
  Binpack& operator=(const Binpack&) = delete;

  std::string_view Name() const override { return kName; }
  // Not NodeLocalResults: a node's raw score depends on the largest allocatable in the cluster
  // (scale_r), so an update of one node may change every node's score.

  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::ScoreExtensions* GetScoreExtensions() override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const api::Pod& pod,
                                   std::vector<framework::NodeScore>& scores) override;

  const BinpackArgs& args() const { return args_; }

 private:
  enum class Kind : std::uint8_t { kCpu, kMemory, kEphemeralStorage, kScalar };
  using Scales = std::vector<std::int64_t>;  // per configured resource

  // The largest allocatable of each configured resource over the handle's snapshot, recomputed
  // when the snapshot or its generation or size changed.
  std::shared_ptr<const Scales> CurrentScales() const;
  std::int64_t Amount(const framework::Resource& resource, std::size_t i) const;
  // The raw score of `node` given the pod's request of each configured resource.
  template <typename PodRequest>
  std::int64_t RawScore(const framework::NodeInfo& node, const Scales& scales,
                        PodRequest&& pod_request) const;

  const BinpackArgs args_;  // owns the names kinds_ refers to by index
  const std::vector<Kind> kinds_;
  const framework::Handle& handle_;

  mutable base::Mutex scales_mu_;
  mutable const framework::Snapshot* scales_snapshot_ ABSL_GUARDED_BY(scales_mu_) = nullptr;
  mutable std::int64_t scales_generation_ ABSL_GUARDED_BY(scales_mu_) = -1;
  mutable std::size_t scales_nodes_ ABSL_GUARDED_BY(scales_mu_) = 0;
  mutable std::shared_ptr<const Scales> scales_ ABSL_GUARDED_BY(scales_mu_);
};

// The min-max normalisation of NormalizeScore, for reuse and tests.
void MinMaxNormalize(std::vector<framework::NodeScore>& scores);

// The plugin factory: args as framework::RawPluginArgs (JSON text, parsed by ParseBinpackArgs),
// or BinpackArgs built in code (validated), or nullptr (defaults). The plugin keeps the handle.
absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::binpack
