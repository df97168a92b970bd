#include "scheduler/http_extender.h"

#include "scheduler/extender_answers.h"

#include <cctype>
#include <future>

#include "api/outside_json.h"
#include "absl/container/flat_hash_map.h"
#include "api/json_writer.h"
#include "client/http_transport.h"
#include "client/read_file.h"
#include "framework/snapshot.h"
#include "rapidjson/document.h"

namespace ksched::scheduler {
namespace {

// A TLS file named by `field`, read with the client's reader ("<field>: cannot read <path>: <why>").
absl::StatusOr<std::string> ReadFile(const std::string& path, std::string_view field) {
  absl::StatusOr<std::string> bytes = client::ReadFileToString(path);
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(std::string(field) + ": cannot read " + std::string(bytes.status().message()));
  }
  return bytes;
}

std::string TrimTrailingSlashes(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpExtender>> HttpExtender::Create(const config::Extender& config,
                                                                     ExtenderObjects& objects) {
  client::RestConfig rest;
  rest.server = TrimTrailingSlashes(config.url_prefix);
  rest.source = "extender " + config.url_prefix;
  if (config.tls_config.has_value()) {
    const config::ExtenderTLSConfig& tls = *config.tls_config;
    rest.tls.insecure_skip_verify = tls.insecure;
    rest.tls.server_name = tls.server_name;
    if (!tls.ca_data.empty()) {
      rest.tls.ca_pem = tls.ca_data;
      rest.tls.ca_source = "tlsConfig.caData";
    } else if (!tls.ca_file.empty()) {
      absl::StatusOr<std::string> pem = ReadFile(tls.ca_file, "tlsConfig.caFile");
      if (!pem.ok()) return pem.status();
      rest.tls.ca_pem = *pem;
      rest.tls.ca_source = tls.ca_file;
    }
    if (!tls.cert_data.empty() || !tls.cert_file.empty()) {
      absl::StatusOr<std::string> cert =
          tls.cert_data.empty() ? ReadFile(tls.cert_file, "tlsConfig.certFile") : absl::StatusOr<std::string>(tls.cert_data);
      if (!cert.ok()) return cert.status();
      absl::StatusOr<std::string> key =
          tls.key_data.empty() ? ReadFile(tls.key_file, "tlsConfig.keyFile") : absl::StatusOr<std::string>(tls.key_data);
      if (!key.ok()) return key.status();
      rest.tls.client_cert_pem = *cert;
      rest.tls.client_key_pem = *key;
      rest.tls.client_cert_source = tls.cert_data.empty() ? tls.cert_file : "tlsConfig.certData";
    }
  }
  // upstream makeTransport: HTTPS without a CA does not verify the extender's certificate.
  if (config.enable_https && rest.tls.ca_pem.empty()) rest.tls.insecure_skip_verify = true;
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(config.http_timeout);
  client::TransportOptions options;
  if (timeout.count() > 0) {
    options.connect_timeout = timeout;
    options.request_timeout = timeout;
  }
  options.max_connections = 16;
  options.max_idle_connections = 4;
  absl::StatusOr<std::unique_ptr<client::HttpTransport>> transport = client::HttpTransport::Create(rest, options);
  if (!transport.ok()) {
    return absl::InvalidArgumentError(std::string(transport.status().message()));
  }
  return std::make_unique<HttpExtender>(config, std::unique_ptr<client::Transport>(std::move(*transport)), objects);
}

HttpExtender::HttpExtender(const config::Extender& config, std::unique_ptr<client::Transport> transport,
                           ExtenderObjects& objects)
    : url_prefix_(config.url_prefix),
      filter_verb_(config.filter_verb),
      prioritize_verb_(config.prioritize_verb),
      bind_verb_(config.bind_verb),
      preempt_verb_(config.preempt_verb),
      weight_(config.weight),
      node_cache_capable_(config.node_cache_capable),
      ignorable_(config.ignorable),
      transport_(std::move(transport)),
      objects_(objects) {
  for (const config::ExtenderManagedResource& resource : config.managed_resources) {
    managed_resources_.push_back(resource.name);
  }
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(config.http_timeout);
  if (timeout.count() > 0) timeout_ = timeout;
}

bool HttpExtender::IsInterested(const api::Pod& pod) const { return PodUsesManagedResource(pod, managed_resources_); }

absl::StatusOr<std::string> HttpExtender::Args(const api::Pod& pod,
                                               const std::vector<const framework::NodeInfo*>& nodes) {
  absl::StatusOr<std::string> pod_json = objects_.PodJson(pod);
  if (!pod_json.ok()) return pod_json.status();
  std::vector<NodeVersion> versions;
  versions.reserve(nodes.size());
  for (const framework::NodeInfo* node : nodes) {
    // No version (a NodeInfo without its Node) never matches a kept node: it is listed afresh.
    versions.push_back({node->name(), node->node() != nullptr ? std::string_view(node->node()->metadata.resource_version)
                                                              : std::string_view()});
  }
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  writer.StartObject();
  api::json::String(writer, "Pod");
  writer.RawValue(pod_json->data(), pod_json->size(), rapidjson::kObjectType);
  api::json::String(writer, "Nodes");
  if (node_cache_capable_) {
    writer.Null();
  } else {
    absl::StatusOr<std::vector<NodeJson>> items = objects_.NodesJson(versions);
    if (!items.ok()) return items.status();
    writer.StartObject();
    api::json::String(writer, "metadata");
    writer.StartObject();
    writer.EndObject();
    api::json::String(writer, "items");
    writer.StartArray();
    for (const NodeJson& item : *items) writer.RawValue(item->data(), item->size(), rapidjson::kObjectType);
    writer.EndArray();
    writer.EndObject();
  }
  api::json::String(writer, "NodeNames");
  if (node_cache_capable_) {
    writer.StartArray();
    for (const NodeVersion& node : versions) api::json::String(writer, node.name);
    writer.EndArray();
  } else {
    writer.Null();
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::StatusOr<std::string> HttpExtender::Send(const std::string& verb, std::string body) {
  const std::string url = TrimTrailingSlashes(url_prefix_) + "/" + verb;
  client::HttpRequest request;
  request.method = client::HttpMethod::kPost;
  request.target = "/" + verb;
  request.body = std::move(body);
  request.content_type = "application/json";
  request.timeout = timeout_;
  std::promise<absl::StatusOr<client::HttpResponse>> promise;
  std::future<absl::StatusOr<client::HttpResponse>> future = promise.get_future();
  transport_->Send(std::move(request), [&promise](absl::StatusOr<client::HttpResponse> response) {
    promise.set_value(std::move(response));
  });
  absl::StatusOr<client::HttpResponse> response = future.get();
  if (!response.ok()) {
    return absl::Status(response.status().code(),
                        "Post \"" + url + "\": " + std::string(response.status().message()));
  }
  if (response->status != 200) {
    return absl::UnavailableError("failed " + verb + " with extender at URL " + url + ", code " +
                                  std::to_string(response->status));
  }
  return std::move(response->body);
}

absl::StatusOr<ExtenderFilterResult> HttpExtender::Filter(const api::Pod& pod,
                                                          const std::vector<const framework::NodeInfo*>& nodes) {
  ExtenderFilterResult out;
  if (filter_verb_.empty()) {
    out.feasible = nodes;
    return out;
  }
  absl::StatusOr<std::string> args = Args(pod, nodes);
  if (!args.ok()) return args.status();
  absl::StatusOr<std::string> body = Send(filter_verb_, *std::move(args));
  if (!body.ok()) return body.status();
  absl::StatusOr<ExtenderFilterAnswer> answer = DecodeExtenderFilterAnswer(*body, node_cache_capable_);
  if (!answer.ok()) return answer.status();
  if (!answer->error.empty()) return absl::UnknownError(answer->error);
  out.failed = std::move(answer->failed);
  out.failed_unresolvable = std::move(answer->failed_unresolvable);

  absl::flat_hash_map<std::string_view, const framework::NodeInfo*> given;
  for (const framework::NodeInfo* node : nodes) given.emplace(node->name(), node);
  for (const std::string& name : answer->node_names) {
    auto it = given.find(name);
    if (it == given.end()) {
      return absl::InvalidArgumentError("extender \"" + url_prefix_ + "\" claims a filtered node \"" + name +
                                        "\" which is not found in the input node list");
    }
    out.feasible.push_back(it->second);
  }
  return out;
}

absl::StatusOr<std::vector<ExtenderHostScore>> HttpExtender::Prioritize(
    const api::Pod& pod, const std::vector<const framework::NodeInfo*>& nodes) {
  if (prioritize_verb_.empty()) return std::vector<ExtenderHostScore>();  // upstream: zero for every node, weight 0
  absl::StatusOr<std::string> args = Args(pod, nodes);
  if (!args.ok()) return args.status();
  absl::StatusOr<std::string> body = Send(prioritize_verb_, *std::move(args));
  if (!body.ok()) return body.status();
  return DecodeExtenderPrioritizeAnswer(*body);
}

absl::Status HttpExtender::Bind(const api::Pod& pod, const std::string& node_name) {
  if (bind_verb_.empty()) return absl::FailedPreconditionError("unexpected empty bindVerb in extender");
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  writer.StartObject();
  api::json::Field(writer, "PodName", pod.metadata.name);
  api::json::Field(writer, "PodNamespace", pod.metadata.namespace_);
  api::json::Field(writer, "PodUID", pod.metadata.uid);
  api::json::Field(writer, "Node", node_name);
  writer.EndObject();
  absl::StatusOr<std::string> body = Send(bind_verb_, std::string(buffer.GetString(), buffer.GetSize()));
  if (!body.ok()) return body.status();
  absl::StatusOr<std::string> error = DecodeExtenderBindAnswer(*body);
  if (!error.ok()) return error.status();
  if (!error->empty()) return absl::UnknownError(*error);
  return absl::OkStatus();
}

absl::StatusOr<framework::NodeVictims> HttpExtender::ProcessPreemption(const api::Pod& pod,
                                                                      const framework::NodeVictims& victims,
                                                                      const framework::Snapshot& snapshot) {
  if (preempt_verb_.empty()) {
    return absl::FailedPreconditionError("preempt verb is not defined for extender " + url_prefix_ +
                                         " but run into ProcessPreemption");
  }
  absl::StatusOr<std::string> pod_json = objects_.PodJson(pod);
  if (!pod_json.ok()) return pod_json.status();
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  writer.StartObject();
  api::json::String(writer, "Pod");
  writer.RawValue(pod_json->data(), pod_json->size(), rapidjson::kObjectType);
  // One of the two maps, the other null (Go's field order: NodeNameToVictims first).
  auto write_victims = [&](bool meta) -> absl::Status {
    writer.StartObject();
    for (const auto& [node, node_victims] : victims) {
      api::json::String(writer, node);
      writer.StartObject();
      api::json::String(writer, "Pods");
      writer.StartArray();
      for (const framework::PodInfoPtr& victim : node_victims.pods) {
        if (meta) {
          writer.StartObject();
          api::json::Field(writer, "UID", victim->pod().metadata.uid);
          writer.EndObject();
          continue;
        }
        absl::StatusOr<std::string> victim_json = objects_.PodJson(victim->pod());
        if (!victim_json.ok()) return victim_json.status();
        writer.RawValue(victim_json->data(), victim_json->size(), rapidjson::kObjectType);
      }
      writer.EndArray();
      api::json::String(writer, "NumPDBViolations");
      writer.Int64(node_victims.num_pdb_violations);
      writer.EndObject();
    }
    writer.EndObject();
    return absl::OkStatus();
  };
  api::json::String(writer, "NodeNameToVictims");
  if (node_cache_capable_) {
    writer.Null();
  } else if (absl::Status written = write_victims(false); !written.ok()) {
    return written;
  }
  api::json::String(writer, "NodeNameToMetaVictims");
  if (node_cache_capable_) {
    if (absl::Status written = write_victims(true); !written.ok()) return written;
  } else {
    writer.Null();
  }
  writer.EndObject();

  absl::StatusOr<std::string> body = Send(preempt_verb_, std::string(buffer.GetString(), buffer.GetSize()));
  if (!body.ok()) return body.status();
  absl::StatusOr<std::vector<ExtenderMetaVictims>> answer = DecodeExtenderPreemptionAnswer(*body);
  if (!answer.ok()) return answer.status();
  // convertToVictims: every UID must be a pod of that node.
  framework::NodeVictims out;
  for (const ExtenderMetaVictims& claimed : *answer) {
    const framework::NodeInfo* node_info = snapshot.Get(claimed.node);
    if (node_info == nullptr) return absl::NotFoundError("nodeinfo not found for node name \"" + claimed.node + "\"");
    framework::ExtenderVictims& converted = out[claimed.node];
    if (claimed.null) continue;  // no victims: the caller rejects the node
    converted.num_pdb_violations = claimed.num_pdb_violations;
    for (const std::string& uid : claimed.pod_uids) {
      const framework::PodInfoPtr* found = nullptr;
      for (const framework::PodInfoPtr& candidate : node_info->pods()) {
        if (candidate->pod().metadata.uid == uid) {
          found = &candidate;
          break;
        }
      }
      if (found == nullptr) {
        return absl::NotFoundError("extender: " + url_prefix_ + " claims to preempt pod (UID: &{" + uid +
                                   "}) on node: " + claimed.node + ", but the pod is not found on that node");
      }
      converted.pods.push_back(*found);
    }
  }
  return out;
}

}  // namespace ksched::scheduler
