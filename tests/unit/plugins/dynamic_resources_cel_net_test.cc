// The Kubernetes ip, cidr and url CEL libraries in DRA device selectors
// (plugins/dynamic_resources/cel/library_net.cc).
//
// The first three test cases port every case of k8s.io/apiserver@v0.34.4/pkg/cel/library
// ip_test.go (TestIP) and cidr_test.go (TestCIDR), and the url library's cases: apiserver has no
// urls_test.go, so they come from apiextensions-apiserver@v0.34.4's validation_test.go ("URL
// parsing", and the url expression of its cost test) and from the examples urls.go documents.
// Upstream evaluates each expression to a value and compares it with res.Equal(expected); a
// selector must be a bool, so each case here is `(<expression>) == <expected>`, the same
// comparison. The remaining expectations were checked against upstream's libraries (cel-go
// v0.26.0 with library.IP(), CIDR() and URLs() of apiserver v0.34.4, built by a Go 1.26 toolchain
// with a go 1.24 module's GODEBUG defaults) expression by expression.
#include "plugins/dynamic_resources/cel/device_selector.h"

#include "cel_case_checks.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace {

using ksched::api::DeviceAttribute;
using ksched::plugins::dynamic_resources::CelDevice;
using ksched::plugins::dynamic_resources::CompiledSelector;

// A device whose string attributes the expressions may parse at runtime (not folded as constants).
struct TestDevice {
  std::string driver = "net.example.com";
  std::vector<std::pair<std::string, DeviceAttribute>> attributes;

  TestDevice& Attribute(std::string name, std::string value) {
    DeviceAttribute a;
    a.kind = DeviceAttribute::Kind::kString;
    a.string_value = std::move(value);
    attributes.emplace_back(std::move(name), std::move(a));
    std::sort(attributes.begin(), attributes.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    return *this;
  }
  CelDevice View() const { return CelDevice{driver, attributes, {}}; }
};

TestDevice NetDevice() {
  TestDevice d;
  d.Attribute("address", "10.1.2.3")
      .Attribute("subnet", "10.0.0.0/8")
      .Attribute("bad", "10.1.2")
      // validation_test.go's self.url
      .Attribute("url", "https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor");
  return d;
}

std::string Eval(std::string_view expression, const TestDevice& device = NetDevice()) {
  return ksched::plugins::dynamic_resources::testing::EvalSelector(expression, device.View());
}

using Case = ksched::plugins::dynamic_resources::testing::CelCase;

// Error cases compare with the expected value, as upstream's tables do.
void CheckCases(const std::vector<Case>& cases) {
  ksched::plugins::dynamic_resources::testing::CheckCelCases(cases, NetDevice().View());
}

}  // namespace

TEST_CASE("DynamicResources CEL net: upstream TestIP", "[plugins][dynamic_resources][cel][cel_net]") {
  CheckCases({
      {"parse ipv4", R"(ip("192.168.0.1"))", R"(ip("192.168.0.1"))"},
      {"parse invalid ipv4", R"(ip("192.168.0.1.0"))", R"(ip("192.168.0.1"))",
       R"(IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 )"
       R"(address too long)"},
      {"isIP valid ipv4", R"(isIP("192.168.0.1"))", "true"},
      {"isIP invalid ipv4", R"(isIP("192.168.0.1.0"))", "false"},
      {"ip.isCanonical valid ipv4", R"(ip.isCanonical("127.0.0.1"))", "true"},
      {"ip.isCanonical invalid ipv4", R"(ip.isCanonical("127.0.0.1.0"))", "true",
       R"(IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address )"
       R"(too long)"},
      {"ipv4 family", R"(ip("192.168.0.1").family())", "4"},
      {"ipv4 isUnspecified true", R"(ip("0.0.0.0").isUnspecified())", "true"},
      {"ipv4 isUnspecified false", R"(ip("127.0.0.1").isUnspecified())", "false"},
      {"ipv4 isLoopback true", R"(ip("127.0.0.1").isLoopback())", "true"},
      {"ipv4 isLoopback false", R"(ip("1.2.3.4").isLoopback())", "false"},
      {"ipv4 isLinkLocalMulticast true", R"(ip("224.0.0.1").isLinkLocalMulticast())", "true"},
      {"ipv4 isLinkLocalMulticast false", R"(ip("224.0.1.1").isLinkLocalMulticast())", "false"},
      {"ipv4 isLinkLocalUnicast true", R"(ip("169.254.169.254").isLinkLocalUnicast())", "true"},
      {"ipv4 isLinkLocalUnicast false", R"(ip("192.168.0.1").isLinkLocalUnicast())", "false"},
      {"ipv4 isGlobalUnicast true", R"(ip("192.168.0.1").isGlobalUnicast())", "true"},
      {"ipv4 isGlobalUnicast false", R"(ip("255.255.255.255").isGlobalUnicast())", "false"},
      {"parse ipv6", R"(ip("2001:db8::68"))", R"(ip("2001:db8::68"))"},
      {"parse invalid ipv6", R"(ip("2001:db8:::68"))", R"(ip("2001:db8::68"))",
       R"(IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each )"
       R"(colon-separated field must have at least one digit (at ":68"))"},
      {"isIP valid ipv6", R"(isIP("2001:db8::68"))", "true"},
      {"isIP invalid ipv4", R"(isIP("2001:db8:::68"))", "false"},
      {"ip.isCanonical valid ipv6", R"(ip.isCanonical("2001:db8::68"))", "true"},
      {"ip.isCanonical non-canonical ipv6", R"(ip.isCanonical("2001:DB8::68"))", "false"},
      {"ip.isCanonical invalid ipv6", R"(ip.isCanonical("2001:db8:::68"))", "true",
       R"(IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each )"
       R"(colon-separated field must have at least one digit (at ":68"))"},
      {"ipv6 family", R"(ip("2001:db8::68").family())", "6"},
      {"ipv6 isUnspecified true", R"(ip("::").isUnspecified())", "true"},
      {"ipv6 isUnspecified false", R"(ip("::1").isUnspecified())", "false"},
      {"ipv6 isLoopback true", R"(ip("::1").isLoopback())", "true"},
      {"ipv6 isLoopback false", R"(ip("2001:db8::abcd").isLoopback())", "false"},
      {"ipv6 isLinkLocalMulticast true", R"(ip("ff02::1").isLinkLocalMulticast())", "true"},
      {"ipv6 isLinkLocalMulticast false", R"(ip("fd00::1").isLinkLocalMulticast())", "false"},
      {"ipv6 isLinkLocalUnicast true", R"(ip("fe80::1").isLinkLocalUnicast())", "true"},
      {"ipv6 isLinkLocalUnicast false", R"(ip("fd80::1").isLinkLocalUnicast())", "false"},
      {"ipv6 isGlobalUnicast true", R"(ip("2001:db8::abcd").isGlobalUnicast())", "true"},
      {"ipv6 isGlobalUnicast false", R"(ip("ff00::1").isGlobalUnicast())", "false"},
      {"converting an IP address to a string", R"(string(ip("192.168.0.1")))", R"("192.168.0.1")"},
      {"type of IP is net.IP", R"(type(ip("192.168.0.1")) == net.IP)", "true"},
  });
  // "passing cidr into isIP returns compile error" (upstream matches the message by regex).
  CHECK(Eval(R"(isIP(cidr("192.168.0.0/24")))") ==
        "compile: compilation failed: ERROR: <input>:1:5: found no matching overload for 'isIP' applied to "
        "'(net.CIDR)'\n | isIP(cidr(\"192.168.0.0/24\"))\n | ....^");
}

TEST_CASE("DynamicResources CEL net: upstream TestCIDR", "[plugins][dynamic_resources][cel][cel_net]") {
  CheckCases({
      {"parse ipv4", R"(cidr("192.168.0.0/24"))", R"(cidr("192.168.0.0/24"))"},
      {"parse invalid ipv4", R"(cidr("192.168.0.0/"))", R"(cidr("192.168.0.0/24"))",
       R"(network address parse error during conversion from string: network address parse error during conversion )"
       R"(from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: "")"},
      {"contains IP ipv4 (IP)", R"(cidr("192.168.0.0/24").containsIP(ip("192.168.0.1")))", "true"},
      {"does not contain IP ipv4 (IP)", R"(cidr("192.168.0.0/24").containsIP(ip("192.168.1.1")))", "false"},
      {"contains IP ipv4 (string)", R"(cidr("192.168.0.0/24").containsIP("192.168.0.1"))", "true"},
      {"does not contain IP ipv4 (string)", R"(cidr("192.168.0.0/24").containsIP("192.168.1.1"))", "false"},
      {"contains CIDR ipv4 (CIDR)", R"(cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25")))", "true"},
      {"contains CIDR ipv4 (CIDR) (/32)", R"(cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32")))", "true"},
      {"does not contain IP ipv4 (CIDR)", R"(cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23")))", "false"},
      {"does not contain IP ipv4 (CIDR) (/32)", R"(cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32")))",
       "false"},
      {"contains CIDR ipv4 (string)", R"(cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25"))", "true"},
      {"does not contain CIDR ipv4 (string)", R"(cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23"))", "false"},
      {"returns IP ipv4", R"(cidr("192.168.0.0/24").ip())", R"(ip("192.168.0.0"))"},
      {"masks masked ipv4", R"(cidr("192.168.0.0/24").masked())", R"(cidr("192.168.0.0/24"))"},
      {"masks unmasked ipv4", R"(cidr("192.168.0.1/24").masked())", R"(cidr("192.168.0.0/24"))"},
      {"returns prefix length ipv4", R"(cidr("192.168.0.0/24").prefixLength())", "24"},
      {"parse ipv6", R"(cidr("2001:db8::/32"))", R"(cidr("2001:db8::/32"))"},
      {"parse invalid ipv6", R"(cidr("2001:db8::/"))", R"(cidr("2001:db8::/32"))",
       R"(network address parse error during conversion from string: network address parse error during conversion )"
       R"(from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: "")"},
      {"contains IP ipv6 (IP)", R"(cidr("2001:db8::/32").containsIP(ip("2001:db8::1")))", "true"},
      {"does not contain IP ipv6 (IP)", R"(cidr("2001:db8::/32").containsIP(ip("2001:dc8::1")))", "false"},
      {"contains IP ipv6 (string)", R"(cidr("2001:db8::/32").containsIP("2001:db8::1"))", "true"},
      {"does not contain IP ipv6 (string)", R"(cidr("2001:db8::/32").containsIP("2001:dc8::1"))", "false"},
      {"contains CIDR ipv6 (CIDR)", R"(cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33")))", "true"},
      {"does not contain IP ipv6 (CIDR)", R"(cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31")))", "false"},
      {"contains CIDR ipv6 (string)", R"(cidr("2001:db8::/32").containsCIDR("2001:db8::/33"))", "true"},
      {"does not contain CIDR ipv6 (string)", R"(cidr("2001:db8::/32").containsCIDR("2001:db8::/31"))", "false"},
      {"returns IP ipv6", R"(cidr("2001:db8::/32").ip())", R"(ip("2001:db8::"))"},
      {"masks masked ipv6", R"(cidr("2001:db8::/32").masked())", R"(cidr("2001:db8::/32"))"},
      {"masks unmasked ipv6", R"(cidr("2001:db8:1::/32").masked())", R"(cidr("2001:db8::/32"))"},
      {"returns prefix length ipv6", R"(cidr("2001:db8::/32").prefixLength())", "32"},
      {"converting a CIDR to a string", R"(string(cidr("192.168.0.0/24")))", R"("192.168.0.0/24")"},
      {"type of CIDR is net.CIDR", R"(type(cidr("192.168.0.0/24")) == net.CIDR)", "true"},
  });
}

TEST_CASE("DynamicResources CEL net: upstream url cases", "[plugins][dynamic_resources][cel][cel_net]") {
  // validation_test.go, "URL parsing": every expression must be true.
  for (std::string_view expression : {
           "url('/path').getScheme() == ''",
           "url('https://example.com/').getScheme() == 'https'",
           "url('https://example.com:80/').getHost() == 'example.com:80'",
           "url('https://example.com/').getHost() == 'example.com'",
           "url('https://[::1]:80/').getHost() == '[::1]:80'",
           "url('https://[::1]/').getHost() == '[::1]'",
           "url('/path').getHost() == ''",
           "url('https://example.com:80/').getHostname() == 'example.com'",
           "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
           "url('https://[::1]/').getHostname() == '::1'",
           "url('/path').getHostname() == ''",
           "url('https://example.com:80/').getPort() == '80'",
           "url('https://example.com/').getPort() == ''",
           "url('/path').getPort() == ''",
           "url('https://example.com/path').getEscapedPath() == '/path'",
           "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
           "url('https://example.com').getEscapedPath() == ''",
           "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
           "url('https://example.com/path?key with spaces=value with spaces').getQuery() == "
           "{ 'key with spaces': ['value with spaces']}",
           "url('https://example.com/path?').getQuery() == {}",
           "url('https://example.com/path').getQuery() == {}",
           // "test with string input": self.url is the device's url attribute.
           "url(device.attributes['net.example.com'].url).getScheme() == 'https'",
           "url(device.attributes['net.example.com'].url).getHost() == 'kubernetes.io:80'",
           "url(device.attributes['net.example.com'].url).getHostname() == 'kubernetes.io'",
           "url(device.attributes['net.example.com'].url).getPort() == '80'",
           "url(device.attributes['net.example.com'].url).getEscapedPath() == '/docs/home'",
           "url(device.attributes['net.example.com'].url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
           "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
           "isURL('/path') == true",
           "isURL('https://a:b:c/') == false",
           "isURL('../relative-path') == false",
           // "cost for extended lib calculated correctly: url" (evaluated; its cost is not ported)
           "url('https:://kubernetes.io/').getHostname() != 'test'",
       }) {
    INFO(expression);
    CHECK(Eval(expression) == "true");
  }

  // urls.go's documented examples.
  CheckCases({
      {"url with every part", "url('https://user:pass@example.com:80/path?query=val#fragment')",
       "url('https://user:pass@example.com:80/path?query=val#fragment')"},
      {"url of an absolute path", "url('/absolute-path')", "url('/absolute-path')"},
      {"url with a bad port", "url('https://a:b:c/')", "url('/')",
       R"(URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host)"},
      {"url of a relative path", "url('../relative-path')", "url('/')",
       R"(URL parse error during conversion from string: parse "../relative-path": invalid URI for request)"},
      {"isURL with every part", "isURL('https://user:pass@example.com:80/path?query=val#fragment')", "true"},
      {"isURL of an absolute path", "isURL('/absolute-path')", "true"},
      {"isURL with a bad port", "isURL('https://a:b:c/')", "false"},
      {"isURL of a relative path", "isURL('../relative-path')", "false"},
      {"getScheme absent", "url('/path').getScheme()", "''"},
      {"getScheme", "url('https://example.com/').getScheme()", "'https'"},
      {"getHost with port", "url('https://example.com:80/').getHost()", "'example.com:80'"},
      {"getHost", "url('https://example.com/').getHost()", "'example.com'"},
      {"getHost IPv6 with port", "url('https://[::1]:80/').getHost()", "'[::1]:80'"},
      {"getHost IPv6", "url('https://[::1]/').getHost()", "'[::1]'"},
      {"getHost absent", "url('/path').getHost()", "''"},
      {"getHostname with port", "url('https://example.com:80/').getHostname()", "'example.com'"},
      {"getHostname IPv4", "url('https://127.0.0.1:80/').getHostname()", "'127.0.0.1'"},
      {"getHostname IPv6", "url('https://[::1]:80/').getHostname()", "'::1'"},
      {"getHostname absent", "url('/path').getHostname()", "''"},
      {"getPort", "url('https://example.com:80/').getPort()", "'80'"},
      {"getPort none", "url('https://example.com/').getPort()", "''"},
      {"getPort absent", "url('/path').getPort()", "''"},
      {"getEscapedPath", "url('https://example.com/path').getEscapedPath()", "'/path'"},
      {"getEscapedPath with spaces", "url('https://example.com/path with spaces/').getEscapedPath()",
       "'/path%20with%20spaces/'"},
      {"getEscapedPath absent", "url('https://example.com').getEscapedPath()", "''"},
      {"getQuery", "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", "{ 'k1': ['a'], 'k2': ['b', 'c']}"},
      {"getQuery with spaces", "url('https://example.com/path?key with spaces=value with spaces').getQuery()",
       "{ 'key with spaces': ['value with spaces']}"},
      {"getQuery empty", "url('https://example.com/path?').getQuery()", "{}"},
      {"getQuery absent", "url('https://example.com/path').getQuery()", "{}"},
  });
}

TEST_CASE("DynamicResources CEL net: ip() and cidr() parse as netip does, minus zones and IPv4-mapped addresses",
          "[plugins][dynamic_resources][cel][cel_net]") {
  CHECK(Eval(R"x(ip("fe80::1%eth0") == ip("fe80::1"))x") ==
        "error: IP address \"fe80::1%eth0\" with zone value is not allowed");
  CHECK(Eval(R"x(ip("::ffff:1.2.3.4") == ip("1.2.3.4"))x") ==
        "error: IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed");
  CHECK(Eval(R"x(isIP("::ffff:1.2.3.4") || isIP("fe80::1%eth0") || isIP("01.2.3.4"))x") == "false");
  CHECK(Eval(R"x(ip("01.2.3.4") == ip("1.2.3.4"))x") ==
        "error: IP Address \"01.2.3.4\" parse error during conversion from string: ParseAddr(\"01.2.3.4\"): IPv4 field "
        "has octet with leading zero");
  CHECK(Eval(R"x(ip("1.2.3") == ip("1.2.3.4"))x") ==
        "error: IP Address \"1.2.3\" parse error during conversion from string: ParseAddr(\"1.2.3\"): IPv4 address too "
        "short");
  CHECK(Eval(R"x(ip("") == ip("1.2.3.4"))x") ==
        "error: IP Address \"\" parse error during conversion from string: ParseAddr(\"\"): unable to parse IP");
  CHECK(Eval(R"x(ip("fe80::1%") == ip("1.2.3.4"))x") ==
        "error: IP Address \"fe80::1%\" parse error during conversion from string: ParseAddr(\"fe80::1%\"): zone must "
        "be a non-empty string");
  CHECK(Eval(R"x(ip("1:2:3:4:5:6:7:8:9") == ip("1.2.3.4"))x") ==
        "error: IP Address \"1:2:3:4:5:6:7:8:9\" parse error during conversion from string: "
        "ParseAddr(\"1:2:3:4:5:6:7:8:9\"): trailing garbage after address (at \"9\")");
  CHECK(Eval(R"x(ip("12345::") == ip("1.2.3.4"))x") ==
        "error: IP Address \"12345::\" parse error during conversion from string: ParseAddr(\"12345::\"): each group "
        "must have 4 or less digits (at \"12345::\")");
  CHECK(Eval(R"x(ip("::1.2.3.4") == ip("::102:304"))x") == "true");
  CHECK(Eval(R"x(ip.isCanonical("2001:db8:0:0:0:0:0:68") || ip.isCanonical("2001:0db8::68") ||
                 ip.isCanonical("::0:1"))x") == "false");
  CHECK(Eval(R"x(string(ip("2001:db8:0:0:1:0:0:1")) == "2001:db8::1:0:0:1")x") == "true");
  CHECK(Eval(R"x(string(ip("1:0:0:1:0:0:0:1")) == "1:0:0:1::1")x") == "true");
  CHECK(Eval(R"x(ip("127.0.0.1").family() == 4 && ip("::1").family() == 6)x") == "true");
  CHECK(Eval(R"x(cidr("::ffff:1.2.3.4/120") == cidr("1.2.3.0/24"))x") ==
        "error: network address parse error during conversion from string: IPv4-mapped IPv6 address "
        "\"::ffff:1.2.3.4/120\" is not allowed");
  CHECK(Eval(R"x(cidr("fe80::1%eth0/64") == cidr("fe80::/64"))x") ==
        "error: network address parse error during conversion from string: network address parse error during "
        "conversion from string: netip.ParsePrefix(\"fe80::1%eth0/64\"): IPv6 zones cannot be present in a prefix");
  CHECK(Eval(R"x(cidr("1.2.3.4/33") == cidr("1.2.3.0/24"))x") ==
        "error: network address parse error during conversion from string: network address parse error during "
        "conversion from string: netip.ParsePrefix(\"1.2.3.4/33\"): prefix length out of range");
  CHECK(Eval(R"x(cidr("1.2.3.4/024") == cidr("1.2.3.0/24"))x") ==
        "error: network address parse error during conversion from string: network address parse error during "
        "conversion from string: netip.ParsePrefix(\"1.2.3.4/024\"): bad bits after slash: \"024\"");
  CHECK(Eval(R"x(cidr("1.2.3.4") == cidr("1.2.3.0/24"))x") ==
        "error: network address parse error during conversion from string: network address parse error during "
        "conversion from string: netip.ParsePrefix(\"1.2.3.4\"): no '/'");
  CHECK(Eval(R"x(isCIDR("1.2.3.4/24") && !isCIDR("1.2.3.4") && !isCIDR("::ffff:1.2.3.4/120"))x") == "true");
  CHECK(Eval(R"x(cidr("1.2.3.4/24") != cidr("1.2.3.0/24") && cidr("1.2.3.4/24").masked() == cidr("1.2.3.0/24"))x") ==
        "true");
  CHECK(Eval(R"x(string(cidr("1.2.3.4/24")) == "1.2.3.4/24" &&
                 string(cidr("2001:DB8::1/32").masked()) == "2001:db8::/32")x") == "true");
  // A bad address string in containsIP() is "no such overload" upstream, unlike in containsCIDR().
  CHECK(Eval(R"x(cidr("10.0.0.0/8").containsIP("10.1.2"))x") == "error: no such overload");
  CHECK(Eval(R"x(cidr("10.0.0.0/8").containsCIDR("10.1.2.0"))x") ==
        "error: network address parse error during conversion from string: network address parse error during "
        "conversion from string: netip.ParsePrefix(\"10.1.2.0\"): no '/'");
  CHECK(Eval(R"x(cidr("10.0.0.0/8").containsIP("::ffff:10.1.2.3"))x") == "error: no such overload");
  CHECK(Eval(R"x(cidr("10.0.0.0/8").containsIP("::1") || cidr("::/0").containsIP("10.0.0.1") ||
                 cidr("::/0").containsCIDR("10.0.0.0/8"))x") == "false");
  CHECK(Eval(R"x(cidr("0.0.0.0/0").containsCIDR("10.0.0.0/8") &&
                 cidr("10.0.0.0/8").containsCIDR(cidr("10.0.0.0/8")))x") == "true");
}

TEST_CASE("DynamicResources CEL net: types, equality and runtime dispatch",
          "[plugins][dynamic_resources][cel][cel_net]") {
  CHECK(Eval(R"x(type(cidr("10.0.0.0/8").ip()) == net.IP && type(cidr("10.0.0.0/8").masked()) == net.CIDR)x") ==
        "true");
  CHECK(Eval(R"x(net.IP != net.CIDR && type(ip("1.2.3.4")) != type(cidr("1.2.3.4/32")))x") == "true");
  // A dotted type name wins over a variable's field, as cel-go resolves qualified names first.
  CHECK(Eval(R"x([{'IP': 1}].all(net, net.IP == 1))x") ==
        "compile: compilation failed: ERROR: <input>:1:29: found no matching overload for '_==_' applied to "
        "'(type(net.IP), int)'\n | [{'IP': 1}].all(net, net.IP == 1)\n | ............................^");
  // The url library declares no type identifier (it has no cel.Types option).
  CHECK(Eval(R"x(kubernetes.URL == type(url("/")))x") ==
        "compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'kubernetes' (in container '')\n | "
        "kubernetes.URL == type(url(\"/\"))\n | ^");
  CHECK(Eval(R"x(type(url("/")) == type(url("http://x")))x") == "true");
  CHECK(Eval(R"x(ip("1.2.3.4") == 1)x") ==
        "compile: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(net.IP, "
        "int)'\n | ip(\"1.2.3.4\") == 1\n | ..............^");
  // Compared with another type, a net value is "no such overload" (but unequal the other way round).
  CHECK(Eval(R"x(dyn(ip("1.2.3.4")) == 1)x") == "error: no such overload");
  CHECK(Eval(R"x(dyn(cidr("1.2.3.4/32")) == dyn(ip("1.2.3.4")))x") == "error: no such overload");
  CHECK(Eval(R"x(dyn(url("/")) == "/")x") == "error: no such overload");
  CHECK(Eval(R"x(dyn(ip("1.2.3.4")) != 1)x") == "true");
  CHECK(Eval(R"x(1 == dyn(ip("1.2.3.4")))x") == "false");
  CHECK(Eval(R"x([ip("1.2.3.4")] == [ip("1.2.3.4")] && ip("1.2.3.4") in [ip("1.2.3.4")])x") == "true");
  CHECK(Eval(R"x({ip("1.2.3.4"): 1}[ip("1.2.3.4")] == 1)x") == "error: invalid qualifier type: cel.IP");
  CHECK(Eval(R"x(string(dyn(ip("1.2.3.4"))) == "1.2.3.4" && string(dyn(cidr("1.2.3.4/8"))) == "1.2.3.4/8")x") ==
        "true");
  CHECK(Eval(R"x(dyn(cidr("10.0.0.0/8")).containsIP(dyn("10.0.0.1")) &&
                 !dyn(cidr("10.0.0.0/8")).containsIP(dyn(ip("11.0.0.1"))))x") == "true");
  CHECK(Eval(R"x(dyn(cidr("10.0.0.0/8")).containsIP(dyn(1)))x") ==
        "error: no such overload: containsIP(net.CIDR, int)");
  CHECK(Eval(R"x(dyn("1.2.3.4").family() == 4)x") == "error: no such overload: family(string)");
  CHECK(Eval(R"x(ip("1.2.3.4").foo == 1)x") ==
        "compile: compilation failed: ERROR: <input>:1:14: type 'net.IP' does not support field selection\n | "
        "ip(\"1.2.3.4\").foo == 1\n | .............^");
  CHECK(Eval(R"x(url("/").foo == 1)x") ==
        "compile: compilation failed: ERROR: <input>:1:9: unexpected failed resolution of 'kubernetes.URL'\n | "
        "url(\"/\").foo == 1\n | ........^");
  CHECK(Eval(R"x(string(url("/")) == "/")x") ==
        "compile: compilation failed: ERROR: <input>:1:7: found no matching overload for 'string' applied to "
        "'(kubernetes.URL)'\n | string(url(\"/\")) == \"/\"\n | ......^");
  CHECK(Eval(R"x(ip(1) == ip("1.2.3.4"))x") ==
        "compile: compilation failed: ERROR: <input>:1:3: found no matching overload for 'ip' applied to '(int)'\n | "
        "ip(1) == ip(\"1.2.3.4\")\n | ..^");
}

TEST_CASE("DynamicResources CEL net: url() follows Go's net/url",
          "[plugins][dynamic_resources][cel][cel_net]") {
  CHECK(Eval(R"x(isURL("") || isURL("*") && isURL("//x") && isURL("http:opaque") && !isURL("x"))x") == "true");
  CHECK(Eval(R"x(url("").getHost() == "")x") ==
        "error: URL parse error during conversion from string: parse \"\": empty url");
  CHECK(Eval(R"x(url("*").getEscapedPath() == "*")x") == "true");
  CHECK(Eval(R"x(url("//host/path").getHost() == "host" && url("//host/path").getEscapedPath() == "/path")x") ==
        "true");
  CHECK(Eval(R"x(url("http://[fe80::1%25en0]:8080/").getHostname() == "fe80::1%en0")x") == "true");
  CHECK(Eval(R"x(url("http://[fe80::1%25en0]:8080/").getPort() == "8080")x") == "true");
  CHECK(Eval(R"x(url("http://[1.2.3.4]/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://[1.2.3.4]/\": invalid IP-literal");
  CHECK(Eval(R"x(url("http://[::1/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://[::1/\": missing ']' in host");
  CHECK(Eval(R"x(url("http://[::1]x/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://[::1]x/\": invalid port \"x\" "
        "after host");
  CHECK(Eval(R"x(url("http://a[::1]/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://a[::1]/\": invalid IP-literal");
  CHECK(Eval(R"x(url("http://[x]/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://[x]/\": invalid host: ParseAddr(\"x\"): "
        "unable to parse IP");
  CHECK(Eval(R"x(url("http://x/%zz") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://x/%zz\": invalid URL escape \"%zz\"");
  CHECK(Eval(R"x(url("http://x/?a#%zz") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://x/?a#%zz\": invalid URL escape \"%zz\"");
  CHECK(Eval(R"x(url("http://x%41/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://x%41/\": invalid URL escape \"%41\"");
  CHECK(Eval(R"x(url("http://x y/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://x y/\": invalid character \" \" in host "
        "name");
  CHECK(Eval(R"x(url("http://us er@x/") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://us er@x/\": net/url: invalid userinfo");
  CHECK(Eval(R"x(url("http://x/\u0001") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://x/\\x01\": net/url: invalid control "
        "character in URL");
  CHECK(Eval(R"x(url(":foo") == url("http://x/"))x") ==
        "error: URL parse error during conversion from string: parse \":foo\": missing protocol scheme");
  // The path as written is kept when it is a valid encoding (an escaped slash stays escaped).
  CHECK(Eval(R"x(url("http://x/a%2fb").getEscapedPath() == "/a%2fb" &&
                 url("http://x/a%2Fb") != url("http://x/a/b"))x") == "true");
  CHECK(Eval(R"x(url("http://x/a b") == url("http://x/a%20b") && url("HTTP://X/") == url("http://X/"))x") ==
        "true");
  CHECK(Eval(R"x(url("HTTP://X/").getScheme() == "http" && url("HTTP://X/").getHost() == "X")x") == "true");
  // URLs compare by URL.String(); the query is url.ParseQuery's, malformed pairs dropped.
  CHECK(Eval(R"x(url("http://x/p#a b") == url("http://x/p#a%20b"))x") == "true");
  CHECK(Eval(R"x(url("http://x/p?q#f").getQuery() == {"q": [""]} && url("http://x/p#f?q").getQuery() == {})x") ==
        "true");
  CHECK(Eval(R"x(url("http://x/?a=1;b=2&c=%zz&d=%41+b&&=e&f").getQuery() == {"d": ["A b"], "": ["e"], "f": [""]})x") ==
        "true");
  CHECK(Eval(R"x(url("http://x/?a=1&a=2&b").getQuery()["a"] == ["1", "2"])x") == "true");
  CHECK(Eval(R"x(url("http:opaque?x=1#y").getQuery() == {"x": ["1"]} &&
                 url("http:opaque?x=1#y").getEscapedPath() == "")x") == "true");
  CHECK(Eval(R"x(url("https://a:b:c/").getHost() == "")x") ==
        "error: URL parse error during conversion from string: parse \"https://a:b:c/\": invalid port \":c\" "
        "after host");
  CHECK(Eval(R"x(url("tcp://a:b:c/") == url("/"))x") ==
        "error: URL parse error during conversion from string: parse \"tcp://a:b:c/\": invalid port \":c\" after host");
  // Go 1.24 takes the port after a host's last colon (Go 1.26 rejects these for http and https).
  CHECK(Eval(R"x(url("http://x:80:80/") == url("/"))x") == "false");
  CHECK(Eval(R"x(url("http://::1/").getHostname() == ":" && url("http://::1/").getPort() == "1")x") == "true");
  CHECK(Eval(R"x(url("mailto:user@example.com").getHost() == "" &&
                 url("mailto:user@example.com").getScheme() == "mailto")x") == "true");
  CHECK(Eval(R"x(url("http://user:p@ss@x/").getHost() == "x")x") == "true");
  CHECK(Eval(R"x(url("http://ü@x/") == url("/"))x") ==
        "error: URL parse error during conversion from string: parse \"http://ü@x/\": net/url: invalid userinfo");
}

TEST_CASE("DynamicResources CEL net: addresses from device attributes are parsed at runtime",
          "[plugins][dynamic_resources][cel][cel_net]") {
  CHECK(Eval(R"(cidr(device.attributes["net.example.com"].subnet).containsIP(
                    device.attributes["net.example.com"].address))") == "true");
  CHECK(Eval(R"(cidr(device.attributes["net.example.com"].subnet).containsCIDR(
                    cidr(device.attributes["net.example.com"].address + "/16")))") == "true");
  CHECK(Eval(R"(ip(device.attributes["net.example.com"].address).isGlobalUnicast() &&
                ip(device.attributes["net.example.com"].address).family() == 4)") == "true");
  CHECK(Eval(R"(isIP(device.attributes["net.example.com"].bad))") == "false");
  CHECK(Eval(R"(ip(device.attributes["net.example.com"].bad).isLoopback())") ==
        "error: IP Address \"10.1.2\" parse error during conversion from string: ParseAddr(\"10.1.2\"): IPv4 address "
        "too short");
  CHECK(Eval(R"(cidr(device.attributes["net.example.com"].subnet).containsIP(
                    device.attributes["net.example.com"].bad))") == "error: no such overload");
  CHECK(Eval(R"(url(device.attributes["net.example.com"].url) ==
                url("https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor"))") == "true");
  // A selector typed `any` through an attribute may yield a net value: it is no bool (the values'
  // ConvertToNative errors).
  CHECK(Eval(R"(true ? ip("1.1.1.1") : device.attributes["net.example.com"].address)") ==
        "error: CEL result of type net.IP could not be converted to bool: type conversion error from 'IP' to 'bool'");
  CHECK(Eval(R"(false ? device.attributes["net.example.com"].address : cidr("1.1.1.1/2"))") ==
        "error: CEL result of type net.CIDR could not be converted to bool: type conversion error from 'CIDR' to "
        "'bool'");
  CHECK(Eval(R"(false ? device.attributes["net.example.com"].address : url("/"))") ==
        "error: CEL result of type kubernetes.URL could not be converted to bool: type conversion error from 'URL' "
        "to 'bool'");
  // An attribute is of unknown type to the checker: a string there is no receiver for family().
  CHECK(Eval(R"(device.attributes["net.example.com"].address.family() == 4)") ==
        "error: no such overload: family(string)");
}
