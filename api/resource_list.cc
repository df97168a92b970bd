#include "api/resource_list.h"

#include <algorithm>

namespace ksched::api {

namespace {

struct NameLess {
  bool operator()(const ResourceList::value_type& entry, std::string_view name) const noexcept {
    return std::string_view(entry.first) < name;
  }
};

}  // namespace

ResourceList::ResourceList(std::initializer_list<value_type> entries)
    : ResourceList(std::vector<value_type>(entries.begin(), entries.end())) {}

ResourceList::ResourceList(std::vector<std::pair<std::string, Quantity>> entries) {
  std::vector<value_type> interned;
  interned.reserve(entries.size());
  for (auto& [name, quantity] : entries) interned.emplace_back(name, std::move(quantity));
  *this = ResourceList(std::move(interned));
}

ResourceList::ResourceList(std::vector<value_type> entries) : entries_(std::move(entries)) {
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const value_type& a, const value_type& b) { return a.first < b.first; });
  // Keep the last of each run of equal names, in place.
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (out > 0 && entries_[out - 1].first == entries_[i].first) {
      entries_[out - 1].second = std::move(entries_[i].second);
    } else {
      if (out != i) entries_[out] = std::move(entries_[i]);
      ++out;
    }
  }
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(out), entries_.end());
}

const Quantity* ResourceList::Get(std::string_view name) const noexcept {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name, NameLess{});
  if (it != entries_.end() && it->first == name) return &it->second;
  return nullptr;
}

void ResourceList::Set(std::string name, Quantity quantity) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), std::string_view(name), NameLess{});
  if (it != entries_.end() && it->first == name) {
    it->second = std::move(quantity);
  } else {
    entries_.emplace(it, InternedString(name), std::move(quantity));
  }
}

bool ResourceList::Erase(std::string_view name) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name, NameLess{});
  if (it == entries_.end() || it->first != name) return false;
  entries_.erase(it);
  return true;
}

bool operator==(const ResourceList& a, const ResourceList& b) {
  if (a.entries_.size() != b.entries_.size()) return false;
  for (std::size_t i = 0; i < a.entries_.size(); ++i) {
    if (a.entries_[i].first != b.entries_[i].first) return false;
    if (a.entries_[i].second.Cmp(b.entries_[i].second) != 0) return false;
  }
  return true;
}

}  // namespace ksched::api
