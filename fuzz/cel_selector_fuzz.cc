// A DRA device selector's CEL expression: parsed, type-checked and, when it compiles, evaluated
// against a device with a few attributes and a capacity.
#include <string>
#include <utility>
#include <vector>

#include "fuzz_target.h"
#include "plugins/dynamic_resources/cel/device_selector.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace dra = ksched::plugins::dynamic_resources;
  absl::StatusOr<std::shared_ptr<const dra::CompiledSelector>> selector =
      dra::CompiledSelector::Compile(ksched::fuzz::AsText(data, size));
  if (!selector.ok()) return 0;
  static const std::vector<std::pair<std::string, ksched::api::DeviceAttribute>> attributes = [] {
    std::vector<std::pair<std::string, ksched::api::DeviceAttribute>> out;
    ksched::api::DeviceAttribute model;
    model.kind = ksched::api::DeviceAttribute::Kind::kString;
    model.string_value = "a100";
    out.emplace_back("gpu.example.com/model", model);
    ksched::api::DeviceAttribute index;
    index.kind = ksched::api::DeviceAttribute::Kind::kInt;
    index.int_value = 3;
    out.emplace_back("gpu.example.com/index", index);
    return out;
  }();
  static const std::vector<std::pair<std::string, ksched::api::Quantity>> capacity = {
      {"gpu.example.com/memory", *ksched::api::Quantity::Parse("40Gi")}};
  dra::CelDevice device{"gpu.example.com", attributes, capacity};
  (void)(*selector)->Matches(device);
  return 0;
}
