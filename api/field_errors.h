// Validation error messages with the exact text of upstream's field errors
// (k8s.io/apimachinery/pkg/util/validation/field) and error aggregates
// (k8s.io/apimachinery/pkg/util/errors), so that a rejected selector, term or value reads the same
// here as in kube-scheduler's logs and events, e.g.
//   nodeSelectorTerms[0].matchExpressions[1].key: Invalid value: "a b": name part must ...
//
// Rendering of a bad value follows Go's field.Error: a plain string is quoted with %q
// (GoQuote); a string slice or a named string type (an operator) goes through encoding/json
// (JsonQuote, JsonStringList; an empty list renders as `null`, as a nil slice does upstream).
//
// Thread-safety: FieldPath and FieldErrorList are plain value types; the functions are pure.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace ksched::api {

// A path to a field, rendered like upstream's field.Path.String(): "spec.template[0].name",
// "values[2][kubernetes.io/os]". The default path is Go's nil path: its children start the string.
class FieldPath {
 public:
  FieldPath() = default;
  explicit FieldPath(std::string_view root) : text_(root) {}

  FieldPath Child(std::string_view name) const;
  FieldPath Index(std::size_t index) const;
  FieldPath Key(std::string_view key) const;  // a map subscript: "[key]", unquoted

  const std::string& String() const noexcept { return text_; }

 private:
  std::string text_;
};

// Go's strconv.Quote / fmt's %q. Exact for ASCII and for invalid UTF-8 (\xNN); a non-ASCII rune is
// escaped when it is a control, format, separator, private-use or non-character code point and kept
// otherwise (Go also escapes unassigned code points, which would need Unicode tables).
std::string GoQuote(std::string_view s);

// A string as Go's encoding/json writes it (with its default HTML escaping of <, > and &).
std::string JsonQuote(std::string_view s);

// A string slice as encoding/json writes it: ["a","b"], or null when empty.
std::string JsonStringList(std::span<const std::string> values);

// "<path>: Invalid value: <rendered_value>[: <detail>]"
std::string InvalidValueError(const FieldPath& path, std::string_view rendered_value,
                              std::string_view detail);

// "<path>: Unsupported value: <rendered_value>[: supported values: "a", "b"]"
std::string UnsupportedValueError(const FieldPath& path, std::string_view rendered_value,
                                  std::span<const std::string_view> supported);

// An ordered list of error messages that renders as upstream's aggregate: duplicates dropped,
// one message bare, several as "[m1, m2]".
class FieldErrorList {
 public:
  void Add(std::string message) { messages_.push_back(std::move(message)); }
  void Append(const FieldErrorList& other);

  bool empty() const noexcept { return messages_.empty(); }
  std::size_t size() const noexcept { return messages_.size(); }
  const std::vector<std::string>& messages() const noexcept { return messages_; }

  // The aggregate's text; "" when empty.
  std::string Message() const;
  // OkStatus() when empty, else InvalidArgument(Message()).
  absl::Status ToStatus() const;

 private:
  std::vector<std::string> messages_;
};

}  // namespace ksched::api
