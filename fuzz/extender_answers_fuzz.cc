// An HTTP extender's answers (scheduler/extender_answers.h): every verb's decoder over the same
// bytes, the filter's with and without nodeCacheCapable.
#include <string>

#include "fuzz_target.h"
#include "scheduler/extender_answers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(ksched::fuzz::AsText(data, size));
  (void)ksched::scheduler::DecodeExtenderFilterAnswer(body, true);
  (void)ksched::scheduler::DecodeExtenderFilterAnswer(body, false);
  (void)ksched::scheduler::DecodeExtenderPrioritizeAnswer(body);
  (void)ksched::scheduler::DecodeExtenderBindAnswer(body);
  (void)ksched::scheduler::DecodeExtenderPreemptionAnswer(body);
  return 0;
}
