#pragma once
// Which study a read-only command (kbo show, kbo report) opens when --study is not given.
#include <string>

#include "kbo/storage/storage.hpp"
#include "kbo/study/options.hpp"

namespace kbo::cli {

/// o.study if --study was given (flag or config file) or a study of that name (the default, 'default')
/// exists; Study::open then names a missing one and lists the others. Otherwise the storage's only study,
/// or an InputError listing the studies there are (and that `kbo studies` describes them).
std::string choose_study(Storage& storage, const StudyOptions& o);

}  // namespace kbo::cli
