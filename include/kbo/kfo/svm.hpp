#pragma once
// C-SVM classification through libsvm (multi-class: libsvm's one-vs-one), with a precomputed Gram matrix
// (any kernel, e.g. KFO's) or libsvm's built-in RBF. Cross-validation uses folds chosen here (seeded), so
// the CV error of a kernel is a deterministic function of the kernel — what the KFO search needs.
#include <cstdint>
#include <memory>
#include <vector>

#include "kbo/core/linalg.hpp"

namespace kbo::kfo {

using Labels = std::vector<int>;
using Folds = std::vector<std::vector<int>>;  // test indices of each fold

/// k folds over n items: a seeded shuffle, stratified by label (each class spread over the folds).
Folds make_folds(const Labels& labels, int k, std::uint64_t seed);
/// C ∈ 10^{−3..3} (the paper's range), 7 values.
std::vector<double> default_c_grid();
double error_rate(const Labels& predicted, const Labels& truth);

/// An SVM trained on a precomputed Gram matrix.
class PrecomputedSvm {
 public:
  PrecomputedSvm();
  ~PrecomputedSvm();
  PrecomputedSvm(const PrecomputedSvm&) = delete;
  PrecomputedSvm& operator=(const PrecomputedSvm&) = delete;
  /// K_train: n × n Gram; labels: n integers.
  void fit(const Mat& K_train, const Labels& labels, double C);
  /// K_test_train: m × n kernel values between test points and the training points of fit().
  Labels predict(const Mat& K_test_train) const;
 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// libsvm's built-in RBF kernel exp(−γ ||x − x'||²) on the rows of X.
class RbfSvm {
 public:
  RbfSvm();
  ~RbfSvm();
  RbfSvm(const RbfSvm&) = delete;
  RbfSvm& operator=(const RbfSvm&) = delete;
  void fit(const Mat& X, const Labels& labels, double C, double gamma);
  Labels predict(const Mat& X) const;
 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Mean CV accuracy of a precomputed-kernel SVM with cost C (folds index the rows of K).
double cv_accuracy(const Mat& K, const Labels& labels, double C, const Folds& folds);
struct CvChoice {
  double C = 1.0;
  double accuracy = 0.0;
};
/// Best C on the grid by CV accuracy (ties: the smaller C).
CvChoice select_c(const Mat& K, const Labels& labels, const std::vector<double>& c_grid, const Folds& folds);

}  // namespace kbo::kfo
