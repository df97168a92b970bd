// The Kubernetes ip, cidr and url CEL libraries (k8s.io/apiserver/pkg/cel/library ip.go, cidr.go
// and urls.go, v0.34.4), over Go's net/netip and net/url semantics (netip.h, url.h):
//   ip(string) -> net.IP, isIP(string), ip.isCanonical(string), ip.family(),
//   ip.isUnspecified(), ip.isLoopback(), ip.isLinkLocalMulticast(), ip.isLinkLocalUnicast(),
//   ip.isGlobalUnicast(), string(net.IP);
//   cidr(string) -> net.CIDR, isCIDR(string), cidr.containsIP(string | net.IP),
//   cidr.containsCIDR(string | net.CIDR), cidr.ip(), cidr.masked(), cidr.prefixLength(),
//   string(net.CIDR);
//   url(string) -> kubernetes.URL, isURL(string), url.getScheme(), url.getHost(),
//   url.getHostname(), url.getPort(), url.getEscapedPath(), url.getQuery().
// ip() and cidr() reject IPv4-mapped IPv6 addresses and zones; url() and isURL() accept what
// url.ParseRequestURI accepts (an absolute URI or an absolute path), and url() keeps what url.Parse
// makes of it (which splits off a fragment). Failures are upstream's messages, as error values.
// Known deviations: messages quote a non-ASCII code point Unicode leaves unassigned as is, where
// Go's %q escapes it (api::GoQuote); getQuery()'s map iterates its keys sorted (a Go map has no
// order); the libraries' cost estimates are not implemented (see device_selector.h).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/field_errors.h"
#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/netip.h"
#include "plugins/dynamic_resources/cel/url.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// A parsed value holding about `bytes` of text, charged to the budget as a string of that size.
Value Charged(CallContext& ctx, std::size_t bytes, Value value) {
  if (ctx.budget != nullptr && !ctx.budget->Charge(1 + bytes / 10)) {
    return Value::Error(std::string(kCostLimitExceeded));
  }
  return value;
}

// --- ip ------------------------------------------------------------------------------------------

// parseIPAddr: netip.ParseAddr, minus zones and IPv4-mapped IPv6 addresses.
absl::StatusOr<IPAddr> ParseIP(std::string_view raw) {
  absl::StatusOr<ParsedAddr> parsed = ParseAddr(raw);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError("IP Address " + api::GoQuote(raw) +
                                      " parse error during conversion from string: " +
                                      std::string(parsed.status().message()));
  }
  if (!parsed->zone.empty()) {
    return absl::InvalidArgumentError("IP address " + api::GoQuote(raw) + " with zone value is not allowed");
  }
  if (parsed->addr.Is4In6()) {
    return absl::InvalidArgumentError("IPv4-mapped IPv6 address " + api::GoQuote(raw) + " is not allowed");
  }
  return parsed->addr;
}

Value StringToIP(std::string_view raw) {
  absl::StatusOr<IPAddr> addr = ParseIP(raw);
  if (!addr.ok()) return Value::Error(std::string(addr.status().message()));
  return Value::IP(*addr);
}

Value ToIP(CallContext&, std::span<const Value> args) { return StringToIP(args[0].text()); }

Value IsIP(CallContext&, std::span<const Value> args) { return Value::Bool(ParseIP(args[0].text()).ok()); }

// Whether the string is an address written as Addr.String() writes it (the canonical form).
Value IPIsCanonical(CallContext&, std::span<const Value> args) {
  absl::StatusOr<IPAddr> addr = ParseIP(args[0].text());
  if (!addr.ok()) return Value::Error(std::string(addr.status().message()));
  return Value::Bool(addr->ToString() == args[0].text());
}

// A parsed address is always IPv4 or IPv6: upstream's "not an IPv4 or IPv6 address" cannot occur.
Value Family(CallContext&, std::span<const Value> args) { return Value::Int(args[0].ip().is4 ? 4 : 6); }

Value IsUnspecified(CallContext&, std::span<const Value> args) { return Value::Bool(args[0].ip().IsUnspecified()); }
Value IsLoopback(CallContext&, std::span<const Value> args) { return Value::Bool(args[0].ip().IsLoopback()); }
Value IsLinkLocalMulticast(CallContext&, std::span<const Value> args) {
  return Value::Bool(args[0].ip().IsLinkLocalMulticast());
}
Value IsLinkLocalUnicast(CallContext&, std::span<const Value> args) {
  return Value::Bool(args[0].ip().IsLinkLocalUnicast());
}
Value IsGlobalUnicast(CallContext&, std::span<const Value> args) {
  return Value::Bool(args[0].ip().IsGlobalUnicast());
}

Value IPToString(CallContext& ctx, std::span<const Value> args) { return MakeString(ctx, args[0].ip().ToString()); }

// --- cidr ----------------------------------------------------------------------------------------

// parseCIDR: netip.ParsePrefix, minus IPv4-mapped IPv6 addresses (zones it rejects itself).
absl::StatusOr<IPPrefix> ParseCIDR(std::string_view raw) {
  absl::StatusOr<IPPrefix> prefix = ParsePrefix(raw);
  if (!prefix.ok()) {
    return absl::InvalidArgumentError("network address parse error during conversion from string: " +
                                      std::string(prefix.status().message()));
  }
  if (prefix->addr.Is4In6()) {
    return absl::InvalidArgumentError("IPv4-mapped IPv6 address " + api::GoQuote(raw) + " is not allowed");
  }
  return prefix;
}

// stringToCIDR adds its own prefix to parseCIDR's (so a syntax error reads it twice, as upstream).
Value StringToCIDR(std::string_view raw) {
  absl::StatusOr<IPPrefix> prefix = ParseCIDR(raw);
  if (!prefix.ok()) {
    return Value::Error("network address parse error during conversion from string: " +
                        std::string(prefix.status().message()));
  }
  return Value::CIDR(*prefix);
}

Value ToCIDR(CallContext&, std::span<const Value> args) { return StringToCIDR(args[0].text()); }

Value IsCIDR(CallContext&, std::span<const Value> args) { return Value::Bool(ParseCIDR(args[0].text()).ok()); }

Value ContainsIP(CallContext&, std::span<const Value> args) {
  if (args[1].kind() == ValueKind::kIP) return Value::Bool(args[0].cidr().Contains(args[1].ip()));
  const Value ip = StringToIP(args[1].text());
  // Upstream hands the parse error on where an IP is expected, and that check reports the
  // receiver (a CIDR, not an error): a bad address string is "no such overload".
  if (ip.IsError()) return Value::Error("no such overload");
  return Value::Bool(args[0].cidr().Contains(ip.ip()));
}

// Whether `other` lies within `cidr`: they overlap and `other` is no wider.
bool ContainsPrefix(const IPPrefix& cidr, const IPPrefix& other) {
  return cidr.Overlaps(other) && cidr.bits <= other.bits;
}

Value ContainsCIDR(CallContext&, std::span<const Value> args) {
  if (args[1].kind() == ValueKind::kCIDR) return Value::Bool(ContainsPrefix(args[0].cidr(), args[1].cidr()));
  const Value other = StringToCIDR(args[1].text());
  if (other.IsError()) return other;  // here upstream reports the argument: its parse error
  return Value::Bool(ContainsPrefix(args[0].cidr(), other.cidr()));
}

Value CIDRToIP(CallContext&, std::span<const Value> args) { return Value::IP(args[0].cidr().addr); }
Value PrefixLength(CallContext&, std::span<const Value> args) { return Value::Int(args[0].cidr().bits); }
Value Masked(CallContext&, std::span<const Value> args) { return Value::CIDR(args[0].cidr().Masked()); }

Value CIDRToString(CallContext& ctx, std::span<const Value> args) {
  return MakeString(ctx, args[0].cidr().ToString());
}

// --- url -----------------------------------------------------------------------------------------

Value ToURL(CallContext& ctx, std::span<const Value> args) {
  const std::string_view raw = args[0].text();
  // ParseRequestURI decides validity (it is what the OpenAPI "uri" format uses); the value is
  // Parse's, since ParseRequestURI would keep a fragment in the path or the query.
  if (absl::StatusOr<Url> request = ParseRequestUri(raw); !request.ok()) {
    return Value::Error("URL parse error during conversion from string: " + std::string(request.status().message()));
  }
  absl::StatusOr<Url> url = ParseUrl(raw);
  if (!url.ok()) {
    return Value::Error("URL parse error during conversion from string: " + std::string(url.status().message()));
  }
  return Charged(ctx, raw.size(), Value::URL(*std::move(url)));
}

Value IsURL(CallContext&, std::span<const Value> args) { return Value::Bool(ParseRequestUri(args[0].text()).ok()); }

Value GetScheme(CallContext& ctx, std::span<const Value> args) { return MakeString(ctx, args[0].url().scheme); }
Value GetHost(CallContext& ctx, std::span<const Value> args) { return MakeString(ctx, args[0].url().host); }
Value GetHostname(CallContext& ctx, std::span<const Value> args) { return MakeString(ctx, args[0].url().Hostname()); }
Value GetPort(CallContext& ctx, std::span<const Value> args) { return MakeString(ctx, args[0].url().Port()); }
Value GetEscapedPath(CallContext& ctx, std::span<const Value> args) {
  return MakeString(ctx, args[0].url().EscapedPath());
}

// The decoded query as map(string, list(string)): each key with its values in order.
Value GetQuery(CallContext& ctx, std::span<const Value> args) {
  auto map = std::make_shared<MapData>();
  for (auto& [key, values] : ParseQuery(args[0].url().raw_query)) {
    std::vector<Value> elements;
    elements.reserve(values.size());
    for (std::string& value : values) {
      Value element = MakeString(ctx, std::move(value));
      if (element.IsError()) return element;
      elements.push_back(std::move(element));
    }
    Value list = MakeList(ctx, std::move(elements));
    if (list.IsError()) return list;
    Value name = MakeString(ctx, key);
    if (name.IsError()) return name;
    map->entries.emplace_back(std::move(name), std::move(list));
  }
  return Value::Map(std::move(map));
}

}  // namespace

void RegisterNetLibrary(FunctionRegistry& r) {
  r.Global("ip", "string_to_ip", "string -> IP", ToIP);
  r.Member("family", "ip_family", "IP -> int", Family);
  r.Global("ip.isCanonical", "ip_is_canonical", "string -> bool", IPIsCanonical);
  r.Member("isUnspecified", "ip_is_unspecified", "IP -> bool", IsUnspecified);
  r.Member("isLoopback", "ip_is_loopback", "IP -> bool", IsLoopback);
  r.Member("isLinkLocalMulticast", "ip_is_link_local_multicast", "IP -> bool", IsLinkLocalMulticast);
  r.Member("isLinkLocalUnicast", "ip_is_link_local_unicast", "IP -> bool", IsLinkLocalUnicast);
  r.Member("isGlobalUnicast", "ip_is_global_unicast", "IP -> bool", IsGlobalUnicast);
  r.Global("isIP", "is_ip", "string -> bool", IsIP);
  r.Global("string", "ip_to_string", "IP -> string", IPToString);

  r.Global("cidr", "string_to_cidr", "string -> CIDR", ToCIDR);
  r.Member("containsIP", "cidr_contains_ip_string", "CIDR, string -> bool", ContainsIP);
  r.Member("containsIP", "cidr_contains_ip_ip", "CIDR, IP -> bool", ContainsIP);
  r.Member("containsCIDR", "cidr_contains_cidr_string", "CIDR, string -> bool", ContainsCIDR);
  r.Member("containsCIDR", "cidr_contains_cidr", "CIDR, CIDR -> bool", ContainsCIDR);
  r.Member("ip", "cidr_ip", "CIDR -> IP", CIDRToIP);
  r.Member("prefixLength", "cidr_prefix_length", "CIDR -> int", PrefixLength);
  r.Member("masked", "cidr_masked", "CIDR -> CIDR", Masked);
  r.Global("isCIDR", "is_cidr", "string -> bool", IsCIDR);
  r.Global("string", "cidr_to_string", "CIDR -> string", CIDRToString);

  r.Global("url", "string_to_url", "string -> URL", ToURL);
  r.Member("getScheme", "url_get_scheme", "URL -> string", GetScheme);
  r.Member("getHost", "url_get_host", "URL -> string", GetHost);
  r.Member("getHostname", "url_get_hostname", "URL -> string", GetHostname);
  r.Member("getPort", "url_get_port", "URL -> string", GetPort);
  r.Member("getEscapedPath", "url_get_escaped_path", "URL -> string", GetEscapedPath);
  r.Member("getQuery", "url_get_query", "URL -> map(string, list(string))", GetQuery);
  r.Global("isURL", "is_url_string", "string -> bool", IsURL);
}

}  // namespace ksched::plugins::dynamic_resources::cel
