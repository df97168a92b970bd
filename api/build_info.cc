#include "api/build_info.h"

#include "build_info_values.h"

namespace ksched::api {

const BuildInfo& GetBuildInfo() {
  static constexpr BuildInfo kInfo{KSCHED_VERSION, KSCHED_GIT_COMMIT, KSCHED_KUBERNETES_VERSION};
  return kInfo;
}

std::string UserAgent() {
  const BuildInfo& info = GetBuildInfo();
  std::string agent = "kube-scheduler-cpp/";
  agent += info.version;
#if defined(__linux__) && defined(__x86_64__)
  agent += " (linux/amd64)";
#elif defined(__linux__) && defined(__aarch64__)
  agent += " (linux/arm64)";
#else
  agent += " (unknown/unknown)";
#endif
  agent += " kubernetes/";
  agent += info.kubernetes_version;
  agent += " commit/";
  agent += info.git_commit;
  return agent;
}

}  // namespace ksched::api
