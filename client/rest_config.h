// RestConfig: everything needed to talk to one API server as one identity, resolved from a
// kubeconfig, from the in-cluster service-account environment, or from --master alone.
//
// Plain value type: loaders fill it, the transport reads it. Credential material is held as PEM
// text (files are read at load time) except where it must be re-read: a bearer-token file (in-cluster
// tokens rotate) and an exec credential plugin (run on demand, cached until expiry).
// `source` names where the config came from ("kubeconfig /path, context foo", "in-cluster") so that
// every later error can say which server, context or file it concerns.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ksched::client {

// A kubeconfig `users[].user.exec` entry (client.authentication.k8s.io/v1 or v1beta1).
struct ExecConfig {
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // in order, added to the process environment
  std::string api_version;                               // e.g. "client.authentication.k8s.io/v1"
  std::string install_hint;                              // printed when the command is not found
  bool provide_cluster_info = false;                     // pass the cluster in KUBERNETES_EXEC_INFO
  std::string interactive_mode = "IfAvailable";          // Never | IfAvailable | Always
};

struct TlsConfig {
  std::string ca_pem;                  // empty: the system trust store
  std::string ca_source;               // file path or "certificate-authority-data", for messages
  std::string client_cert_pem;         // with client_key_pem: mutual TLS
  std::string client_key_pem;
  std::string client_cert_source;      // file path or "client-certificate-data", for messages
  bool insecure_skip_verify = false;   // never verify the server certificate (kubeconfig option)
  std::string server_name;             // SNI and verification name override (tls-server-name)
};

struct RestConfig {
  std::string server;     // "https://host:port" or "http://host:port", optionally with a path prefix
  std::string source;     // where this config came from, for error messages
  std::string context;    // kubeconfig context used (empty for in-cluster / --master only)
  // The kubeconfig context's `namespace` (empty when unset, in-cluster or --master only). Kept so
  // that a caller can report or default to it; the scheduler itself does not scope requests by it.
  std::string context_namespace;
  TlsConfig tls;

  std::string bearer_token;       // static token (kubeconfig `token`), or the token file's content
                                  // at load time
  std::string bearer_token_file;  // re-read when its content changes (in-cluster, `tokenFile`);
                                  // when set it wins over bearer_token, which serves only while
                                  // the file cannot be read (client/bearer_token_file.h)
  std::string username;           // basic auth (kubeconfig `username`/`password`), rarely used
  std::string password;
  std::optional<ExecConfig> exec;

  std::string impersonate_user;   // kubeconfig `as`, sent as Impersonate-User
  std::vector<std::string> impersonate_groups;

  // Client-side rate limit and timeouts (KubeSchedulerConfiguration.clientConnection defaults).
  float qps = 50.0F;
  int burst = 100;
  std::string user_agent;                       // empty: api::UserAgent()
  std::chrono::milliseconds timeout{0};         // per request, 0 = none beyond connect/TLS timeouts
  std::string accept_content_types = "application/json";
  // The encoding of the bodies the scheduler writes on every pod (Binding, Event):
  // "application/json" (client-go's default) or "application/vnd.kubernetes.protobuf"
  // (KubeSchedulerConfiguration clientConnection.contentType's default). Other writes (leases,
  // patches, deletes) are JSON either way, as patches must be.
  std::string content_type = "application/json";
};

}  // namespace ksched::client
