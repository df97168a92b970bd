// Go's strconv.Atoi with its error messages ("strconv.Atoi: parsing \"x\": invalid syntax",
// "strconv.Atoi: parsing \"99999999999999999999\": value out of range"), for the CEL functions
// whose errors quote it (timestamp getters' offsets, string.format precisions).
//
// Thread-safety: a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched::plugins::dynamic_resources::cel {

// An optional sign and decimal digits within int64; false with Go's error in `error`.
bool GoAtoi(std::string_view text, std::int64_t& out, std::string& error);

}  // namespace ksched::plugins::dynamic_resources::cel
