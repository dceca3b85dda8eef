#include "kbo/kfo/data.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"

namespace kbo::kfo {

namespace {
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream is(line);
  while (std::getline(is, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}
bool parse_double(std::string s, double& v) {
  s.erase(0, s.find_first_not_of(" \t\r\""));
  s.erase(s.find_last_not_of(" \t\r\"") + 1);
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0' && std::isfinite(v);
}
}  // namespace

Dataset load_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open data file '" + path + "'");
  std::vector<std::vector<double>> rows;
  std::string line;
  int lineno = 0;
  std::size_t width = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    auto fields = split_fields(line);
    std::vector<double> vals(fields.size());
    bool numeric = true;
    for (std::size_t j = 0; j < fields.size() && numeric; ++j) numeric = parse_double(fields[j], vals[j]);
    if (!numeric) {
      if (rows.empty() && width == 0) {  // header
        width = fields.size();
        continue;
      }
      throw InputError("data file '" + path + "' line " + std::to_string(lineno) +
                       ": non-numeric or missing value (only numeric CSV is allowed, target in the last column)");
    }
    if (width == 0) width = fields.size();
    if (fields.size() != width)
      throw InputError("data file '" + path + "' line " + std::to_string(lineno) + ": " + std::to_string(fields.size()) +
                       " fields, expected " + std::to_string(width));
    rows.push_back(std::move(vals));
  }
  if (width < 2) throw InputError("data file '" + path + "' needs at least 2 columns (features..., target)");
  if (rows.size() < 4) throw InputError("data file '" + path + "' needs at least 4 data rows");
  Dataset d;
  d.name = path.substr(path.find_last_of('/') + 1);
  d.X.resize(rows.size(), width - 1);
  d.y.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j + 1 < width; ++j) d.X(i, j) = rows[i][j];
    d.y(i) = rows[i][width - 1];
  }
  return d;
}

Labels to_labels(const Vec& y) {
  std::map<long long, int> codes;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (std::abs(y(i) - std::round(y(i))) > 1e-9)
      throw InputError("classification target " + std::to_string(y(i)) + " is not an integer class label");
    codes[std::llround(y(i))] = 0;
  }
  if (codes.size() < 2) throw InputError("classification needs at least 2 classes in the target column");
  int k = 0;
  for (auto& [v, c] : codes) c = k++;
  Labels out(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) out[i] = codes[std::llround(y(i))];
  return out;
}

Split random_split(int n, double test_fraction, std::uint64_t seed) {
  if (!(test_fraction > 0.0 && test_fraction < 1.0))
    throw InputError("--test-fraction must be in (0, 1) (got " + std::to_string(test_fraction) + ")");
  const int n_test = static_cast<int>(std::lround(test_fraction * n));
  if (n_test < 1 || n_test > n - 2) throw InputError("test fraction leaves an empty test or training part");
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng = make_rng(seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  Split s;
  s.test.assign(perm.begin(), perm.begin() + n_test);
  s.train.assign(perm.begin() + n_test, perm.end());
  std::sort(s.test.begin(), s.test.end());
  std::sort(s.train.begin(), s.train.end());
  return s;
}

Mat take_rows(const Mat& X, const std::vector<int>& idx) {
  Mat out(idx.size(), X.cols());
  for (std::size_t i = 0; i < idx.size(); ++i) out.row(i) = X.row(idx[i]);
  return out;
}
Vec take(const Vec& y, const std::vector<int>& idx) {
  Vec out(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) out(i) = y(idx[i]);
  return out;
}
Labels take(const Labels& y, const std::vector<int>& idx) {
  Labels out(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) out[i] = y[idx[i]];
  return out;
}

void minmax_scale(Mat& fit, Mat& other) {
  for (Eigen::Index j = 0; j < fit.cols(); ++j) {
    const double lo = fit.col(j).minCoeff(), hi = fit.col(j).maxCoeff();
    const double span = hi - lo;
    if (span > 0.0) {
      fit.col(j) = (fit.col(j).array() - lo) / span;
      if (other.rows()) other.col(j) = (other.col(j).array() - lo) / span;
    } else {
      fit.col(j).setZero();
      if (other.rows()) other.col(j).setZero();
    }
  }
}

std::pair<double, double> minmax_scale(Vec& fit, Vec& other) {
  const double lo = fit.minCoeff(), hi = fit.maxCoeff();
  const double span = hi > lo ? hi - lo : 1.0;
  fit = (fit.array() - lo) / span;
  if (other.size()) other = (other.array() - lo) / span;
  return {lo, hi};
}

}  // namespace kbo::kfo
