#include "kbo/core/csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kbo {

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream s(line);
  while (std::getline(s, cell, ',')) {
    size_t a = cell.find_first_not_of(" \t\r\"");
    size_t b = cell.find_last_not_of(" \t\r\"");
    cells.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
  }
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}
bool parse_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}
}  // namespace

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read CSV file '" + path + "'");
  CsvTable table;
  std::vector<std::vector<double>> rows;
  std::string line;
  size_t columns = 0;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto cells = split(line);
    if (columns == 0) columns = cells.size();
    if (cells.size() != columns)
      throw InputError(path + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
                       " columns, expected " + std::to_string(columns) + " (ragged row)");
    std::vector<double> row(columns);
    bool numeric = true;
    size_t bad = 0;
    for (size_t j = 0; j < columns; ++j)
      if (!parse_number(cells[j], row[j])) numeric = false, bad = j;
    if (!numeric) {
      if (rows.empty() && table.header.empty()) {
        table.header = cells;
        continue;
      }
      throw InputError(path + ":" + std::to_string(line_no) + ": column " + std::to_string(bad + 1) + " ('" +
                       cells[bad] + "') is not a number");
    }
    for (size_t j = 0; j < columns; ++j)
      if (!std::isfinite(row[j]))
        throw InputError(path + ":" + std::to_string(line_no) + ": column " + std::to_string(j + 1) +
                         " is NaN or infinite");
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw InputError("CSV file '" + path + "' has no data rows");
  table.values.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns));
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < columns; ++j) table.values(i, j) = rows[i][j];
  return table;
}

void split_target(const CsvTable& table, Mat& X, Vec& y) {
  if (table.values.cols() < 2) throw InputError("CSV needs at least 2 columns (features..., target)");
  X = table.values.leftCols(table.values.cols() - 1);
  y = table.values.col(table.values.cols() - 1);
}

}  // namespace kbo
