#pragma once
// Shared by the warm-start commands (`kbo enqueue`, `kbo tell --point`, `kbo import`): opening the study
// (created when the options give a space, as `kbo ask` does) and parsing points from text.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/study/study.hpp"
#include "study_options.hpp"

namespace kbo::cli {

/// The study of `o`: created (or reopened, checked) when o gives a space, else the existing one.
Study open_or_create_study(const StudyOptions& o, const std::string& program);

/// `--point` text: JSON ({"lr": 0.01, ...} or [0.1, 0.2]) → the study's point (InputError naming the problem).
Vec point_from_text(const Study& study, const std::string& text);

/// "c1,c2" or "[c1, c2]" → finite numbers (InputError naming --constraints).
std::vector<double> constraints_from_text(const std::string& text);

/// The JSON line printed for a trial made by a warm-start command: {"trial", "x", ("params"), "state", ...}.
nlohmann::json warm_start_line(const Study& study, const Trial& t);

}  // namespace kbo::cli
