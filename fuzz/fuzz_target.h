// The entry point every fuzz target defines (libFuzzer's): called once per input, must not keep
// state between calls that changes what the next call does, and must not crash, hang, leak or
// trip a sanitizer on any input. Built two ways (fuzz/CMakeLists.txt): with libFuzzer under clang
// (KSCHED_FUZZ=ON, `make fuzz`), or with replay_main.cc, which runs the target over its corpus as
// a unit test in every build, so each crash found becomes a regression test by adding its input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace ksched::fuzz {

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace ksched::fuzz
