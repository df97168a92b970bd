#include "api/build_info.h"

#include "build_info_values.h"

namespace ksched::api {

namespace {

#if defined(__linux__) && defined(__x86_64__)
constexpr const char* kPlatform = "linux/amd64";
#elif defined(__linux__) && defined(__aarch64__)
constexpr const char* kPlatform = "linux/arm64";
#else
constexpr const char* kPlatform = "unknown/unknown";
#endif

}  // namespace

const BuildInfo& GetBuildInfo() {
  static constexpr BuildInfo kInfo{KSCHED_VERSION,       KSCHED_GIT_COMMIT, KSCHED_KUBERNETES_VERSION,
                                   KSCHED_GIT_COMMIT_DATE, KSCHED_GIT_TREE_STATE, KSCHED_COMPILER,
                                   kPlatform};
  return kInfo;
}

std::string UserAgent() {
  const BuildInfo& info = GetBuildInfo();
  std::string agent = "kube-scheduler-cpp/";
  agent += info.version;
  agent += " (";
  agent += info.platform;
  agent += ")";
  agent += " kubernetes/";
  agent += info.kubernetes_version;
  agent += " commit/";
  agent += info.git_commit;
  return agent;
}

}  // namespace ksched::api
