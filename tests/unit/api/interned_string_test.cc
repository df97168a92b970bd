#include "api/interned_string.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace ksched::api {
namespace {

TEST_CASE("InternedString: the empty string is free and default") {
  const std::size_t before = InternedString::PoolSize();
  InternedString empty;
  InternedString from_empty = std::string_view();
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  CHECK(std::string_view(empty.data()).empty());
  CHECK(empty == from_empty);
  CHECK(empty == "");
  CHECK(InternedString::PoolSize() == before);
  CHECK(sizeof(InternedString) == sizeof(void*));
}

TEST_CASE("InternedString: equal values share one entry, and read back exactly") {
  const std::string text = "node.kubernetes.io/not-ready-interned-test";
  InternedString a = text;
  const std::size_t after_first = InternedString::PoolSize();
  InternedString b = std::string_view(text);
  InternedString c = text.c_str();
  CHECK(InternedString::PoolSize() == after_first);
  CHECK(a.data() == b.data());
  CHECK(a.data() == c.data());
  CHECK(a == b);
  CHECK(a.view() == text);
  CHECK(a.size() == text.size());
  CHECK(a.data()[a.size()] == '\0');
  CHECK(std::string(a) == text);
  CHECK(a.str() == text);
  InternedString other = "something-else-interned-test";
  CHECK(a != other);
  CHECK(InternedString::PoolSize() == after_first + 1);
}

TEST_CASE("InternedString: comparisons with every string type, ordering by characters") {
  InternedString beta = "beta";
  const std::string beta_string = "beta";
  CHECK(beta == "beta");
  CHECK("beta" == beta);
  CHECK(beta == std::string_view("beta"));
  CHECK(beta == beta_string);
  CHECK(beta_string == beta);
  CHECK(beta != "alpha");
  CHECK(beta > "alpha");
  CHECK(beta < InternedString("gamma"));
  CHECK(InternedString("a") < InternedString("ab"));
  CHECK(std::hash<InternedString>{}(beta) == std::hash<std::string_view>{}("beta"));
}

TEST_CASE("InternedString: string building as with std::string") {
  InternedString ns = "namespace-1";
  const std::string name = "pod-a";
  CHECK(ns + "/" + name == "namespace-1/pod-a");
  CHECK(name + ns == "pod-anamespace-1");
  CHECK("x" + ns == "xnamespace-1");
  std::string out = "ns=";
  out += ns;
  CHECK(out == "ns=namespace-1");
  ns = "other";
  CHECK(ns == "other");
  ns.clear();
  CHECK(ns.empty());
}

TEST_CASE("InternedString: interning from many threads yields one entry per value") {
  std::vector<std::vector<const char*>> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&seen, t] {
      for (int i = 0; i < 500; ++i) {
        std::string value = "threaded-value-";
        value += std::to_string(i);
        seen[t].push_back(InternedString(value).data());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t t = 1; t < seen.size(); ++t) CHECK(seen[t] == seen[0]);
}

}  // namespace
}  // namespace ksched::api
