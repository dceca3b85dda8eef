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
  void add(std::string name, Entry entry) {
    if (!entries_.count(name)) order_.push_back(name);
    entries_.insert_or_assign(std::move(name), std::move(entry));
  }

  /// Another accepted name of `target` (kept for old command lines and stored studies; never listed).
  void add_alias(std::string alias, std::string target) { aliases_.insert_or_assign(std::move(alias), std::move(target)); }

  const Entry* find(std::string_view name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      auto alias = aliases_.find(name);
      if (alias != aliases_.end()) it = entries_.find(alias->second);
    }
    return it == entries_.end() ? nullptr : &it->second;
  }

  /// The registered (canonical) name of `name`, resolving aliases; `name` itself if unknown.
  std::string canonical(std::string_view name) const {
    auto alias = aliases_.find(name);
    return alias == aliases_.end() ? std::string(name) : alias->second;
  }

  /// The entry, or an InputError naming the kind, the name and the registered names.
  const Entry& get(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    throw InputError("unknown " + what_ + " '" + std::string(name) + "' (allowed: " + allowed() + ")");
  }

  bool contains(std::string_view name) const { return find(name) != nullptr; }

  /// The registered names, in registration order.
  const std::vector<std::string>& names() const { return order_; }

  /// "a, b, c" (registration order), for help texts and errors.
  std::string allowed() const {
    std::string list;
    for (const auto& name : order_) list += (list.empty() ? "" : ", ") + name;
    return list;
  }

  const std::string& what() const { return what_; }

 private:
  std::string what_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, std::string, std::less<>> aliases_;
  std::vector<std::string> order_;
};

}  // namespace kbo
