#include "api/labels.h"

#include <algorithm>
#include <iterator>

namespace ksched::api {

namespace {

struct KeyLess {
  bool operator()(const Labels::value_type& entry, std::string_view key) const noexcept {
    return entry.first.view() < key;
  }
};

}  // namespace

Labels::Labels(std::initializer_list<value_type> pairs)
    : Labels(std::vector<value_type>(pairs.begin(), pairs.end())) {}

Labels::Labels(std::vector<value_type> pairs) : entries_(std::move(pairs)) {
  // Stable, then keep the last of each run of equal keys: "last one wins" like repeated Set().
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const value_type& a, const value_type& b) { return a.first < b.first; });
  std::vector<value_type> unique;
  unique.reserve(entries_.size());
  for (auto& entry : entries_) {
    if (!unique.empty() && unique.back().first == entry.first) {
      unique.back().second = std::move(entry.second);
    } else {
      unique.push_back(std::move(entry));
    }
  }
  entries_ = CompactVector<value_type>(std::move(unique));
}

Labels::const_iterator Labels::Find(std::string_view key) const noexcept {
  // Most objects carry a handful of labels, and keys often share a long prefix
  // ("kubernetes.io/..."): a scan that compares lengths first (the pool entry's length prefix)
  // compares characters only on a length match, where a binary search compares them at every step.
  if (entries_.size() <= kLinearScanMax) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first.size() == key.size() && it->first.view() == key) return it;
    }
    return entries_.end();
  }
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key, KeyLess{});
  if (it != entries_.end() && it->first == key) return it;
  return entries_.end();
}

Labels::const_iterator Labels::Find(InternedString key) const noexcept {
  // Equal interned values are one pool entry, so equality is a pointer comparison.
  if (entries_.size() <= kLinearScanMax) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) return it;
    }
    return entries_.end();
  }
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key.view(), KeyLess{});
  if (it != entries_.end() && it->first == key) return it;
  return entries_.end();
}

std::optional<std::string_view> Labels::Get(std::string_view key) const noexcept {
  auto it = Find(key);
  if (it == entries_.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<std::string_view> Labels::Get(InternedString key) const noexcept {
  auto it = Find(key);
  if (it == entries_.end()) return std::nullopt;
  return std::string_view(it->second);
}

bool Labels::Has(std::string_view key) const noexcept { return Find(key) != entries_.end(); }

bool Labels::Has(InternedString key) const noexcept { return Find(key) != entries_.end(); }

void Labels::Set(InternedString key, std::string value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key.view(), KeyLess{});
  if (it != entries_.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    entries_.emplace(it, std::move(key), std::move(value));
  }
}

bool Labels::Erase(std::string_view key) {
  auto it = Find(key);
  if (it == entries_.end()) return false;
  entries_.erase(it);
  return true;
}

std::string Labels::ToString() const {
  std::string out;
  for (const auto& [key, value] : entries_) {
    if (!out.empty()) out += ',';
    out += key;
    out += '=';
    out += value;
  }
  return out;
}

}  // namespace ksched::api
