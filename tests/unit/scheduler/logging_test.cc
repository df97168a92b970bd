// Log formats (klog text header, component-base JSON) and -v filtering (scheduler/logging.h).
// The expected lines were checked against the upstream kube-scheduler v1.34.4 binary's output:
//   I1130 09:32:40.460813   12806 flags.go:64] FLAG: --allow-metric-labels="[]"
//   {"ts":1796031160395.3252,"caller":"options/serving.go:386","msg":"Generated ...","v":0}
//   {"ts":1796031160395.4946,"caller":"cli/run.go:72","msg":"command failed","err":"stat ..."}
#include "scheduler/logging.h"

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

namespace ksched::scheduler {
namespace {

// 2026-11-30T12:00:00Z plus `nanos`.
spdlog::log_clock::time_point FixedTime(long long nanos) {
  return spdlog::log_clock::time_point(std::chrono::duration_cast<spdlog::log_clock::duration>(
      std::chrono::seconds(1796040000) + std::chrono::nanoseconds(nanos)));
}

std::string Format(const std::string& format, spdlog::level::level_enum level,
                   spdlog::source_loc source, const std::string& payload, size_t thread_id = 1234,
                   long long nanos = 123456789) {
  absl::StatusOr<std::unique_ptr<spdlog::formatter>> formatter =
      NewLogFormatter(format, LogTimeZone::kUtc);
  REQUIRE(formatter.ok());
  spdlog::details::log_msg msg(FixedTime(nanos), source, "", level, payload);
  msg.thread_id = thread_id;
  spdlog::memory_buf_t out;
  (*formatter)->format(msg, out);
  return std::string(out.data(), out.size());
}

const spdlog::source_loc kCacheLine{"/work/main/scheduler/cache.cc", 42, "AddPod"};

TEST_CASE("logging: text lines carry klog's header", "[logging]") {
  struct Case {
    std::string name;
    spdlog::level::level_enum level;
    spdlog::source_loc source;
    std::string payload;
    size_t thread_id;
    long long nanos;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"info", spdlog::level::info, kCacheLine, "message", 1234, 123456789,
       "I1130 12:00:00.123456    1234 cache.cc:42] message\n"},
      {"debug is a V(2) info line", spdlog::level::debug, kCacheLine, "m", 1234, 0,
       "I1130 12:00:00.000000    1234 cache.cc:42] m\n"},
      {"trace is a V(4) info line", spdlog::level::trace, kCacheLine, "m", 1234, 999999999,
       "I1130 12:00:00.999999    1234 cache.cc:42] m\n"},
      {"warning", spdlog::level::warn, kCacheLine, "m", 1234, 1000,
       "W1130 12:00:00.000001    1234 cache.cc:42] m\n"},
      {"error", spdlog::level::err, kCacheLine, "m", 1234, 0,
       "E1130 12:00:00.000000    1234 cache.cc:42] m\n"},
      {"fatal", spdlog::level::critical, kCacheLine, "m", 1234, 0,
       "F1130 12:00:00.000000    1234 cache.cc:42] m\n"},
      {"thread id of 1 is padded to 7 columns", spdlog::level::info, kCacheLine, "m", 1, 0,
       "I1130 12:00:00.000000       1 cache.cc:42] m\n"},
      {"7-digit thread id fills the column", spdlog::level::info, kCacheLine, "m", 4194303, 0,
       "I1130 12:00:00.000000 4194303 cache.cc:42] m\n"},
      {"relative file name", spdlog::level::info, {"../scheduler/scheduler.cc", 7, "f"}, "m", 5, 0,
       "I1130 12:00:00.000000       5 scheduler.cc:7] m\n"},
      {"bare file name", spdlog::level::info, {"main.cc", 100, "f"}, "m", 5, 0,
       "I1130 12:00:00.000000       5 main.cc:100] m\n"},
      {"no source location is ???:1 as klog", spdlog::level::info, {}, "m", 5, 0,
       "I1130 12:00:00.000000       5 ???:1] m\n"},
      {"a trailing newline is not doubled", spdlog::level::info, kCacheLine, "m\n", 5, 0,
       "I1130 12:00:00.000000       5 cache.cc:42] m\n"},
      {"key=value pairs stay as written", spdlog::level::info, kCacheLine,
       "Successfully bound pod to node pod=\"default/p\" node=\"n1\"", 5, 0,
       "I1130 12:00:00.000000       5 cache.cc:42] Successfully bound pod to node "
       "pod=\"default/p\" node=\"n1\"\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(Format("text", c.level, c.source, c.payload, c.thread_id, c.nanos) == c.want);
  }
  // The empty format is component-base's default: text.
  CHECK(Format("", spdlog::level::info, kCacheLine, "m", 5, 0) ==
        "I1130 12:00:00.000000       5 cache.cc:42] m\n");
}

TEST_CASE("logging: text header month and day are two digits", "[logging]") {
  // 2026-01-02T03:04:05Z.
  absl::StatusOr<std::unique_ptr<spdlog::formatter>> formatter = NewLogFormatter("text", LogTimeZone::kUtc);
  REQUIRE(formatter.ok());
  spdlog::details::log_msg msg(
      spdlog::log_clock::time_point(std::chrono::seconds(1767323045)), kCacheLine, "",
      spdlog::level::info, "m");
  msg.thread_id = 99;
  spdlog::memory_buf_t out;
  (*formatter)->format(msg, out);
  CHECK(std::string(out.data(), out.size()) == "I0102 03:04:05.000000      99 cache.cc:42] m\n");
}

TEST_CASE("logging: JSON lines have component-base's keys in zap's order", "[logging]") {
  struct Case {
    std::string name;
    spdlog::level::level_enum level;
    spdlog::source_loc source;
    std::string payload;
    long long nanos;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"info is v 0", spdlog::level::info, kCacheLine, "hello", 123456,
       R"({"ts":1796040000000.1233,"caller":"scheduler/cache.cc:42","msg":"hello","v":0})"},
      {"whole milliseconds print without a fraction", spdlog::level::info, kCacheLine, "hello", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"hello","v":0})"},
      {"warning is an info line, v 0", spdlog::level::warn, kCacheLine, "w", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"w","v":0})"},
      {"debug is v 2", spdlog::level::debug, kCacheLine, "d", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"d","v":2})"},
      {"trace is v 4", spdlog::level::trace, kCacheLine, "t", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"t","v":4})"},
      {"errors carry no v", spdlog::level::err, kCacheLine, "e: boom", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"e: boom"})"},
      {"fatal carries no v", spdlog::level::critical, kCacheLine, "f", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"f"})"},
      {"relative path keeps the leaf directory", spdlog::level::info,
       {"../scheduler/scheduler.cc", 7, "f"}, "m", 0,
       R"({"ts":1796040000000,"caller":"scheduler/scheduler.cc:7","msg":"m","v":0})"},
      {"one directory", spdlog::level::info, {"scheduler/main.cc", 7, "f"}, "m", 0,
       R"({"ts":1796040000000,"caller":"scheduler/main.cc:7","msg":"m","v":0})"},
      {"bare file name", spdlog::level::info, {"main.cc", 7, "f"}, "m", 0,
       R"({"ts":1796040000000,"caller":"main.cc:7","msg":"m","v":0})"},
      {"no source location: no caller", spdlog::level::info, {}, "m", 0,
       R"({"ts":1796040000000,"msg":"m","v":0})"},
      {"quotes, backslashes and control characters are escaped", spdlog::level::info, kCacheLine,
       "pod=\"a/b\" path=C:\\x\nnext\tcol\rret\x01\x1f end", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"pod=\"a/b\" path=C:\\x\nnext\tcol\rret\u0001\u001f end","v":0})"},
      {"valid UTF-8 and HTML stay as they are", spdlog::level::info, kCacheLine,
       "n\xC3\xA9ud \xE6\x97\xA5 \xF0\x9F\x98\x80 </script> \xEF\xBF\xBD", 0,
       "{\"ts\":1796040000000,\"caller\":\"scheduler/cache.cc:42\",\"msg\":\"n\xC3\xA9ud \xE6\x97\xA5 "
       "\xF0\x9F\x98\x80 </script> \xEF\xBF\xBD\",\"v\":0}"},
      {"invalid UTF-8 becomes U+FFFD byte by byte", spdlog::level::info, kCacheLine,
       "a\xFF" "b\xC3" "c\xC0\xAF" "d\xED\xA0\x80" "e\xF4\x90\x80\x80" "f\xE6\x97", 0,
       R"({"ts":1796040000000,"caller":"scheduler/cache.cc:42","msg":"a\ufffdb\ufffdc\ufffd\ufffdd\ufffd\ufffd\ufffde\ufffd\ufffd\ufffd\ufffdf\ufffd\ufffd","v":0})"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::string line = Format("json", c.level, c.source, c.payload, 1234, c.nanos);
    CHECK(line == c.want + "\n");
    rapidjson::Document document;
    document.Parse(line.c_str(), line.size());
    REQUIRE_FALSE(document.HasParseError());
    REQUIRE(document.IsObject());
    CHECK(document["ts"].IsNumber());
    CHECK(document["msg"].IsString());
    CHECK(document.HasMember("v") ==
          (c.level != spdlog::level::err && c.level != spdlog::level::critical));
    CHECK(document.HasMember("caller") == !c.source.empty());
    CHECK_FALSE(document.HasMember("level"));
  }
}

TEST_CASE("logging: JSON msg round-trips through a JSON parser", "[logging]") {
  const std::string payload = "quote\" backslash\\ slash/ tab\t nl\n bell\x07 \xC3\xA9";
  const std::string line = Format("json", spdlog::level::info, kCacheLine, payload);
  rapidjson::Document document;
  document.Parse(line.c_str(), line.size());
  REQUIRE_FALSE(document.HasParseError());
  CHECK(std::string(document["msg"].GetString(), document["msg"].GetStringLength()) == payload);
  CHECK(document["ts"].GetDouble() == Approx(1796040000123.456789).epsilon(1e-15));
}

TEST_CASE("logging: -v maps to spdlog levels and back", "[logging]") {
  struct Case {
    uint32_t verbosity;
    spdlog::level::level_enum level;
  };
  for (const Case& c : std::vector<Case>{{0, spdlog::level::info},
                                         {1, spdlog::level::info},
                                         {2, spdlog::level::debug},
                                         {3, spdlog::level::debug},
                                         {4, spdlog::level::trace},
                                         {10, spdlog::level::trace},
                                         {4294967295u, spdlog::level::trace}}) {
    INFO("-v=" << c.verbosity);
    CHECK(LevelForVerbosity(c.verbosity) == c.level);
  }
  CHECK(VerbosityOfLevel(spdlog::level::info) == 0);
  CHECK(VerbosityOfLevel(spdlog::level::warn) == 0);
  CHECK(VerbosityOfLevel(spdlog::level::debug) == 2);
  CHECK(VerbosityOfLevel(spdlog::level::trace) == 4);
  // Round trip: a line at the level of -v N is printed at -v N.
  for (uint32_t v = 0; v < 8; ++v) {
    CHECK(static_cast<uint32_t>(VerbosityOfLevel(LevelForVerbosity(v))) <= v);
  }
}

// Puts the previous default logger back: the test's sink writes into a stream that dies with it.
class DefaultLoggerRestorer {
 public:
  DefaultLoggerRestorer() : saved_(spdlog::default_logger()) {}
  ~DefaultLoggerRestorer() { spdlog::set_default_logger(saved_); }
  DefaultLoggerRestorer(const DefaultLoggerRestorer&) = delete;
  DefaultLoggerRestorer& operator=(const DefaultLoggerRestorer&) = delete;

 private:
  std::shared_ptr<spdlog::logger> saved_;
};

size_t CountLines(const std::string& text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST_CASE("logging: ConfigureLogging filters by -v and installs the format", "[logging]") {
  struct Case {
    std::string format;
    uint32_t verbosity;
    bool debug_printed;
    bool trace_printed;
  };
  const std::vector<Case> cases = {
      {"text", 0, false, false}, {"text", 1, false, false}, {"text", 2, true, false},
      {"text", 3, true, false},  {"text", 4, true, true},   {"json", 0, false, false},
      {"json", 2, true, false},  {"json", 5, true, true},
  };
  for (const Case& c : cases) {
    INFO(c.format << " -v=" << c.verbosity);
    DefaultLoggerRestorer restore;
    std::ostringstream out;
    LoggingOptions options;
    options.format = c.format;
    options.verbosity = c.verbosity;
    options.sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
    REQUIRE(ConfigureLogging(options).ok());
    SPDLOG_TRACE("trace line {}", 1);
    SPDLOG_DEBUG("debug line {}", 2);
    SPDLOG_INFO("info line {}", 3);
    SPDLOG_WARN("warn line");
    SPDLOG_ERROR("error line");
    const std::string text = out.str();
    CHECK(CountLines(text) == 3u + (c.debug_printed ? 1 : 0) + (c.trace_printed ? 1 : 0));
    CHECK((text.find("debug line 2") != std::string::npos) == c.debug_printed);
    CHECK((text.find("trace line 1") != std::string::npos) == c.trace_printed);
    CHECK(text.find("info line 3") != std::string::npos);
    CHECK(text.find("error line") != std::string::npos);
    if (c.format == "text") {
      CHECK(text.find(" logging_test.cc:") != std::string::npos);
      CHECK(text.find("\nE") != std::string::npos);
    } else {
      CHECK(text.find("\"caller\":\"scheduler/logging_test.cc:") != std::string::npos);
      CHECK(text.rfind("{\"ts\":", 0) == 0);
    }
  }
}

TEST_CASE("logging: an unknown format is refused with upstream's words", "[logging]") {
  DefaultLoggerRestorer restore;
  const spdlog::logger* before = spdlog::default_logger_raw();
  for (const std::string format : {"xml", "JSON", "Text", "logfmt"}) {
    LoggingOptions options;
    options.format = format;
    const absl::Status status = ConfigureLogging(options);
    CHECK(status.code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(status.message()) ==
          "format: Invalid value: \"" + format + "\": Unsupported log format");
    CHECK(spdlog::default_logger_raw() == before);
  }
}

}  // namespace
}  // namespace ksched::scheduler
