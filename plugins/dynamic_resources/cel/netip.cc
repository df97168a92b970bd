#include "plugins/dynamic_resources/cel/netip.h"

#include <algorithm>
#include <optional>

#include "absl/status/status.h"
#include "api/field_errors.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// netip's parseAddrError.
absl::Status AddrError(std::string_view in, std::string_view msg, std::string_view at = {}) {
  std::string text = "ParseAddr(" + api::GoQuote(in) + "): " + std::string(msg);
  if (!at.empty()) text += " (at " + api::GoQuote(at) + ")";
  return absl::InvalidArgumentError(text);
}

absl::Status PrefixError(std::string_view in, std::string_view msg) {
  return absl::InvalidArgumentError("netip.ParsePrefix(" + api::GoQuote(in) + "): " + std::string(msg));
}

IPAddr FromV4(const std::array<std::uint8_t, 4>& octets) {
  IPAddr a;
  a.is4 = true;
  a.bytes[10] = 0xff;
  a.bytes[11] = 0xff;
  std::copy(octets.begin(), octets.end(), a.bytes.begin() + 12);
  return a;
}

// parseIPv4Fields: the dotted quad in[off, end) into `fields`; errors name the whole input.
absl::Status ParseIPv4Fields(std::string_view in, std::size_t off, std::size_t end, std::uint8_t* fields) {
  const std::string_view s = in.substr(off, end - off);
  int val = 0;
  int pos = 0;
  int digits = 0;  // in the current octet
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits == 1 && val == 0) return AddrError(in, "IPv4 field has octet with leading zero");
      val = val * 10 + (c - '0');
      ++digits;
      if (val > 255) return AddrError(in, "IPv4 field has value >255");
    } else if (c == '.') {
      // .1.2.3, 1.2.3. and 1..2.3
      if (i == 0 || i == s.size() - 1 || s[i - 1] == '.') {
        return AddrError(in, "IPv4 field must have at least one digit", s.substr(i));
      }
      if (pos == 3) return AddrError(in, "IPv4 address too long");
      fields[pos++] = static_cast<std::uint8_t>(val);
      val = 0;
      digits = 0;
    } else {
      return AddrError(in, "unexpected character", s.substr(i));
    }
  }
  if (pos < 3) return AddrError(in, "IPv4 address too short");
  fields[3] = static_cast<std::uint8_t>(val);
  return absl::OkStatus();
}

absl::StatusOr<ParsedAddr> ParseIPv4(std::string_view s) {
  std::array<std::uint8_t, 4> octets{};
  if (absl::Status status = ParseIPv4Fields(s, 0, s.size(), octets.data()); !status.ok()) return status;
  return ParsedAddr{FromV4(octets), ""};
}

std::optional<int> HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

absl::StatusOr<ParsedAddr> ParseIPv6(std::string_view in) {
  std::string_view s = in;
  // The zone is split off first; an explicit empty one is an error.
  std::string zone;
  if (const std::size_t percent = s.find('%'); percent != std::string_view::npos) {
    zone = std::string(s.substr(percent + 1));
    s = s.substr(0, percent);
    if (zone.empty()) return AddrError(in, "zone must be a non-empty string");
  }

  IPAddr addr;
  std::array<std::uint8_t, 16>& ip = addr.bytes;
  int ellipsis = -1;  // where "::" stands, in bytes

  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return ParsedAddr{addr, zone};  // "::"
  }

  int i = 0;
  while (i < 16) {
    std::size_t off = 0;
    std::uint32_t acc = 0;
    for (; off < s.size(); ++off) {
      const std::optional<int> digit = HexDigit(s[off]);
      if (!digit.has_value()) break;
      acc = (acc << 4) + static_cast<std::uint32_t>(*digit);
      if (off > 3) return AddrError(in, "each group must have 4 or less digits", s);
      if (acc > 0xFFFF) return AddrError(in, "IPv6 field has value >=2^16", s);
    }
    if (off == 0) return AddrError(in, "each colon-separated field must have at least one digit", s);

    // A dot after the digits: the trailing embedded IPv4 address.
    if (off < s.size() && s[off] == '.') {
      if (ellipsis < 0 && i != 12) {
        return AddrError(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
      }
      if (i + 4 > 16) {
        return AddrError(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
      }
      std::size_t end = in.size();
      if (!zone.empty()) end -= zone.size() + 1;
      if (absl::Status status = ParseIPv4Fields(in, end - s.size(), end, &ip[static_cast<std::size_t>(i)]);
          !status.ok()) {
        return status;
      }
      s = {};
      i += 4;
      break;
    }

    ip[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(acc >> 8);
    ip[static_cast<std::size_t>(i) + 1] = static_cast<std::uint8_t>(acc);
    i += 2;

    s.remove_prefix(off);
    if (s.empty()) break;
    if (s[0] != ':') return AddrError(in, "unexpected character, want colon", s);
    if (s.size() == 1) return AddrError(in, "colon must be followed by more characters", s);
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return AddrError(in, "multiple :: in address", s);
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;  // "::" may end the address
    }
  }

  if (!s.empty()) return AddrError(in, "trailing garbage after address", s);

  if (i < 16) {
    if (ellipsis < 0) return AddrError(in, "address string too short");
    // Move the groups after "::" to the end; zeros fill the gap.
    const int n = 16 - i;
    for (int j = i - 1; j >= ellipsis; --j) ip[static_cast<std::size_t>(j + n)] = ip[static_cast<std::size_t>(j)];
    std::fill(ip.begin() + ellipsis, ip.begin() + ellipsis + n, 0);
  } else if (ellipsis >= 0) {
    return AddrError(in, "the :: must expand to at least one field of zeros");
  }
  return ParsedAddr{addr, zone};
}

// Go's appendHex: lower-case hex without leading zeros.
void AppendHex(std::string& out, std::uint16_t x) {
  static constexpr char kDigits[] = "0123456789abcdef";
  if (x >= 0x1000) out.push_back(kDigits[x >> 12]);
  if (x >= 0x100) out.push_back(kDigits[(x >> 8) & 0xF]);
  if (x >= 0x10) out.push_back(kDigits[(x >> 4) & 0xF]);
  out.push_back(kDigits[x & 0xF]);
}

std::string V4String(const IPAddr& a) {
  return std::to_string(a.V4(0)) + "." + std::to_string(a.V4(1)) + "." + std::to_string(a.V4(2)) + "." +
         std::to_string(a.V4(3));
}

}  // namespace

bool IPAddr::Is4In6() const {
  if (is4) return false;
  for (int i = 0; i < 10; ++i) {
    if (bytes[static_cast<std::size_t>(i)] != 0) return false;
  }
  return bytes[10] == 0xff && bytes[11] == 0xff;
}

// The predicates see an IPv4-mapped address as its IPv4 address (netip's Unmap).
bool IPAddr::IsUnspecified() const {
  return std::all_of(bytes.begin() + 12, bytes.end(), [](std::uint8_t b) { return b == 0; }) &&
         (is4 || std::all_of(bytes.begin(), bytes.begin() + 12, [](std::uint8_t b) { return b == 0; }));
}

bool IPAddr::IsLoopback() const {
  if (is4 || Is4In6()) return V4(0) == 127;
  for (int i = 0; i < 15; ++i) {
    if (bytes[static_cast<std::size_t>(i)] != 0) return false;
  }
  return bytes[15] == 1;
}

bool IPAddr::IsMulticast() const {
  if (is4 || Is4In6()) return (V4(0) & 0xF0) == 0xE0;
  return bytes[0] == 0xff;
}

bool IPAddr::IsLinkLocalMulticast() const {
  if (is4 || Is4In6()) return V4(0) == 224 && V4(1) == 0 && V4(2) == 0;
  return (V6Group(0) & 0xff0f) == 0xff02;
}

bool IPAddr::IsLinkLocalUnicast() const {
  if (is4 || Is4In6()) return V4(0) == 169 && V4(1) == 254;
  return (V6Group(0) & 0xffc0) == 0xfe80;
}

bool IPAddr::IsGlobalUnicast() const {
  if (is4 || Is4In6()) {
    const bool all_zero = V4(0) == 0 && V4(1) == 0 && V4(2) == 0 && V4(3) == 0;
    const bool broadcast = V4(0) == 255 && V4(1) == 255 && V4(2) == 255 && V4(3) == 255;
    if (all_zero || broadcast) return false;
  } else if (IsUnspecified()) {
    return false;
  }
  return !IsLoopback() && !IsMulticast() && !IsLinkLocalUnicast();
}

IPAddr IPAddr::Masked(int bits) const {
  IPAddr out = *this;
  // An IPv4 address sits in the last 32 of the 128 bits.
  const int keep = is4 ? bits + 96 : bits;
  for (int i = 0; i < 16; ++i) {
    const int first_bit = 8 * i;
    std::uint8_t& b = out.bytes[static_cast<std::size_t>(i)];
    if (keep <= first_bit) {
      b = 0;
    } else if (keep < first_bit + 8) {
      b = static_cast<std::uint8_t>(b & (0xFF << (8 - (keep - first_bit))));
    }
  }
  return out;
}

std::string IPAddr::ToString() const {
  if (is4) return V4String(*this);
  if (Is4In6()) return "::ffff:" + V4String(*this);
  // The longest run of at least two zero groups (the first of equal runs) becomes "::".
  int zero_start = -1;
  int zero_end = -1;
  for (int i = 0; i < 8; ++i) {
    int j = i;
    while (j < 8 && V6Group(j) == 0) ++j;
    if (const int length = j - i; length >= 2 && length > zero_end - zero_start) {
      zero_start = i;
      zero_end = j;
    }
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == zero_start) {
      out += "::";
      i = zero_end;
      if (i >= 8) break;
    } else if (i > 0) {
      out.push_back(':');
    }
    AppendHex(out, V6Group(i));
  }
  return out;
}

absl::StatusOr<ParsedAddr> ParseAddr(std::string_view text) {
  for (char c : text) {
    if (c == '.') return ParseIPv4(text);
    if (c == ':') return ParseIPv6(text);
    // Presumably an IPv6 address with a zone, without the address.
    if (c == '%') return AddrError(text, "missing IPv6 address");
  }
  return AddrError(text, "unable to parse IP");
}

bool IPPrefix::Contains(const IPAddr& ip) const {
  if (ip.is4 != addr.is4) return false;
  return ip.Masked(bits) == addr.Masked(bits);
}

bool IPPrefix::Overlaps(const IPPrefix& other) const {
  if (*this == other) return true;
  if (addr.is4 != other.addr.is4) return false;
  const int min_bits = std::min(bits, other.bits);
  if (min_bits == 0) return true;
  return addr.Masked(min_bits) == other.addr.Masked(min_bits);
}

std::string IPPrefix::ToString() const { return addr.ToString() + "/" + std::to_string(bits); }

absl::StatusOr<IPPrefix> ParsePrefix(std::string_view text) {
  const std::size_t slash = text.rfind('/');
  if (slash == std::string_view::npos) return PrefixError(text, "no '/'");
  absl::StatusOr<ParsedAddr> parsed = ParseAddr(text.substr(0, slash));
  if (!parsed.ok()) return PrefixError(text, std::string(parsed.status().message()));
  if (parsed->addr.Is6() && !parsed->zone.empty()) {
    return PrefixError(text, "IPv6 zones cannot be present in a prefix");
  }
  const std::string_view bits_text = text.substr(slash + 1);
  // strconv.Atoi would take a sign and leading zeros; netip does not.
  const std::string bad_bits = "bad bits after slash: " + api::GoQuote(bits_text);
  if (bits_text.empty() || (bits_text.size() > 1 && (bits_text[0] < '1' || bits_text[0] > '9'))) {
    return PrefixError(text, bad_bits);
  }
  // Atoi's syntax and range errors (beyond int64) are both "bad bits"; a value that fits but
  // exceeds the family's length is out of range.
  constexpr std::uint64_t kMaxInt64 = 9223372036854775807ULL;
  std::uint64_t bits = 0;
  for (char c : bits_text) {
    if (c < '0' || c > '9') return PrefixError(text, bad_bits);
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (bits > (kMaxInt64 - digit) / 10) return PrefixError(text, bad_bits);
    bits = bits * 10 + digit;
  }
  if (bits > static_cast<std::uint64_t>(parsed->addr.BitLen())) {
    return PrefixError(text, "prefix length out of range");
  }
  return IPPrefix{parsed->addr, static_cast<int>(bits)};
}

}  // namespace ksched::plugins::dynamic_resources::cel
