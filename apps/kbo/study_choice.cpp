// Which study a read-only command opens (see study_choice.hpp).
#include "study_choice.hpp"

#include "kbo/core/error.hpp"

namespace kbo::cli {

std::string choose_study(Storage& storage, const StudyOptions& o) {
  if (o.given.count("study") || storage.load_study(o.study)) return o.study;
  const std::vector<std::string> names = storage.study_names();
  if (names.size() == 1) return names.front();
  if (names.empty()) throw InputError("no study in " + storage.url() + " (kbo optimize or kbo ask creates one)");
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError("--study is required: " + storage.url() + " holds " + std::to_string(names.size()) +
                   " studies: " + list + " (kbo studies --storage " + storage.url() + " describes them)");
}

}  // namespace kbo::cli
