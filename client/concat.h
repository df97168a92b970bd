// Concat / ConcatTo: absl::StrCat / absl::StrAppend that also take std::string_view.
//
// Debian's abseil is built with its own absl::string_view class, which does not convert from
// std::string_view; these forward std::string_view arguments as absl::string_view and everything
// else (std::string, absl::string_view, C strings, integers, floating point) unchanged.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace ksched::client {

// std::string_view as absl::string_view (the same bytes, not copied).
inline absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

namespace concat_internal {

template <typename T>
decltype(auto) Forward(const T& value) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return ToAbsl(value);
  } else {
    return (value);
  }
}

}  // namespace concat_internal

template <typename... Parts>
std::string Concat(const Parts&... parts) {
  return absl::StrCat(concat_internal::Forward(parts)...);
}

template <typename... Parts>
void ConcatTo(std::string* out, const Parts&... parts) {
  absl::StrAppend(out, concat_internal::Forward(parts)...);
}

}  // namespace ksched::client
