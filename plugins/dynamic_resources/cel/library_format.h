// The Kubernetes format library (k8s.io/apiserver@v0.34.4 pkg/cel/library/format.go), part of the
// DRA environment since Kubernetes 1.31:
//   format.dns1123Label(), format.dns1123Subdomain(), format.dns1035Label(),
//   format.qualifiedName(), format.dns1123LabelPrefix(), format.dns1123SubdomainPrefix(),
//   format.dns1035LabelPrefix(), format.labelValue(), format.uri(), format.uuid(), format.byte(),
//   format.date(), format.datetime()  -> a kubernetes.NamedFormat;
//   format.named("<one of those names>") -> optional(kubernetes.NamedFormat) (none when unknown);
//   <format>.validate(string) -> optional(list(string)): none when the string is valid, else the
//     validator's messages (apimachinery's, net/url's ParseRequestURI error, or "does not match
//     the UUID format", "invalid base64", "invalid date", "invalid datetime").
// Two formats are equal when their names are (comparing one with another type is "no such
// overload").
//
// Thread-safety: the format table is immutable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ksched::plugins::dynamic_resources::cel {

struct NamedFormat {
  std::string_view key;   // what format.<key>() and format.named("<key>") name it by
  std::string_view name;  // upstream's Format.Name, what equality compares
  std::vector<std::string> (*validate)(std::string_view value);
};

}  // namespace ksched::plugins::dynamic_resources::cel
