// CompactBox<T>: an optional T held out of line, in one pointer (8 bytes instead of sizeof(T) + a
// flag), for parts of a cached object that most objects lack: a pending pod has no kubelet-reported
// resources, so PodStatus keeps them boxed (api/pod.h).
//
// Semantics: a value type. Copies are deep, moves steal the pointer. An empty box reads as a
// default-constructed T (Get()), and operator== compares the T's with that reading, so that an
// empty box equals a box holding T{}.
//
// Thread-safety: like std::optional: concurrent const use is safe.
#pragma once

#include <memory>
#include <utility>

namespace ksched::api {

template <typename T>
class CompactBox {
 public:
  CompactBox() noexcept = default;
  CompactBox(const CompactBox& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  CompactBox(CompactBox&&) noexcept = default;
  CompactBox& operator=(const CompactBox& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  CompactBox& operator=(CompactBox&&) noexcept = default;
  ~CompactBox() = default;

  bool has_value() const noexcept { return value_ != nullptr; }
  // The value, or a default T when empty (never allocates).
  const T& Get() const noexcept { return value_ ? *value_ : Empty(); }
  // The value, created (default) when empty.
  T& Mutable() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }
  void reset() noexcept { value_.reset(); }

  friend bool operator==(const CompactBox& a, const CompactBox& b) { return a.Get() == b.Get(); }

 private:
  static const T& Empty() noexcept {
    static const T empty{};
    return empty;
  }

  std::unique_ptr<T> value_;
};

}  // namespace ksched::api
