#pragma once
// How the CLI prints a study (the object of Study::to_json): the full table or CSV of `kbo show`, and the
// short summary that ends `kbo optimize` (the best trials, not every row).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::cli {

enum class TrialOrder { Id, Value };  // by id, or best value first (then failed, then pending, by id)

/// `j` with every string (object keys too) escaped for a terminal (terminal_text): stored names, reasons and
/// parameter values may hold escape sequences or line breaks. Tables always print through it.
nlohmann::json for_terminal(const nlohmann::json& j);
/// 0, 1, …, n − 1: every trial listed (Study::to_json's `listed`).
std::vector<std::size_t> all_indices(std::size_t n);
std::vector<nlohmann::json> for_terminal(const std::vector<nlohmann::json>& rows);

/// The trials of `study` in `order`, the first `top` of them (top <= 0: all).
std::vector<nlohmann::json> select_trials(const nlohmann::json& study, TrialOrder order, int top);

/// Header, one row per trial of `rows` (best marked *), counts and the best point.
void print_study_table(std::ostream& out, const nlohmann::json& study, const std::vector<nlohmann::json>& rows);

/// CSV with a header: id,state,value,x0..x{D-1},reason,worker (RFC 4180 quoting).
void print_study_csv(std::ostream& out, const nlohmann::json& study, const std::vector<nlohmann::json>& rows);

/// The end of a run: the best `top` complete trials, counts, the best point, the last failure's reason,
/// and, when rows were left out, how to see them all (`show_all`, e.g. the `kbo show` command).
/// A study with several objectives: its Pareto front's trials and the hypervolume (`kbo show --pareto`).
void print_pareto_front(std::ostream& out, const nlohmann::json& study);

void print_run_summary(std::ostream& out, const nlohmann::json& study, int top, const std::string& show_all);

}  // namespace kbo::cli
