// Reading a small file whole (kubeconfig, PEM file, bearer token), with an error that names the
// file and the reason, in the words of strerror.
//
// Thread-safety: a free function touching no shared state; call it from any thread.
#pragma once

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace ksched::client {

inline constexpr std::size_t kMaxReadFileBytes = std::size_t{64} << 20;  // 64 MiB

// The file's bytes, unchanged. Errors (message "<path>: <reason>"):
//   kNotFound          the file or a directory on its path does not exist
//   kPermissionDenied  not readable by this process
//   kInvalidArgument   a directory, or larger than max_bytes
//   kInternal          any other I/O failure
absl::StatusOr<std::string> ReadFileToString(const std::string& path,
                                             std::size_t max_bytes = kMaxReadFileBytes);

}  // namespace ksched::client
