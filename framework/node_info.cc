#include "framework/node_info.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace ksched::framework {

namespace {

// upstream DefaultBindAllHostIP.
constexpr std::string_view kBindAllHostIP = "0.0.0.0";

// upstream HostPortInfo.sanitize: an empty IP binds all addresses, an empty protocol is TCP.
std::string_view SanitizeIP(std::string_view ip) { return ip.empty() ? kBindAllHostIP : ip; }
std::string_view SanitizeProtocol(std::string_view protocol) {
  return protocol.empty() ? api::kProtocolTCP : protocol;
}

// Process-wide, as upstream's package-level counter; constant-initialized, so NodeInfos built
// during static initialization see it ready.
constinit std::atomic<std::int64_t> g_generation{0};

// upstream removeFromSlice: swap the found element with the last one and pop.
PodInfoPtr RemoveByUid(PodInfoList& pods, std::string_view uid) {
  for (std::size_t i = 0; i < pods.size(); ++i) {
    if (pods[i]->pod().metadata.uid != uid) continue;
    PodInfoPtr removed = std::move(pods[i]);
    if (i + 1 != pods.size()) pods[i] = std::move(pods.back());
    pods.pop_back();
    return removed;
  }
  return nullptr;
}

// upstream podWithAffinity / podWithRequiredAntiAffinity read the pod's spec, not its compiled
// terms.
bool WithRequiredAntiAffinity(const api::Pod& pod) {
  return !pod.spec.affinity.pod_anti_affinity.required.empty();
}

}  // namespace

// ---- HostPortInfo -----------------------------------------------------------------------------
// Upstream keeps a set of (ip, protocol, port): adding a triple twice and removing it once frees
// it. The entries are kept sorted so that equal sets compare equal.

void HostPortInfo::Add(std::string_view ip, std::string_view protocol, std::int32_t port) {
  if (port <= 0) return;
  ip = SanitizeIP(ip);
  protocol = SanitizeProtocol(protocol);
  const auto key = std::make_tuple(ip, protocol, port);
  auto less = [](const Entry& e, const auto& k) {
    return std::make_tuple(std::string_view(e.ip), std::string_view(e.protocol), e.port) < k;
  };
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key, less);
  if (it != entries_.end() && it->ip == ip && it->protocol == protocol && it->port == port) return;
  entries_.insert(it, Entry{std::string(ip), std::string(protocol), port, 1});
}

void HostPortInfo::Remove(std::string_view ip, std::string_view protocol, std::int32_t port) {
  if (port <= 0) return;
  ip = SanitizeIP(ip);
  protocol = SanitizeProtocol(protocol);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& entry) {
    return entry.ip == ip && entry.protocol == protocol && entry.port == port;
  });
  if (it != entries_.end()) entries_.erase(it);
}

bool HostPortInfo::CheckConflict(std::string_view ip, std::string_view protocol,
                                 std::int32_t port) const {
  if (port <= 0) return false;
  ip = SanitizeIP(ip);
  protocol = SanitizeProtocol(protocol);
  const bool all_addresses = ip == kBindAllHostIP;
  // 0.0.0.0 conflicts with the (protocol, port) on any IP; a specific IP conflicts with itself
  // and with 0.0.0.0.
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& entry) {
    return entry.port == port && entry.protocol == protocol &&
           (all_addresses || entry.ip == ip || entry.ip == kBindAllHostIP);
  });
}

// ---- NodeInfo ---------------------------------------------------------------------------------

std::int64_t NodeInfo::NextGeneration() {
  return g_generation.fetch_add(1, std::memory_order_relaxed) + 1;
}

const std::string& NodeInfo::name() const {
  static const std::string kNoName;
  return node_ != nullptr ? node_->metadata.name : kNoName;
}

void NodeInfo::SetNode(std::shared_ptr<const api::Node> node) {
  if (node == nullptr) {
    std::fputs("NodeInfo::SetNode: null node (use RemoveNode)\n", stderr);
    std::abort();
  }
  allocatable_ = Resource::FromList(node->status.allocatable);
  node_ = std::move(node);
  generation_ = NextGeneration();
}

void NodeInfo::RemoveNode() {
  // As upstream: the pods and totals stay (the pods may still be deleted later).
  node_ = nullptr;
  generation_ = NextGeneration();
}

void NodeInfo::AddPod(PodInfoPtr pod) {
  const PodInfo& info = *pod;
  if (info.has_affinity()) pods_with_affinity_.push_back(pod);
  if (WithRequiredAntiAffinity(info.pod())) pods_with_required_anti_affinity_.push_back(pod);
  pods_.push_back(std::move(pod));
  Update(info, +1);
}

bool NodeInfo::RemovePod(std::string_view uid) {
  // upstream GetPodKey refuses an empty UID.
  if (uid.empty()) return false;
  PodInfoPtr removed = RemoveByUid(pods_, uid);
  if (removed == nullptr) return false;
  if (removed->has_affinity()) RemoveByUid(pods_with_affinity_, uid);
  if (WithRequiredAntiAffinity(removed->pod())) RemoveByUid(pods_with_required_anti_affinity_, uid);
  Update(*removed, -1);
  return true;
}

void NodeInfo::Update(const PodInfo& pod, int sign) {
  // upstream NodeInfo.update: pods and allowed_pod_number are not part of requested; the non-zero
  // totals count cpu and memory only.
  const Resource& requests = pod.requests();
  requested_.milli_cpu += sign * requests.milli_cpu;
  requested_.memory += sign * requests.memory;
  requested_.ephemeral_storage += sign * requests.ephemeral_storage;
  for (const auto& [name, value] : requests.scalars) requested_.AddScalar(name, sign * value);
  non_zero_requested_.milli_cpu += sign * pod.non_zero_requests().milli_cpu;
  non_zero_requested_.memory += sign * pod.non_zero_requests().memory;

  const api::Pod& p = pod.pod();
  ForEachHostPort(p, [&](std::string_view ip, std::string_view protocol, std::int32_t port) {
    if (sign > 0) {
      used_ports_.Add(ip, protocol, port);
    } else {
      used_ports_.Remove(ip, protocol, port);
    }
  });

  // upstream updatePVCRefCounts (v1.34): persistentVolumeClaim volumes only.
  for (const api::Volume& volume : p.spec.volumes) {
    if (!volume.persistent_volume_claim.has_value()) continue;
    std::string key = p.metadata.namespace_ + "/" + volume.persistent_volume_claim->claim_name;
    if (sign > 0) {
      ++pvc_ref_counts_[std::move(key)];
    } else if (auto it = pvc_ref_counts_.find(key); it != pvc_ref_counts_.end()) {
      if (--it->second <= 0) pvc_ref_counts_.erase(it);
    }
  }

  generation_ = NextGeneration();
}

void ForEachHostPort(const api::Pod& pod,
                     const std::function<void(std::string_view ip, std::string_view protocol,
                                              std::int32_t port)>& fn) {
  // upstream schedutil.GetHostPorts: restartable init containers (sidecars run for the pod's
  // whole life), then the containers; ordinary init containers are not counted.
  auto visit = [&fn](const api::Container& container) {
    for (const api::ContainerPort& port : container.ports) {
      if (port.host_port > 0) fn(port.host_ip, port.protocol, port.host_port);
    }
  };
  for (const api::Container& container : pod.spec.init_containers) {
    if (container.IsRestartable()) visit(container);
  }
  for (const api::Container& container : pod.spec.containers) visit(container);
}

}  // namespace ksched::framework
