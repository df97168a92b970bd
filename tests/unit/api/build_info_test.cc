#include "api/build_info.h"

#include <catch2/catch.hpp>
#include <regex>
#include <string>

TEST_CASE("build info reports semantic versions", "[api][build_info]") {
  const auto& info = ksched::api::GetBuildInfo();
  const std::regex semver(R"(\d+\.\d+\.\d+)");
  CHECK(std::regex_match(std::string(info.version), semver));
  CHECK(std::regex_match(std::string(info.kubernetes_version), semver));
  CHECK_FALSE(info.git_commit.empty());
  CHECK(std::regex_match(std::string(info.commit_date), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  CHECK(std::regex_match(std::string(info.platform), std::regex(R"([a-z]+/[a-z0-9]+)")));
  CHECK_FALSE(info.compiler.empty());
}

TEST_CASE("user agent has client-go's shape and names the project", "[api][build_info]") {
  const std::string agent = ksched::api::UserAgent();
  const auto& info = ksched::api::GetBuildInfo();
  CHECK(agent.rfind("kube-scheduler-cpp/" + std::string(info.version) + " (", 0) == 0);
  CHECK(agent.find(") kubernetes/" + std::string(info.kubernetes_version)) != std::string::npos);
  CHECK(agent.find('\n') == std::string::npos);  // a header value must be one line
}
