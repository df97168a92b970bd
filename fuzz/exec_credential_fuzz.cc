// What an exec credential plugin prints on stdout (client.authentication.k8s.io v1 and v1beta1).
#include "client/exec_credential.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = ksched::fuzz::AsText(data, size);
  (void)ksched::client::DecodeExecCredential(text, "client.authentication.k8s.io/v1");
  (void)ksched::client::DecodeExecCredential(text, "client.authentication.k8s.io/v1beta1");
  return 0;
}
