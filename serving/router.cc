#include "serving/router.h"

#include <cstdlib>
#include <set>
#include <utility>

#include <spdlog/spdlog.h>

namespace ksched::serving {

Router::Router() = default;

const HealthChecks* Router::FamilyOf(const std::string& path, std::string* check_name) const {
  for (const HealthChecks* family : {&healthz_, &livez_, &readyz_}) {
    const std::string root = family->root_path();
    if (path == root) {
      check_name->clear();
      return family;
    }
    if (path.size() > root.size() + 1 && path.compare(0, root.size(), root) == 0 &&
        path[root.size()] == '/') {
      *check_name = path.substr(root.size() + 1);
      return family;
    }
  }
  return nullptr;
}

void Router::Handle(std::string path, Handler handler, bool listed) {
  std::string check_name;
  if (path.empty() || path[0] != '/' || !handler || FamilyOf(path, &check_name) != nullptr) {
    spdlog::critical("serving: cannot register a handler for path '{}'", path);
    std::abort();
  }
  base::MutexLock lock(&mu_);
  if (!handlers_.emplace(path, std::move(handler)).second) {
    spdlog::critical("serving: path '{}' registered twice", path);
    std::abort();
  }
  if (!listed) unlisted_.insert(path);
}

void Router::HandlePrefix(std::string prefix, Handler handler, bool listed) {
  std::string check_name;
  const bool covers_family = [&] {
    for (const HealthChecks* family : {&healthz_, &livez_, &readyz_}) {
      if (family->root_path().starts_with(prefix) || prefix.starts_with(family->root_path() + "/")) return true;
    }
    return false;
  }();
  if (prefix.size() < 2 || prefix.front() != '/' || prefix.back() != '/' || !handler || covers_family) {
    spdlog::critical("serving: cannot register a handler for the prefix '{}'", prefix);
    std::abort();
  }
  base::MutexLock lock(&mu_);
  if (!prefix_handlers_.emplace(prefix, std::move(handler)).second) {
    spdlog::critical("serving: prefix '{}' registered twice", prefix);
    std::abort();
  }
  if (!listed) unlisted_.insert(prefix);
}

std::vector<std::string> Router::ListedPaths() const {
  std::set<std::string> paths;
  for (const HealthChecks* family : {&healthz_, &livez_, &readyz_}) {
    paths.insert(family->root_path());
    for (const std::string& check : family->CheckNames()) paths.insert(family->root_path() + "/" + check);
  }
  base::MutexLock lock(&mu_);
  for (const auto& [path, handler] : handlers_) {
    if (!unlisted_.contains(path)) paths.insert(path);
  }
  for (const auto& [prefix, handler] : prefix_handlers_) {
    if (!unlisted_.contains(prefix)) paths.insert(prefix);
  }
  return {paths.begin(), paths.end()};
}

ServingResponse Router::Serve(const ServingRequest& request) const {
  Handler handler;
  {
    base::MutexLock lock(&mu_);
    auto it = handlers_.find(request.path);
    if (it != handlers_.end()) {
      handler = it->second;
    } else {
      // The longest prefix of the path: the last key not after it that it starts with.
      for (auto p = prefix_handlers_.upper_bound(request.path); p != prefix_handlers_.begin();) {
        --p;
        if (request.path.starts_with(p->first)) {
          handler = p->second;
          break;
        }
      }
    }
  }
  if (handler) return handler(request);

  std::string check_name;
  if (const HealthChecks* family = FamilyOf(request.path, &check_name)) {
    if (check_name.empty()) return family->ServeRoot(request.query);
    if (check_name.find('/') == std::string::npos) {
      if (std::optional<ServingResponse> response = family->ServeCheck(check_name)) return *response;
    }
  }
  return ServingResponse::NotFound();
}

}  // namespace ksched::serving
