#include "api/compact_vector.h"

#include <catch2/catch.hpp>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ksched::api {
namespace {

TEST_CASE("CompactVector: one pointer, nothing allocated when empty") {
  CHECK(sizeof(CompactVector<std::string>) == sizeof(void*));
  CompactVector<std::string> v;
  CHECK(v.empty());
  CHECK(v.size() == 0);
  CHECK(v.capacity() == 0);
  CHECK(v.data() == nullptr);
  CHECK(v.begin() == v.end());
}

TEST_CASE("CompactVector: push, emplace, index, copy and move keep the elements") {
  CompactVector<std::string> v;
  for (int i = 0; i < 100; ++i) v.push_back(std::string(30, static_cast<char>('a' + i % 26)));
  v.emplace_back("last");
  REQUIRE(v.size() == 101);
  CHECK(v.front() == std::string(30, 'a'));
  CHECK(v[27] == std::string(30, 'b'));
  CHECK(v.back() == "last");
  // Appending an element of the vector itself survives reallocation.
  v.shrink_to_fit();
  v.push_back(v[0]);
  CHECK(v.back() == std::string(30, 'a'));

  CompactVector<std::string> copy = v;
  CHECK(copy == v);
  copy[0] = "changed";
  CHECK(v[0] == std::string(30, 'a'));
  CompactVector<std::string> moved = std::move(copy);
  CHECK(moved[0] == "changed");
  CHECK(moved.size() == 102);
}

TEST_CASE("CompactVector: insert, erase, resize and clear as std::vector") {
  CompactVector<int> v = {1, 2, 4};
  v.insert(v.begin() + 2, 3);
  v.insert(v.begin(), 0);
  CHECK(v == std::vector<int>{0, 1, 2, 3, 4});
  v.erase(v.begin() + 1);
  CHECK(v == std::vector<int>{0, 2, 3, 4});
  v.erase(v.begin(), v.begin() + 2);
  CHECK(v == std::vector<int>{3, 4});
  v.resize(4);
  CHECK(v == std::vector<int>{3, 4, 0, 0});
  CompactVector<std::string> strings = {"a", "b", "c"};
  strings.pop_back();
  CHECK(strings == std::vector<std::string>{"a", "b"});
  strings.resize(1);
  CHECK(strings == std::vector<std::string>{"a"});
  const std::vector<int> from{7, 8};
  v = from;
  CHECK(v == std::vector<int>{7, 8});
  const std::span<const int> view = v;
  CHECK(view.size() == 2);
  CHECK(v.ToVector() == from);
  v.clear();
  CHECK(v.empty());
  CHECK(v.data() == nullptr);
}

}  // namespace
}  // namespace ksched::api
