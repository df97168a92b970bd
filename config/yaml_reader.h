// ReadYaml: YAML text -> Value, as upstream's decoder sees a configuration file
// (sigs.k8s.io/yaml YAMLToJSONStrict over its go-yaml v2 fork):
//   - only the first document is read;
//   - mapping entries come sorted by key, as upstream's YAML -> JSON conversion through a Go map
//     leaves them (so unknown fields are named in that order);
//   - plain scalars resolve by YAML 1.1 rules: null (~, null, empty), bools (true/false, yes/no,
//     on/off, y/n in their usual casings), integers (decimal, 0x hex, 0 or 0o octal, 0b binary,
//     underscores ignored; int64, else uint64, else a float), floats; timestamps stay strings;
//     quoted scalars and !!str are strings;
//   - a key repeated in one mapping is an error, reported like upstream's strict conversion:
//       strict decoding error: yaml: unmarshal errors:
//         line 4: key "parallelism" already set in map
//   - a syntax error reads "yaml: line <n>: <yaml-cpp's description>" (upstream has the same shape
//     with go-yaml's wording);
//   - .inf and .nan have no JSON form: an error ("json: unsupported value: +Inf");
//   - input go-yaml refuses is refused with its words, before yaml-cpp (which would accept or
//     crash on it) reads it: control characters ("yaml: control characters are not allowed"),
//     flow collections nested deeper than 10,000 ("yaml: line 3: exceeded max depth of 10000"),
//     a quoted scalar never closed ("yaml: line 8: found unexpected end of stream", where yaml-cpp
//     would take the rest of the file as the scalar);
//     and aliases expanding the document without bound (a "billion laughs") stop the conversion:
//     "yaml: document contains excessive aliasing".
//
// Errors: InvalidArgument. Thread-safety: reentrant.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "config/value.h"

namespace ksched::config {

absl::StatusOr<Value> ReadYaml(std::string_view text);

}  // namespace ksched::config
