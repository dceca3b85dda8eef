#pragma once
// Cross-validated choice of an SVM's C on an indefinite Gram matrix with the Kreĭn → PSD fix applied inside
// each fold (the fold's training block is fixed, its held-out rows mapped by the same ϑ; psd.hpp).
#include <vector>

#include "kbo/kfo/psd.hpp"
#include "kbo/kfo/svm.hpp"

namespace kbo::kfo {

/// Best C on the grid by CV accuracy (ties: the smaller C). With fix None, or a PSD K under Clip, this is
/// select_c(K, …) up to libsvm's floating point.
CvChoice select_c_fixed_per_fold(const Mat& K, const Labels& labels, const std::vector<double>& c_grid,
                                 const Folds& folds, SpectrumFix fix);

}  // namespace kbo::kfo
