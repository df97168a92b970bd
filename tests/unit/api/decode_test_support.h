// Helpers shared by the api decode tests: UTC instants and canonical quantity text.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "api/quantity.h"
#include "api/resource_list.h"
#include "api/time.h"

namespace ksched::api::testing {

// The instant year-month-day hour:minute:second UTC.
inline Time At(int year, unsigned month, unsigned day, int hour, int minute, int second) {
  using namespace std::chrono;
  return Time{sys_days{std::chrono::year{year} / month / day}} + hours{hour} + minutes{minute} +
         seconds{second};
}

// The canonical text of `name` in `list`, or "<absent>".
inline std::string Q(const ResourceList& list, std::string_view name) {
  const Quantity* q = list.Get(name);
  return q == nullptr ? "<absent>" : q->String();
}

}  // namespace ksched::api::testing
