// Test support: the control plane a test runs against, read from the env file that
// tests/controlplane/start.sh writes (path in $KSCHED_CP_ENV; see run_with_controlplane.sh).
#pragma once

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "client/http_transport.h"
#include "client/rest_client.h"
#include "client/rest_config.h"

namespace ksched::testing {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ControlPlane {
  std::map<std::string, std::string> env;

  static const ControlPlane& Get() {
    static const ControlPlane instance = [] {
      ControlPlane cp;
      const char* path = std::getenv("KSCHED_CP_ENV");
      if (path == nullptr) throw std::runtime_error("KSCHED_CP_ENV is not set: run under run_with_controlplane.sh");
      std::ifstream in(path);
      std::string line;
      while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq != std::string::npos) cp.env[line.substr(0, eq)] = line.substr(eq + 1);
      }
      return cp;
    }();
    return instance;
  }
  std::string operator[](const std::string& key) const {
    auto it = env.find(key);
    if (it == env.end()) throw std::runtime_error("control-plane env has no " + key);
    return it->second;
  }
  std::string pki(const std::string& file) const { return (*this)["PKI_DIR"] + "/" + file; }

  // Admin over a client certificate (system:masters).
  client::RestConfig AdminCertConfig() const {
    client::RestConfig config;
    config.server = (*this)["APISERVER_URL"];
    config.source = "test control plane (admin certificate)";
    config.tls.ca_pem = ReadFile(pki("ca.crt"));
    config.tls.ca_source = pki("ca.crt");
    config.tls.client_cert_pem = ReadFile(pki("admin.crt"));
    config.tls.client_key_pem = ReadFile(pki("admin.key"));
    config.tls.client_cert_source = pki("admin.crt");
    config.qps = -1;
    return config;
  }
  // Admin over a bearer token, no client certificate.
  client::RestConfig AdminTokenConfig() const {
    client::RestConfig config;
    config.server = (*this)["APISERVER_URL"];
    config.source = "test control plane (admin token)";
    config.tls.ca_pem = ReadFile(pki("ca.crt"));
    config.tls.ca_source = pki("ca.crt");
    std::string token = ReadFile(pki("admin.token"));
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
    config.bearer_token = token;
    config.qps = -1;
    return config;
  }
};

// A RestClient for the admin (client certificate, no client-side rate limit) over its own
// HttpTransport. Throws when the transport cannot be built: a broken test environment.
// content_type: the encoding of Binding and Event bodies (RestConfig::content_type).
inline std::shared_ptr<client::RestClient> AdminRestClient(std::string content_type = "application/json") {
  client::RestConfig config = ControlPlane::Get().AdminCertConfig();
  config.content_type = std::move(content_type);
  auto transport = client::HttpTransport::Create(config);
  if (!transport.ok()) throw std::runtime_error(transport.status().ToString());
  return std::make_shared<client::RestClient>(
      std::shared_ptr<client::HttpTransport>(std::move(*transport)),
      client::RestClientOptions::FromConfig(config));
}

}  // namespace ksched::testing
