#include "client/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "absl/status/status.h"
#include "client/concat.h"

namespace ksched::client {

namespace {

absl::Status ErrnoStatus(const std::string& path, int err) {
  std::string message = Concat(path, ": ", std::generic_category().message(err));
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return absl::NotFoundError(message);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(message);
    case EISDIR:
      return absl::InvalidArgumentError(message);
    default:
      return absl::InternalError(message);
  }
}

// Closes the descriptor on every return path.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  ~FdCloser() { ::close(fd_); }

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<std::string> ReadFileToString(const std::string& path, std::size_t max_bytes) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus(path, errno);
  FdCloser closer(fd);

  struct stat st {};
  if (::fstat(fd, &st) != 0) return ErrnoStatus(path, errno);
  if (S_ISDIR(st.st_mode)) return ErrnoStatus(path, EISDIR);

  std::string data;
  if (st.st_size > 0 && static_cast<std::size_t>(st.st_size) <= max_bytes) {
    data.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(path, errno);
    }
    if (n == 0) break;
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      return absl::InvalidArgumentError(
          Concat(path, ": larger than the limit of ", max_bytes, " bytes"));
    }
    data.append(buffer, static_cast<std::size_t>(n));
  }
  return data;
}

}  // namespace ksched::client
