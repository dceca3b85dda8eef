#pragma once
// Numeric CSV tables (comma-separated, optional header row of names). Errors name the file, the line
// and the column.
#include <string>
#include <vector>

#include "kbo/core/linalg.hpp"

namespace kbo {

struct CsvTable {
  std::vector<std::string> header;  // empty when the file has no header row
  Mat values;                       // rows x columns
};

/// Reads a numeric CSV. InputError if the file cannot be read, is empty, has ragged rows, a
/// non-numeric cell (outside the header), or NaN/inf values.
CsvTable read_csv(const std::string& path);

/// Splits the last column off as the target: X = all but last column, y = last column.
void split_target(const CsvTable& table, Mat& X, Vec& y);

}  // namespace kbo
