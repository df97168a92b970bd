// BearerTokenFile: a bearer token kept in a file that its owner rewrites (the kubelet rotates the
// projected service-account token; a kubeconfig `tokenFile` may be refreshed by another tool), as
// client-go's transport.NewCachedFileTokenSource serves it.
//
// Token() stats the file on every call and re-reads it only when its identity or content stamp
// (device, inode, size, modification time) changed since the last read, so a file replaced by
// rename or by the kubelet's atomic symlink swap is picked up at the next call. The token is the
// file's content with surrounding whitespace removed.
//
// Errors: the file cannot be stat'ed or read (the read error: kNotFound, kPermissionDenied, ...),
// or holds only whitespace (kUnauthenticated, `read empty token from file "<path>"`). As upstream,
// once a token has been read, a later failure returns the last good token instead of the error:
// a rotation in progress must not fail requests.
//
// Thread-safety: Token() may be called from any number of threads; reads are serialised by an
// internal mutex. Not copyable or movable.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <string>

#include "absl/status/statusor.h"
#include "base/mutex.h"

namespace ksched::client {

class BearerTokenFile {
 public:
  explicit BearerTokenFile(std::string path);
  BearerTokenFile(const BearerTokenFile&) = delete;
  BearerTokenFile& operator=(const BearerTokenFile&) = delete;

  absl::StatusOr<std::string> Token();

  const std::string& path() const { return path_; }

 private:
  struct Stamp {
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = -1;
    timespec mtime{};
    bool operator==(const Stamp& other) const;
  };

  const std::string path_;
  base::Mutex mu_;
  bool have_token_ ABSL_GUARDED_BY(mu_) = false;
  Stamp stamp_ ABSL_GUARDED_BY(mu_);  // the file as it was when token_ was read
  std::string token_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::client
