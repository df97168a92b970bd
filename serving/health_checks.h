// HealthChecks: one health endpoint family (/healthz, /livez or /readyz) and its named checks,
// served as k8s.io/apiserver/pkg/server/healthz does:
//
//   GET /<family>                 200 "ok" when every check passes;
//   GET /<family>?verbose         200 "[+]<check> ok\n"... "<family> check passed\n";
//   GET /<family>?exclude=<check> the check is skipped ("[+]<check> excluded: ok"); names that
//                                 match no check add "warn: some health checks cannot be excluded:
//                                 no matches for \"x\",\"y\"\n";
//   any failing check             500, always verbose, reasons withheld:
//                                 "[-]<check> failed: reason withheld\n"... "<family> check failed\n"
//                                 (the reasons go to the log at level 2 instead);
//   GET /<family>/<check>         200 "ok", or 500 "internal server error: <reason>\n".
// A family without checks serves the single check "ping" (always passes), as upstream installs
// PingHealthz when a path gets no checks. Checks run in registration order. Each check the root
// path runs (not an excluded one, not /<family>/<check>) is reported to the observer, if one is
// set, as upstream reports it to the SLI metrics (slis.ObserveHealthcheck).
//
// Thread-safety: all methods may be called concurrently; AddCheck may be called while serving (a
// check becomes visible to the next request). Check functions are called from server threads,
// possibly concurrently, without the registry's lock held: they must be thread-safe and quick.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "base/mutex.h"
#include "serving/http_exchange.h"

namespace ksched::serving {

class HealthChecks {
 public:
  using Check = std::function<absl::Status()>;
  // Told (check name, family, passed) for every check a root request ran; called on server threads.
  using Observer = std::function<void(std::string_view check, std::string_view family, bool passed)>;

  // `family`: "healthz", "livez" or "readyz" (the path without '/', and the word in the bodies).
  explicit HealthChecks(std::string family);
  HealthChecks(const HealthChecks&) = delete;
  HealthChecks& operator=(const HealthChecks&) = delete;

  // Adds a named check. A name that is empty, contains '/', or is already registered is a
  // programming error and aborts.
  void AddCheck(std::string name, Check check);
  // Replaces the observer (none by default).
  void SetObserver(Observer observer);

  const std::string& family() const { return family_; }
  // "/healthz" etc.
  std::string root_path() const { return "/" + family_; }
  // The names served now, in order ("ping" alone while none is registered).
  std::vector<std::string> CheckNames() const;

  // The response for /<family> with this raw query string.
  ServingResponse ServeRoot(std::string_view query) const;
  // The response for /<family>/<check>; nullopt when no check has that name (the caller 404s).
  std::optional<ServingResponse> ServeCheck(std::string_view check_name) const;

 private:
  struct NamedCheck {
    std::string name;
    Check check;
  };
  std::vector<NamedCheck> Snapshot() const;

  const std::string family_;
  mutable base::Mutex mu_;
  std::vector<NamedCheck> checks_ ABSL_GUARDED_BY(mu_);
  Observer observer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::serving
