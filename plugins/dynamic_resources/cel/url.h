// URLs as Go's net/url parses and prints them, for the Kubernetes url CEL library (Go 1.24, which
// kube-scheduler v1.34.4 is built with; colons in a host are split at the last one, as before Go
// 1.26's urlstrictcolons).
//
// Contract:
//   - ParseUrl is url.Parse (any URI reference; "#fragment" split off first), ParseRequestUri is
//     url.ParseRequestURI (an absolute URI or an absolute path; '#' is not special). Errors carry
//     net/url's *url.Error text verbatim: `parse "https://a:b:c/": invalid port ":c" after host`.
//   - The accessors are URL's methods of the same names: Hostname and Port split Host at its last
//     colon (brackets stripped), EscapedPath prefers the path as written when it is a valid
//     encoding, ToString is URL.String (what two URLs compare by).
//   - ParseQuery is url.ParseQuery with its errors discarded (URL.Query): malformed pairs are
//     dropped, and more than 10000 parameters give no values at all (Go's urlmaxqueryparams).
//
// Thread-safety: a value type; free functions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::plugins::dynamic_resources::cel {

// url.URL (its exported fields; Path and Fragment decoded, the Raw* fields their encoding hints).
struct Url {
  std::string scheme;
  std::string opaque;
  bool has_user = false;
  std::string username;
  std::string password;
  bool password_set = false;
  std::string host;  // "host" or "host:port"; an IPv6 address in brackets
  std::string path;
  std::string raw_path;
  std::string raw_query;
  std::string fragment;
  std::string raw_fragment;
  bool force_query = false;  // a '?' with nothing after it
  bool omit_host = false;    // "scheme:/path": no authority at all

  std::string Hostname() const;
  std::string Port() const;
  std::string EscapedPath() const;
  std::string EscapedFragment() const;
  std::string ToString() const;
};

// url.Parse / url.ParseRequestURI. Errors are InvalidArgument with the *url.Error text.
absl::StatusOr<Url> ParseUrl(std::string_view raw);
absl::StatusOr<Url> ParseRequestUri(std::string_view raw);

// url.Values: each key's values in order (keys sorted, where Go's map has no order).
using QueryValues = std::map<std::string, std::vector<std::string>, std::less<>>;
// URL.Query(): url.ParseQuery of the raw query, errors discarded.
QueryValues ParseQuery(std::string_view query);

}  // namespace ksched::plugins::dynamic_resources::cel
