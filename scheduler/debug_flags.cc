#include "scheduler/debug_flags.h"

#include <charconv>
#include <limits>
#include <string>
#include <string_view>

#include "api/field_errors.h"

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

// Go's strconv.ParseUint / ParseInt(text, 10, bits) for text already known to be unsigned or
// not, with Go's errors ("strconv.ParseUint: parsing \"x\": invalid syntax" / "value out of
// range"); `max`: the largest value of the bit size. (Signs never reach ParseInt here: ParseUint,
// called first, refuses them.)
struct ParsedDecimal {
  std::uint64_t value = 0;
  std::string error;
};
ParsedDecimal ParseDecimal(std::string_view text, std::string_view function, std::uint64_t max) {
  ParsedDecimal out;
  const std::string prefix = "strconv." + std::string(function) + ": parsing " + api::GoQuote(text) + ": ";
  bool digits_only = !text.empty();
  for (char c : text) digits_only = digits_only && c >= '0' && c <= '9';
  if (!digits_only) {
    out.error = prefix + "invalid syntax";
    return out;
  }
  const std::from_chars_result parsed = std::from_chars(text.data(), text.data() + text.size(), out.value);
  if (parsed.ec == std::errc::result_out_of_range || out.value > max) out.error = prefix + "value out of range";
  return out;
}

}  // namespace

serving::ServingResponse ServeVerbosityFlag(const serving::ServingRequest& request, const VerbositySetter& set) {
  if (request.method != "PUT") return PlainText(406, "unsupported http method");
  const std::string& value = request.body;
  ParsedDecimal parsed = ParseDecimal(value, "ParseUint", std::numeric_limits<std::uint32_t>::max());
  if (!parsed.error.empty()) return PlainText(400, parsed.error);
  // klog's Level.Set parses the same text again as an int32.
  ParsedDecimal level = ParseDecimal(value, "ParseInt", std::numeric_limits<std::int32_t>::max());
  if (!level.error.empty()) {
    return PlainText(400, "failed set klog.logging.verbosity " + value + ": " + level.error);
  }
  set(static_cast<std::uint32_t>(parsed.value));
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
