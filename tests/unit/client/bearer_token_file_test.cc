// BearerTokenFile: re-reads on change, keeps the last good token (transport.NewCachedFileTokenSource).
#include "client/bearer_token_file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "temp_dir.h"

namespace {

using ksched::client::BearerTokenFile;
using ksched::client::testing::TempDir;

std::string MustToken(BearerTokenFile& file) {
  const absl::StatusOr<std::string> token = file.Token();
  INFO(token.status().ToString());
  REQUIRE(token.ok());
  return *token;
}

// Sets the file's modification time to `seconds` since the epoch.
void SetMtime(const std::string& path, long seconds) {
  const timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

}  // namespace

TEST_CASE("bearer token file: read, trimmed, re-read when it changes", "[client][bearer_token_file]") {
  TempDir dir;
  const std::string path = dir.Write("token", "  first-token\n");
  SetMtime(path, 1'000'000);
  BearerTokenFile file(path);
  CHECK(file.path() == path);
  CHECK(MustToken(file) == "first-token");

  SECTION("new size") {
    dir.Write("token", "second-token-longer\n");
    SetMtime(path, 1'000'000);
    CHECK(MustToken(file) == "second-token-longer");
  }
  SECTION("same size, new modification time") {
    dir.Write("token", "  firsT-token\n");
    SetMtime(path, 1'000'001);
    CHECK(MustToken(file) == "firsT-token");
  }
  SECTION("same size and time: the cached token is served") {
    dir.Write("token", "  FIRST-TOKEN\n");
    SetMtime(path, 1'000'000);
    CHECK(MustToken(file) == "first-token");
  }
  SECTION("replaced by rename (new inode)") {
    const std::string next = dir.Write("token.next", "  rotated-tok\n");
    SetMtime(next, 1'000'000);
    REQUIRE(std::rename(next.c_str(), path.c_str()) == 0);
    CHECK(MustToken(file) == "rotated-tok");
  }
  SECTION("removed or emptied after a good read: the last good token") {
    REQUIRE(std::remove(path.c_str()) == 0);
    CHECK(MustToken(file) == "first-token");
    dir.Write("token", "   \n");
    CHECK(MustToken(file) == "first-token");
    dir.Write("token", "back-again");
    CHECK(MustToken(file) == "back-again");
  }
}

TEST_CASE("bearer token file: errors before any good read", "[client][bearer_token_file]") {
  TempDir dir;
  BearerTokenFile missing(dir.Path("none"));
  absl::StatusOr<std::string> token = missing.Token();
  REQUIRE_FALSE(token.ok());
  CHECK(token.status().code() == absl::StatusCode::kNotFound);
  CHECK(std::string(token.status().message()) == dir.Path("none") + ": No such file or directory");

  const std::string empty_path = dir.Write("empty", "\n\t \n");
  BearerTokenFile empty(empty_path);
  token = empty.Token();
  REQUIRE_FALSE(token.ok());
  CHECK(std::string(token.status().message()) ==
        "read empty token from file \"" + empty_path + "\"");

  // Once the file appears, it is read.
  dir.Write("none", "late\n");
  CHECK(MustToken(missing) == "late");
}

TEST_CASE("bearer token file: concurrent readers see whole tokens", "[client][bearer_token_file]") {
  TempDir dir;
  const std::string path = dir.Write("token", "aaaa");
  BearerTokenFile file(path);
  std::atomic<bool> bad{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        const absl::StatusOr<std::string> token = file.Token();
        if (!token.ok() || (*token != "aaaa" && *token != "bbbbbbbb")) bad = true;
      }
    });
  }
  for (int i = 0; i < 50; ++i) {
    const std::string next = dir.Write("token.next", i % 2 == 0 ? "bbbbbbbb" : "aaaa");
    REQUIRE(std::rename(next.c_str(), path.c_str()) == 0);
  }
  for (std::thread& t : readers) t.join();
  CHECK_FALSE(bad);
}
