#include "scheduler/client_ca_lookup.h"

#include <cctype>
#include <chrono>

#include <spdlog/spdlog.h>

#include "api/outside_json.h"
#include "client/read_file.h"
#include "rapidjson/document.h"

namespace ksched::scheduler {
namespace {

constexpr char kConfigMapPath[] = "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication";
constexpr char kConfigMapSource[] = "configmap kube-system/extension-apiserver-authentication";

// The configmap's data["client-ca-file"]; empty when absent. Errors: the read's, or a body that is
// not a ConfigMap.
absl::StatusOr<std::optional<std::string>> ReadConfigMapClientCa(client::RestClient& client) {
  client::HttpRequest request;
  request.target = kConfigMapPath;
  request.timeout = std::chrono::seconds(10);
  absl::StatusOr<client::HttpResponse> response = client.Do(std::move(request));
  if (!response.ok()) {
    if (response.status().code() == absl::StatusCode::kNotFound) return std::optional<std::string>();
    return response.status();
  }
  rapidjson::Document doc;
  if (!api::ParseOutsideJson(response->body, doc).ok() || !doc.IsObject()) {
    return absl::InvalidArgumentError(std::string(kConfigMapSource) + ": the answer is not a JSON object");
  }
  const auto data = doc.FindMember("data");
  if (data == doc.MemberEnd() || !data->value.IsObject()) return std::optional<std::string>(std::string());
  const auto ca = data->value.FindMember("client-ca-file");
  if (ca == data->value.MemberEnd() || !ca->value.IsString()) return std::optional<std::string>(std::string());
  return std::optional<std::string>(std::string(ca->value.GetString(), ca->value.GetStringLength()));
}

// Go's os.Open error text for `path`: "open <path>: <errno text in lower case>".
std::string GoOpenError(const std::string& path, const absl::Status& status) {
  std::string reason(status.message());
  if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  return "open " + path + ": " + reason;
}

}  // namespace

absl::StatusOr<std::optional<ClientCa>> LookupClientCa(const ClientCaLookupFlags& flags,
                                                      client::RestClient* authentication_client) {
  if (!flags.client_ca_file.empty()) {
    absl::StatusOr<std::string> pem = client::ReadFileToString(flags.client_ca_file);
    if (!pem.ok()) {
      return absl::InvalidArgumentError("unable to load client CA provider: " +
                                        GoOpenError(flags.client_ca_file, pem.status()));
    }
    return ClientCa{*std::move(pem), "client-ca-bundle::" + flags.client_ca_file, true, flags.client_ca_file};
  }
  if (flags.skip_lookup) return std::optional<ClientCa>();
  if (authentication_client == nullptr) {
    SPDLOG_WARN("No authentication-kubeconfig provided in order to lookup client-ca-file in "
                "configmap/extension-apiserver-authentication in kube-system, so client certificate "
                "authentication won't work.");
    SPDLOG_WARN("No authentication-kubeconfig provided in order to lookup requestheader-client-ca-file in "
                "configmap/extension-apiserver-authentication in kube-system, so request-header client "
                "certificate authentication won't work.");
    return std::optional<ClientCa>();
  }
  absl::StatusOr<std::optional<std::string>> found = ReadConfigMapClientCa(*authentication_client);
  if (!found.ok()) {
    if (found.status().code() == absl::StatusCode::kPermissionDenied) {
      SPDLOG_WARN("Unable to get configmap/extension-apiserver-authentication in kube-system.  Usually fixed by "
                  "'kubectl create rolebinding -n kube-system ROLEBINDING_NAME "
                  "--role=extension-apiserver-authentication-reader --serviceaccount=YOUR_NS:YOUR_SA'");
    }
    if (!flags.tolerate_lookup_failure) {
      return absl::FailedPreconditionError("unable to load configmap based request-header-client-ca-file: " +
                                           std::string(found.status().message()));
    }
    SPDLOG_WARN("Error looking up in-cluster authentication configuration: {}", std::string(found.status().message()));
    SPDLOG_WARN("Continuing without authentication configuration. This may treat all requests as anonymous.");
    SPDLOG_WARN("To require authentication configuration lookup to succeed, set "
                "--authentication-tolerate-lookup-failure=false");
    return std::optional<ClientCa>();
  }
  if (!found->has_value()) return std::optional<ClientCa>();  // no configmap: upstream says nothing
  if ((*found)->empty()) {
    SPDLOG_WARN("Cluster doesn't provide client-ca-file in configmap/extension-apiserver-authentication in "
                "kube-system, so client certificate authentication won't work.");
    return std::optional<ClientCa>();
  }
  return ClientCa{**std::move(found), "client-ca::kube-system::extension-apiserver-authentication::client-ca-file", false, ""};
}

absl::StatusOr<std::string> ReadClientCaAgain(const ClientCa& ca, client::RestClient* authentication_client) {
  if (ca.from_file) {
    absl::StatusOr<std::string> pem = client::ReadFileToString(ca.path);
    if (!pem.ok()) return absl::Status(pem.status().code(), GoOpenError(ca.path, pem.status()));
    return pem;
  }
  if (authentication_client == nullptr) return absl::FailedPreconditionError("no authentication client");
  absl::StatusOr<std::optional<std::string>> found = ReadConfigMapClientCa(*authentication_client);
  if (!found.ok()) return found.status();
  if (!found->has_value() || (*found)->empty()) {
    return absl::NotFoundError(std::string(kConfigMapSource) + " has no client-ca-file");
  }
  return **std::move(found);
}

}  // namespace ksched::scheduler
