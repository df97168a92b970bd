#include "plugins/dynamic_resources/cel/url.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "api/field_errors.h"
#include "plugins/dynamic_resources/cel/netip.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// The parts of a URL that escape differently (net/url's encoding modes).
enum class Encoding {
  kPath,
  kHost,
  kZone,
  kUserPassword,
  kQueryComponent,
  kFragment,
};

bool IsAlphanumeric(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsHex(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

unsigned char Unhex(unsigned char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned char>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned char>(c - 'a' + 10);
  return static_cast<unsigned char>(c - 'A' + 10);
}

// net/url's shouldEscape (RFC 3986, with Go's compatibility exceptions).
bool ShouldEscape(unsigned char c, Encoding mode) {
  if (IsAlphanumeric(c)) return false;
  if (mode == Encoding::kHost || mode == Encoding::kZone) {
    // Hosts allow the sub-delims, ':' (port), '[' ']' (IPv6) and < > " (rejected later anyway,
    // since a host cannot %-encode ASCII).
    switch (c) {
      case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',':
      case ';': case '=': case ':': case '[': case ']': case '<': case '>': case '"':
        return false;
      default:
        break;
    }
  }
  switch (c) {
    case '-': case '_': case '.': case '~':
      return false;
    case '$': case '&': case '+': case ',': case '/': case ':': case ';': case '=': case '?': case '@':
      switch (mode) {
        case Encoding::kPath: return c == '?';
        case Encoding::kUserPassword: return c == '@' || c == '/' || c == '?' || c == ':';
        case Encoding::kQueryComponent: return true;
        case Encoding::kFragment: return false;
        default: break;
      }
      break;
    default:
      break;
  }
  if (mode == Encoding::kFragment && (c == '!' || c == '(' || c == ')' || c == '*')) return false;
  return true;
}

absl::Status EscapeError(std::string_view s) {
  return absl::InvalidArgumentError("invalid URL escape " + api::GoQuote(s));
}

// net/url's unescape: %XX decoded ('+' is a space in a query component). Hosts may %-encode only
// non-ASCII bytes (and "%25" before a zone); zones only bytes a host could hold.
absl::StatusOr<std::string> Unescape(std::string_view s, Encoding mode) {
  std::size_t escapes = 0;
  bool has_plus = false;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      ++escapes;
      if (i + 2 >= s.size() || !IsHex(static_cast<unsigned char>(s[i + 1])) ||
          !IsHex(static_cast<unsigned char>(s[i + 2]))) {
        return EscapeError(s.substr(i, 3));
      }
      const std::string_view escape = s.substr(i, 3);
      if (mode == Encoding::kHost && Unhex(static_cast<unsigned char>(s[i + 1])) < 8 && escape != "%25") {
        return EscapeError(escape);
      }
      if (mode == Encoding::kZone) {
        const auto v = static_cast<unsigned char>(Unhex(static_cast<unsigned char>(s[i + 1])) << 4 |
                                                  Unhex(static_cast<unsigned char>(s[i + 2])));
        if (escape != "%25" && v != ' ' && ShouldEscape(v, Encoding::kHost)) return EscapeError(escape);
      }
      i += 3;
    } else if (c == '+') {
      has_plus = mode == Encoding::kQueryComponent;
      ++i;
    } else {
      if ((mode == Encoding::kHost || mode == Encoding::kZone) && c < 0x80 && ShouldEscape(c, mode)) {
        return absl::InvalidArgumentError("invalid character " + api::GoQuote(s.substr(i, 1)) + " in host name");
      }
      ++i;
    }
  }
  if (escapes == 0 && !has_plus) return std::string(s);

  std::string out;
  out.reserve(s.size() - 2 * escapes);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      out.push_back(static_cast<char>(Unhex(static_cast<unsigned char>(s[i + 1])) << 4 |
                                      Unhex(static_cast<unsigned char>(s[i + 2]))));
      i += 2;
    } else if (s[i] == '+') {
      out.push_back(mode == Encoding::kQueryComponent ? ' ' : '+');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string Escape(std::string_view s, Encoding mode) {
  static constexpr char kUpperHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ' ' && mode == Encoding::kQueryComponent) {
      out.push_back('+');
    } else if (ShouldEscape(c, mode)) {
      out.push_back('%');
      out.push_back(kUpperHex[c >> 4]);
      out.push_back(kUpperHex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

// Whether `s` needs no escaping beyond what it has (validEncoded): RFC 3986's pchar, plus '[' ']'.
bool ValidEncoded(std::string_view s, Encoding mode) {
  for (char ch : s) {
    switch (ch) {
      case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',':
      case ';': case '=': case ':': case '@': case '[': case ']': case '%':
        break;
      default:
        if (ShouldEscape(static_cast<unsigned char>(ch), mode)) return false;
    }
  }
  return true;
}

// Whether a part's raw form (as written) is a valid encoding of its decoded form: the escaped
// form to prefer over computing one.
bool RawEncodes(const std::string& raw, const std::string& decoded, Encoding mode) {
  if (raw.empty() || !ValidEncoded(raw, mode)) return false;
  absl::StatusOr<std::string> unescaped = Unescape(raw, mode);
  return unescaped.ok() && *unescaped == decoded;
}

// ":" followed by digits, or nothing.
bool ValidOptionalPort(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  return std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ContainsControlByte(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < ' ' || c == 0x7f; });
}

// Userinfo may hold only these (RFC 3986's, plus '@' as Go tolerates); escapes are checked when
// decoding.
bool ValidUserinfo(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsAlphanumeric(c)) continue;
    switch (c) {
      case '-': case '.': case '_': case ':': case '~': case '!': case '$': case '&': case '\'':
      case '(': case ')': case '*': case '+': case ',': case ';': case '=': case '%': case '@':
        continue;
      default:
        return false;  // including every non-ASCII byte
    }
  }
  return true;
}

// getScheme: a leading [a-zA-Z][a-zA-Z0-9+.-]* followed by ':' is the scheme.
absl::Status SplitScheme(std::string_view raw, std::string_view& scheme, std::string_view& rest) {
  scheme = {};
  rest = raw;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) return absl::OkStatus();
      continue;
    }
    if (c == ':') {
      if (i == 0) return absl::InvalidArgumentError("missing protocol scheme");
      scheme = raw.substr(0, i);
      rest = raw.substr(i + 1);
    }
    return absl::OkStatus();  // a scheme, or an invalid character: no scheme
  }
  return absl::OkStatus();
}

// parseHost: host[:port], an IPv6 literal in brackets (with an RFC 6874 "%25zone"), decoded.
absl::StatusOr<std::string> ParseHost(std::string_view host) {
  const std::size_t open_bracket = host.rfind('[');
  if (open_bracket != std::string_view::npos && open_bracket > 0) {
    return absl::InvalidArgumentError("invalid IP-literal");
  }
  if (open_bracket == 0) {
    const std::size_t close_bracket = host.rfind(']');
    if (close_bracket == std::string_view::npos) return absl::InvalidArgumentError("missing ']' in host");
    const std::string_view colon_port = host.substr(close_bracket + 1);
    if (!ValidOptionalPort(colon_port)) {
      return absl::InvalidArgumentError("invalid port " + api::GoQuote(colon_port) + " after host");
    }
    absl::StatusOr<std::string> port = Unescape(colon_port, Encoding::kHost);
    if (!port.ok()) return port.status();

    // The zone may %-encode nearly anything, the address only non-ASCII bytes.
    const std::string_view hostname = host.substr(1, close_bracket - 1);
    std::string unescaped_hostname;
    if (const std::size_t zone = hostname.find("%25"); zone != std::string_view::npos) {
      absl::StatusOr<std::string> address = Unescape(hostname.substr(0, zone), Encoding::kHost);
      if (!address.ok()) return address.status();
      absl::StatusOr<std::string> zone_part = Unescape(hostname.substr(zone), Encoding::kZone);
      if (!zone_part.ok()) return zone_part.status();
      unescaped_hostname = *address + *zone_part;
    } else {
      absl::StatusOr<std::string> address = Unescape(hostname, Encoding::kHost);
      if (!address.ok()) return address.status();
      unescaped_hostname = *std::move(address);
    }
    // Only an IPv6 address (an IPv4-mapped one included) may stand in brackets.
    absl::StatusOr<ParsedAddr> addr = ParseAddr(unescaped_hostname);
    if (!addr.ok()) return absl::InvalidArgumentError("invalid host: " + std::string(addr.status().message()));
    if (addr->addr.is4) return absl::InvalidArgumentError("invalid IP-literal");
    return "[" + unescaped_hostname + "]" + *port;
  }
  // Go 1.24 takes the port after the last colon whatever the scheme (Go 1.26 rejects more colons
  // in http and https hosts).
  if (const std::size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    const std::string_view colon_port = host.substr(colon);
    if (!ValidOptionalPort(colon_port)) {
      return absl::InvalidArgumentError("invalid port " + api::GoQuote(colon_port) + " after host");
    }
  }
  return Unescape(host, Encoding::kHost);
}

absl::Status ParseAuthority(std::string_view authority, Url& url) {
  const std::size_t at = authority.rfind('@');
  absl::StatusOr<std::string> host =
      ParseHost(at == std::string_view::npos ? authority : authority.substr(at + 1));
  if (!host.ok()) return host.status();
  url.host = *std::move(host);
  if (at == std::string_view::npos) return absl::OkStatus();

  const std::string_view userinfo = authority.substr(0, at);
  if (!ValidUserinfo(userinfo)) return absl::InvalidArgumentError("net/url: invalid userinfo");
  const std::size_t colon = userinfo.find(':');
  absl::StatusOr<std::string> username = Unescape(userinfo.substr(0, colon), Encoding::kUserPassword);
  if (!username.ok()) return username.status();
  url.has_user = true;
  url.username = *std::move(username);
  if (colon != std::string_view::npos) {
    absl::StatusOr<std::string> password = Unescape(userinfo.substr(colon + 1), Encoding::kUserPassword);
    if (!password.ok()) return password.status();
    url.password = *std::move(password);
    url.password_set = true;
  }
  return absl::OkStatus();
}

// setPath / setFragment: the decoded form, and the raw one when it is not the default encoding.
absl::Status SetDecoded(std::string_view raw, Encoding mode, std::string& decoded, std::string& raw_hint) {
  absl::StatusOr<std::string> unescaped = Unescape(raw, mode);
  if (!unescaped.ok()) return unescaped.status();
  decoded = *std::move(unescaped);
  raw_hint = Escape(decoded, mode) == raw ? std::string() : std::string(raw);
  return absl::OkStatus();
}

// net/url's parse. `via_request`: only an absolute URI or an absolute path (ParseRequestURI).
absl::StatusOr<Url> ParseInternal(std::string_view raw, bool via_request) {
  if (ContainsControlByte(raw)) return absl::InvalidArgumentError("net/url: invalid control character in URL");
  if (raw.empty() && via_request) return absl::InvalidArgumentError("empty url");
  Url url;
  if (raw == "*") {
    url.path = "*";
    return url;
  }

  std::string_view scheme;
  std::string_view rest;
  if (absl::Status status = SplitScheme(raw, scheme, rest); !status.ok()) return status;
  url.scheme = std::string(scheme);
  std::transform(url.scheme.begin(), url.scheme.end(), url.scheme.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });

  if (!rest.empty() && rest.back() == '?' && std::count(rest.begin(), rest.end(), '?') == 1) {
    url.force_query = true;
    rest.remove_suffix(1);
  } else if (const std::size_t question = rest.find('?'); question != std::string_view::npos) {
    url.raw_query = std::string(rest.substr(question + 1));
    rest = rest.substr(0, question);
  }

  if (rest.empty() || rest[0] != '/') {
    if (!url.scheme.empty()) {
      // A rootless path after a scheme is opaque (RFC 3986).
      url.opaque = std::string(rest);
      return url;
    }
    if (via_request) return absl::InvalidArgumentError("invalid URI for request");
    // A relative path's first segment cannot hold a colon: it would read as a scheme.
    if (rest.substr(0, rest.find('/')).find(':') != std::string_view::npos) {
      return absl::InvalidArgumentError("first path segment in URL cannot contain colon");
    }
  }

  const bool authority_allowed = !url.scheme.empty() || (!via_request && !rest.starts_with("///"));
  if (authority_allowed && rest.starts_with("//")) {
    std::string_view authority = rest.substr(2);
    rest = {};
    if (const std::size_t slash = authority.find('/'); slash != std::string_view::npos) {
      rest = authority.substr(slash);
      authority = authority.substr(0, slash);
    }
    if (absl::Status status = ParseAuthority(authority, url); !status.ok()) return status;
  } else if (!url.scheme.empty() && rest.starts_with("/")) {
    url.omit_host = true;  // "scheme:/path" has no authority at all
  }

  if (absl::Status status = SetDecoded(rest, Encoding::kPath, url.path, url.raw_path); !status.ok()) return status;
  return url;
}

// *url.Error's text for the "parse" operation.
absl::Status ParseError(std::string_view url, const absl::Status& cause) {
  return absl::InvalidArgumentError("parse " + api::GoQuote(url) + ": " + std::string(cause.message()));
}

// splitHostPort: the port after the last colon when it is all digits; brackets stripped.
std::pair<std::string_view, std::string_view> SplitHostPort(std::string_view host_port) {
  std::string_view host = host_port;
  std::string_view port;
  if (const std::size_t colon = host.rfind(':');
      colon != std::string_view::npos && ValidOptionalPort(host.substr(colon))) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  return {host, port};
}

}  // namespace

absl::StatusOr<Url> ParseUrl(std::string_view raw) {
  const std::size_t hash = raw.find('#');
  const std::string_view without_fragment = raw.substr(0, hash);
  absl::StatusOr<Url> url = ParseInternal(without_fragment, false);
  if (!url.ok()) return ParseError(without_fragment, url.status());
  if (hash == std::string_view::npos || hash + 1 == raw.size()) return url;
  if (absl::Status status = SetDecoded(raw.substr(hash + 1), Encoding::kFragment, url->fragment, url->raw_fragment);
      !status.ok()) {
    return ParseError(raw, status);
  }
  return url;
}

absl::StatusOr<Url> ParseRequestUri(std::string_view raw) {
  absl::StatusOr<Url> url = ParseInternal(raw, true);
  if (!url.ok()) return ParseError(raw, url.status());
  return url;
}

std::string Url::Hostname() const { return std::string(SplitHostPort(host).first); }
std::string Url::Port() const { return std::string(SplitHostPort(host).second); }

std::string Url::EscapedPath() const {
  if (RawEncodes(raw_path, path, Encoding::kPath)) return raw_path;
  if (path == "*") return "*";  // not escaped (Go issue 11202)
  return Escape(path, Encoding::kPath);
}

std::string Url::EscapedFragment() const {
  if (RawEncodes(raw_fragment, fragment, Encoding::kFragment)) return raw_fragment;
  return Escape(fragment, Encoding::kFragment);
}

std::string Url::ToString() const {
  std::string out;
  if (!scheme.empty()) {
    out += scheme;
    out.push_back(':');
  }
  if (!opaque.empty()) {
    out += opaque;
  } else {
    if (!scheme.empty() || !host.empty() || has_user) {
      if (!(omit_host && host.empty() && !has_user)) {
        if (!host.empty() || !path.empty() || has_user) out += "//";
        if (has_user) {
          out += Escape(username, Encoding::kUserPassword);
          if (password_set) {
            out.push_back(':');
            out += Escape(password, Encoding::kUserPassword);
          }
          out += "@";
        }
        out += Escape(host, Encoding::kHost);
      }
    }
    const std::string escaped_path = EscapedPath();
    if (!escaped_path.empty() && escaped_path[0] != '/' && !host.empty()) out += "/";
    // A first segment with a colon would read as a scheme (RFC 3986 §4.2).
    if (out.empty() && escaped_path.substr(0, escaped_path.find('/')).find(':') != std::string::npos) out += "./";
    out += escaped_path;
  }
  if (force_query || !raw_query.empty()) {
    out.push_back('?');
    out += raw_query;
  }
  if (!fragment.empty()) {
    out.push_back('#');
    out += EscapedFragment();
  }
  return out;
}

QueryValues ParseQuery(std::string_view query) {
  QueryValues values;
  // Go (since 1.24.12) refuses more than 10000 parameters: URL.Query() is then empty.
  constexpr std::size_t kMaxParams = 10000;
  if (static_cast<std::size_t>(std::count(query.begin(), query.end(), '&')) + 1 > kMaxParams) return values;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.find(';') != std::string_view::npos || pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    absl::StatusOr<std::string> key = Unescape(pair.substr(0, equals), Encoding::kQueryComponent);
    if (!key.ok()) continue;
    absl::StatusOr<std::string> value = Unescape(
        equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1), Encoding::kQueryComponent);
    if (!value.ok()) continue;
    values[*std::move(key)].push_back(*std::move(value));
  }
  return values;
}

}  // namespace ksched::plugins::dynamic_resources::cel
