#pragma once
// A study's options from a TOML config file: the keys of the option table (kbo/study/options.hpp), spelt
// with '_' for '-'. Shared by `kbo --config` and Python's `config=`.
#include <string>

#include "kbo/study/options.hpp"

namespace kbo {

/// Applies every key of the TOML file at `path` to `o`; every unknown key is reported at once with the
/// closest known one, and relative paths are relative to the file (storage, files, the objective's
/// directory). InputError naming the file, key and line.
void apply_config_file(StudyOptions& o, const std::string& path);

}  // namespace kbo
