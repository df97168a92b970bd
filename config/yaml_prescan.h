// What go-yaml refuses in the raw text of a YAML document that yaml-cpp would accept, read
// differently or crash on, found by scanning the text before yaml-cpp parses it (config/yaml_reader.cc
// turns each into go-yaml's words). Pure functions of the text; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ksched::config {

// go-yaml's limit on nesting.
inline constexpr std::size_t kMaxYamlDepth = 10000;

// Non-printable characters anywhere in the stream, which go-yaml's reader refuses ("control
// characters are not allowed"): ASCII controls but tab, line feed and carriage return; DEL; the C1
// controls (U+0080..U+009F) but NEL (U+0085).
bool HasControlCharacters(std::string_view text);

// The 1-based line where flow collections ('[', '{') first nest deeper than kMaxYamlDepth, outside
// quoted scalars and comments; nullopt when they never do.
std::optional<std::size_t> DeepFlowNestingLine(std::string_view text);

// A single- or double-quoted scalar still open at the end of the text (libyaml: "found unexpected
// end of stream"; yaml-cpp takes the rest of the file as the scalar, so a profile after it would
// silently disappear): the 1-based line where it opens, else nullopt. A quote counts only where a
// scalar may start (after indentation, "- ", "? ", ": ", a flow indicator, an anchor or a tag), not
// inside a plain scalar ("it's"), a comment, or a block scalar's ('|', '>') content.
std::optional<std::size_t> UnterminatedQuoteLine(std::string_view text);

// The line go-yaml names for an error at the end of the stream: the text's line count, plus one
// when it ends with a line break (the position after it).
std::size_t EndOfStreamLine(std::string_view text);

}  // namespace ksched::config
