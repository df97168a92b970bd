// InternedString: an immutable string of a field whose values repeat across objects (a namespace,
// a scheduler name, a node name, a toleration key, a container image, a condition type), held as
// one pointer into a process-wide pool that keeps each distinct value once.
//
// Why: the scheduler caches every pod of the cluster; most of their short strings take the same
// few values, and a std::string is 32 bytes plus a heap block once longer than 15 characters.
// An InternedString is 8 bytes and shares the characters.
//
// Contract:
//   - Value semantics like a const std::string: construction or assignment from any string interns
//     the value (looks it up, adds it on first sight); copies are pointer copies. The empty string
//     is a null pointer and never touches the pool, so a default-constructed one is free.
//   - The pool never shrinks: an entry lives until the process exits, so data(), the views
//     returned by conversion, and the characters stay valid forever, even after every
//     InternedString of that value is gone. Use it ONLY for fields with a bounded set of values
//     across the process's lifetime (enums, names of namespaces, nodes, images, resource names,
//     label keys); never for per-object values (uid, name, resourceVersion, messages), whose
//     churn would grow the pool without bound.
//   - Equality with another InternedString is a pointer comparison (equal values share one
//     entry); comparison with a std::string_view / std::string / const char* compares the
//     characters and interns nothing. Ordering (<=>) is by characters, as std::string's.
//   - data() is NUL-terminated.
//
// Thread-safety: the pool is guarded by sharded mutexes (see interned_string.cc); interning may be
// called from any number of threads at once. An InternedString object itself is like any value
// type: concurrent const use is safe.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace ksched::api {

class InternedString {
 public:
  constexpr InternedString() noexcept = default;
  // Implicit, as std::string's: `toleration.key = "k"`, designated initializers.
  InternedString(std::string_view value) : data_(Intern(value)) {}  // NOLINT(runtime/explicit)
  InternedString(const std::string& value)                         // NOLINT(runtime/explicit)
      : data_(Intern(value)) {}
  InternedString(const char* value)  // NOLINT(runtime/explicit)
      : data_(Intern(std::string_view(value))) {}

  const char* data() const noexcept { return data_ != nullptr ? data_ : ""; }
  std::size_t size() const noexcept {
    if (data_ == nullptr) return 0;
    std::uint32_t size = 0;
    std::memcpy(&size, data_ - sizeof size, sizeof size);  // the entry's length prefix
    return size;
  }
  std::size_t length() const noexcept { return size(); }
  bool empty() const noexcept { return data_ == nullptr; }
  const char* c_str() const noexcept { return data(); }
  std::string_view view() const noexcept { return {data(), size()}; }
  std::string str() const { return std::string(view()); }
  void clear() noexcept { data_ = nullptr; }

  operator std::string_view() const noexcept { return view(); }  // NOLINT(runtime/explicit)
  operator std::string() const { return str(); }                 // NOLINT(runtime/explicit)

  friend bool operator==(InternedString a, InternedString b) noexcept { return a.data_ == b.data_; }
  friend bool operator==(InternedString a, std::string_view b) noexcept { return a.view() == b; }
  friend bool operator==(InternedString a, const std::string& b) noexcept {
    return a.view() == std::string_view(b);
  }
  friend bool operator==(InternedString a, const char* b) noexcept {
    return a.view() == std::string_view(b);
  }
  friend std::strong_ordering operator<=>(InternedString a, InternedString b) noexcept {
    return a.view() <=> b.view();
  }
  friend std::strong_ordering operator<=>(InternedString a, std::string_view b) noexcept {
    return a.view() <=> b;
  }
  friend std::strong_ordering operator<=>(InternedString a, const std::string& b) noexcept {
    return a.view() <=> std::string_view(b);
  }
  friend std::strong_ordering operator<=>(InternedString a, const char* b) noexcept {
    return a.view() <=> std::string_view(b);
  }

  // String building, as with a std::string operand.
  friend std::string operator+(InternedString a, std::string_view b) { return Concat(a.view(), b); }
  friend std::string operator+(InternedString a, const std::string& b) {
    return Concat(a.view(), b);
  }
  friend std::string operator+(InternedString a, const char* b) { return Concat(a.view(), b); }
  friend std::string operator+(InternedString a, char b) {
    return Concat(a.view(), std::string_view(&b, 1));
  }
  friend std::string operator+(InternedString a, InternedString b) {
    return Concat(a.view(), b.view());
  }
  friend std::string operator+(std::string_view a, InternedString b) { return Concat(a, b.view()); }
  friend std::string operator+(const std::string& a, InternedString b) {
    return Concat(a, b.view());
  }
  friend std::string operator+(std::string&& a, InternedString b) {
    a += b.view();
    return std::move(a);
  }
  friend std::string operator+(const char* a, InternedString b) { return Concat(a, b.view()); }
  friend std::string operator+(char a, InternedString b) {
    return Concat(std::string_view(&a, 1), b.view());
  }
  friend std::string& operator+=(std::string& a, InternedString b) { return a += b.view(); }

  friend std::ostream& operator<<(std::ostream& out, InternedString s);

  // How many distinct values the pool holds (for tests and diagnostics).
  static std::size_t PoolSize();

 private:
  // The pool's entry for `value` (created on first sight), or nullptr for "".
  static const char* Intern(std::string_view value);
  static std::string Concat(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + b.size());
    out += a;
    out += b;
    return out;
  }

  // Points at the NUL-terminated characters of a pool entry, preceded by their uint32 length;
  // nullptr for the empty string.
  const char* data_ = nullptr;
};

}  // namespace ksched::api

template <>
struct std::hash<ksched::api::InternedString> {
  // Hashes the characters, as std::hash<std::string_view> does.
  std::size_t operator()(ksched::api::InternedString s) const noexcept {
    return std::hash<std::string_view>{}(s.view());
  }
};
