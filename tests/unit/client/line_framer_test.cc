#include "client/line_framer.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace ksched::client {
namespace {

struct Framed {
  std::vector<std::string> lines;    // kept lines, or "<dropped N>" for an oversized one
};

Framed Frame(const std::vector<std::string>& pieces, std::size_t max_line_bytes) {
  Framed out;
  auto emit = [&out](StreamItem item) {
    out.lines.push_back(item.oversized_bytes > 0 ? "<dropped " + std::to_string(item.oversized_bytes) + ">"
                                                 : std::move(item.line));
  };
  LineFramer framer(max_line_bytes);
  for (const std::string& piece : pieces) framer.Feed(piece, emit);
  framer.Finish(emit);
  return out;
}

TEST_CASE("LineFramer: lines across pieces, empty lines skipped, the last one without a newline", "[client]") {
  CHECK(Frame({"{\"a\":", "1}\n\n{\"b\"", ":2}\n", "tail"}, 64).lines ==
        std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "tail"});
  CHECK(Frame({"\n\n", "\n"}, 64).lines.empty());
}

TEST_CASE("LineFramer: an oversized line is reported by its size and the next one kept", "[client]") {
  // 12 bytes over a limit of 8, split over three pieces.
  CHECK(Frame({"ok\n0123", "4567", "89ab\nnext\n"}, 8).lines ==
        std::vector<std::string>{"ok", "<dropped 12>", "next"});
  // A line of exactly the limit is kept.
  CHECK(Frame({"12345678\n"}, 8).lines == std::vector<std::string>{"12345678"});
}

TEST_CASE("LineFramer: an oversized last line without a newline is still reported", "[client]") {
  // The body ends inside a line too long to keep: the consumer learns that bytes were dropped
  // (the reflector relists) rather than the stream ending as if nothing had been cut.
  CHECK(Frame({"ok\n", "0123456789"}, 8).lines == std::vector<std::string>{"ok", "<dropped 10>"});
}

}  // namespace
}  // namespace ksched::client
