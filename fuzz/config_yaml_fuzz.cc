// A KubeSchedulerConfiguration file (any of the versions the loader reads), through decoding,
// upstream's defaults and merge, and validation.
#include "config/load.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> warnings;
  (void)ksched::config::LoadConfig(ksched::fuzz::AsText(data, size), "fuzz.yaml", &warnings);
  return 0;
}
