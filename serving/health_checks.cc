#include "serving/health_checks.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "serving/query_string.h"

namespace ksched::serving {
namespace {

// Go's formatQuoted: %q of each name, comma separated.
std::string FormatQuoted(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ',';
    out += '"';
    for (const char c : name) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace

HealthChecks::HealthChecks(std::string family) : family_(std::move(family)) {}

void HealthChecks::AddCheck(std::string name, Check check) {
  if (name.empty() || name.find('/') != std::string::npos || !check) {
    spdlog::critical("health check '{}' for /{}: invalid name or empty function", name, family_);
    std::abort();
  }
  base::MutexLock lock(&mu_);
  for (const NamedCheck& existing : checks_) {
    if (existing.name == name) {
      spdlog::critical("health check '{}' registered twice for /{}", name, family_);
      std::abort();
    }
  }
  checks_.push_back(NamedCheck{std::move(name), std::move(check)});
}

std::vector<HealthChecks::NamedCheck> HealthChecks::Snapshot() const {
  base::MutexLock lock(&mu_);
  if (checks_.empty()) return {NamedCheck{"ping", [] { return absl::OkStatus(); }}};
  return checks_;
}

std::vector<std::string> HealthChecks::CheckNames() const {
  std::vector<std::string> names;
  for (const NamedCheck& check : Snapshot()) names.push_back(check.name);
  return names;
}

void HealthChecks::SetObserver(Observer observer) {
  base::MutexLock lock(&mu_);
  observer_ = std::move(observer);
}

ServingResponse HealthChecks::ServeRoot(std::string_view query) const {
  Observer observer;
  {
    base::MutexLock lock(&mu_);
    observer = observer_;
  }
  const std::vector<std::string> excluded_list = QueryValues(query, "exclude");
  std::set<std::string> unknown_excluded(excluded_list.begin(), excluded_list.end());
  const std::set<std::string> excluded = unknown_excluded;

  std::string output;       // what the client sees
  std::string failed_log;   // with the reasons, for our log only
  std::vector<std::string> failed;
  for (const NamedCheck& check : Snapshot()) {
    if (excluded.count(check.name) > 0) {
      unknown_excluded.erase(check.name);
      output += fmt::format("[+]{} excluded: ok\n", check.name);
      continue;
    }
    const absl::Status status = check.check();
    if (observer) observer(check.name, family_, status.ok());
    if (status.ok()) {
      output += fmt::format("[+]{} ok\n", check.name);
    } else {
      // The endpoint is public: the reason is withheld; /<family>/<check> shows it.
      output += fmt::format("[-]{} failed: reason withheld\n", check.name);
      failed_log += fmt::format("[-]{} failed: {}\n", check.name, std::string(status.message()));
      failed.push_back(check.name);
    }
  }
  if (!unknown_excluded.empty()) {
    output += fmt::format("warn: some health checks cannot be excluded: no matches for {}\n",
                          FormatQuoted(unknown_excluded));
  }
  if (!failed.empty()) {
    SPDLOG_DEBUG("{} check failed: {}\n{}", fmt::join(failed, ","), family_, failed_log);
    return ServingResponse::Error(500, output + family_ + " check failed");
  }

  ServingResponse response;
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (!HasQueryKey(query, "verbose")) {
    response.body = "ok";
    return response;
  }
  response.body = output + family_ + " check passed\n";
  return response;
}

std::optional<ServingResponse> HealthChecks::ServeCheck(std::string_view check_name) const {
  for (const NamedCheck& check : Snapshot()) {
    if (check.name != check_name) continue;
    const absl::Status status = check.check();
    if (!status.ok()) {
      return ServingResponse::Error(500, "internal server error: " + std::string(status.message()));
    }
    ServingResponse response;
    response.body = "ok";
    return response;
  }
  return std::nullopt;
}

}  // namespace ksched::serving
