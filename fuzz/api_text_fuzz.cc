// The API's small text grammars: a resource Quantity, a field selector (and its escaping), a Go
// duration.
#include "api/field_selector.h"
#include "api/go_duration.h"
#include "api/quantity.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ksched::api;
  const std::string_view text = ksched::fuzz::AsText(data, size);
  if (absl::StatusOr<Quantity> quantity = Quantity::Parse(text); quantity.ok()) {
    (void)quantity->String();
  }
  (void)FieldSelector::Parse(text);
  if (absl::StatusOr<std::string> unescaped = UnescapeFieldSelectorValue(text); unescaped.ok()) {
    (void)EscapeFieldSelectorValue(*unescaped);
  }
  (void)ParseGoDuration(text);
  return 0;
}
