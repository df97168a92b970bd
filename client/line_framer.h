// LineFramer: a streaming response body (a watch: one JSON object per line) cut into lines, fed in
// whatever pieces the socket returns. A line is the bytes before a '\n'; empty lines are skipped;
// the body's last line needs no '\n' (Finish). A line longer than max_line_bytes is not kept: its
// bytes are counted while skipped and it is reported as StreamItem{"", size}, so the consumer can
// say what it dropped (the reflector relists) while memory stays bounded by max_line_bytes.
//
// Plain value, not thread-safe (one stream's reader owns it). Allocates only for the line being
// assembled. Fuzzed (fuzz/watch_lines_fuzz.cc) against a whole-body model of these rules.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "client/transport.h"

namespace ksched::client {

class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // Consumes `data`; `emit` gets every line it completes, in order.
  void Feed(std::string_view data, absl::FunctionRef<void(StreamItem)> emit);
  // The body ended: the unterminated last line, if any, goes to `emit`. The framer is empty after.
  void Finish(absl::FunctionRef<void(StreamItem)> emit);

 private:
  void EmitLine(absl::FunctionRef<void(StreamItem)> emit);

  std::size_t max_line_bytes_;
  std::string partial_;          // the line so far, while it fits
  std::size_t discarding_ = 0;   // > 0 while skipping an oversized line: its bytes so far
};

}  // namespace ksched::client
