// A Prometheus HTTP API answer to an instant query, as the metrics plugins read it.
#include "fuzz_target.h"
#include "scheduler/prometheus_response.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)ksched::scheduler::ParseInstantVector(ksched::fuzz::AsText(data, size), "instance");
  return 0;
}
