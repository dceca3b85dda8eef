#pragma once
// Registry<Entry>: things looked up by name (strategies, acquisitions, kernels, groups, storages, module
// option sections). Filled by explicit registration calls (register_builtin_modules(), kbo/modules.hpp) —
// never by static initialisers, which static archives drop. Registration happens before any lookup (at
// program start), so lookups need no lock.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

template <class Entry>
class Registry {
 public:
  /// `what` names the kind in errors: "unknown acquisition 'x' (allowed: ucb, ei, pi)".
  explicit Registry(std::string what) : what_(std::move(what)) {}

  /// Adds or replaces `name` (re-registering the same modules is harmless).
  void add(std::string name, Entry entry) { entries_.insert_or_assign(std::move(name), std::move(entry)); }

  const Entry* find(std::string_view name) const {
    auto it = entries_.find(std::string(name));
    return it == entries_.end() ? nullptr : &it->second;
  }

  /// The entry, or an InputError naming the kind, the name and the registered names.
  const Entry& get(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    throw InputError("unknown " + what_ + " '" + std::string(name) + "' (allowed: " + allowed() + ")");
  }

  bool contains(std::string_view name) const { return find(name) != nullptr; }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& kv : entries_) out.push_back(kv.first);
    return out;
  }

  /// "a, b, c" (sorted), for help texts and errors.
  std::string allowed() const {
    std::string list;
    for (const auto& kv : entries_) list += (list.empty() ? "" : ", ") + kv.first;
    return list;
  }

  const std::string& what() const { return what_; }

 private:
  std::string what_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace kbo
