// HttpExtender: an extender reached over HTTP(S) (upstream pkg/scheduler/extender.go
// HTTPExtender), one per entry of KubeSchedulerConfiguration.extenders.
//
// Wire format (k8s.io/kube-scheduler/extender/v1, whose Go types have no JSON tags, so the keys
// are the Go field names): POST <urlPrefix>/<verb> with Content-Type application/json;
//   filter / prioritize: {"Pod": pod, "Nodes": {"metadata":{},"items":[node...]} or null,
//     "NodeNames": [name...] or null} (NodeNames when nodeCacheCapable, Nodes otherwise);
//     filter answers {"Nodes"|"NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"},
//     prioritize answers [{"Host", "Score"}...];
//   bind: {"PodName", "PodNamespace", "PodUID", "Node"}, answers {"Error"};
//   preempt: {"Pod", "NodeNameToVictims": {node: {"Pods": [pod...], "NumPDBViolations"}} or null,
//     "NodeNameToMetaVictims": {node: {"Pods": [{"UID"}...], "NumPDBViolations"}} or null}
//     (MetaVictims when nodeCacheCapable), answers {"NodeNameToMetaVictims"}, whose pods are found
//     again by UID among the node's pods ("extender: <urlPrefix> claims to preempt pod (UID:
//     &{<uid>}) on node: <node>, but the pod is not found on that node" otherwise; an unknown
//     node: "nodeinfo not found for node name \"<node>\"").
// Keys of answers match case-insensitively, an exact match first (Go's encoding/json). A status
// other than 200 is the error "failed <verb> with extender at URL <url>, code <status>"; a
// transport failure is "Post \"<url>\": <cause>"; an answer that does not decode, Go's kind of
// "json: cannot unmarshal ..." message; a non-empty "Error" is the error itself. A filter answer
// naming a node it was not given is the error "extender <urlPrefix> claims a filtered node <name>
// which is not found in the input node list" (upstream checks this for NodeNames only and makes
// NodeInfos without pods from returned Nodes; here returned Nodes are matched by name too).
// Verbs left empty are not called: filter keeps every node, prioritize gives nothing.
//
// Transport: client::HttpTransport to urlPrefix (http or https by its scheme) with tlsConfig's
// CA, client certificate, serverName and insecure; enableHTTPS without a CA skips verification,
// as upstream's makeTransport. httpTimeout bounds each call (5s when zero, set by the config).
//
// Thread-safety: every method may be called from any thread but the transport's (calls block).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/transport.h"
#include "config/kube_scheduler_configuration.h"
#include "scheduler/extender.h"
#include "scheduler/extender_objects.h"

namespace ksched::scheduler {

class HttpExtender final : public Extender {
 public:
  // `objects` is borrowed and must outlive the extender. kInvalidArgument for an unusable
  // urlPrefix or TLS file, naming it.
  static absl::StatusOr<std::unique_ptr<HttpExtender>> Create(const config::Extender& config, ExtenderObjects& objects);
  // With a given transport (tests).
  HttpExtender(const config::Extender& config, std::unique_ptr<client::Transport> transport, ExtenderObjects& objects);

  const std::string& name() const override { return url_prefix_; }
  bool IsFilter() const override { return !filter_verb_.empty(); }
  bool IsPrioritizer() const override { return !prioritize_verb_.empty(); }
  bool IsBinder() const override { return !bind_verb_.empty(); }
  bool SupportsPreemption() const override { return !preempt_verb_.empty(); }
  bool IsIgnorable() const override { return ignorable_; }
  std::int64_t weight() const override { return weight_; }
  bool IsInterested(const api::Pod& pod) const override;
  absl::StatusOr<ExtenderFilterResult> Filter(const api::Pod& pod,
                                              const std::vector<const framework::NodeInfo*>& nodes) override;
  absl::StatusOr<std::vector<ExtenderHostScore>> Prioritize(
      const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes) override;
  absl::Status Bind(const api::Pod& pod, const std::string& node_name) override;
  absl::StatusOr<framework::NodeVictims> ProcessPreemption(const api::Pod& pod, const framework::NodeVictims& victims,
                                                           const framework::Snapshot& snapshot) override;

 private:
  // ExtenderArgs for `nodes`.
  absl::StatusOr<std::string> Args(const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes);
  // POST <url>/<verb>: the body of a 200 answer, or the error.
  absl::StatusOr<std::string> Send(const std::string& verb, std::string body);

  std::string url_prefix_;
  std::string filter_verb_;
  std::string prioritize_verb_;
  std::string bind_verb_;
  std::string preempt_verb_;
  std::int64_t weight_ = 0;
  bool node_cache_capable_ = false;
  bool ignorable_ = false;
  std::vector<std::string> managed_resources_;
  std::chrono::milliseconds timeout_{5000};
  std::unique_ptr<client::Transport> transport_;
  ExtenderObjects& objects_;
};

}  // namespace ksched::scheduler
