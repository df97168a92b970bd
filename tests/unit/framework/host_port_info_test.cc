// HostPortInfo (framework/node_info.h): upstream's TestHostPortInfo_AddRemove and
// TestHostPortInfo_Check (pkg/scheduler/framework/types_test.go), plus the set semantics.
#include <catch2/catch.hpp>

#include <vector>

#include "framework/node_info.h"

namespace {

using ksched::framework::HostPortInfo;

// Upstream's hostPortInfoParam order: protocol, ip, port.
struct Param {
  const char* protocol;
  const char* ip;
  std::int32_t port;
};

HostPortInfo With(const std::vector<Param>& added) {
  HostPortInfo info;
  for (const Param& p : added) info.Add(p.ip, p.protocol, p.port);
  return info;
}

TEST_CASE("HostPortInfo add and remove (TestHostPortInfo_AddRemove)", "[framework][host_ports]") {
  struct Case {
    const char* desc;
    std::vector<Param> added;
    std::vector<Param> removed;
    std::size_t length;
  };
  const std::vector<Param> both_ips = {
      {"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81},
      {"TCP", "127.0.0.1", 82}, {"TCP", "0.0.0.0", 79},   {"UDP", "0.0.0.0", 80},
      {"TCP", "0.0.0.0", 81},   {"TCP", "0.0.0.0", 82},
  };
  std::vector<Param> with_invalid_ports = both_ips;
  with_invalid_ports.push_back({"TCP", "0.0.0.0", 0});
  with_invalid_ports.push_back({"TCP", "0.0.0.0", -1});
  const std::vector<Case> cases = {
      {"normal add case", with_invalid_ports, {}, 8},
      {"empty ip and protocol add should work",
       {{"", "127.0.0.1", 79},
        {"UDP", "127.0.0.1", 80},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"", "", 79},
        {"UDP", "", 80},
        {"", "", 81},
        {"", "", 82},
        {"", "", 0},
        {"", "", -1}},
       {},
       8},
      {"normal remove case", both_ips, both_ips, 0},
      {"empty ip and protocol remove should work",
       both_ips,
       {{"", "127.0.0.1", 79},
        {"", "127.0.0.1", 81},
        {"", "127.0.0.1", 82},
        {"UDP", "127.0.0.1", 80},
        {"", "", 79},
        {"", "", 81},
        {"", "", 82},
        {"UDP", "", 80}},
       0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.desc);
    HostPortInfo info = With(c.added);
    for (const Param& p : c.removed) info.Remove(p.ip, p.protocol, p.port);
    CHECK(info.size() == c.length);
    CHECK(info.empty() == (c.length == 0));
  }
}

TEST_CASE("HostPortInfo conflicts (TestHostPortInfo_Check)", "[framework][host_ports]") {
  struct Case {
    const char* desc;
    std::vector<Param> added;
    Param check;
    bool expect;
  };
  const std::vector<Case> cases = {
      {"empty check should check 0.0.0.0 and TCP", {{"TCP", "127.0.0.1", 80}}, {"", "", 81},
       false},
      {"empty check should check 0.0.0.0 and TCP (conflicted)", {{"TCP", "127.0.0.1", 80}},
       {"", "", 80}, true},
      {"empty port check should pass", {{"TCP", "127.0.0.1", 80}}, {"", "", 0}, false},
      {"0.0.0.0 should check all registered IPs", {{"TCP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80}, true},
      {"0.0.0.0 with different protocol should be allowed", {{"UDP", "127.0.0.1", 80}},
       {"TCP", "0.0.0.0", 80}, false},
      {"0.0.0.0 with different port should be allowed",
       {{"TCP", "127.0.0.1", 79}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82}},
       {"TCP", "0.0.0.0", 80}, false},
      {"normal ip should check all registered 0.0.0.0", {{"TCP", "0.0.0.0", 80}},
       {"TCP", "127.0.0.1", 80}, true},
      {"normal ip with different port/protocol should be allowed (0.0.0.0)",
       {{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81},
        {"TCP", "0.0.0.0", 82}},
       {"TCP", "127.0.0.1", 80}, false},
      {"normal ip with different port/protocol should be allowed",
       {{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81},
        {"TCP", "127.0.0.1", 82}},
       {"TCP", "127.0.0.1", 80}, false},
      {"another specific ip does not conflict", {{"TCP", "10.0.0.1", 80}},
       {"TCP", "10.0.0.2", 80}, false},
      {"the same specific ip conflicts", {{"TCP", "10.0.0.1", 80}}, {"", "10.0.0.1", 80}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.desc);
    CHECK(With(c.added).CheckConflict(c.check.ip, c.check.protocol, c.check.port) == c.expect);
  }
}

TEST_CASE("HostPortInfo is a set, as upstream's map", "[framework][host_ports]") {
  HostPortInfo info;
  info.Add("", "", 8080);
  info.Add("0.0.0.0", "TCP", 8080);  // the same triple once sanitized
  CHECK(info.size() == 1);
  info.Remove("0.0.0.0", "TCP", 8080);  // one removal frees it, whoever added it
  CHECK(info.empty());
  CHECK_FALSE(info.CheckConflict("", "", 8080));
  info.Remove("1.2.3.4", "UDP", 53);  // removing what is absent is a no-op
  CHECK(info.empty());
}

TEST_CASE("HostPortInfo equality ignores insertion order", "[framework][host_ports]") {
  HostPortInfo a = With({{"TCP", "1.1.1.1", 80}, {"UDP", "", 53}, {"TCP", "", 443}});
  HostPortInfo b = With({{"TCP", "", 443}, {"TCP", "1.1.1.1", 80}, {"UDP", "0.0.0.0", 53}});
  CHECK(a == b);
  b.Remove("1.1.1.1", "TCP", 80);
  CHECK_FALSE(a == b);
}

}  // namespace
