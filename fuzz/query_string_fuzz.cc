// The secure port's request target: percent-decoding of the path and the query's values.
#include "fuzz_target.h"
#include "serving/query_string.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ksched::serving;
  const std::string_view target = ksched::fuzz::AsText(data, size);
  const std::size_t question = target.find('?');
  (void)PercentDecode(target.substr(0, question), false);
  if (question != std::string_view::npos) {
    const std::string_view query = target.substr(question + 1);
    (void)QueryValues(query, "verbose");
    (void)QueryValues(query, "exclude");
    (void)HasQueryKey(query, "pretty");
    (void)PercentDecode(query, true);
  }
  return 0;
}
