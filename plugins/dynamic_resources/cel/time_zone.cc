#include "plugins/dynamic_resources/cel/time_zone.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "api/go_strconv.h"
#include "plugins/dynamic_resources/cel/tzif.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::string_view kMalformed = "malformed time zone information";
constexpr std::size_t kMaxZoneFileSize = 10 << 20;  // Go's maxFileSize

// A resolved location: null is UTC.
using Location = std::shared_ptr<const TzifZone>;

// Go's syscall.Errno texts (lower case, unlike glibc's strerror) for what opening and reading a
// zone file can fail with.
std::string ErrnoText(int error) {
  switch (error) {
    case EISDIR: return "is a directory";
    case ENOTDIR: return "not a directory";
    case EACCES: return "permission denied";
    case ENAMETOOLONG: return "file name too long";
    case ELOOP: return "too many levels of symbolic links";
    case EINVAL: return "invalid argument";
    case EIO: return "input/output error";
    default: {
      std::string text = std::strerror(error);
      if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = static_cast<char>(text[0] - 'A' + 'a');
      return text;
    }
  }
}

// Go's time.readFile: the whole file, or an error (ENOENT is told apart: the next source is
// tried).
struct ZoneFile {
  bool missing = false;
  std::optional<std::string> error;
  std::string data;
};

ZoneFile ReadZoneFile(const std::string& path) {
  ZoneFile file;
  if (path.find('\0') != std::string::npos) {
    file.error = ErrnoText(EINVAL);  // Go cannot pass the name to open(2)
    return file;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    file.missing = errno == ENOENT;
    if (!file.missing) file.error = ErrnoText(errno);
    return file;
  }
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      file.error = ErrnoText(errno);
      break;
    }
    if (n == 0) break;
    file.data.append(buffer, static_cast<std::size_t>(n));
    if (file.data.size() > kMaxZoneFileSize) {
      file.error = "time: file " + path + " is too large";
      break;
    }
  }
  ::close(fd);
  return file;
}

// Go's loadLocation: the first source holding valid data for `name`; otherwise the first error
// other than a missing file, else "unknown time zone <name>".
std::optional<TzifZone> LoadFromSources(std::string_view name, const std::vector<std::string>& sources,
                                        std::string& error) {
  std::optional<std::string> first_error;
  for (const std::string& source : sources) {
    const std::string path = source.empty() ? std::string(name) : source + "/" + std::string(name);
    ZoneFile file = ReadZoneFile(path);
    if (!file.missing && !file.error.has_value()) {
      if (std::optional<TzifZone> zone = TzifZone::Parse(file.data); zone.has_value()) return zone;
      file.error = std::string(kMalformed);
    }
    if (!first_error.has_value() && !file.missing) first_error = file.error;
  }
  error = first_error.value_or("unknown time zone " + std::string(name));
  return std::nullopt;
}

const std::vector<std::string>& PlatformSources() {
  static const std::vector<std::string>* const sources = new std::vector<std::string>{
      "/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo"};
  return *sources;
}

// Go's time.Local, as initLocal sets it up from $TZ (unset: /etc/localtime; empty: UTC).
Location LocalZone() {
  static const Location* const local = [] {
    std::string error;
    std::optional<TzifZone> zone;
    const char* tz = std::getenv("TZ");
    if (tz == nullptr) {
      zone = LoadFromSources("localtime", {"/etc"}, error);
    } else if (*tz != '\0') {
      std::string_view name = tz;
      if (name[0] == ':') name.remove_prefix(1);
      if (!name.empty() && name[0] == '/') {
        zone = LoadFromSources(name, {""}, error);
      } else if (!name.empty() && name != "UTC") {
        zone = LoadFromSources(name, PlatformSources(), error);
      }
    }
    return new Location(zone.has_value() ? std::make_shared<const TzifZone>(*std::move(zone)) : nullptr);
  }();
  return *local;
}

// time.LoadLocation for a name that is not "", "UTC" or "Local".
class ZoneCache {
 public:
  bool Load(std::string_view name, Location& location, std::string& error) {
    {
      base::MutexLock lock(&mu_);
      if (auto it = zones_.find(name); it != zones_.end()) {
        location = it->second;
        return true;
      }
    }
    std::optional<std::string> first_error;
    std::optional<TzifZone> zone;
    if (const char* zoneinfo = std::getenv("ZONEINFO"); zoneinfo != nullptr && *zoneinfo != '\0') {
      ZoneFile file = ReadZoneFile(std::string(zoneinfo) + "/" + std::string(name));
      if (!file.missing && !file.error.has_value()) {
        zone = TzifZone::Parse(file.data);
        if (!zone.has_value()) first_error = std::string(kMalformed);
      } else if (!file.missing) {
        first_error = file.error;
      }
    }
    if (!zone.has_value()) {
      std::string platform_error;
      zone = LoadFromSources(name, PlatformSources(), platform_error);
      if (!zone.has_value()) {
        error = first_error.value_or(platform_error);
        return false;
      }
    }
    location = std::make_shared<const TzifZone>(*std::move(zone));
    base::MutexLock lock(&mu_);
    // Bounded: there are fewer zone files than this on any system.
    if (zones_.size() < 4096) zones_.emplace(std::string(name), location);
    return true;
  }

 private:
  base::Mutex mu_;
  std::map<std::string, Location, std::less<>> zones_ ABSL_GUARDED_BY(mu_);
};

ZoneCache& Zones() {
  static ZoneCache* const cache = new ZoneCache();
  return *cache;
}

// Two's-complement arithmetic, as Go's int64 wraps.
std::int64_t WrapMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
std::int64_t WrapAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

bool FixedOffset(std::string_view zone, std::size_t colon, std::int64_t& offset_seconds, std::string& error) {
  std::int64_t hours = 0;
  std::int64_t minutes = 0;
  for (auto [text, out] : {std::pair{zone.substr(0, colon), &hours}, std::pair{zone.substr(colon + 1), &minutes}}) {
    absl::StatusOr<std::int64_t> value = api::GoAtoi(text);
    if (!value.ok()) {
      error = std::string(value.status().message());
      return false;
    }
    *out = *value;
  }
  const std::int64_t total_minutes =
      zone[0] == '-' ? WrapAdd(WrapMul(hours, 60), WrapMul(minutes, -1)) : WrapAdd(WrapMul(hours, 60), minutes);
  // int((time.Duration(offset) * time.Minute).Seconds())
  const std::int64_t nanos = WrapMul(total_minutes, 60000000000);
  const double seconds = static_cast<double>(nanos / 1000000000) + static_cast<double>(nanos % 1000000000) / 1e9;
  offset_seconds = static_cast<std::int64_t>(seconds);
  return true;
}

}  // namespace

std::int64_t LocalOffsetAt(std::int64_t unix_seconds) {
  const Location local = LocalZone();
  return local == nullptr ? 0 : local->OffsetAt(unix_seconds);
}

bool ZoneOffsetAt(std::string_view zone, std::int64_t unix_seconds, std::int64_t& offset_seconds,
                  std::string& error) {
  if (const std::size_t colon = zone.find(':'); colon != std::string_view::npos) {
    return FixedOffset(zone, colon, offset_seconds, error);
  }
  Location location;
  if (zone.empty() || zone == "UTC") {
    location = nullptr;
  } else if (zone == "Local") {
    location = LocalZone();
  } else if (zone.find("..") != std::string_view::npos || zone[0] == '/' || zone[0] == '\\') {
    error = "time: invalid location name";
    return false;
  } else if (!Zones().Load(zone, location, error)) {
    return false;
  }
  offset_seconds = location == nullptr ? 0 : location->OffsetAt(unix_seconds);
  return true;
}

}  // namespace ksched::plugins::dynamic_resources::cel
