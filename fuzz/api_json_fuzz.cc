// API objects as the API server (or a hostile one) sends them: the first byte picks the decoder,
// the rest is the JSON: a pod, a node, a pod watch event (one line of a watch stream), a node
// list, a PodDisruptionBudget, a ResourceClaim, a metav1.Status, or JSON from outside the API
// server (extender, Prometheus, exec plugin answers).
#include "api/json_decode.h"
#include "api/outside_json.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ksched::api;
  if (size == 0) return 0;
  const std::string_view json = ksched::fuzz::AsText(data + 1, size - 1);
  switch (data[0] % 8) {
    case 0: (void)DecodePod(json); break;
    case 1: (void)DecodeNode(json); break;
    case 2: (void)DecodeWatchEvent<Pod>(json); break;
    case 3: (void)DecodeList<Node>(json); break;
    case 4: (void)DecodePodDisruptionBudget(json); break;
    case 5: (void)DecodeResourceClaim(json); break;
    case 6: (void)DecodeApiStatus(json); break;
    default: {
      rapidjson::Document document;
      (void)ParseOutsideJson(json, document);
    }
  }
  return 0;
}
