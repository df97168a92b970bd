#include "client/kubeconfig.h"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>

#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/concat.h"
#include "client/read_file.h"
#include "client/server_url.h"

namespace ksched::client {

namespace {

// ---- The file as written (only what this client reads) ----

struct ClusterEntry {
  std::string server;
  std::string tls_server_name;
  std::string certificate_authority;
  std::string certificate_authority_data;  // still base64: decoded only for the selected cluster
  std::string proxy_url;
  bool insecure_skip_tls_verify = false;
};

struct ExecEntry {
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string api_version;
  std::string install_hint;
  std::string interactive_mode;
  bool provide_cluster_info = false;
};

struct UserEntry {
  std::string client_certificate;
  std::string client_certificate_data;  // base64
  std::string client_key;
  std::string client_key_data;  // base64
  std::string token;
  std::string token_file;
  std::string username;
  std::string password;
  std::string impersonate;      // as
  std::string impersonate_uid;  // as-uid (not supported)
  std::vector<std::string> impersonate_groups;
  bool has_impersonate_user_extra = false;  // as-user-extra (not supported)
  std::optional<std::string> auth_provider;  // its name; present: not supported
  std::optional<ExecEntry> exec;
};

struct ContextEntry {
  std::string cluster;
  std::string user;
  std::string ns;
};

struct KubeconfigFile {
  std::map<std::string, ClusterEntry> clusters;
  std::map<std::string, UserEntry> users;
  std::map<std::string, ContextEntry> contexts;
  std::string current_context;
};

#define KSCHED_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    absl::Status ksched_status_ = (expr);            \
    if (!ksched_status_.ok()) return ksched_status_; \
  } while (false)

// ---- YAML reading; yaml-cpp may throw, LoadKubeconfig catches ----

const char* KindOf(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Scalar:
      return "a scalar";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

absl::Status FieldError(std::string_view where, std::string_view key, std::string_view what) {
  return absl::InvalidArgumentError(Concat(where, ": field ", key, ": ", what));
}

bool Absent(const YAML::Node& node) { return !node.IsDefined() || node.IsNull(); }

// map[key] as a string: absent or null leaves *out untouched; any scalar is taken as its text.
absl::Status GetString(const YAML::Node& map, const char* key, std::string_view where,
                       std::string* out) {
  const YAML::Node value = map[key];
  if (Absent(value)) return absl::OkStatus();
  if (!value.IsScalar()) {
    return FieldError(where, key, Concat("expected a string, got ", KindOf(value)));
  }
  *out = value.Scalar();
  return absl::OkStatus();
}

absl::Status GetBool(const YAML::Node& map, const char* key, std::string_view where, bool* out) {
  const YAML::Node value = map[key];
  if (Absent(value)) return absl::OkStatus();
  bool parsed = false;
  if (!value.IsScalar()) {
    return FieldError(where, key, Concat("expected true or false, got ", KindOf(value)));
  }
  if (!YAML::convert<bool>::decode(value, parsed)) {
    return FieldError(where, key, Concat("expected true or false, got \"", value.Scalar(), "\""));
  }
  *out = parsed;
  return absl::OkStatus();
}

absl::Status GetStringList(const YAML::Node& map, const char* key, std::string_view where,
                           std::vector<std::string>* out) {
  const YAML::Node value = map[key];
  if (Absent(value)) return absl::OkStatus();
  if (!value.IsSequence()) {
    return FieldError(where, key, Concat("expected a list of strings, got ", KindOf(value)));
  }
  for (const auto& item : value) {
    if (item.IsNull()) {
      out->emplace_back();
    } else if (item.IsScalar()) {
      out->push_back(item.Scalar());
    } else {
      return FieldError(where, key, Concat("expected a list of strings, got ", KindOf(item),
                                           " in the list"));
    }
  }
  return absl::OkStatus();
}

absl::Status ParseCluster(const YAML::Node& node, std::string_view where, ClusterEntry* c) {
  KSCHED_RETURN_IF_ERROR(GetString(node, "server", where, &c->server));
  KSCHED_RETURN_IF_ERROR(GetString(node, "tls-server-name", where, &c->tls_server_name));
  KSCHED_RETURN_IF_ERROR(
      GetString(node, "certificate-authority", where, &c->certificate_authority));
  KSCHED_RETURN_IF_ERROR(
      GetString(node, "certificate-authority-data", where, &c->certificate_authority_data));
  KSCHED_RETURN_IF_ERROR(GetString(node, "proxy-url", where, &c->proxy_url));
  KSCHED_RETURN_IF_ERROR(
      GetBool(node, "insecure-skip-tls-verify", where, &c->insecure_skip_tls_verify));
  return absl::OkStatus();
}

absl::Status ParseExec(const YAML::Node& node, std::string_view where, ExecEntry* e) {
  KSCHED_RETURN_IF_ERROR(GetString(node, "command", where, &e->command));
  KSCHED_RETURN_IF_ERROR(GetStringList(node, "args", where, &e->args));
  KSCHED_RETURN_IF_ERROR(GetString(node, "apiVersion", where, &e->api_version));
  KSCHED_RETURN_IF_ERROR(GetString(node, "installHint", where, &e->install_hint));
  KSCHED_RETURN_IF_ERROR(GetString(node, "interactiveMode", where, &e->interactive_mode));
  KSCHED_RETURN_IF_ERROR(GetBool(node, "provideClusterInfo", where, &e->provide_cluster_info));
  const YAML::Node env = node["env"];
  if (Absent(env)) return absl::OkStatus();
  if (!env.IsSequence()) {
    return FieldError(where, "exec.env", Concat("expected a list, got ", KindOf(env)));
  }
  for (const auto& item : env) {
    if (!item.IsMap()) {
      return FieldError(where, "exec.env",
                        Concat("expected {name, value} mappings, got ", KindOf(item)));
    }
    std::pair<std::string, std::string> var;
    KSCHED_RETURN_IF_ERROR(GetString(item, "name", where, &var.first));
    KSCHED_RETURN_IF_ERROR(GetString(item, "value", where, &var.second));
    e->env.push_back(std::move(var));
  }
  return absl::OkStatus();
}

absl::Status ParseUser(const YAML::Node& node, std::string_view where, UserEntry* u) {
  KSCHED_RETURN_IF_ERROR(GetString(node, "client-certificate", where, &u->client_certificate));
  KSCHED_RETURN_IF_ERROR(
      GetString(node, "client-certificate-data", where, &u->client_certificate_data));
  KSCHED_RETURN_IF_ERROR(GetString(node, "client-key", where, &u->client_key));
  KSCHED_RETURN_IF_ERROR(GetString(node, "client-key-data", where, &u->client_key_data));
  KSCHED_RETURN_IF_ERROR(GetString(node, "token", where, &u->token));
  KSCHED_RETURN_IF_ERROR(GetString(node, "tokenFile", where, &u->token_file));
  KSCHED_RETURN_IF_ERROR(GetString(node, "username", where, &u->username));
  KSCHED_RETURN_IF_ERROR(GetString(node, "password", where, &u->password));
  KSCHED_RETURN_IF_ERROR(GetString(node, "as", where, &u->impersonate));
  KSCHED_RETURN_IF_ERROR(GetString(node, "as-uid", where, &u->impersonate_uid));
  KSCHED_RETURN_IF_ERROR(GetStringList(node, "as-groups", where, &u->impersonate_groups));
  const YAML::Node extra = node["as-user-extra"];
  u->has_impersonate_user_extra = !Absent(extra) && !(extra.IsMap() && extra.size() == 0);

  const YAML::Node provider = node["auth-provider"];
  if (!Absent(provider)) {
    std::string name;
    if (provider.IsMap()) KSCHED_RETURN_IF_ERROR(GetString(provider, "name", where, &name));
    u->auth_provider = name;
  }
  const YAML::Node exec = node["exec"];
  if (!Absent(exec)) {
    if (!exec.IsMap()) {
      return FieldError(where, "exec", Concat("expected a mapping, got ", KindOf(exec)));
    }
    u->exec.emplace();
    KSCHED_RETURN_IF_ERROR(ParseExec(exec, where, &*u->exec));
  }
  return absl::OkStatus();
}

absl::Status ParseContext(const YAML::Node& node, std::string_view where, ContextEntry* c) {
  KSCHED_RETURN_IF_ERROR(GetString(node, "cluster", where, &c->cluster));
  KSCHED_RETURN_IF_ERROR(GetString(node, "user", where, &c->user));
  KSCHED_RETURN_IF_ERROR(GetString(node, "namespace", where, &c->ns));
  return absl::OkStatus();
}

// clusters / users / contexts: lists of {name, <item_key>: {...}}, names unique (as the v1 to
// internal conversion requires).
template <typename Entry, typename ParseFn>
absl::Status ParseNamedList(const YAML::Node& root, const char* list_key, const char* item_key,
                            std::string_view kind, std::map<std::string, Entry>* out,
                            ParseFn parse_entry) {
  const YAML::Node list = root[list_key];
  if (Absent(list)) return absl::OkStatus();
  if (!list.IsSequence()) {
    return absl::InvalidArgumentError(
        Concat(list_key, ": expected a list, got ", KindOf(list)));
  }
  std::size_t index = 0;
  for (const auto& item : list) {
    const std::string position = Concat(list_key, "[", index++, "]");
    if (!item.IsMap()) {
      return absl::InvalidArgumentError(Concat(
          position, ": expected a mapping with name and ", item_key, ", got ", KindOf(item)));
    }
    std::string name;
    KSCHED_RETURN_IF_ERROR(GetString(item, "name", position, &name));
    const std::string where = Concat(kind, " \"", name, "\"");
    Entry entry;
    const YAML::Node body = item[item_key];
    if (!Absent(body)) {
      if (!body.IsMap()) {
        return FieldError(where, item_key, Concat("expected a mapping, got ", KindOf(body)));
      }
      KSCHED_RETURN_IF_ERROR(parse_entry(body, where, &entry));
    }
    if (!out->emplace(name, std::move(entry)).second) {
      return absl::InvalidArgumentError(
          Concat("duplicate name \"", name, "\" in ", list_key));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<KubeconfigFile> ParseKubeconfig(const std::string& text) {
  KubeconfigFile file;
  const YAML::Node root = YAML::Load(text);
  if (Absent(root)) return file;  // an empty file is an empty config, as upstream
  if (!root.IsMap()) {
    return absl::InvalidArgumentError(
        Concat("expected a mapping at the top level, got ", KindOf(root)));
  }
  std::string kind;
  std::string api_version;
  KSCHED_RETURN_IF_ERROR(GetString(root, "kind", "the file", &kind));
  KSCHED_RETURN_IF_ERROR(GetString(root, "apiVersion", "the file", &api_version));
  if (!kind.empty() && kind != "Config") {
    return absl::InvalidArgumentError(Concat("kind is \"", kind, "\", want \"Config\""));
  }
  if (!api_version.empty() && api_version != "v1") {
    return absl::InvalidArgumentError(
        Concat("apiVersion is \"", api_version, "\", want \"v1\""));
  }
  KSCHED_RETURN_IF_ERROR(GetString(root, "current-context", "the file", &file.current_context));
  KSCHED_RETURN_IF_ERROR(
      ParseNamedList(root, "clusters", "cluster", "cluster", &file.clusters, ParseCluster));
  KSCHED_RETURN_IF_ERROR(ParseNamedList(root, "users", "user", "user", &file.users, ParseUser));
  KSCHED_RETURN_IF_ERROR(
      ParseNamedList(root, "contexts", "context", "context", &file.contexts, ParseContext));
  return file;
}

#undef KSCHED_RETURN_IF_ERROR

// ---- Resolution and validation of the selected context ----

// Relative paths are joined to the kubeconfig's directory and cleaned (filepath.Join); absolute
// and empty ones are left alone, as ResolvePaths does.
std::string ResolvePath(const std::string& base_dir, const std::string& ref) {
  if (ref.empty() || ref.front() == '/') return ref;
  return (std::filesystem::path(base_dir) / ref).lexically_normal().string();
}

// Standard base64 with padding, as Go's encoding/json decodes []byte (CR and LF are skipped).
std::optional<std::string> DecodeBase64(std::string_view in) {
  std::string cleaned;
  cleaned.reserve(in.size());
  for (const char c : in) {
    if (c != '\r' && c != '\n') cleaned.push_back(c);
  }
  if (cleaned.size() % 4 != 0) return std::nullopt;
  const std::size_t pad_start = cleaned.find('=');
  for (std::size_t i = 0; i < cleaned.size(); ++i) {
    const char c = cleaned[i];
    if (i >= pad_start) {
      if (c != '=' || cleaned.size() - pad_start > 2) return std::nullopt;
    } else if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/') {
      return std::nullopt;
    }
  }
  std::string out;
  if (!absl::Base64Unescape(cleaned, &out)) return std::nullopt;
  return out;
}

// cleanANSIEscapeCodes: control characters other than \t \n \v \f \r are written as U+XXXX so that
// an install hint cannot drive the terminal.
std::string CleanAnsiEscapeCodes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && (u < 0x09 || u > 0x0d)) || u == 0x7f) {
      ConcatTo(&out, absl::StrFormat("U+%04X", u));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// Reads a referenced file; on failure records "unable to read <field> for <owner>: <path>: <why>".
std::optional<std::string> ReadReferenced(const std::string& path, std::string_view field,
                                          std::string_view owner,
                                          std::vector<std::string>* errors) {
  absl::StatusOr<std::string> data = ReadFileToString(path);
  if (!data.ok()) {
    errors->push_back(
        Concat("unable to read ", field, " for ", owner, ": ", data.status().message()));
    return std::nullopt;
  }
  return *std::move(data);
}

std::optional<std::string> DecodeField(const std::string& data, std::string_view field,
                                       std::string_view owner, std::vector<std::string>* errors) {
  std::optional<std::string> decoded = DecodeBase64(data);
  if (!decoded) errors->push_back(Concat("illegal base64 data in ", field, " of ", owner));
  return decoded;
}

bool IsKnownExecApiVersion(std::string_view v) {
  return v == "client.authentication.k8s.io/v1" || v == "client.authentication.k8s.io/v1beta1";
}

// validateClusterInfo for the selected cluster, filling the server and the TLS settings.
void ResolveCluster(const ClusterEntry& cluster, std::string_view owner, bool user_has_client_cert,
                    const std::string& base_dir, RestConfig* config,
                    std::vector<std::string>* errors) {
  TlsConfig& tls = config->tls;
  const bool has_ca = !cluster.certificate_authority.empty();
  const bool has_ca_data = !cluster.certificate_authority_data.empty();
  if (cluster.server.empty()) errors->push_back(Concat("no server found for ", owner));
  if (has_ca && has_ca_data) {
    errors->push_back(Concat(
        "certificate-authority-data and certificate-authority are both specified for ", owner));
  }
  if (cluster.insecure_skip_tls_verify && (has_ca || has_ca_data)) {
    errors->push_back(Concat(
        "specifying a root certificates file with the insecure flag is not allowed: ", owner,
        " sets both insecure-skip-tls-verify and ",
        has_ca ? "certificate-authority" : "certificate-authority-data"));
  }
  if (has_ca) {
    const std::string path = ResolvePath(base_dir, cluster.certificate_authority);
    if (auto pem = ReadReferenced(path, "certificate-authority", owner, errors)) {
      tls.ca_pem = *std::move(pem);
      tls.ca_source = path;
    }
  } else if (has_ca_data) {
    if (auto pem = DecodeField(cluster.certificate_authority_data, "certificate-authority-data",
                               owner, errors)) {
      tls.ca_pem = *std::move(pem);
      tls.ca_source = "certificate-authority-data";
    }
  }
  if (!cluster.proxy_url.empty()) {
    errors->push_back(Concat("proxy-url of ", owner,
                             " is not supported (kube-scheduler-cpp connects directly)"));
  }
  tls.insecure_skip_verify = cluster.insecure_skip_tls_verify;
  tls.server_name = cluster.tls_server_name;

  if (!cluster.server.empty()) {
    const bool default_tls =
        has_ca || has_ca_data || cluster.insecure_skip_tls_verify || user_has_client_cert;
    absl::StatusOr<std::string> url = NormalizeServerUrl(cluster.server, default_tls);
    if (url.ok()) {
      config->server = *std::move(url);
    } else {
      errors->push_back(Concat(url.status().message(), " (server of ", owner, ")"));
    }
  }
}

void ResolveExec(const ExecEntry& exec, std::string_view owner, const std::string& base_dir,
                 RestConfig* config, std::vector<std::string>* errors) {
  if (exec.command.empty()) {
    errors->push_back(Concat("command must be specified for ", owner,
                             " to use exec authentication plugin"));
  }
  std::string interactive_mode = exec.interactive_mode;
  if (exec.api_version.empty()) {
    errors->push_back(Concat("apiVersion must be specified for ", owner,
                             " to use exec authentication plugin"));
  } else if (!IsKnownExecApiVersion(exec.api_version)) {
    errors->push_back(Concat("exec plugin: invalid apiVersion \"", exec.api_version,
                             "\" for ", owner));
  } else if (interactive_mode.empty() && exec.api_version != "client.authentication.k8s.io/v1") {
    interactive_mode = "IfAvailable";  // v1beta1's default (SetDefaults_ExecConfig)
  }
  for (const auto& [name, value] : exec.env) {
    if (name.empty()) {
      errors->push_back(Concat("env variable name must be specified for ", owner,
                               " to use exec authentication plugin"));
      break;
    }
  }
  if (interactive_mode.empty()) {
    if (IsKnownExecApiVersion(exec.api_version)) {
      errors->push_back(Concat("interactiveMode must be specified for ", owner,
                               " to use exec authentication plugin"));
    }
  } else if (interactive_mode != "Never" && interactive_mode != "IfAvailable" &&
             interactive_mode != "Always") {
    errors->push_back(
        Concat("invalid interactiveMode for ", owner, ": \"", interactive_mode, "\""));
  }

  ExecConfig out;
  // Only a command with a path separator is file-relative; a bare name is looked up in $PATH.
  out.command = exec.command.find('/') != std::string::npos ? ResolvePath(base_dir, exec.command)
                                                           : exec.command;
  out.args = exec.args;
  out.env = exec.env;
  out.api_version = exec.api_version;
  out.install_hint = CleanAnsiEscapeCodes(exec.install_hint);
  out.provide_cluster_info = exec.provide_cluster_info;
  out.interactive_mode = interactive_mode;
  config->exec = std::move(out);
}

// validateAuthInfo for the selected user, filling the credentials.
void ResolveUser(const UserEntry& user, std::string_view owner, const std::string& base_dir,
                 RestConfig* config, std::vector<std::string>* errors) {
  std::vector<std::string> methods;
  if (!user.token.empty()) methods.emplace_back("token");
  if (!user.username.empty() || !user.password.empty()) methods.emplace_back("basicAuth");
  if (methods.size() > 1) {
    errors->push_back(Concat("more than one authentication method found for ", owner,
                             "; found [", absl::StrJoin(methods, " "),
                             "], only one is allowed"));
  }

  const bool has_cert = !user.client_certificate.empty() || !user.client_certificate_data.empty();
  if (has_cert) {
    const bool has_key = !user.client_key.empty() || !user.client_key_data.empty();
    if (!user.client_certificate.empty() && !user.client_certificate_data.empty()) {
      errors->push_back(Concat(
          "client-certificate-data and client-certificate are both specified for ", owner));
    }
    if (!user.client_key.empty() && !user.client_key_data.empty()) {
      errors->push_back(
          Concat("client-key-data and client-key are both specified for ", owner));
    }
    if (!has_key) {
      errors->push_back(Concat("client-key-data or client-key must be specified for ", owner,
                               " to use the clientCert authentication method"));
    }
    TlsConfig& tls = config->tls;
    if (!user.client_certificate.empty()) {
      const std::string path = ResolvePath(base_dir, user.client_certificate);
      if (auto pem = ReadReferenced(path, "client-certificate", owner, errors)) {
        tls.client_cert_pem = *std::move(pem);
        tls.client_cert_source = path;
      }
    } else if (auto pem = DecodeField(user.client_certificate_data, "client-certificate-data",
                                      owner, errors)) {
      tls.client_cert_pem = *std::move(pem);
      tls.client_cert_source = "client-certificate-data";
    }
    if (!user.client_key.empty()) {
      const std::string path = ResolvePath(base_dir, user.client_key);
      if (auto pem = ReadReferenced(path, "client-key", owner, errors)) {
        tls.client_key_pem = *std::move(pem);
      }
    } else if (!user.client_key_data.empty()) {
      if (auto pem = DecodeField(user.client_key_data, "client-key-data", owner, errors)) {
        tls.client_key_pem = *std::move(pem);
      }
    }
  }

  if (!user.token.empty()) {
    config->bearer_token = user.token;
    config->bearer_token_file = ResolvePath(base_dir, user.token_file);
  } else if (!user.token_file.empty()) {
    const std::string path = ResolvePath(base_dir, user.token_file);
    if (auto token = ReadReferenced(path, "tokenFile", owner, errors)) {
      config->bearer_token = std::string(absl::StripAsciiWhitespace(*token));
      config->bearer_token_file = path;
    }
  }
  config->username = user.username;
  config->password = user.password;

  if ((!user.impersonate_uid.empty() || !user.impersonate_groups.empty() ||
       user.has_impersonate_user_extra) &&
      user.impersonate.empty()) {
    errors->push_back(Concat("requesting uid, groups or user-extra for ", owner,
                             " without impersonating a user"));
  }
  if (!user.impersonate_uid.empty()) {
    errors->push_back(Concat("as-uid of ", owner, " is not supported"));
  }
  if (user.has_impersonate_user_extra) {
    errors->push_back(Concat("as-user-extra of ", owner, " is not supported"));
  }
  config->impersonate_user = user.impersonate;
  config->impersonate_groups = user.impersonate_groups;

  if (user.auth_provider) {
    if (user.exec) {
      errors->push_back(Concat(
          "authProvider cannot be provided in combination with an exec plugin for ", owner));
    }
    errors->push_back(Concat("auth-provider \"", *user.auth_provider, "\" of ", owner,
                             " is not supported: use an exec credential plugin"));
  }
  if (user.exec) ResolveExec(*user.exec, owner, base_dir, config, errors);
}

std::string Quoted(std::string_view kind, std::string_view name) {
  return Concat(kind, " \"", name, "\"");
}

}  // namespace

absl::StatusOr<RestConfig> LoadKubeconfig(const KubeconfigOptions& options) {
  const std::string& path = options.path;
  if (path.empty()) return absl::InvalidArgumentError("no kubeconfig path given");

  // clientcmd's words: a missing explicit kubeconfig is os.Stat's error, any other failure to
  // read it LoadFromFile's, wrapped as its parse errors are.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 && errno == ENOENT) {
    return absl::NotFoundError(Concat("stat ", path, ": no such file or directory"));
  }
  absl::StatusOr<std::string> text = ReadFileToString(path);
  if (!text.ok()) {
    // ReadFileToString's "<path>: <strerror>", as Go's "open <path>: <lower-case reason>" (a
    // directory opens in Go and fails at the read).
    std::string reason(text.status().message());
    if (reason.starts_with(path + ": ")) reason.erase(0, path.size() + 2);
    if (!reason.empty()) reason[0] = absl::ascii_tolower(static_cast<unsigned char>(reason[0]));
    const bool directory = S_ISDIR(info.st_mode);
    return absl::Status(text.status().code(), Concat("error loading config file \"", path, "\": ",
                                                     directory ? "read " : "open ", path, ": ", reason));
  }
  absl::StatusOr<KubeconfigFile> parsed;
  try {
    parsed = ParseKubeconfig(*text);
  } catch (const YAML::Exception& e) {
    parsed = absl::InvalidArgumentError(e.what());
  } catch (const std::exception& e) {
    parsed = absl::InternalError(e.what());
  }
  if (!parsed.ok()) {
    return absl::Status(parsed.status().code(), Concat("error loading config file \"", path,
                                                       "\": ", parsed.status().message()));
  }
  const KubeconfigFile& file = *parsed;

  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) {
    return absl::InternalError(Concat("could not determine the absolute path of config file ",
                                      path, ": ", ec.message()));
  }
  const std::string base_dir = absolute.lexically_normal().parent_path().string();

  // The context: requested, else current-context.
  const std::string& context_name =
      options.context.empty() ? file.current_context : options.context;
  const ContextEntry* context = nullptr;
  if (!context_name.empty()) {
    const auto it = file.contexts.find(context_name);
    if (it == file.contexts.end()) {
      const char* what = options.context.empty() ? "current-context" : "context";
      return absl::InvalidArgumentError(
          Concat(what, " \"", context_name, "\" does not exist in kubeconfig ", path));
    }
    context = &it->second;
  } else if (options.master.empty()) {
    return absl::InvalidArgumentError(Concat(
        "invalid configuration: no configuration has been provided: kubeconfig ", path,
        " has no current-context, no context was requested and no --master was given"));
  }

  std::vector<std::string> errors;
  RestConfig config;

  // Its user (none: anonymous) and cluster (none: only --master's server).
  const UserEntry* user = nullptr;
  std::string user_owner;
  if (context != nullptr && !context->user.empty()) {
    const auto it = file.users.find(context->user);
    if (it == file.users.end()) {
      errors.push_back(Concat(Quoted("user", context->user), " was not found for ",
                              Quoted("context", context_name)));
    } else {
      user = &it->second;
      user_owner = Quoted("user", context->user);
    }
  }
  std::optional<ClusterEntry> cluster;
  std::string cluster_owner = "the --master cluster";
  if (context != nullptr && !context->cluster.empty()) {
    const auto it = file.clusters.find(context->cluster);
    if (it == file.clusters.end()) {
      errors.push_back(Concat(Quoted("cluster", context->cluster), " was not found for ",
                              Quoted("context", context_name)));
    } else {
      cluster = it->second;
      cluster_owner = Quoted("cluster", context->cluster);
    }
  } else if (!options.master.empty()) {
    cluster.emplace();
  } else {
    errors.push_back(Concat("cluster was not specified for ", Quoted("context", context_name)));
  }
  if (cluster && !options.master.empty()) {
    cluster->server = options.master;  // --master wins, and drops the file's tls-server-name
    cluster->tls_server_name.clear();
  }

  if (user != nullptr) ResolveUser(*user, user_owner, base_dir, &config, &errors);
  if (cluster) {
    const bool user_has_client_cert =
        user != nullptr &&
        (!user->client_certificate.empty() || !user->client_certificate_data.empty());
    ResolveCluster(*cluster, cluster_owner, user_has_client_cert, base_dir, &config, &errors);
  }

  if (!errors.empty()) {
    std::string where = Concat("invalid configuration in kubeconfig ", path);
    if (context != nullptr) ConcatTo(&where, ", ", Quoted("context", context_name));
    return absl::InvalidArgumentError(Concat(where, ": ", absl::StrJoin(errors, "; ")));
  }

  config.source = Concat("kubeconfig ", path);
  if (context != nullptr) {
    ConcatTo(&config.source, ", context ", context_name);
    config.context = context_name;
    config.context_namespace = context->ns;
  }
  if (!IsHttpsServerUrl(config.server)) {
    // IsConfigTransportTLS: no credentials and no TLS settings for a plain-HTTP server.
    config.tls = TlsConfig{};
    config.bearer_token.clear();
    config.bearer_token_file.clear();
    config.username.clear();
    config.password.clear();
    config.exec.reset();
  }
  return config;
}

}  // namespace ksched::client
