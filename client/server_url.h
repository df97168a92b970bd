// The API server URL as RestConfig::server holds it, from what a kubeconfig `server`, --master or
// the in-cluster environment gives.
//
// Rules (client-go's rest.DefaultServerURL and clientcmd's trimming, made strict):
//   - "https://host[:port][/prefix]" and "http://..." are kept; the scheme is lower-cased;
//   - a URL without "scheme://" ("10.0.0.1:6443", "localhost:8080") gets "https://" when
//     `default_tls` (the cluster has TLS settings: a CA, insecure-skip-tls-verify or a client
//     certificate) and "http://" otherwise, as upstream does;
//   - any "?query" or "#fragment" is dropped (a server URL carries neither);
//   - another scheme, an empty host, or whitespace/control characters are errors
//     (kInvalidArgument, message `invalid server URL "<server>": <reason>`).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::client {

absl::StatusOr<std::string> NormalizeServerUrl(std::string_view server, bool default_tls);

// True when `server` (already normalised) uses TLS.
bool IsHttpsServerUrl(std::string_view server);

// A normalised server URL split for connecting: what the transport dials, verifies and sends.
struct ServerUrlParts {
  bool tls = true;
  std::string host;         // without brackets; an IP literal or a DNS name
  std::string port;         // explicit, or 443/80 by scheme
  std::string prefix;       // path prefix without a trailing '/', usually empty
  std::string host_header;  // host[:port] as sent in the Host header (IPv6 bracketed)
};

// Splits "https://host[:port][/prefix]" (or http). kInvalidArgument names the server and `source`
// (where the URL came from) for a missing scheme, an empty host, a bad port or a bad IPv6 literal.
absl::StatusOr<ServerUrlParts> ParseServerUrl(std::string_view server, std::string_view source);

// host:port joined as net.JoinHostPort does: an IPv6 literal host is bracketed.
std::string JoinHostPort(std::string_view host, std::string_view port);

}  // namespace ksched::client
