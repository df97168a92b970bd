// ExtenderObjects: the Pod and Node objects an extender receives (ExtenderArgs.Pod and, for an
// extender that is not nodeCacheCapable, ExtenderArgs.Nodes.items), as JSON.
//
// Upstream sends its informers' objects. This scheduler keeps only what scheduling reads of a pod
// or node (api/pod.h, api/node.h), so RestExtenderObjects reads the whole objects from the API
// server instead: a GET of the pod without its kind and apiVersion, as an informer's copy has
// none (cached by UID and resourceVersion, so one cycle's calls share it) and a LIST of the nodes served from the API server's watch cache
// (resourceVersion=0), of which the asked nodes are kept, in the asked order. Both go through the
// scheduler's client, under its QPS limit. A node the LIST does not have is an error naming it.
//
// Thread-safety: any thread (the pod cache is locked).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "api/pod.h"
#include "client/rest_client.h"

namespace ksched::scheduler {

class ExtenderObjects {
 public:
  virtual ~ExtenderObjects() = default;
  // The pod as a JSON object.
  virtual absl::StatusOr<std::string> PodJson(const api::Pod& pod) = 0;
  // The nodes named by `names` as JSON objects, in that order.
  virtual absl::StatusOr<std::vector<std::string>> NodesJson(const std::vector<std::string_view>& names) = 0;
};

class RestExtenderObjects final : public ExtenderObjects {
 public:
  explicit RestExtenderObjects(std::shared_ptr<client::RestClient> client) : client_(std::move(client)) {}
  absl::StatusOr<std::string> PodJson(const api::Pod& pod) override;
  absl::StatusOr<std::vector<std::string>> NodesJson(const std::vector<std::string_view>& names) override;

 private:
  std::shared_ptr<client::RestClient> client_;
  std::mutex mu_;
  std::string cached_uid_;      // guarded by mu_
  std::string cached_version_;  // guarded by mu_
  std::string cached_json_;     // guarded by mu_
};

}  // namespace ksched::scheduler
