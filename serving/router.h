// Router: exact-path handlers plus the three health families, as kube-scheduler's
// PathRecorderMux is filled by server.go (healthz.InstallHandler / InstallLivezHandler /
// InstallReadyzHandler, then /metrics, /configz, ...). Matching is on the exact path: "/metrics/"
// is not "/metrics"; then on the longest registered prefix (Go's HandlePrefix, e.g.
// "/debug/flags/"). Anything unmatched is Go's 404 "404 page not found\n".
//
// Thread-safety: Handle may be called while Serve runs on other threads (a handler added later
// serves the next request). Serve calls the handler without the router's lock held.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "serving/health_checks.h"
#include "serving/http_exchange.h"

namespace ksched::serving {

class Router {
 public:
  Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Serves `path` exactly. The path must start with '/' and must not be taken: by another handler,
  // by a health family ("/healthz", "/livez", "/readyz") or one of their sub-paths. Aborts on
  // misuse (a programming error).
  // `listed`: whether ListedPaths names it (Go's Handle; false: UnlistedHandle).
  void Handle(std::string path, Handler handler, bool listed = true);
  // Serves every path starting with `prefix` that no exact handler takes. The prefix must start and
  // end with '/', must not be taken and must not cover a health family; aborts on misuse.
  void HandlePrefix(std::string prefix, Handler handler, bool listed = true);

  // The paths registered so far, sorted, as Go's PathRecorderMux.ListedPaths: the health families'
  // roots and checks, the exact paths and the prefixes, but those registered unlisted.
  std::vector<std::string> ListedPaths() const;

  HealthChecks& healthz() { return healthz_; }
  HealthChecks& livez() { return livez_; }
  HealthChecks& readyz() { return readyz_; }

  ServingResponse Serve(const ServingRequest& request) const;

 private:
  const HealthChecks* FamilyOf(const std::string& path, std::string* check_name) const;

  HealthChecks healthz_{"healthz"};
  HealthChecks livez_{"livez"};
  HealthChecks readyz_{"readyz"};
  mutable base::Mutex mu_;
  std::map<std::string, Handler> handlers_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, Handler> prefix_handlers_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> unlisted_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::serving
