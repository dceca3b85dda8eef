// C by cross-validation for an indefinite Gram matrix, with the spectrum fix applied inside each fold: the
// fold's training block is clipped (or flipped) and its held-out rows mapped by the same ϑ, as a test set
// would be. Clipping the whole matrix first lets the held-out rows shape the training kernel (a small
// optimistic bias of the CV score).
#include "kbo/kfo/cv_psd.hpp"

#include "kbo/core/error.hpp"

namespace kbo::kfo {

CvChoice select_c_fixed_per_fold(const Mat& K, const Labels& labels, const std::vector<double>& c_grid,
                                 const Folds& folds, SpectrumFix fix) {
  if (c_grid.empty()) throw InputError("SVM: empty C grid");
  if (K.rows() != K.cols() || static_cast<Eigen::Index>(labels.size()) != K.rows())
    throw InputError("cross-validation: Gram matrix and labels do not match");
  const int n = static_cast<int>(K.rows());
  std::vector<int> correct(c_grid.size(), 0);
  int total = 0;
  std::vector<char> held(n);
  for (const auto& test : folds) {
    std::fill(held.begin(), held.end(), 0);
    for (int i : test) held[i] = 1;
    std::vector<int> train;
    for (int i = 0; i < n; ++i)
      if (!held[i]) train.push_back(i);
    if (train.empty() || test.empty()) continue;
    Mat Ktt(train.size(), train.size()), Kht(test.size(), train.size());
    Labels ytr, yte;
    for (size_t a = 0; a < train.size(); ++a) {
      ytr.push_back(labels[train[a]]);
      for (size_t b = 0; b < train.size(); ++b) Ktt(a, b) = K(train[a], train[b]);
    }
    for (size_t a = 0; a < test.size(); ++a) {
      yte.push_back(labels[test[a]]);
      for (size_t b = 0; b < train.size(); ++b) Kht(a, b) = K(test[a], train[b]);
    }
    const SpectralTransform T(Ktt, fix);
    const Mat Khat = T.test(Kht);
    for (size_t c = 0; c < c_grid.size(); ++c) {
      PrecomputedSvm svm;
      svm.fit(T.train(), ytr, c_grid[c]);
      const Labels pred = svm.predict(Khat);
      for (size_t i = 0; i < pred.size(); ++i) correct[c] += pred[i] == yte[i];
    }
    total += static_cast<int>(test.size());
  }
  CvChoice best{c_grid.front(), -1.0};
  for (size_t c = 0; c < c_grid.size(); ++c) {
    const double acc = total ? static_cast<double>(correct[c]) / total : 0.0;
    if (acc > best.accuracy + 1e-12) best = {c_grid[c], acc};
  }
  return best;
}

}  // namespace kbo::kfo
