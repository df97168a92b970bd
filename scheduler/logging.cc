#include "scheduler/logging.h"

#include <time.h>

#include <chrono>
#include <cstring>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace ksched::scheduler {
namespace {

void Append(spdlog::memory_buf_t& dest, std::string_view text) {
  dest.append(text.data(), text.data() + text.size());
}

void AppendChar(spdlog::memory_buf_t& dest, char c) { dest.push_back(c); }

void AppendTwoDigits(spdlog::memory_buf_t& dest, int value) {
  AppendChar(dest, static_cast<char>('0' + value / 10 % 10));
  AppendChar(dest, static_cast<char>('0' + value % 10));
}

std::string_view FileName(const spdlog::source_loc& source) {
  return source.filename == nullptr ? std::string_view() : std::string_view(source.filename);
}

// klog's severity letters; debug and trace are klog.V(n).Info lines, hence I.
char SeverityLetter(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::warn: return 'W';
    case spdlog::level::err: return 'E';
    case spdlog::level::critical: return 'F';
    default: return 'I';
  }
}

// Lmmdd hh:mm:ss.uuuuuu threadid file:line] message
class KlogTextFormatter final : public spdlog::formatter {
 public:
  explicit KlogTextFormatter(LogTimeZone zone) : zone_(zone) {}

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto since_epoch = msg.time.time_since_epoch();
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch - seconds);
    const time_t epoch_seconds = static_cast<time_t>(seconds.count());
    struct tm parts {};
    if (zone_ == LogTimeZone::kUtc) {
      gmtime_r(&epoch_seconds, &parts);
    } else {
      localtime_r(&epoch_seconds, &parts);
    }
    AppendChar(dest, SeverityLetter(msg.level));
    AppendTwoDigits(dest, parts.tm_mon + 1);
    AppendTwoDigits(dest, parts.tm_mday);
    AppendChar(dest, ' ');
    AppendTwoDigits(dest, parts.tm_hour);
    AppendChar(dest, ':');
    AppendTwoDigits(dest, parts.tm_min);
    AppendChar(dest, ':');
    AppendTwoDigits(dest, parts.tm_sec);
    // {:06d}, {:>7} through fmt: the header is fixed-width like klog's buffer.
    fmt::format_to(std::back_inserter(dest), ".{:06d} {:>7} ", static_cast<long>(micros.count()),
                   msg.thread_id);
    // klog prints "???:1" when the caller is unknown.
    std::string_view file = FileName(msg.source);
    int line = msg.source.line;
    if (msg.source.empty() || file.empty()) {
      file = "???";
      line = 1;
    } else if (const size_t slash = file.rfind('/'); slash != std::string_view::npos) {
      file.remove_prefix(slash + 1);
    }
    Append(dest, file);
    fmt::format_to(std::back_inserter(dest), ":{}] ", line);
    Append(dest, std::string_view(msg.payload.data(), msg.payload.size()));
    if (msg.payload.size() == 0 || msg.payload.data()[msg.payload.size() - 1] != '\n') {
      AppendChar(dest, '\n');
    }
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<KlogTextFormatter>(zone_);
  }

 private:
  const LogTimeZone zone_;
};

// Length of the valid UTF-8 sequence at text[i], or 0 when it is not one (Go's utf8.DecodeRune
// rules: no overlong forms, no surrogates, nothing above U+10FFFF).
size_t ValidUtf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char first = byte(i);
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (first >= 0xC2 && first <= 0xDF) {
    length = 2;
  } else if (first >= 0xE0 && first <= 0xEF) {
    length = 3;
    if (first == 0xE0) low = 0xA0;
    if (first == 0xED) high = 0x9F;
  } else if (first >= 0xF0 && first <= 0xF4) {
    length = 4;
    if (first == 0xF0) low = 0x90;
    if (first == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

// A JSON string as zap writes it: \" \\ \n \r \t, other control bytes as \u00xx, invalid UTF-8
// bytes as \ufffd each, everything else (including '/', '<' and valid multi-byte runes) as is.
void AppendJsonString(spdlog::memory_buf_t& dest, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  AppendChar(dest, '"');
  size_t copied = 0;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (const size_t length = ValidUtf8Length(text, i); length > 0) {
        i += length;
        continue;
      }
      Append(dest, text.substr(copied, i - copied));
      Append(dest, "\\ufffd");
      copied = ++i;
      continue;
    }
    if (c >= 0x20 && c != '\\' && c != '"') {
      ++i;
      continue;
    }
    Append(dest, text.substr(copied, i - copied));
    switch (c) {
      case '\\': Append(dest, "\\\\"); break;
      case '"': Append(dest, "\\\""); break;
      case '\n': Append(dest, "\\n"); break;
      case '\r': Append(dest, "\\r"); break;
      case '\t': Append(dest, "\\t"); break;
      default:
        Append(dest, "\\u00");
        AppendChar(dest, kHex[c >> 4]);
        AppendChar(dest, kHex[c & 0xF]);
    }
    copied = ++i;
  }
  Append(dest, text.substr(copied));
  AppendChar(dest, '"');
}

// {"ts":<ms>,"caller":"dir/file.cc:42","msg":"...","v":N}: component-base's JSON logger.
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto nanos =
        std::chrono::duration_cast<std::chrono::nanoseconds>(msg.time.time_since_epoch()).count();
    // Shortest round-trip form of the double, as Go's strconv.AppendFloat(f, 'f', -1, 64).
    fmt::format_to(std::back_inserter(dest), "{{\"ts\":{}", static_cast<double>(nanos) / 1e6);
    const std::string_view file = FileName(msg.source);
    if (!msg.source.empty() && !file.empty()) {
      // zap's ShortCallerEncoder keeps the leaf directory and the file name.
      std::string_view trimmed = file;
      if (const size_t last = file.rfind('/'); last != std::string_view::npos && last > 0) {
        if (const size_t before = file.rfind('/', last - 1); before != std::string_view::npos) {
          trimmed = file.substr(before + 1);
        }
      }
      std::string caller(trimmed);
      caller += ':';
      caller += std::to_string(msg.source.line);
      Append(dest, ",\"caller\":");
      AppendJsonString(dest, caller);
    }
    Append(dest, ",\"msg\":");
    AppendJsonString(dest, std::string_view(msg.payload.data(), msg.payload.size()));
    // logr's Error carries no verbosity; klog routes Error and Fatal lines there.
    if (msg.level != spdlog::level::err && msg.level != spdlog::level::critical) {
      fmt::format_to(std::back_inserter(dest), ",\"v\":{}", VerbosityOfLevel(msg.level));
    }
    Append(dest, "}\n");
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

}  // namespace

spdlog::level::level_enum LevelForVerbosity(uint32_t verbosity) {
  if (verbosity >= 4) return spdlog::level::trace;
  if (verbosity >= 2) return spdlog::level::debug;
  return spdlog::level::info;
}

int VerbosityOfLevel(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return 4;
    case spdlog::level::debug: return 2;
    default: return 0;
  }
}

absl::StatusOr<std::unique_ptr<spdlog::formatter>> NewLogFormatter(const std::string& format,
                                                                   LogTimeZone zone) {
  // component-base treats an empty format as the default, text.
  if (format == "text" || format.empty()) return std::make_unique<KlogTextFormatter>(zone);
  if (format == "json") return std::make_unique<JsonFormatter>();
  std::string message = "format: Invalid value: \"";
  message += format;
  message += "\": Unsupported log format";
  return absl::InvalidArgumentError(message);
}

void SetLogVerbosity(uint32_t verbosity) { spdlog::default_logger()->set_level(LevelForVerbosity(verbosity)); }

absl::Status ConfigureLogging(const LoggingOptions& options) {
  absl::StatusOr<std::unique_ptr<spdlog::formatter>> formatter = NewLogFormatter(options.format);
  if (!formatter.ok()) return formatter.status();
  std::shared_ptr<spdlog::sinks::sink> sink = options.sink;
  if (sink == nullptr) sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  sink->set_formatter(*std::move(formatter));
  auto logger = std::make_shared<spdlog::logger>("", std::move(sink));
  logger->set_level(LevelForVerbosity(options.verbosity));
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
  return absl::OkStatus();
}

}  // namespace ksched::scheduler
