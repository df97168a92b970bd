// /debug/flags/v and the /debug/flags index, as apiserver's routes.DebugFlags with
// logs.GlogSetter answer them.
#include "scheduler/debug_flags.h"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

namespace ksched::scheduler {
namespace {

serving::ServingRequest Request(std::string method, std::string body) {
  serving::ServingRequest request;
  request.method = std::move(method);
  request.path = request.target = "/debug/flags/v";
  request.body = std::move(body);
  return request;
}

TEST_CASE("PUT /debug/flags/v sets the verbosity, bad values get Go's errors", "[debug_flags]") {
  std::optional<std::uint32_t> set;
  auto setter = [&](std::uint32_t v) { set = v; };
  struct Case {
    std::string method, body;
    int status;
    std::string answer;
    std::optional<std::uint32_t> set;
  };
  const std::vector<Case> cases = {
      {"PUT", "4", 200, "successfully set klog.logging.verbosity to 4\n", 4},
      {"PUT", "0", 200, "successfully set klog.logging.verbosity to 0\n", 0},
      {"PUT", "007", 200, "successfully set klog.logging.verbosity to 007\n", 7},
      {"PUT", "2147483647", 200, "successfully set klog.logging.verbosity to 2147483647\n", 2147483647u},
      {"PUT", "2147483648", 400,
       "failed set klog.logging.verbosity 2147483648: strconv.ParseInt: parsing \"2147483648\": value out of range\n",
       std::nullopt},
      {"PUT", "4294967296", 400, "strconv.ParseUint: parsing \"4294967296\": value out of range\n", std::nullopt},
      {"PUT", "99999999999999999999999", 400,
       "strconv.ParseUint: parsing \"99999999999999999999999\": value out of range\n", std::nullopt},
      {"PUT", "", 400, "strconv.ParseUint: parsing \"\": invalid syntax\n", std::nullopt},
      {"PUT", "3\n", 400, "strconv.ParseUint: parsing \"3\\n\": invalid syntax\n", std::nullopt},
      {"PUT", "+3", 400, "strconv.ParseUint: parsing \"+3\": invalid syntax\n", std::nullopt},
      {"PUT", "-1", 400, "strconv.ParseUint: parsing \"-1\": invalid syntax\n", std::nullopt},
      {"PUT", "1_0", 400, "strconv.ParseUint: parsing \"1_0\": invalid syntax\n", std::nullopt},
      {"GET", "", 406, "unsupported http method\n", std::nullopt},
      {"POST", "4", 406, "unsupported http method\n", std::nullopt},
  };
  for (const Case& c : cases) {
    INFO(c.method << " " << c.body);
    set.reset();
    const serving::ServingResponse response = ServeVerbosityFlag(Request(c.method, c.body), setter);
    CHECK(response.status == c.status);
    CHECK(response.body == c.answer);
    CHECK(response.content_type == "text/plain");
    CHECK(set == c.set);
  }
}

TEST_CASE("the /debug/flags index lists v", "[debug_flags]") {
  const serving::ServingResponse response = ServeDebugFlagsIndex(Request("GET", ""));
  CHECK(response.status == 200);
  CHECK(response.content_type == "text/html; charset=utf-8");
  CHECK(response.body.find("<title>/debug/flags/</title>") != std::string::npos);
  CHECK(response.body.find("<tr>v<br>\n") != std::string::npos);
}

}  // namespace
}  // namespace ksched::scheduler
