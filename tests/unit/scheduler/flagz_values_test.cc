// FlagzValues: every flag of the command line, with pflag's String() of its value.
#include "scheduler/flagz_values.h"

#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "scheduler/command_flags.h"

namespace ksched::scheduler {
namespace {

CommandFlags Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kube-scheduler");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  absl::StatusOr<CommandFlags> flags = ParseCommandFlags(static_cast<int>(argv.size()), argv.data());
  REQUIRE(flags.ok());
  return *std::move(flags);
}

TEST_CASE("FlagzValues covers every flag the command line accepts", "[flagz]") {
  const CommandFlags help = Parse({"--help"});
  const std::map<std::string, std::string> values = FlagzValues(Parse({}));
  static const std::regex kFlag(R"(--([a-z0-9][a-z0-9-]*))");
  std::set<std::string> missing;
  for (auto it = std::sregex_iterator(help.help_text.begin(), help.help_text.end(), kFlag); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1].str();
    if (!values.contains(name)) missing.insert(name);
  }
  INFO("a flag added to command_flags.cc needs its value in flagz_values.cc");
  CHECK(missing == std::set<std::string>{});
  // Upstream's global flag set adds --help and --version.
  CHECK(values.at("help") == "false");
  CHECK(values.at("version") == "false");
}

TEST_CASE("FlagzValues prints defaults as pflag does", "[flagz]") {
  const std::map<std::string, std::string> v = FlagzValues(Parse({}));
  CHECK(v.at("bind-address") == "0.0.0.0");
  CHECK(v.at("secure-port") == "10259");
  CHECK(v.at("authorization-always-allow-paths") == "[/healthz,/readyz,/livez]");
  CHECK(v.at("authentication-token-webhook-cache-ttl") == "10s");
  CHECK(v.at("authentication-tolerate-lookup-failure") == "true");
  CHECK(v.at("pod-max-in-unschedulable-pods-duration") == "5m0s");
  CHECK(v.at("kube-api-qps") == "50");
  CHECK(v.at("kube-api-burst") == "100");
  CHECK(v.at("kube-api-content-type") == "application/vnd.kubernetes.protobuf");
  CHECK(v.at("leader-elect") == "true");
  CHECK(v.at("leader-elect-lease-duration") == "15s");
  CHECK(v.at("disabled-metrics") == "[]");
  CHECK(v.at("tls-cipher-suites") == "[]");
  CHECK(v.at("feature-gates").empty());
  CHECK(v.at("v") == "0");
  CHECK(v.at("log-flush-frequency") == "5s");
  CHECK(v.at("config").empty());
}

TEST_CASE("FlagzValues prints the values given", "[flagz]") {
  const std::map<std::string, std::string> v =
      FlagzValues(Parse({"--v=4", "--secure-port=0", "--kube-api-qps=12.5", "--leader-elect=false",
                         "--disabled-metrics=a,b", "--disabled-metrics=c", "--leader-elect-renew-deadline=90s",
                         "--feature-gates=SchedulerPopFromBackoffQ=false,kube:ComponentFlagz=true",
                         "--authorization-always-allow-paths=/x"}));
  CHECK(v.at("v") == "4");
  CHECK(v.at("secure-port") == "0");
  CHECK(v.at("kube-api-qps") == "12.5");
  CHECK(v.at("leader-elect") == "false");
  CHECK(v.at("leader-elect-renew-deadline") == "1m30s");
  CHECK(v.at("authorization-always-allow-paths") == "[/x]");
  CHECK(v.at("disabled-metrics") == "[a,b,c]");
  CHECK(v.at("feature-gates") == ":SchedulerPopFromBackoffQ=false,kube:ComponentFlagz=true");
}

}  // namespace
}  // namespace ksched::scheduler
