// CompactVector<T>: a std::vector-like sequence in one pointer (8 bytes instead of 24), for the
// lists of the object model, most of which are empty or short on any given object (a pod's init
// containers, volumes, tolerations, conditions, ...). Cached objects are many, so the 16 bytes per
// list add up.
//
// Representation: null when empty (no allocation); otherwise a pointer to one heap block holding
// the size and capacity (two uint32) followed by the elements.
//
// Contract: the subset of std::vector's interface the code base uses, with the same meaning:
// iterators are plain pointers and are invalidated by anything that may reallocate (push_back,
// emplace_back, insert, reserve, resize) or by erase/clear past their position, as std::vector's.
// Copies are deep; moves steal the block. operator== compares elementwise. At most 2^32-1
// elements (more aborts). T's move constructor must not throw (all api types qualify).
//
// Thread-safety: like std::vector: concurrent const use is safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ksched::api {

template <typename T>
class CompactVector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  CompactVector() noexcept = default;
  CompactVector(std::initializer_list<T> values) { Assign(values.begin(), values.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  CompactVector(It first, It last) {
    Assign(first, last);
  }
  explicit CompactVector(size_type count) { resize(count); }
  CompactVector(size_type count, const T& value) {
    reserve(count);
    for (size_type i = 0; i < count; ++i) push_back(value);
  }
  // From a std::vector, implicitly, so that code building a std::vector can assign it.
  CompactVector(const std::vector<T>& values)  // NOLINT(runtime/explicit)
  {
    Assign(values.begin(), values.end());
  }
  CompactVector(std::vector<T>&& values)  // NOLINT(runtime/explicit)
  {
    Assign(std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
  }
  CompactVector(const CompactVector& other) { Assign(other.begin(), other.end()); }
  CompactVector(CompactVector&& other) noexcept : header_(std::exchange(other.header_, nullptr)) {}
  CompactVector& operator=(const CompactVector& other) {
    if (this != &other) {
      CompactVector copy(other);
      swap(copy);
    }
    return *this;
  }
  CompactVector& operator=(CompactVector&& other) noexcept {
    if (this != &other) {
      Destroy();
      header_ = std::exchange(other.header_, nullptr);
    }
    return *this;
  }
  CompactVector& operator=(std::initializer_list<T> values) {
    CompactVector copy(values);
    swap(copy);
    return *this;
  }
  ~CompactVector() { Destroy(); }

  // A std::vector copy, for code that needs one.
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  iterator begin() noexcept { return Elements(); }
  iterator end() noexcept { return Elements() + size(); }
  const_iterator begin() const noexcept { return Elements(); }
  const_iterator end() const noexcept { return Elements() + size(); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  size_type size() const noexcept { return header_ == nullptr ? 0 : GetHeader()->size; }
  size_type capacity() const noexcept { return header_ == nullptr ? 0 : GetHeader()->capacity; }
  bool empty() const noexcept { return header_ == nullptr || GetHeader()->size == 0; }
  T* data() noexcept { return Elements(); }
  const T* data() const noexcept { return Elements(); }

  T& operator[](size_type i) noexcept { return Elements()[i]; }
  const T& operator[](size_type i) const noexcept { return Elements()[i]; }
  T& at(size_type i) {
    if (i >= size()) std::abort();
    return Elements()[i];
  }
  const T& at(size_type i) const {
    if (i >= size()) std::abort();
    return Elements()[i];
  }
  T& front() noexcept { return Elements()[0]; }
  const T& front() const noexcept { return Elements()[0]; }
  T& back() noexcept { return Elements()[size() - 1]; }
  const T& back() const noexcept { return Elements()[size() - 1]; }

  void reserve(size_type capacity) {
    if (capacity > this->capacity()) Reallocate(capacity);
  }
  void shrink_to_fit() {
    if (empty()) {
      Destroy();
    } else if (size() < capacity()) {
      Reallocate(size());
    }
  }
  void clear() noexcept { Destroy(); }

  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const size_type n = size();
    if (n == capacity()) {
      // Construct first: args may refer to an element that reallocation would move.
      T value(std::forward<Args>(args)...);
      Reallocate(Grown(n + 1));
      ::new (static_cast<void*>(Elements() + n)) T(std::move(value));
    } else {
      ::new (static_cast<void*>(Elements() + n)) T(std::forward<Args>(args)...);
    }
    GetHeader()->size = static_cast<std::uint32_t>(n + 1);
    return Elements()[n];
  }
  void pop_back() noexcept {
    const size_type n = size();
    Elements()[n - 1].~T();
    GetHeader()->size = static_cast<std::uint32_t>(n - 1);
  }
  void resize(size_type count) {
    while (size() > count) pop_back();
    if (count > size()) {
      reserve(count);
      while (size() < count) emplace_back();
    }
  }

  template <typename... Args>
  iterator emplace(const_iterator pos, Args&&... args) {
    const auto index = static_cast<size_type>(pos - begin());
    emplace_back(std::forward<Args>(args)...);
    std::rotate(begin() + index, end() - 1, end());
    return begin() + index;
  }
  iterator insert(const_iterator pos, const T& value) { return emplace(pos, value); }
  iterator insert(const_iterator pos, T&& value) { return emplace(pos, std::move(value)); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    const auto index = static_cast<size_type>(pos - begin());
    const size_type old_size = size();
    for (; first != last; ++first) emplace_back(*first);
    std::rotate(begin() + index, begin() + old_size, end());
    return begin() + index;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto index = static_cast<size_type>(first - begin());
    const auto count = static_cast<size_type>(last - first);
    if (count == 0) return begin() + index;
    std::move(begin() + index + count, end(), begin() + index);
    for (size_type i = 0; i < count; ++i) pop_back();
    return begin() + index;
  }

  void swap(CompactVector& other) noexcept { std::swap(header_, other.header_); }
  friend void swap(CompactVector& a, CompactVector& b) noexcept { a.swap(b); }

  friend bool operator==(const CompactVector& a, const CompactVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const CompactVector& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  struct Header {
    std::uint32_t size;
    std::uint32_t capacity;
  };
  static constexpr std::size_t kAlign = alignof(T) > alignof(Header) ? alignof(T) : alignof(Header);
  // Elements start after the header, aligned for T.
  static constexpr std::size_t kOffset = (sizeof(Header) + kAlign - 1) / kAlign * kAlign;

  Header* GetHeader() const noexcept { return header_; }
  T* Elements() const noexcept {
    return header_ == nullptr
               ? nullptr
               : std::launder(reinterpret_cast<T*>(reinterpret_cast<char*>(header_) + kOffset));
  }
  static size_type Grown(size_type needed) {
    return std::max<size_type>(needed, std::max<size_type>(1, 2 * (needed - 1)));
  }

  template <typename It>
  void Assign(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      reserve(static_cast<size_type>(std::distance(first, last)));
    }
    for (; first != last; ++first) emplace_back(*first);
  }

  void Reallocate(size_type capacity) {
    if (capacity > UINT32_MAX) std::abort();
    char* block = static_cast<char*>(
        ::operator new(kOffset + capacity * sizeof(T), std::align_val_t{kAlign}));
    T* data = reinterpret_cast<T*>(block + kOffset);
    const size_type n = size();
    T* old = Elements();
    for (size_type i = 0; i < n; ++i) {
      ::new (static_cast<void*>(data + i)) T(std::move(old[i]));
      old[i].~T();
    }
    Free();
    header_ = ::new (static_cast<void*>(block)) Header{static_cast<std::uint32_t>(n),
                                                       static_cast<std::uint32_t>(capacity)};
  }
  void Destroy() noexcept {
    if (header_ == nullptr) return;
    std::destroy(begin(), end());
    Free();
    header_ = nullptr;
  }
  void Free() noexcept {
    if (header_ != nullptr) ::operator delete(header_, std::align_val_t{kAlign});
  }

  Header* header_ = nullptr;
};

}  // namespace ksched::api
