// Identity of this build: what `--version`, the User-Agent and the logs report.
//
// Thread-safety: the returned object is immutable and lives for the whole program.
#pragma once

#include <string>
#include <string_view>

namespace ksched::api {

struct BuildInfo {
  std::string_view version;             // this project's semantic version, e.g. "0.1.0"
  std::string_view git_commit;          // short commit the build was configured at, or "unknown"
  std::string_view kubernetes_version;  // the upstream release whose behaviour is matched, e.g. "1.37.2"
  std::string_view commit_date;         // the commit's date, UTC, "2026-12-04T03:21:57Z"
  std::string_view git_tree_state;      // "clean" or "dirty" when configured, "" without git
  std::string_view compiler;            // "GNU 14.2.0"
  std::string_view platform;            // "linux/amd64"
};

const BuildInfo& GetBuildInfo();

// "kube-scheduler-cpp/0.1.0 (linux/amd64) kubernetes/1.37.2 commit/abc123": the User-Agent sent to
// the API server, in client-go's "<binary>/<version> (<os>/<arch>) <extra>" shape.
std::string UserAgent();

}  // namespace ksched::api
