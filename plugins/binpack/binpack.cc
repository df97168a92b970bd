#include "plugins/binpack/binpack.h"

#include <algorithm>
#include <limits>
#include <string>

#include "api/resource_list.h"
#include "framework/raw_plugin_args.h"
#include "framework/resource.h"
#include "plugins/helper/pod_requests_state.h"

namespace ksched::plugins::binpack {

namespace {

using framework::Status;

// GCC and Clang both have it; __extension__ keeps -Wpedantic quiet.
__extension__ using Int128 = __int128;

constexpr framework::StateKey kPreScoreStateKey{"PreScoreBinpack"};

// The pod's request of each weighed resource, computed once per cycle in PreScore.
using PreScoreState = helper::PodRequestsState;

framework::Resource SpecRequests(const api::Pod& pod) {
  framework::PodRequestsOptions options;
  options.use_status_resources = false;  // not running yet: the spec's requests
  return framework::PodRequests(pod, options);
}

template <typename Kind>
std::vector<Kind> Classify(const std::vector<BinpackResource>& resources) {
  std::vector<Kind> kinds;
  kinds.reserve(resources.size());
  for (const BinpackResource& resource : resources) {
    if (resource.name == api::kResourceCPU) {
      kinds.push_back(Kind::kCpu);
    } else if (resource.name == api::kResourceMemory) {
      kinds.push_back(Kind::kMemory);
    } else if (resource.name == api::kResourceEphemeralStorage) {
      kinds.push_back(Kind::kEphemeralStorage);
    } else {
      kinds.push_back(Kind::kScalar);  // validated: a scalar resource name
    }
  }
  return kinds;
}

// used = (scale - free) / scale in parts per kRawScoreScale, free clamped to [0, scale].
std::int64_t UsedParts(std::int64_t free, std::int64_t scale) {
  free = std::clamp<std::int64_t>(free, 0, scale);
  const Int128 used = static_cast<Int128>(scale - free) * kRawScoreScale / scale;
  return static_cast<std::int64_t>(used);
}

// allocatable - requested - pod, clamped to [0, allocatable], without overflow.
std::int64_t FreeAfterPlacing(std::int64_t allocatable, std::int64_t requested,
                              std::int64_t pod_request) {
  const Int128 free = static_cast<Int128>(allocatable) - requested - pod_request;
  if (free <= 0) return 0;
  return free >= allocatable ? allocatable : static_cast<std::int64_t>(free);
}

}  // namespace

Binpack::Binpack(BinpackArgs args, const framework::Handle& handle)
    : args_(std::move(args)), kinds_(Classify<Kind>(args_.resources)), handle_(handle) {}

std::int64_t Binpack::Amount(const framework::Resource& resource, std::size_t i) const {
  switch (kinds_[i]) {
    case Kind::kCpu: return resource.milli_cpu;
    case Kind::kMemory: return resource.memory;
    case Kind::kEphemeralStorage: return resource.ephemeral_storage;
    case Kind::kScalar: return resource.Scalar(args_.resources[i].name);
  }
  return 0;
}

std::shared_ptr<const Binpack::Scales> Binpack::CurrentScales() const {
  const framework::Snapshot& snapshot = handle_.snapshot();
  base::MutexLock lock(&scales_mu_);
  if (scales_ != nullptr && scales_snapshot_ == &snapshot &&
      scales_generation_ == snapshot.generation() && scales_nodes_ == snapshot.size()) {
    return scales_;
  }
  auto scales = std::make_shared<Scales>(args_.resources.size(), 0);
  for (const framework::NodeInfo* node : snapshot.nodes()) {
    for (std::size_t i = 0; i < scales->size(); ++i) {
      (*scales)[i] = std::max((*scales)[i], Amount(node->allocatable(), i));
    }
  }
  scales_snapshot_ = &snapshot;
  scales_generation_ = snapshot.generation();
  scales_nodes_ = snapshot.size();
  scales_ = std::move(scales);
  return scales_;
}

template <typename PodRequest>
std::int64_t Binpack::RawScore(const framework::NodeInfo& node, const Scales& scales,
                               PodRequest&& pod_request) const {
  const framework::Resource& allocatable = node.allocatable();
  const framework::Resource& requested = node.requested();
  Int128 weighted = 0;
  std::int64_t total_weight = 0;
  for (std::size_t i = 0; i < args_.resources.size(); ++i) {
    const std::int64_t pod = pod_request(i);
    const std::int64_t scale = scales[i];
    // Scalars count only when asked for; a resource no node has is left out.
    if ((kinds_[i] == Kind::kScalar && pod <= 0) || scale <= 0) continue;
    const std::int64_t alloc = Amount(allocatable, i);
    // A node without the resource gets no credit for it: as if it had `scale`, all free.
    const std::int64_t free = alloc <= 0 ? scale : FreeAfterPlacing(alloc, Amount(requested, i), pod);
    const std::int64_t weight = args_.resources[i].weight;
    weighted += static_cast<Int128>(weight) * UsedParts(free, scale);
    total_weight += weight;
  }
  return total_weight == 0 ? 0 : static_cast<std::int64_t>(weighted / total_weight);
}

Status Binpack::PreScore(framework::CycleState& state, const api::Pod& pod,
                         const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  const framework::Resource requests = SpecRequests(pod);
  const std::shared_ptr<const Scales> scales = CurrentScales();  // warms the cache for Score
  std::vector<std::int64_t> pod_requests(args_.resources.size(), 0);
  bool any = false;
  for (std::size_t i = 0; i < pod_requests.size(); ++i) {
    pod_requests[i] = Amount(requests, i);
    if ((kinds_[i] != Kind::kScalar || pod_requests[i] > 0) && (*scales)[i] > 0) any = true;
  }
  if (!any) return Status(framework::Code::kSkip);
  state.Write(kPreScoreStateKey, std::make_unique<PreScoreState>(std::move(pod_requests)));
  return Status();
}

std::pair<std::int64_t, Status> Binpack::Score(const framework::CycleState& state,
                                               const api::Pod& pod,
                                               const framework::NodeInfo& node) {
  const std::shared_ptr<const Scales> scales = CurrentScales();
  if (const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    const std::vector<std::int64_t>& requests = pre_score->pod_requests();
    return {RawScore(node, *scales, [&](std::size_t i) { return requests[i]; }), Status()};
  }
  // Enabled at Score only (no PreScore ran): the pod's requests, per call.
  const framework::Resource requests = SpecRequests(pod);
  return {RawScore(node, *scales, [&](std::size_t i) { return Amount(requests, i); }), Status()};
}

void MinMaxNormalize(std::vector<framework::NodeScore>& scores) {
  if (scores.empty()) return;
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  std::int64_t highest = std::numeric_limits<std::int64_t>::min();
  for (const framework::NodeScore& score : scores) {
    lowest = std::min(lowest, score.score);
    highest = std::max(highest, score.score);
  }
  const Int128 old_range = static_cast<Int128>(highest) - lowest;
  constexpr Int128 kNewRange = framework::kMaxNodeScore - framework::kMinNodeScore;
  for (framework::NodeScore& score : scores) {
    if (old_range == 0) {
      score.score = framework::kMaxNodeScore;  // all equal: none is worse than another
      continue;
    }
    const Int128 offset = static_cast<Int128>(score.score) - lowest;
    score.score = static_cast<std::int64_t>(offset * kNewRange / old_range) +
                  framework::kMinNodeScore;
  }
}

Status Binpack::NormalizeScore(const framework::CycleState& /*state*/, const api::Pod& /*pod*/,
                               std::vector<framework::NodeScore>& scores) {
  MinMaxNormalize(scores);
  return Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle) {
  BinpackArgs parsed;
  if (const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args)) {
    absl::StatusOr<BinpackArgs> decoded = ParseBinpackArgs(raw->json);
    if (!decoded.ok()) return decoded.status();
    parsed = *std::move(decoded);
  } else if (args != nullptr) {
    absl::StatusOr<const BinpackArgs*> typed = framework::ArgsAs<BinpackArgs>(args, kName);
    if (!typed.ok()) return typed.status();
    parsed = **typed;
    if (absl::Status valid = ValidateBinpackArgs(parsed); !valid.ok()) return valid;
  }
  return std::unique_ptr<framework::Plugin>(std::make_unique<Binpack>(std::move(parsed), handle));
}

}  // namespace ksched::plugins::binpack
