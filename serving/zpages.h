// /flagz and /statusz as k8s.io/apiserver/pkg/server/{flagz,statusz} (v0.37.2) serve them, the
// ComponentFlagz and ComponentStatusz z-pages (beta, on by default since Kubernetes 1.36):
//
//   no Accept header (or a blank one)   the text form: text/plain; charset=utf-8,
//       "\n<component> flagz\nWarning: This endpoint is not meant to be machine parseable, ...\n"
//       then one "name<sep>value" line per flag, sorted; <sep> is drawn once per process among
//       ":", ": ", "=", " " (upstream caches the first text answer). /statusz draws its separator
//       on every request and writes Started (time.UnixDate, local time), Up ("0 hr 05 min 07
//       sec"), Go version, Binary version, Emulation version and Paths.
//   Accept negotiated as apimachinery's NegotiateOutputMediaType over application/json,
//       application/yaml and text/plain (CBOR is behind the off-by-default CBORServingAndStorage):
//       a structured type needs the parameters as=Flagz|Statusz;g=config.k8s.io;v=v1beta1|v1alpha1
//       and gets Content-Type "application/json;g=config.k8s.io;v=v1beta1;as=Flagz"; text/plain
//       only without them; "*/*" therefore gives the text form. v1alpha1 adds the header
//       Warning: 299 - "This version of the flagz endpoint is deprecated. Please use a newer version."
//       JSON is indented for ?pretty=true or a curl/Wget/Mozilla User-Agent, as upstream's.
//   nothing acceptable   406 with a Status ("only the following media types are accepted:
//       application/json, application/yaml, text/plain"), itself negotiated without the kind
//       restriction (JSON or YAML), else written as raw indented JSON.
// The documents:
//   {"kind":"Flagz","apiVersion":"config.k8s.io/v1beta1","metadata":{"name":"kube-scheduler"},
//    "flags":{...}}
//   {"kind":"Statusz","apiVersion":"config.k8s.io/v1beta1","metadata":{"name":"kube-scheduler"},
//    "startTime":"...Z","uptimeSeconds":N,"goVersion":"","binaryVersion":"1.37.2",
//    "emulationVersion":"1.37","paths":["/configz",...]}
// Upstream also counts these requests in apiserver_request_* metrics when that registry is
// registered; kube-scheduler does not register it, and neither does this.
//
// Thread-safety: the handlers are thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "serving/http_exchange.h"

namespace ksched::serving {

// The outcome of negotiating a z-page request.
struct ZpageNegotiation {
  enum class Format { kText, kJson, kYaml, kNotAcceptable };
  Format format = Format::kText;
  std::string version;  // "v1beta1" or "v1alpha1" for JSON and YAML
  bool pretty = false;  // indented JSON
};

// `kind`: "Flagz" or "Statusz".
ZpageNegotiation NegotiateZpage(const ServingRequest& request, std::string_view kind);

// The 406 answer to a request whose Accept header allowed nothing.
ServingResponse ZpageNotAcceptable(const ServingRequest& request);

// The /flagz handler; `flags` maps each flag's name to its value as the flag set prints it.
Handler FlagzHandler(std::string component, std::map<std::string, std::string> flags);

struct StatuszInfo {
  std::int64_t start_time_seconds = 0;  // process start, Unix seconds (truncated, as upstream)
  std::string go_version;
  std::string binary_version;     // "1.37.2"
  std::string emulation_version;  // "1.37"; empty: none
  // The registered paths (any depth); the page lists their first segments, sorted, without
  // /apis, /api, /openid, /openapi and /.well-known.
  std::vector<std::string> listed_paths;
};

// The /statusz handler; `now` gives the current Unix time in seconds (tests fix it).
Handler StatuszHandler(std::string component, StatuszInfo info, std::function<std::int64_t()> now = {});

// upstream aggregatePaths: the distinct first segments of `paths`, sorted.
std::vector<std::string> AggregateZpagePaths(const std::vector<std::string>& paths);

}  // namespace ksched::serving
