#include "kbo/kfo/svm.hpp"

#include <libsvm/svm.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"

namespace kbo::kfo {

namespace {

void quiet(const char*) {}
void silence_libsvm() {
  static const bool done = [] {
    svm_set_print_string_function(&quiet);
    return true;
  }();
  (void)done;
}

svm_parameter base_param(int kernel_type, double C, double gamma) {
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = kernel_type;
  p.degree = 3;
  p.gamma = gamma;
  p.coef0 = 0.0;
  p.cache_size = 100;
  p.eps = 1e-3;
  p.C = C;
  p.nr_weight = 0;
  p.weight_label = nullptr;
  p.weight = nullptr;
  p.nu = 0.5;
  p.p = 0.1;
  p.shrinking = 1;
  p.probability = 0;
  return p;
}

void check_labels(const Labels& labels, Eigen::Index n) {
  if (static_cast<Eigen::Index>(labels.size()) != n) throw InputError("SVM: number of labels does not match the data");
  if (n < 2) throw InputError("SVM: need at least 2 training points");
}

/// Precomputed-kernel rows in libsvm's format: [0:ID] [1:K(i,0)] … [n:K(i,n−1)] [−1]. The ID of row i is the
/// position (1-based) of its own column, so any subset of rows can be a training problem as long as every
/// row keeps all n columns.
struct KernelRows {
  std::vector<svm_node> nodes;
  std::vector<svm_node*> rows;
  int width = 0;
  KernelRows(const Mat& K, const std::vector<int>* ids) {
    const int n = static_cast<int>(K.rows());
    width = static_cast<int>(K.cols()) + 2;
    nodes.resize(static_cast<std::size_t>(n) * width);
    rows.resize(n);
    for (int i = 0; i < n; ++i) {
      svm_node* r = &nodes[static_cast<std::size_t>(i) * width];
      r[0].index = 0;
      r[0].value = ids ? (*ids)[i] : i + 1;
      for (int j = 0; j < K.cols(); ++j) {
        r[j + 1].index = j + 1;
        r[j + 1].value = K(i, j);
      }
      r[K.cols() + 1].index = -1;
      r[K.cols() + 1].value = 0.0;
      rows[i] = r;
    }
  }
};

struct FeatureRows {
  std::vector<svm_node> nodes;
  std::vector<svm_node*> rows;
  explicit FeatureRows(const Mat& X) {
    const int n = static_cast<int>(X.rows()), D = static_cast<int>(X.cols());
    nodes.resize(static_cast<std::size_t>(n) * (D + 1));
    rows.resize(n);
    for (int i = 0; i < n; ++i) {
      svm_node* r = &nodes[static_cast<std::size_t>(i) * (D + 1)];
      for (int j = 0; j < D; ++j) {
        r[j].index = j + 1;
        r[j].value = X(i, j);
      }
      r[D].index = -1;
      r[D].value = 0.0;
      rows[i] = r;
    }
  }
};

struct ModelHolder {
  svm_model* model = nullptr;
  ~ModelHolder() { reset(); }
  void reset() {
    if (model) svm_free_and_destroy_model(&model);
    model = nullptr;
  }
};

svm_model* train(std::vector<svm_node*>& rows, std::vector<double>& y, const svm_parameter& p) {
  svm_problem prob{};
  prob.l = static_cast<int>(rows.size());
  prob.y = y.data();
  prob.x = rows.data();
  if (const char* err = svm_check_parameter(&prob, &p)) throw InputError(std::string("libsvm: ") + err);
  return svm_train(&prob, &p);
}

}  // namespace

Folds make_folds(const Labels& labels, int k, std::uint64_t seed) {
  const int n = static_cast<int>(labels.size());
  if (k < 2 || k > n) throw InputError("cross-validation: folds must be in [2, n] (got " + std::to_string(k) + ")");
  Rng rng = make_rng(seed);
  std::map<int, std::vector<int>> by_class;
  for (int i = 0; i < n; ++i) by_class[labels[i]].push_back(i);
  Folds folds(k);
  int next = 0;
  for (auto& [label, idx] : by_class) {
    std::shuffle(idx.begin(), idx.end(), rng);
    for (int i : idx) {
      folds[next].push_back(i);
      next = (next + 1) % k;
    }
  }
  for (auto& f : folds) std::sort(f.begin(), f.end());
  return folds;
}

std::vector<double> default_c_grid() { return {1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3}; }

double error_rate(const Labels& predicted, const Labels& truth) {
  if (predicted.size() != truth.size() || truth.empty()) throw InputError("error_rate: size mismatch");
  int wrong = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) wrong += predicted[i] != truth[i];
  return static_cast<double>(wrong) / truth.size();
}

// ---- precomputed ----
struct PrecomputedSvm::Impl {
  std::unique_ptr<KernelRows> rows;
  std::vector<svm_node*> train_rows;
  std::vector<double> y;
  ModelHolder model;
  int n_train = 0;
};

PrecomputedSvm::PrecomputedSvm() : impl_(std::make_unique<Impl>()) { silence_libsvm(); }
PrecomputedSvm::~PrecomputedSvm() = default;

void PrecomputedSvm::fit(const Mat& K, const Labels& labels, double C) {
  if (K.rows() != K.cols()) throw InputError("SVM: training Gram matrix is not square");
  check_labels(labels, K.rows());
  impl_->model.reset();
  impl_->rows = std::make_unique<KernelRows>(K, nullptr);
  impl_->train_rows = impl_->rows->rows;
  impl_->y.assign(labels.begin(), labels.end());
  impl_->n_train = static_cast<int>(K.rows());
  svm_parameter p = base_param(PRECOMPUTED, C, 0.0);
  impl_->model.model = train(impl_->train_rows, impl_->y, p);
}

Labels PrecomputedSvm::predict(const Mat& K_test_train) const {
  if (!impl_->model.model) throw InputError("SVM: predict before fit");
  if (K_test_train.cols() != impl_->n_train) throw InputError("SVM: test kernel rows must have one column per training point");
  KernelRows rows(K_test_train, nullptr);
  Labels out(K_test_train.rows());
  for (Eigen::Index i = 0; i < K_test_train.rows(); ++i)
    out[i] = static_cast<int>(std::lround(svm_predict(impl_->model.model, rows.rows[i])));
  return out;
}

// ---- built-in RBF ----
struct RbfSvm::Impl {
  std::unique_ptr<FeatureRows> rows;
  std::vector<svm_node*> train_rows;
  std::vector<double> y;
  ModelHolder model;
  int dim = 0;
};

RbfSvm::RbfSvm() : impl_(std::make_unique<Impl>()) { silence_libsvm(); }
RbfSvm::~RbfSvm() = default;

void RbfSvm::fit(const Mat& X, const Labels& labels, double C, double gamma) {
  check_labels(labels, X.rows());
  impl_->model.reset();
  impl_->rows = std::make_unique<FeatureRows>(X);
  impl_->train_rows = impl_->rows->rows;
  impl_->y.assign(labels.begin(), labels.end());
  impl_->dim = static_cast<int>(X.cols());
  svm_parameter p = base_param(RBF, C, gamma);
  impl_->model.model = train(impl_->train_rows, impl_->y, p);
}

Labels RbfSvm::predict(const Mat& X) const {
  if (!impl_->model.model) throw InputError("SVM: predict before fit");
  if (X.cols() != impl_->dim) throw InputError("SVM: test points have the wrong dimension");
  FeatureRows rows(X);
  Labels out(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    out[i] = static_cast<int>(std::lround(svm_predict(impl_->model.model, rows.rows[i])));
  return out;
}

// ---- cross-validation ----
double cv_accuracy(const Mat& K, const Labels& labels, double C, const Folds& folds) {
  if (K.rows() != K.cols()) throw InputError("cross-validation: Gram matrix is not square");
  check_labels(labels, K.rows());
  silence_libsvm();
  const int n = static_cast<int>(K.rows());
  KernelRows all(K, nullptr);  // full rows: IDs index columns of the whole matrix
  svm_parameter p = base_param(PRECOMPUTED, C, 0.0);
  int correct = 0, total = 0;
  std::vector<char> in_test(n);
  for (const auto& test : folds) {
    std::fill(in_test.begin(), in_test.end(), 0);
    for (int i : test) in_test[i] = 1;
    std::vector<svm_node*> rows;
    std::vector<double> y;
    for (int i = 0; i < n; ++i)
      if (!in_test[i]) {
        rows.push_back(all.rows[i]);
        y.push_back(labels[i]);
      }
    if (rows.empty() || test.empty()) continue;
    ModelHolder m;
    m.model = train(rows, y, p);
    for (int i : test) {
      correct += static_cast<int>(std::lround(svm_predict(m.model, all.rows[i]))) == labels[i];
      ++total;
    }
  }
  return total ? static_cast<double>(correct) / total : 0.0;
}

CvChoice select_c(const Mat& K, const Labels& labels, const std::vector<double>& c_grid, const Folds& folds) {
  if (c_grid.empty()) throw InputError("SVM: empty C grid");
  CvChoice best{c_grid.front(), -1.0};
  for (double C : c_grid) {
    const double acc = cv_accuracy(K, labels, C, folds);
    if (acc > best.accuracy + 1e-12) best = {C, acc};
  }
  return best;
}

}  // namespace kbo::kfo
