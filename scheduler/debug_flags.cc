#include "scheduler/debug_flags.h"

#include <string>
#include <string_view>

#include "api/go_strconv.h"

namespace ksched::scheduler {
namespace {

// routes.writePlainText: text/plain, nosniff, the text and a newline (fmt.Fprintln).
serving::ServingResponse PlainText(int status, std::string text) {
  serving::ServingResponse response;
  response.status = status;
  response.content_type = "text/plain";
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.body = std::move(text) + "\n";
  return response;
}

}  // namespace

serving::ServingResponse ServeVerbosityFlag(const serving::ServingRequest& request, const VerbositySetter& set) {
  if (request.method != "PUT") return PlainText(406, "unsupported http method");
  const std::string& value = request.body;
  // component-base's GlogSetter: strconv.ParseUint(val, 10, 32), then klog's Level.Set parses the
  // same text again with ParseInt(val, 10, 32).
  absl::StatusOr<std::uint64_t> parsed = api::GoParseUint(value, 10, 32);
  if (!parsed.ok()) return PlainText(400, std::string(parsed.status().message()));
  if (absl::StatusOr<std::int64_t> level = api::GoParseInt(value, 10, 32); !level.ok()) {
    return PlainText(400, "failed set klog.logging.verbosity " + value + ": " + std::string(level.status().message()));
  }
  set(static_cast<std::uint32_t>(*parsed));
  return PlainText(200, "successfully set klog.logging.verbosity to " + value);
}

serving::ServingResponse ServeDebugFlagsIndex(const serving::ServingRequest& /*request*/) {
  serving::ServingResponse response;
  response.content_type = "text/html; charset=utf-8";  // what Go's server sniffs from the page
  response.body =
      "<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n"
      "<table>\n<tr>v<br>\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n";
  return response;
}

}  // namespace ksched::scheduler
