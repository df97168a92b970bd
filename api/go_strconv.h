// Go's strconv parsers, for the places where upstream's behaviour is a Go conversion and its error
// text reaches the user: pflag's int / int32 / bool / float32 flags, component-base's verbosity,
// klog's level, feature-gate values, the CEL library's integer arguments.
//
//   GoParseBool   strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False.
//   GoParseUint   strconv.ParseUint(s, base, bitSize), base 0 or 2..36 (base 0: 0x / 0o / 0b / 0
//                 prefixes and '_' digit separators, as Go literals).
//   GoParseInt    strconv.ParseInt(s, base, bitSize): an optional sign, then as ParseUint.
//   GoAtoi        strconv.Atoi: ParseInt(s, 10, 64) reported as "Atoi".
//   GoParseFloat  strconv.ParseFloat(s, bitSize) for bitSize 32 or 64: decimal and hexadecimal
//                 (0x1.8p3) literals with '_' separators, "inf" / "infinity" (signed, any case),
//                 "nan"; overflow is a range error, underflow rounds towards zero silently.
//
// Errors are InvalidArgument statuses whose message is Go's *NumError text, for example
//   strconv.ParseInt: parsing "0x": invalid syntax
//   strconv.ParseUint: parsing "4294967296": value out of range
// with the whole input quoted as strconv.Quote does. bitSize 0 means 64 (Go's int on amd64).
// A base or bitSize Go would refuse is a programming error here and aborts.
//
// Exactness: the integer parsers follow Go's code path for path (an overflow before a bad digit is
// a range error, a bad digit first a syntax error). GoParseFloat(.., 32) rounds through double
// first, so a decimal within one double ulp of a float32 rounding midpoint may round differently
// from Go's direct rounding; nothing here parses such values.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::api {

absl::StatusOr<bool> GoParseBool(std::string_view text);
absl::StatusOr<std::uint64_t> GoParseUint(std::string_view text, int base, int bit_size);
absl::StatusOr<std::int64_t> GoParseInt(std::string_view text, int base, int bit_size);
absl::StatusOr<std::int64_t> GoAtoi(std::string_view text);
absl::StatusOr<double> GoParseFloat(std::string_view text, int bit_size);

}  // namespace ksched::api
