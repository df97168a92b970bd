#include "api/time_format.h"

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace ksched::api {
namespace {

std::string Format(Time time, bool micro) {
  using namespace std::chrono;
  const auto secs = floor<seconds>(time);
  const auto day = floor<days>(secs);
  const year_month_day date{day};
  const hh_mm_ss clock{secs - day};
  char text[40];
  int length = std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d", static_cast<int>(date.year()),
                             static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                             static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                             static_cast<int>(clock.seconds().count()));
  if (micro) {
    const auto fraction = static_cast<long long>(duration_cast<microseconds>(time - secs).count());  // [0, 1e6)
    length += std::snprintf(text + length, sizeof text - static_cast<std::size_t>(length), ".%06lld", fraction);
  }
  std::string out(text, static_cast<std::size_t>(length));
  out += 'Z';
  return out;
}

}  // namespace

std::string FormatTime(Time time) { return Format(time, false); }
std::string FormatMicroTime(Time time) { return Format(time, true); }

}  // namespace ksched::api
