#pragma once
// Tabular data for `kbo kfo` and `kbo bench kfo`: CSV with the target in the last column, random
// train/test splits, [0,1] scaling fitted on the training part only.
#include <cstdint>
#include <string>
#include <vector>

#include "kbo/core/linalg.hpp"
#include "kbo/kfo/svm.hpp"

namespace kbo::kfo {

struct Dataset {
  std::string name;
  Mat X;  // n × D
  Vec y;  // n
};

/// Numeric CSV, comma separated, optional header row (a first line with a non-numeric field), target in the
/// last column, at least 2 columns and 4 rows. InputError naming the file, line and field otherwise.
Dataset load_csv(const std::string& path);

/// Integer class labels 0..K−1 (sorted distinct target values); InputError if a target is not an integer
/// or there are fewer than 2 classes.
Labels to_labels(const Vec& y);

struct Split {
  std::vector<int> train, test;
};
/// Seeded random split; test_fraction in (0, 1); both parts non-empty (InputError otherwise).
Split random_split(int n, double test_fraction, std::uint64_t seed);

Mat take_rows(const Mat& X, const std::vector<int>& idx);
Vec take(const Vec& y, const std::vector<int>& idx);
Labels take(const Labels& y, const std::vector<int>& idx);

/// Affine map of each column to [0,1] fitted on `fit` (constant columns map to 0), applied to `fit` and `other`.
void minmax_scale(Mat& fit, Mat& other);
/// Same for a target vector: returns (lo, hi) used.
std::pair<double, double> minmax_scale(Vec& fit, Vec& other);

}  // namespace kbo::kfo
