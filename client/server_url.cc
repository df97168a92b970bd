#include "client/server_url.h"

#include <charconv>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "client/concat.h"

namespace ksched::client {

namespace {

absl::Status Invalid(std::string_view server, std::string_view reason) {
  return absl::InvalidArgumentError(Concat("invalid server URL \"", server, "\": ", reason));
}

}  // namespace

absl::StatusOr<std::string> NormalizeServerUrl(std::string_view server, bool default_tls) {
  if (server.empty()) return Invalid(server, "empty");
  for (const char c : server) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      return Invalid(server, "contains whitespace or a control character");
    }
  }
  std::string scheme;
  std::string_view rest;
  const std::size_t sep = server.find("://");
  if (sep == std::string_view::npos) {
    scheme = default_tls ? "https" : "http";
    rest = server;
  } else {
    scheme = absl::AsciiStrToLower(ToAbsl(server.substr(0, sep)));
    rest = server.substr(sep + 3);
    if (scheme != "https" && scheme != "http") {
      return Invalid(server, "the scheme must be https or http");
    }
  }
  const std::size_t cut = rest.find_first_of("?#");
  if (cut != std::string_view::npos) rest = rest.substr(0, cut);
  const std::size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  std::string_view host = authority.substr(authority.rfind('@') == std::string_view::npos
                                               ? 0
                                               : authority.rfind('@') + 1);
  if (host.empty() || host[0] == ':') return Invalid(server, "no host");
  return Concat(scheme, "://", rest);
}

bool IsHttpsServerUrl(std::string_view server) {
  return absl::StartsWithIgnoreCase(ToAbsl(server), "https://");
}

absl::StatusOr<ServerUrlParts> ParseServerUrl(std::string_view server, std::string_view source) {
  auto invalid = [&](std::string_view reason) {
    return absl::InvalidArgumentError(Concat("server \"", server, "\" (", source, "): ", reason));
  };
  ServerUrlParts url;
  std::string_view rest = server;
  if (rest.substr(0, 8) == "https://") {
    url.tls = true;
    rest.remove_prefix(8);
  } else if (rest.substr(0, 7) == "http://") {
    url.tls = false;
    rest.remove_prefix(7);
  } else {
    return invalid("the URL must start with https:// or http://");
  }
  const std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    std::string_view path = rest.substr(slash);
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    url.prefix = std::string(path);
  }
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("unterminated IPv6 address");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() == ':') port = after.substr(1);
    else if (!after.empty()) return invalid("unexpected text after the IPv6 address");
  } else {
    const std::size_t colon = authority.rfind(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (url.host.empty()) return invalid("no host");
  if (!port.empty()) {
    int number = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (ec != std::errc() || end != port.data() + port.size() || number <= 0 || number > 65535) {
      return invalid(Concat("bad port \"", port, "\""));
    }
  }
  url.port = port.empty() ? (url.tls ? "443" : "80") : std::string(port);
  url.host_header = url.host.find(':') != std::string::npos ? Concat("[", url.host, "]") : url.host;
  if (!port.empty()) ConcatTo(&url.host_header, ":", url.port);
  return url;
}

std::string JoinHostPort(std::string_view host, std::string_view port) {
  if (host.find(':') != std::string_view::npos) return Concat("[", host, "]:", port);
  return Concat(host, ":", port);
}

}  // namespace ksched::client
