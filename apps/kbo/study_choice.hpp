#pragma once
// Which study a read-only command (kbo show, kbo report) opens when --study is not given.
#include <string>

#include "kbo/storage/storage.hpp"

namespace kbo::cli {

/// `requested` if the storage holds a study of that name. Otherwise, when `requested` is the default name
/// (--study not given): the storage's only study, or an InputError listing the studies there are (and that
/// `kbo studies` lists them). Any other missing name: the InputError of Study::open (it lists them too).
std::string choose_study(Storage& storage, const std::string& requested);

}  // namespace kbo::cli
