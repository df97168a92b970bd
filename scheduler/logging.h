// Log output of the daemon: klog's text format or component-base's JSON format, picked by
// --logging-format, with kube-scheduler's -v verbosity.
//
// The code logs through spdlog's SPDLOG_INFO / SPDLOG_DEBUG / ... macros, which carry the source
// location (plain spdlog::info(...) calls carry none: they print "???:1" in text and no "caller" in
// JSON, so use the macros). ConfigureLogging installs the default spdlog logger with one of two
// formatters:
//
//   text  klog's header, to stderr:
//           I1130 12:00:00.000000    1234 cache.cc:42] message
//         severity letter (I info/debug/trace, W warn, E error, F critical), month and day, local
//         wall-clock time with microseconds, the OS thread id right-aligned in 7 columns (klog
//         prints the process id there; the main thread's id is the process id), the source file's
//         base name and line.
//   json  component-base's zap encoder, one object a line, to stderr:
//           {"ts":1764504000000.123,"caller":"scheduler/cache.cc:42","msg":"message","v":0}
//         "ts" is milliseconds since the epoch as a float (as upstream, not seconds); "caller" keeps
//         the leaf directory and file name (zap's ShortCallerEncoder); "v" is the verbosity of the
//         call, present on every entry but errors (upstream logs errors through logr's Error,
//         which has no verbosity; the error text stays in "msg", as klog.Errorf does).
//
// Verbosity (-v N, kube-scheduler's klog levels) to spdlog levels, and back for "v":
//   N = 0..1  info and above are printed       spdlog info/warn  -> "v":0
//   N = 2..3  debug too                         spdlog debug      -> "v":2
//   N >= 4    trace too                         spdlog trace      -> "v":4
// So write upstream's klog.V(2) lines with SPDLOG_DEBUG and klog.V(4)+ with SPDLOG_TRACE; V(1) and
// V(3) have no level of their own and go to info and debug.
//
// Thread-safety: ConfigureLogging replaces spdlog's default logger and must run once at start-up,
// before any other thread logs (spdlog hands out the default logger as a raw pointer). The
// installed logger and the formatters are then safe to use from any thread (spdlog's _mt sinks
// serialise formatting and writing).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <absl/status/status.h>
#include <absl/status/statusor.h>
#include <spdlog/common.h>
#include <spdlog/formatter.h>
#include <spdlog/sinks/sink.h>

namespace ksched::scheduler {

struct LoggingOptions {
  // --logging-format: "text" (the default) or "json".
  std::string format = "text";
  // -v / --v.
  uint32_t verbosity = 0;
  // Where lines go; null means stderr (as upstream, for both formats). Tests pass their own sink.
  std::shared_ptr<spdlog::sinks::sink> sink;
};

// The least severe spdlog level printed at klog verbosity `verbosity`.
spdlog::level::level_enum LevelForVerbosity(uint32_t verbosity);

// The klog verbosity a line at spdlog level `level` stands for ("v" in JSON): 0, 2 or 4.
int VerbosityOfLevel(spdlog::level::level_enum level);

// Which clock reading the formatters print: the local time zone as klog does, or UTC (tests).
enum class LogTimeZone { kLocal, kUtc };

// A formatter for `format` ("text" or "json"). Any other name is an InvalidArgument error with
// upstream's words: format: Invalid value: "xml": Unsupported log format
absl::StatusOr<std::unique_ptr<spdlog::formatter>> NewLogFormatter(const std::string& format,
                                                                   LogTimeZone zone = LogTimeZone::kLocal);

// Installs the default spdlog logger: options.sink (or stderr), the formatter of options.format,
// the level of options.verbosity, flushed at every warning and above. On error (unknown format)
// nothing changes.
absl::Status ConfigureLogging(const LoggingOptions& options);

// Changes the verbosity of the default logger while running (PUT /debug/flags/v).
void SetLogVerbosity(uint32_t verbosity);

}  // namespace ksched::scheduler
