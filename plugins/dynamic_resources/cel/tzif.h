// Time-zone data as Go's time package reads and uses it (time.LoadLocationFromTZData and
// Location.lookup), so that offsets match upstream's t.In(loc) at every instant:
//   - TZif data of version 1, 2 or 3 (the 64-bit section when there is one); leap-second records
//     are skipped, not applied (so right/... zones load, with Go's offsets); anything else is
//     malformed (version 4 included, as Go rejects it);
//   - an instant before the first transition takes Go's "first zone" (the first standard-time
//     type, with Go's rules for an unused or DST first type);
//   - past the last transition the POSIX TZ rule at the end of the data applies, evaluated as
//     Go's tzset does (M/J/n rules, "<+03>-3" names, a default of M3.2.0,M11.1.0 for a DST name
//     without rules; a rule Go cannot read leaves the last transition's type).
//
// Thread-safety: a TzifZone is immutable once parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::plugins::dynamic_resources::cel {

class TzifZone {
 public:
  // nullopt when Go would fail with "malformed time zone information".
  static std::optional<TzifZone> Parse(std::string_view data);

  // Seconds east of UTC at Unix second `unix_seconds`.
  std::int64_t OffsetAt(std::int64_t unix_seconds) const;

 private:
  struct LocalType {
    std::int32_t offset = 0;
    bool is_dst = false;
  };
  struct Transition {
    std::int64_t when = 0;
    std::uint8_t type = 0;
  };

  std::size_t FirstType() const;

  std::vector<LocalType> types_;
  std::vector<Transition> transitions_;
  std::string rule_;  // the POSIX TZ string after the data ("" when none)
};

}  // namespace ksched::plugins::dynamic_resources::cel
