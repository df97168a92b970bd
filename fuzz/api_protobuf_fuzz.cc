// Protobuf answers of the API server: the envelope (magic prefix + runtime.Unknown) and a
// metav1.Status inside it.
#include "api/protobuf_wire.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = ksched::fuzz::AsText(data, size);
  (void)ksched::api::protobuf::Unwrap(body);
  (void)ksched::api::protobuf::DecodeApiStatus(body);
  return 0;
}
