// TempDir: a fresh directory under $TMPDIR (or /tmp) for one test, removed with everything in it
// when the object goes away. Write() creates files (and their parent directories) inside it.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ksched::client::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ksched-client-test-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = buffer.data();
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

  const std::string& path() const { return path_; }

  // Absolute path of `relative` inside the directory.
  std::string Path(const std::string& relative) const { return path_ + "/" + relative; }

  // Writes `content` to `relative` (parents created) with the given mode; returns the absolute path.
  std::string Write(const std::string& relative, const std::string& content, mode_t mode = 0644) const {
    const std::string full = Path(relative);
    std::filesystem::create_directories(std::filesystem::path(full).parent_path());
    {
      std::ofstream out(full, std::ios::binary | std::ios::trunc);
      out << content;
      if (!out) throw std::runtime_error("cannot write " + full);
    }
    ::chmod(full.c_str(), mode);
    return full;
  }

 private:
  std::string path_;
};

}  // namespace ksched::client::testing
