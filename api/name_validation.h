// Kubernetes' name and label validators (k8s.io/apimachinery@v0.34.4 pkg/util/validation and
// pkg/api/validation) with their messages word for word: label keys and values (label selectors,
// configuration validation) and the CEL format library's validate(). Each returns the list of
// problems, empty when the value is valid.
//   - IsDNS1123Label / IsDNS1123Subdomain / IsDNS1035Label: "must be no more than 63
//     characters", "must not contain dots", "a lowercase RFC 1123 label must consist of ... (e.g.
//     'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
//   - IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63
//     alphanumerics, '-', '_' or '.' ("prefix part ...", "name part ...");
//   - IsValidLabelValue: empty, or a qualified name's name part;
//   - MaskTrailingDash: what the *Prefix variants validate instead of a name ending in '-' (its
//     last two characters replaced by "a", as apimachinery's maskTrailingDash does).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ksched::api {

std::vector<std::string> IsDNS1123Label(std::string_view value);
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
std::vector<std::string> IsDNS1035Label(std::string_view value);
std::vector<std::string> IsQualifiedName(std::string_view value);
std::vector<std::string> IsValidLabelValue(std::string_view value);
std::string MaskTrailingDash(std::string_view name);

}  // namespace ksched::api
