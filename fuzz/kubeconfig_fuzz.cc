// A kubeconfig file: loaded from a file as the daemon loads --kubeconfig (written to a file of this
// process's own under /tmp, reused across inputs).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "client/kubeconfig.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/ksched-kubeconfig-fuzz-" + std::to_string(::getpid());
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return 0;
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  ksched::client::KubeconfigOptions options;
  options.path = path;
  (void)ksched::client::LoadKubeconfig(options);
  return 0;
}
