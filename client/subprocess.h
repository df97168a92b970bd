// RunSubprocess: runs a program to completion without a shell, capturing its output, for the exec
// credential plugin.
//
// The child gets: stdin from /dev/null (never interactive), stdout and stderr into pipes read by
// the caller's thread, exactly `env` as its environment, a default signal mask and default signal
// dispositions, and a process group of its own (so that a timeout kills the program and whatever
// it started). File descriptors of this process are not inherited as long as they were opened
// with O_CLOEXEC (everything in this project is).
//
// Thread-safety: reentrant; concurrent calls run independent children. The calling thread blocks
// until the child has exited and both pipes are closed, or until the timeout.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::client {

struct SubprocessSpec {
  // argv[0] is the program: a path when it contains '/', otherwise searched in this process's
  // $PATH (as Go's exec.LookPath does; a PATH set in `env` does not change the search).
  std::vector<std::string> argv;
  std::vector<std::string> env;             // the child's whole environment, "NAME=value" each
  std::chrono::milliseconds timeout{0};     // 0: wait as long as it takes
  bool pass_through_stderr = false;         // also copy the child's stderr to this process's fd 2
  std::size_t max_stdout_bytes = std::size_t{16} << 20;
  std::size_t max_stderr_bytes = std::size_t{64} << 10;  // kept in the result; the rest is dropped
};

struct SubprocessResult {
  int exit_code = -1;       // the exit status when term_signal == 0
  int term_signal = 0;      // the signal that killed the child, 0 if it exited
  std::string stdout_data;  // everything it wrote to stdout
  std::string stderr_data;  // the first max_stderr_bytes it wrote to stderr
};

// Errors (messages name the program):
//   kNotFound           the program does not exist (ENOENT from the spawn)
//   kPermissionDenied   it exists but cannot be executed (EACCES)
//   kDeadlineExceeded   it ran longer than `timeout` and was killed (with its process group)
//   kResourceExhausted  it wrote more than max_stdout_bytes to stdout and was killed
//   kInvalidArgument    argv is empty
//   kInternal           pipe, spawn or wait failures
// A non-zero exit or death by a signal is not an error: the result says so.
absl::StatusOr<SubprocessResult> RunSubprocess(const SubprocessSpec& spec);

}  // namespace ksched::client
