// IP addresses and prefixes as Go's net/netip parses, prints and compares them (Go 1.24, which
// kube-scheduler v1.34.4 is built with), for the Kubernetes ip and cidr CEL libraries and for the
// bracketed hosts of the url library.
//
// Contract:
//   - ParseAddr is netip.ParseAddr: dotted IPv4 without leading zeros, IPv6 with an optional
//     embedded IPv4 tail and an optional "%zone". Errors carry netip's message verbatim
//     ("ParseAddr(\"1.2.3\"): IPv4 address too short").
//   - ParsePrefix is netip.ParsePrefix ("netip.ParsePrefix(\"1.2.3.4/\"): bad bits after slash:
//     \"\""); the prefix keeps its address unmasked, as netip does.
//   - IPAddr::ToString is Addr.String (RFC 5952 for IPv6: lower case, the longest run of two or
//     more zero groups as "::"); IPPrefix::ToString is Prefix.String.
//   - The predicates are netip's (IsLoopback, IsGlobalUnicast, ...), Contains / Overlaps / Masked
//     Prefix's.
//
// Thread-safety: value types; free functions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::plugins::dynamic_resources::cel {

// A netip.Addr without a zone (the CEL values never carry one: ip() and cidr() reject zones).
struct IPAddr {
  // 128 bits, network order; an IPv4 address is kept in its IPv4-mapped form (::ffff:a.b.c.d),
  // as netip keeps it, so that masking works the same for both families.
  std::array<std::uint8_t, 16> bytes{};
  bool is4 = false;

  friend bool operator==(const IPAddr&, const IPAddr&) = default;

  int BitLen() const { return is4 ? 32 : 128; }
  bool Is6() const { return !is4; }
  bool Is4In6() const;  // an IPv6 address of the form ::ffff:a.b.c.d
  std::uint8_t V4(int i) const { return bytes[12 + i]; }
  std::uint16_t V6Group(int i) const {
    return static_cast<std::uint16_t>(bytes[2 * i] << 8 | bytes[2 * i + 1]);
  }

  bool IsUnspecified() const;
  bool IsLoopback() const;
  bool IsMulticast() const;
  bool IsLinkLocalMulticast() const;
  bool IsLinkLocalUnicast() const;
  bool IsGlobalUnicast() const;

  // The address with every bit after the first `bits` of its family cleared.
  IPAddr Masked(int bits) const;
  std::string ToString() const;
};

// What ParseAddr found: the address and its zone ("" for none).
struct ParsedAddr {
  IPAddr addr;
  std::string zone;
};

// netip.ParseAddr. Errors are InvalidArgument with netip's message.
absl::StatusOr<ParsedAddr> ParseAddr(std::string_view text);

// A valid netip.Prefix: an address (as written, not masked) and a prefix length within its family.
struct IPPrefix {
  IPAddr addr;
  int bits = 0;

  friend bool operator==(const IPPrefix&, const IPPrefix&) = default;

  bool Contains(const IPAddr& ip) const;
  bool Overlaps(const IPPrefix& other) const;
  IPPrefix Masked() const { return IPPrefix{addr.Masked(bits), bits}; }
  std::string ToString() const;
};

// netip.ParsePrefix. Errors are InvalidArgument with netip's message.
absl::StatusOr<IPPrefix> ParsePrefix(std::string_view text);

}  // namespace ksched::plugins::dynamic_resources::cel
