// The time-zone argument of CEL's timestamp getters (timestamp.getHours("Europe/Berlin")), as
// cel-go resolves it (stdlib inTimeZone):
//   - a string with a ':' is a fixed offset "[+-]H:M", each part read by Go's strconv.Atoi
//     ("strconv.Atoi: parsing \"x\": invalid syntax") and combined with Go's int64 arithmetic:
//     "-01:30" is 90 minutes west, "+1:-30" 30 minutes east;
//   - any other string is a location as Go's time.LoadLocation finds it: "" and "UTC" are UTC,
//     "Local" the process's local zone (TZ, else /etc/localtime), names with ".." or a leading
//     '/' or '\' fail with "time: invalid location name", others are TZif files read from
//     $ZONEINFO (a directory) and then /usr/share/zoneinfo/, /usr/share/lib/zoneinfo/,
//     /usr/lib/locale/TZ/, /etc/zoneinfo. A missing file is "unknown time zone <name>", a
//     directory "is a directory", a file that is not TZif "malformed time zone information".
// Zone files are read and applied as Go reads them (tzif.h). "Local" follows Go's initLocal ($TZ
// unset: /etc/localtime; empty: UTC; ":name" or "name": that zone). Deviations: $ZONEINFO is read
// as a directory only (Go also takes a zip file), and Go's last resort for a name the system
// lacks, its own zoneinfo.zip, is not consulted.
//
// Thread-safety: safe to call from many threads (loaded zones are cached under a mutex).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ksched::plugins::dynamic_resources::cel {

// The offset east of UTC, in seconds, that `zone` has at Unix second `unix_seconds`; false with
// cel-go's error message in `error` when the zone cannot be resolved.
bool ZoneOffsetAt(std::string_view zone, std::int64_t unix_seconds, std::int64_t& offset_seconds,
                  std::string& error);
// The offset of Go's time.Local at `unix_seconds`.
std::int64_t LocalOffsetAt(std::int64_t unix_seconds);

}  // namespace ksched::plugins::dynamic_resources::cel
