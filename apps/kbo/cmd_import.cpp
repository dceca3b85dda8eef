// kbo import: add trials evaluated elsewhere from a CSV file (warm start).
#include <fstream>
#include <iostream>
#include <map>

#include "command.hpp"
#include "kbo/core/error.hpp"
#include "warm_start.hpp"

namespace kbo::cli {
namespace {

/// One CSV line split into cells ("..." quotes with "" inside, as `kbo show --format csv` writes them).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

/// A cell as JSON: a number if it reads as one, else the text (a category).
nlohmann::json cell_value(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_discarded() && (j.is_number() || j.is_boolean())) return j;
  return text;
}

int run_import(int argc, char** argv) {
  CLI::App app{"Add trials evaluated elsewhere (warm start) from a CSV file with a header row: a 'value' column, "
               "the point as one column per parameter name (named parameters) or x0, x1, ... (any space), and "
               "optionally constraint0, constraint1, ... (outcome constraints, feasible iff all <= 0) and sem (the "
               "standard error of the value; empty: none). Columns id, "
               "state, reason and worker are allowed (the output of `kbo show --format csv`): only rows whose state "
               "is complete are imported. Every row is checked before any is stored."};
  StudyOptionParser parser(app, kWhere | kWhat | kStrategy);
  parser.needs_persistent_storage();
  std::string path;
  app.add_option("--csv", path, "the CSV file")->required();
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  std::ifstream in(path);
  if (!in) throw InputError("--csv " + path + ": cannot read the file");
  Study study = open_or_create_study(o, "kbo import");
  std::string line;
  if (!std::getline(in, line)) throw InputError("--csv " + path + ": empty file (expected a header row)");
  const std::vector<std::string> header = csv_cells(line);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  if (!col.count("value")) throw InputError("--csv " + path + ": no 'value' column");
  const bool named = !study.space()->named(study.space()->bounds().lower).is_null();
  std::vector<std::string> names;
  if (named)
    for (const auto& p : study.record().space["params"])
      if (col.count(p["name"].get<std::string>())) names.push_back(p["name"].get<std::string>());
  const bool by_name = named && !names.empty();
  const int dim = study.space()->dim();
  if (!by_name)
    for (int i = 0; i < dim; ++i)
      if (!col.count("x" + std::to_string(i)))
        throw InputError("--csv " + path + ": no column x" + std::to_string(i) +
                         (named ? " (or one column per parameter name)" : ""));
  std::vector<std::size_t> cons;
  for (int j = 0; col.count("constraint" + std::to_string(j)); ++j) cons.push_back(col["constraint" + std::to_string(j)]);

  std::vector<EvaluatedPoint> rows;
  for (int lineno = 2; std::getline(in, line); ++lineno) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = "--csv " + path + " line " + std::to_string(lineno) + ": ";
    const std::vector<std::string> cells = csv_cells(line);
    if (cells.size() != header.size()) throw InputError(where + std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
    if (col.count("state") && cells[col["state"]] != "complete") continue;
    try {
      nlohmann::json point;
      if (by_name) {
        point = nlohmann::json::object();
        for (const auto& n : names) point[n] = cell_value(cells[col[n]]);
      } else {
        point = nlohmann::json::array();
        for (int i = 0; i < dim; ++i) point.push_back(cell_value(cells[col["x" + std::to_string(i)]]));
      }
      const nlohmann::json v = cell_value(cells[col["value"]]);
      if (!v.is_number()) throw InputError("value '" + cells[col["value"]] + "' is not a number");
      EvaluatedPoint r{study.point_from_json(point), v.get<double>(), {}, {}, std::nullopt};
      if (col.count("sem") && !cells[col["sem"]].empty()) {
        const nlohmann::json sv = cell_value(cells[col["sem"]]);
        if (!sv.is_number()) throw InputError("sem '" + cells[col["sem"]] + "' is not a number");
        r.sem = sv.get<double>();
      }
      for (std::size_t c : cons) {
        const nlohmann::json cv = cell_value(cells[c]);
        if (!cv.is_number()) throw InputError("constraint '" + cells[c] + "' is not a number");
        r.constraints.push_back(cv.get<double>());
      }
      rows.push_back(std::move(r));
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
  }
  // One transaction: the whole file is stored or, if a row is refused, none of it.
  for (const Trial& t : study.add_evaluated(rows)) std::cout << warm_start_line(study, t).dump() << std::endl;
  return 0;
}

}  // namespace
KBO_COMMAND("import", "add trials evaluated elsewhere from a CSV file (warm start)", run_import);
}  // namespace kbo::cli
