// Printing studies: tables, CSV and the end-of-run summary (see study_output.hpp).
#include "study_output.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "kbo/storage/stored_text.hpp"
#include "kbo/study/study.hpp"

namespace kbo::cli {

namespace {

std::string fmt_value(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  std::ostringstream out;
  out.precision(8);
  out << v.get<double>();
  return out.str();
}

std::string fmt_x(const nlohmann::json& x) {
  std::ostringstream out;
  out.precision(6);
  out << "[";
  for (std::size_t i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i].get<double>();
  out << "]";
  return out.str();
}

/// A params trial as `lr=0.001 layers=3 opt=adam` (the space's order), else its x.
std::string fmt_point(const nlohmann::json& s, const nlohmann::json& t, const char* x_key, const char* params_key) {
  if (!t.contains(params_key) || !t[params_key].is_object()) return fmt_x(t[x_key]);
  std::ostringstream out;
  out.precision(6);
  bool first = true;
  for (const auto& spec : s["space"]["params"]) {
    const nlohmann::json& v = t[params_key][spec["name"].get<std::string>()];
    out << (first ? "" : " ") << spec["name"].get<std::string>() << "=";
    if (v.is_string()) out << v.get<std::string>();
    else if (v.is_number_float()) out << v.get<double>();
    else out << v.dump();
    first = false;
  }
  return out.str();
}

/// The state column: pending trials show what they wait for (running, asked, queued).
std::string state_word(const nlohmann::json& t) {
  return t.contains("phase") ? t["phase"].get<std::string>() : t["state"].get<std::string>();
}

/// A study with several objectives: its directions "minimize,maximize".
std::string directions_word(const nlohmann::json& s) {
  if (!s.contains("directions")) return s["direction"].get<std::string>();
  std::string w;
  for (const auto& d : s["directions"]) w += (w.empty() ? "" : ",") + d.get<std::string>();
  return w;
}

/// The value column: the value, or with several objectives every value ("0.5, 3").
std::string fmt_values(const nlohmann::json& t) {
  if (t.contains("sem")) return fmt_value(t["value"]) + " +- " + fmt_value(t["sem"]);
  if (!t.contains("values") || t["values"].is_null()) return fmt_value(t["value"]);
  std::string out;
  for (const auto& v : t["values"]) out += (out.empty() ? "" : ", ") + fmt_value(v);
  return out;
}

void print_header(std::ostream& out, const nlohmann::json& s) {
  out << "study '" << s["study"].get<std::string>() << "' in " << s["storage"].get<std::string>() << " ("
      << directions_word(s) << ", " << describe_space_json(s["space"]) << ")\n";
}

void print_hypervolume(std::ostream& out, const nlohmann::json& s) {
  const nlohmann::json& front = s["pareto_front"];
  out << "Pareto front: " << front.size() << " trial" << (front.size() == 1 ? "" : "s");
  if (!front.empty()) {
    out << " (";
    for (std::size_t i = 0; i < front.size(); ++i) out << (i ? ", " : "") << front[i]["id"].get<int>();
    out << ")";
  }
  out << "\n";
  if (!s["hypervolume"].is_null())
    out << "hypervolume " << fmt_value(s["hypervolume"]["value"]) << " (reference point "
        << fmt_x(s["hypervolume"]["reference_point"]) << ", " << s["hypervolume"]["reference"].get<std::string>()
        << ")\n";
}

void print_rows(std::ostream& out, const nlohmann::json& s, const std::vector<nlohmann::json>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%6s  %-9s %16s  %s\n", "trial", "state", s.contains("directions") ? "values" : "value",
                s.contains("best_params") ? "params" : "x");
  out << line;
  const nlohmann::json best_id = s["best_trial"];
  for (const auto& t : rows) {
    const bool is_best = !best_id.is_null() && t["id"] == best_id;
    std::snprintf(line, sizeof line, "%5d%s  %-9s %16s  ", t["id"].get<int>(), is_best ? "*" : " ",
                  state_word(t).c_str(), fmt_values(t).c_str());
    out << line << fmt_point(s, t, "x", "params");
    if (t.contains("reason")) out << "  (" << t["reason"].get<std::string>() << ")";
    if (t.contains("info") && t["info"].contains("kernel")) out << "  [" << t["info"]["kernel"].get<std::string>() << "]";
    out << "\n";
  }
}

void print_counts_and_best(std::ostream& out, const nlohmann::json& s) {
  out << s["n_trials"].get<int>() << " trials: " << s["n_complete"].get<int>() << " complete, "
      << s["n_failed"].get<int>() << " failed, " << s["n_pending"].get<int>() << " pending";
  std::map<std::string, int> phases;
  for (const auto& t : s["trials"])
    if (t.contains("phase")) ++phases[t["phase"].get<std::string>()];
  if (!phases.empty()) {
    std::string list;
    for (const auto& [phase, n] : phases) list += (list.empty() ? "" : ", ") + std::to_string(n) + " " + phase;
    out << " (" << list << ")";
  }
  out << "\n";
  if (s.contains("pareto_front")) {
    print_hypervolume(out, s);
    return;
  }
  const nlohmann::json best_id = s["best_trial"];
  if (best_id.is_null()) {
    out << "no complete trial yet\n";
    return;
  }
  const nlohmann::json rec = s.value("recommended", nlohmann::json());
  const nlohmann::json seen = s.value("best_observed", nlohmann::json());
  if (rec.is_object() && seen.is_object() && (s.value("noisy", false) || rec["trial"] != seen["trial"])) {
    // The model's best guess and the luckiest draw, each named (they differ when the objective is noisy).
    out << "recommended: trial " << rec["trial"].get<int>() << ", value " << fmt_value(rec["value"]);
    if (rec.contains("sem")) out << " (sem " << fmt_value(rec["sem"]) << ")";
    if (!rec["mean"].is_null())
      out << ", posterior mean " << fmt_value(rec["mean"]) << " +- " << fmt_value(rec["sd"]);
    else
      out << " (no fitted model: the best observed)";
    out << (rec.contains("params") ? " at " : " at x = ") << fmt_point(s, rec, "x", "params") << "\n";
    out << "best observed: trial " << seen["trial"].get<int>() << ", value " << fmt_value(seen["value"])
        << (seen.contains("params") ? " at " : " at x = ") << fmt_point(s, seen, "x", "params") << "\n";
    return;
  }
  out << "best: trial " << best_id.get<int>() << ", value " << fmt_value(s["best_value"])
      << (s.contains("best_params") ? " at " : " at x = ") << fmt_point(s, s, "best_x", "best_params") << "\n";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

/// `j` with every string (keys too) escaped for a terminal (terminal_text): tables show stored names, reasons
/// and parameter values, which may hold escape sequences or line breaks.
nlohmann::json for_terminal(const nlohmann::json& j) {
  if (j.is_string()) return terminal_text(j.get<std::string>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(for_terminal(v));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : j.items()) out[terminal_text(k)] = for_terminal(v);
    return out;
  }
  return j;
}

std::vector<std::size_t> all_indices(std::size_t n) {
  std::vector<std::size_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

std::vector<nlohmann::json> for_terminal(const std::vector<nlohmann::json>& rows) {
  std::vector<nlohmann::json> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(for_terminal(r));
  return out;
}

std::vector<nlohmann::json> select_trials(const nlohmann::json& study, TrialOrder order, int top) {
  std::vector<nlohmann::json> rows(study["trials"].begin(), study["trials"].end());
  if (order == TrialOrder::Value) {
    const bool minimize = study["direction"] == "minimize";
    auto rank = [](const nlohmann::json& t) {
      const std::string state = t["state"].get<std::string>();
      return state == "complete" ? 0 : state == "failed" ? 1 : 2;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const nlohmann::json& a, const nlohmann::json& b) {
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      if (rank(a) != 0) return false;  // stable: by id
      const double va = a["value"].get<double>(), vb = b["value"].get<double>();
      return minimize ? va < vb : va > vb;
    });
  }
  if (top > 0 && static_cast<int>(rows.size()) > top) rows.resize(static_cast<std::size_t>(top));
  return rows;
}

void print_study_table(std::ostream& out, const nlohmann::json& study, const std::vector<nlohmann::json>& rows) {
  const nlohmann::json s = for_terminal(study);
  print_header(out, s);
  print_rows(out, s, for_terminal(rows));
  print_counts_and_best(out, s);
}

void print_study_csv(std::ostream& out, const nlohmann::json& s, const std::vector<nlohmann::json>& rows) {
  const std::size_t dim = s["trials"].empty() ? 0 : s["trials"][0]["x"].size();
  const bool named = s.contains("best_params");
  bool any_sem = false;
  for (const auto& t : s["trials"]) any_sem = any_sem || t.contains("sem");
  out << "id,state,value";
  if (any_sem) out << ",sem";
  if (named)
    for (const auto& spec : s["space"]["params"]) out << "," << csv_field(spec["name"].get<std::string>());
  for (std::size_t i = 0; i < dim; ++i) out << ",x" << i;
  out << ",reason,worker\n";
  for (const auto& t : rows) {
    out << t["id"].get<int>() << "," << state_word(t) << ","
        << (t["value"].is_null() ? std::string() : csv_number(t["value"].get<double>()));
    if (any_sem) out << "," << (t.contains("sem") ? csv_number(t["sem"].get<double>()) : std::string());
    if (named)
      for (const auto& spec : s["space"]["params"]) {
        const nlohmann::json& v = t["params"][spec["name"].get<std::string>()];
        out << "," << (v.is_string() ? csv_field(v.get<std::string>()) : v.is_number_float() ? csv_number(v.get<double>()) : v.dump());
      }
    for (const auto& xi : t["x"]) out << "," << csv_number(xi.get<double>());
    out << "," << csv_field(t.contains("reason") ? t["reason"].get<std::string>() : std::string()) << ","
        << csv_field(t["worker"].get<std::string>()) << "\n";
  }
}

std::vector<nlohmann::json> pareto_trials(const nlohmann::json& s) {
  std::vector<nlohmann::json> rows;
  if (!s.contains("pareto_front")) return rows;
  for (const auto& p : s["pareto_front"])
    for (const auto& t : s["trials"])
      if (t["id"] == p["id"]) rows.push_back(t);
  return rows;
}

void print_pareto_front(std::ostream& out, const nlohmann::json& study) {
  const nlohmann::json s = for_terminal(study);
  print_header(out, s);
  print_rows(out, s, pareto_trials(s));
  print_hypervolume(out, s);
}

void print_run_summary(std::ostream& out, const nlohmann::json& study, int top, const std::string& show_all) {
  const nlohmann::json s = for_terminal(study);
  print_header(out, s);
  std::vector<nlohmann::json> best;
  // Several objectives: the Pareto front's trials (up to `top`) instead of the best values of the first.
  const std::vector<nlohmann::json> order =
      s.contains("pareto_front") ? pareto_trials(s) : select_trials(s, TrialOrder::Value, 0);
  for (const auto& t : order)
    if (t["state"] == "complete" && static_cast<int>(best.size()) < top) best.push_back(t);
  if (!best.empty()) {
    if (s.contains("pareto_front")) out << "Pareto front" << (order.size() > best.size() ? " (first " + std::to_string(top) + ")" : "") << ":\n";
    else if (s["n_complete"].get<int>() > top) out << "top " << top << " of " << s["n_complete"].get<int>() << " complete trials:\n";
    print_rows(out, s, best);
  }
  print_counts_and_best(out, s);
  const nlohmann::json* last_failed = nullptr;
  for (const auto& t : s["trials"])
    if (t["state"] == "failed") last_failed = &t;
  if (last_failed)
    out << "last failure: trial " << (*last_failed)["id"].get<int>() << " ("
        << (*last_failed)["reason"].get<std::string>() << ")\n";
  if (static_cast<int>(best.size()) < s["n_trials"].get<int>() && !show_all.empty())
    out << "every trial: " << show_all << "\n";
}

}  // namespace kbo::cli
