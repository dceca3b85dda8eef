#pragma once
// Registry<Entry>: things looked up by name (strategies, acquisitions, kernels, groups, storages, module
// option sections). Filled by registration calls (register_builtin_modules(), kbo/modules.hpp), never by
// static initialisers, which static archives drop. A program that links kbo::kbo but never calls
// register_builtin_modules() gets them all the same: every registry access first runs it once (lazily,
// thread-safe, see detail::ensure_builtin_modules). Registration ends before any lookup returns, so
// lookups need no lock.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

namespace detail {
/// Runs register_builtin_modules() once if this program links it (kbo::kbo forces it in, see
/// CMakeLists.txt); nothing if it does not (then a lookup's error names the fix). A no-op on the thread
/// that is filling the registries, whose own registry calls must not re-enter registration.
void ensure_builtin_modules();

/// Marks the current thread as filling the registries for its lifetime (register_builtin_modules).
class FillingRegistries {
 public:
  FillingRegistries();
  ~FillingRegistries();
  FillingRegistries(const FillingRegistries&) = delete;
  FillingRegistries& operator=(const FillingRegistries&) = delete;

 private:
  bool was_filling_;
};
}  // namespace detail

template <class Entry>
class Registry {
 public:
  /// `what` names the kind in errors: "unknown acquisition 'x' (allowed: ucb, ei, pi)".
  explicit Registry(std::string what) : what_(std::move(what)) {}

  /// Adds or replaces `name` (re-registering the same modules is harmless).
  void add(std::string name, Entry entry) {
    detail::ensure_builtin_modules();  // so that built-ins registered later cannot replace a program's own
    if (!entries_.count(name)) order_.push_back(name);
    entries_.insert_or_assign(std::move(name), std::move(entry));
  }

  /// Another accepted name of `target` (kept for old command lines and stored studies; never listed).
  void add_alias(std::string alias, std::string target) {
    detail::ensure_builtin_modules();
    aliases_.insert_or_assign(std::move(alias), std::move(target));
  }

  const Entry* find(std::string_view name) const {
    detail::ensure_builtin_modules();
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      auto alias = aliases_.find(name);
      if (alias != aliases_.end()) it = entries_.find(alias->second);
    }
    return it == entries_.end() ? nullptr : &it->second;
  }

  /// The registered (canonical) name of `name`, resolving aliases; `name` itself if unknown.
  std::string canonical(std::string_view name) const {
    detail::ensure_builtin_modules();
    auto alias = aliases_.find(name);
    return alias == aliases_.end() ? std::string(name) : alias->second;
  }

  /// The entry, or an InputError naming the kind, the name and the registered names.
  const Entry& get(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    if (order_.empty())  // a program linking the module libraries itself, without kbo::kbo
      throw InputError("unknown " + what_ + " '" + std::string(name) + "': no " + what_ +
                       " is registered; call kbo::register_builtin_modules() (kbo/modules.hpp) at the start of "
                       "the program, or link the CMake target kbo::kbo, which does it on first use");
    throw InputError("unknown " + what_ + " '" + std::string(name) + "' (allowed: " + allowed() + ")");
  }

  bool contains(std::string_view name) const { return find(name) != nullptr; }

  /// The registered names, in registration order.
  const std::vector<std::string>& names() const {
    detail::ensure_builtin_modules();
    return order_;
  }

  /// "a, b, c" (registration order), for help texts and errors.
  std::string allowed() const {
    detail::ensure_builtin_modules();
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
