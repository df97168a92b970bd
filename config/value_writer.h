// Value -> text, byte for byte as upstream's writers produce it:
//   - ToJson: Go's encoding/json, compact, map entries in the Value's order, strings with its HTML
//     escaping (<, >, & as \u003c...), floats as it formats float64 ("0.5", "1e+21", "1e-7").
//   - ToYaml: sigs.k8s.io/yaml's JSONToYAML (go-yaml v2 emitter): keys sorted by go-yaml's key
//     order, block style, two-space indentation with list items at their key's indentation,
//     strings plain when they can be, 'single-quoted' when the emitter needs quotes (a leading
//     indicator, ": ", " #", surrounding spaces), "double-quoted" when plain text would read back
//     as another type ("10", "true", "y", "null", "1:20", "2001-12-14") or holds control
//     characters, literal blocks (|-) for multi-line text; numbers as JSON numbers re-read by YAML
//     (integral floats print as integers, others as Go's %g: "1e+21", "1.5e-07").
//     Deviation: go-yaml folds plain scalars with spaces past column 80; ToYaml never folds (the
//     text reads back as the same value).
//   - GoFloat: a float64 as encoding/json writes it (also the "number 1.5" of Go's decode errors).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "config/value.h"

namespace ksched::config {

std::string ToJson(const Value& value);
std::string ToYaml(const Value& value);
std::string GoFloat(double value);

}  // namespace ksched::config
