#include "client/bearer_token_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "client/concat.h"
#include "client/read_file.h"

namespace ksched::client {

bool BearerTokenFile::Stamp::operator==(const Stamp& other) const {
  return dev == other.dev && ino == other.ino && size == other.size &&
         mtime.tv_sec == other.mtime.tv_sec && mtime.tv_nsec == other.mtime.tv_nsec;
}

BearerTokenFile::BearerTokenFile(std::string path) : path_(std::move(path)) {}

absl::StatusOr<std::string> BearerTokenFile::Token() {
  base::MutexLock lock(&mu_);

  auto fail = [&](absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) -> absl::StatusOr<std::string> {
    if (have_token_) return token_;  // keep serving the last good token during a rotation
    return status;
  };

  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) {
    const int err = errno;
    return fail(absl::Status(err == ENOENT || err == ENOTDIR ? absl::StatusCode::kNotFound
                                                             : absl::StatusCode::kUnavailable,
                             Concat(path_, ": ", std::generic_category().message(err))));
  }
  Stamp now;
  now.dev = st.st_dev;
  now.ino = st.st_ino;
  now.size = st.st_size;
  now.mtime = st.st_mtim;
  if (have_token_ && now == stamp_) return token_;

  absl::StatusOr<std::string> content = ReadFileToString(path_);
  if (!content.ok()) return fail(content.status());
  std::string token(absl::StripAsciiWhitespace(*content));
  if (token.empty()) {
    return fail(absl::UnauthenticatedError(
        Concat("read empty token from file \"", path_, "\"")));
  }
  token_ = std::move(token);
  stamp_ = now;
  have_token_ = true;
  return token_;
}

}  // namespace ksched::client
