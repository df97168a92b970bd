// ExtenderObjects: the Pod and Node objects an extender receives (ExtenderArgs.Pod and, for an
// extender that is not nodeCacheCapable, ExtenderArgs.Nodes.items), as JSON.
//
// Upstream sends its informers' objects. This scheduler keeps only what scheduling reads of a pod
// or node (api/pod.h, api/node.h), so RestExtenderObjects reads the whole objects from the API
// server instead, through the scheduler's client (under its QPS limit):
// - the pod: a GET without its kind and apiVersion, as an informer's copy has none; cached by UID
//   and resourceVersion, so one cycle's calls share it;
// - the nodes: a LIST served from the API server's watch cache (resourceVersion=0), kept whole,
//   of which the asked nodes are answered in the asked order. The next call LISTs again only if
//   an asked node is not kept at the resourceVersion the scheduler's cache has (a node added or
//   changed since): in a steady cluster, one LIST serves every cycle. A node the LIST does not
//   have is an error naming it; a node the LIST has at another version (the watch cache behind
//   the scheduler's) is answered as listed.
//
// Thread-safety: any thread (the caches are locked).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "api/pod.h"
#include "client/rest_client.h"

namespace ksched::scheduler {

// A node as the scheduler's cache has it: its name and metadata.resourceVersion.
struct NodeVersion {
  std::string_view name;
  std::string_view resource_version;
};

// One node as a JSON object, shared with the cache that holds it (immutable).
using NodeJson = std::shared_ptr<const std::string>;

class ExtenderObjects {
 public:
  virtual ~ExtenderObjects() = default;
  // The pod as a JSON object.
  virtual absl::StatusOr<std::string> PodJson(const api::Pod& pod) = 0;
  // The nodes named by `nodes` as JSON objects, in that order.
  virtual absl::StatusOr<std::vector<NodeJson>> NodesJson(std::span<const NodeVersion> nodes) = 0;
};

class RestExtenderObjects final : public ExtenderObjects {
 public:
  explicit RestExtenderObjects(std::shared_ptr<client::RestClient> client) : client_(std::move(client)) {}
  absl::StatusOr<std::string> PodJson(const api::Pod& pod) override;
  absl::StatusOr<std::vector<NodeJson>> NodesJson(std::span<const NodeVersion> nodes) override;

 private:
  struct ListedNode {
    std::string resource_version;
    NodeJson json;
  };
  using NodeMap = absl::flat_hash_map<std::string, ListedNode>;
  // Fills `out` with the listed node of every asked name (at the asked version when `exact`);
  // returns the first asked node it could not, or null.
  static const NodeVersion* Collect(const NodeMap& listed, std::span<const NodeVersion> nodes, bool exact,
                      std::vector<NodeJson>& out);
  absl::StatusOr<std::shared_ptr<const NodeMap>> ListNodes();

  std::shared_ptr<client::RestClient> client_;
  base::Mutex mu_;
  std::string cached_uid_ ABSL_GUARDED_BY(mu_);
  std::string cached_version_ ABSL_GUARDED_BY(mu_);
  std::string cached_json_ ABSL_GUARDED_BY(mu_);
  // The last LIST's nodes by name (replaced whole by the next LIST; readers keep their copy).
  std::shared_ptr<const NodeMap> listed_nodes_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler
