#include "scheduler/api_time_format.h"

#include <chrono>
#include <cstdint>

#include "fmt/format.h"

namespace ksched::scheduler {
namespace {

std::string Format(api::Time time, bool micro) {
  using namespace std::chrono;
  const auto secs = floor<seconds>(time);
  const auto day = floor<days>(secs);
  const year_month_day date{day};
  const hh_mm_ss clock{secs - day};
  std::string text = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", static_cast<int>(date.year()),
                                 static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                                 clock.hours().count(), clock.minutes().count(), clock.seconds().count());
  if (micro) {
    const std::int64_t fraction = duration_cast<microseconds>(time - secs).count();  // in [0, 1e6)
    text += fmt::format(".{:06}", fraction);
  }
  text += 'Z';
  return text;
}

}  // namespace

std::string FormatApiTime(api::Time time) { return Format(time, false); }
std::string FormatApiMicroTime(api::Time time) { return Format(time, true); }

}  // namespace ksched::scheduler
