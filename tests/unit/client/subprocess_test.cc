// RunSubprocess: exit status, captured streams, exact environment, limits.
#include "client/subprocess.h"

#include <cstdlib>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace {

using ksched::client::RunSubprocess;
using ksched::client::SubprocessResult;
using ksched::client::SubprocessSpec;

SubprocessSpec Shell(const std::string& script) {
  SubprocessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.env = {"PATH=/usr/bin:/bin"};
  spec.timeout = std::chrono::seconds(20);
  return spec;
}

}  // namespace

TEST_CASE("subprocess: exit codes and captured output", "[client][subprocess]") {
  struct Case {
    std::string script;
    int exit_code;
    int term_signal;
    std::string out;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"printf out; printf err >&2", 0, 0, "out", "err"},
      {"echo a; exit 7", 7, 0, "a\n", ""},
      {"kill -TERM $$", -1, 15, "", ""},
      {"cat; echo done", 0, 0, "done\n", ""},  // stdin is /dev/null: cat ends at once
      // Exactly the given environment: nothing of this process's.
      {"echo \"$PATH ${KSCHED_SUBPROCESS_PARENT-unset}\"", 0, 0, "/usr/bin:/bin unset\n", ""},
      {"head -c 100000 /dev/zero | tr '\\0' x", 0, 0, std::string(100000, 'x'), ""},
  };
  REQUIRE(::setenv("KSCHED_SUBPROCESS_PARENT", "set", 1) == 0);
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.script) {
      const absl::StatusOr<SubprocessResult> result = RunSubprocess(Shell(tc.script));
      INFO(result.status().ToString());
      REQUIRE(result.ok());
      CHECK(result->exit_code == tc.exit_code);
      CHECK(result->term_signal == tc.term_signal);
      CHECK(result->stdout_data == tc.out);
      CHECK(result->stderr_data == tc.err);
    }
  }
}

TEST_CASE("subprocess: limits and spawn errors", "[client][subprocess]") {
  SECTION("stderr is truncated to its limit") {
    SubprocessSpec spec = Shell("head -c 5000 /dev/zero | tr '\\0' e >&2");
    spec.max_stderr_bytes = 10;
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE(result.ok());
    CHECK(result->stderr_data == std::string(10, 'e'));
  }
  SECTION("too much stdout kills it") {
    SubprocessSpec spec = Shell("while :; do echo yyyyyyyyyyyyyyyy; done");
    spec.max_stdout_bytes = 1000;
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == absl::StatusCode::kResourceExhausted);
  }
  SECTION("timeout") {
    SubprocessSpec spec = Shell("sleep 30");
    spec.timeout = std::chrono::milliseconds(100);
    const auto start = std::chrono::steady_clock::now();
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == absl::StatusCode::kDeadlineExceeded);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }
  SECTION("timeout of a child that closed its output and runs on (issue #44)") {
    SubprocessSpec spec = Shell("exec >&- 2>&-; sleep 30");
    spec.timeout = std::chrono::milliseconds(200);
    const auto start = std::chrono::steady_clock::now();
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == absl::StatusCode::kDeadlineExceeded);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }
  SECTION("a child that closed its output and then exits within the deadline") {
    SubprocessSpec spec = Shell("echo out; exec >&-; sleep 0.2; exit 3");
    spec.timeout = std::chrono::seconds(10);
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE(result.ok());
    CHECK(result->exit_code == 3);
    CHECK(result->stdout_data == "out\n");
  }
  SECTION("not found") {
    SubprocessSpec spec;
    spec.argv = {"ksched-definitely-not-a-program"};
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(spec);
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == absl::StatusCode::kNotFound);
    CHECK(std::string(result.status().message()) ==
          "ksched-definitely-not-a-program: No such file or directory");
  }
  SECTION("empty argv") {
    const absl::StatusOr<SubprocessResult> result = RunSubprocess(SubprocessSpec{});
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == absl::StatusCode::kInvalidArgument);
  }
}
