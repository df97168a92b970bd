// A watch body's line framing (client/line_framer.h), fed in arbitrary pieces, against a model
// computed from the whole body at once: the same lines, in order, oversized ones reported by size.
// Input: byte 0 picks max_line_bytes (1..64), byte 1 seeds the piece sizes, the rest is the body.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "client/line_framer.h"
#include "fuzz_target.h"

namespace {

using ksched::client::StreamItem;

std::vector<StreamItem> Model(std::string_view body, std::size_t max_line_bytes) {
  std::vector<StreamItem> out;
  while (true) {
    const std::size_t newline = body.find('\n');
    const std::string_view line = body.substr(0, newline);
    if (line.size() > max_line_bytes) {
      out.push_back(StreamItem{std::string(), line.size()});
    } else if (!line.empty()) {
      out.push_back(StreamItem{std::string(line), 0});
    }
    if (newline == std::string_view::npos) return out;
    body.remove_prefix(newline + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t max_line_bytes = 1 + data[0] % 64;
  std::uint32_t seed = data[1] * 2654435761u + 1;
  std::string_view body = ksched::fuzz::AsText(data + 2, size - 2);
  const std::vector<StreamItem> expected = Model(body, max_line_bytes);

  std::vector<StreamItem> got;
  auto emit = [&got](StreamItem item) { got.push_back(std::move(item)); };
  ksched::client::LineFramer framer(max_line_bytes);
  while (!body.empty()) {
    seed = seed * 1103515245u + 12345u;
    const std::size_t piece = 1 + (seed >> 16) % 17;
    framer.Feed(body.substr(0, piece), emit);
    body.remove_prefix(std::min(piece, body.size()));
  }
  framer.Finish(emit);

  if (got.size() != expected.size()) std::abort();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].line != expected[i].line || got[i].oversized_bytes != expected[i].oversized_bytes) std::abort();
    if (got[i].line.size() > max_line_bytes) std::abort();
  }
  return 0;
}
