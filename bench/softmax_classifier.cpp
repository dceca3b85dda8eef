#include "softmax_classifier.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

#include "kbo/core/csv.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"

namespace kbo::bench {

ClassificationData read_classification_csv(const std::string& path) {
  Mat X;
  Vec t;
  split_target(read_csv(path), X, t);
  if (X.rows() < 10) throw InputError("data file '" + path + "' has too few rows");
  ClassificationData d;
  d.X = std::move(X);
  d.y.resize(t.size());
  for (Eigen::Index i = 0; i < t.size(); ++i) {
    if (t[i] < 0 || t[i] != std::floor(t[i])) throw InputError("data file '" + path + "': labels must be integers >= 0");
    d.y[i] = static_cast<int>(t[i]);
  }
  d.classes = d.y.maxCoeff() + 1;
  return d;
}

SoftmaxTuningProblem::SoftmaxTuningProblem(ClassificationData data, std::uint64_t split_seed, int epochs,
                                           std::uint64_t train_seed)
    : K_(data.classes), epochs_(epochs), train_seed_(train_seed) {
  const int n = static_cast<int>(data.X.rows());
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng = make_rng(split_seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  const int ntr = static_cast<int>(0.6 * n), nva = static_cast<int>(0.2 * n), nte = n - ntr - nva;
  auto take = [&](int from, int count, Mat& X, Eigen::VectorXi& y) {
    X.resize(count, data.X.cols());
    y.resize(count);
    for (int i = 0; i < count; ++i) {
      X.row(i) = data.X.row(perm[from + i]);
      y[i] = data.y[perm[from + i]];
    }
  };
  take(0, ntr, Xtr_, ytr_);
  take(ntr, nva, Xva_, yva_);
  take(ntr + nva, nte, Xte_, yte_);
  // Scale by the training maximum (per feature; constant-zero features stay 0).
  for (int j = 0; j < Xtr_.cols(); ++j) {
    const double m = Xtr_.col(j).cwiseAbs().maxCoeff();
    if (m > 0) {
      Xtr_.col(j) /= m;
      Xva_.col(j) /= m;
      Xte_.col(j) /= m;
    }
  }
}

SoftmaxHyper SoftmaxTuningProblem::from_unit(const Vec& u) {
  if (u.size() != 4) throw InputError("softmax tuning: expected 4 coordinates");
  SoftmaxHyper h;
  h.learning_rate = std::pow(10.0, -4.0 + 4.0 * u[0]);
  h.l2 = std::pow(10.0, -6.0 + 6.0 * u[1]);
  h.batch_size = static_cast<int>(std::lround(std::pow(2.0, 3.0 + 6.0 * u[2])));
  h.dropout = 0.75 * u[3];
  return h;
}

namespace {
// Row-wise softmax probabilities of logits Z (n x K), stable.
Mat softmax_rows(const Mat& Z) {
  Mat P = Z.colwise() - Z.rowwise().maxCoeff();
  P = P.array().exp();
  P.array().colwise() /= P.rowwise().sum().array();
  return P;
}
double mean_cross_entropy(const Mat& X, const Eigen::VectorXi& y, const Mat& W) {
  const int p = static_cast<int>(X.cols());
  const Mat Z = (X * W.topRows(p)).rowwise() + W.row(p);
  double s = 0.0;
  for (int i = 0; i < X.rows(); ++i) {
    const double m = Z.row(i).maxCoeff();
    s += m + std::log((Z.row(i).array() - m).exp().sum()) - Z(i, y[i]);
  }
  return s / X.rows();
}
}  // namespace

Mat SoftmaxTuningProblem::train(const SoftmaxHyper& h) const {
  const int n = static_cast<int>(Xtr_.rows()), p = static_cast<int>(Xtr_.cols());
  Mat W = Mat::Zero(p + 1, K_);
  Rng rng = make_rng(train_seed_);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  const int B = std::clamp(h.batch_size, 1, n);
  const double keep = 1.0 - h.dropout;
  for (int e = 0; e < epochs_; ++e) {
    std::shuffle(order.begin(), order.end(), rng);
    for (int start = 0; start < n; start += B) {
      const int m = std::min(B, n - start);
      Mat Xb(m, p);
      Mat Y = Mat::Zero(m, K_);
      for (int i = 0; i < m; ++i) {
        Xb.row(i) = Xtr_.row(order[start + i]);
        Y(i, ytr_[order[start + i]]) = 1.0;
      }
      if (h.dropout > 0.0)  // inverted dropout on the inputs
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < p; ++j) Xb(i, j) = unif(rng) < keep ? Xb(i, j) / keep : 0.0;
      const Mat P = softmax_rows((Xb * W.topRows(p)).rowwise() + W.row(p));
      const Mat G = (P - Y) / m;  // d loss / d logits
      Mat grad(p + 1, K_);
      grad.topRows(p) = Xb.transpose() * G + h.l2 * W.topRows(p);
      grad.row(p) = G.colwise().sum();
      W -= h.learning_rate * grad;
      if (!W.allFinite()) return W;
    }
  }
  return W;
}

double SoftmaxTuningProblem::validation_loss(const SoftmaxHyper& h) const {
  double v, a;
  evaluate(h, v, a);
  return v;
}

void SoftmaxTuningProblem::evaluate(const SoftmaxHyper& h, double& val_loss, double& test_accuracy) const {
  const Mat W = train(h);
  const double cap = std::log(static_cast<double>(K_)) + 1.0;  // worse than the uniform predictor
  if (!W.allFinite()) {
    val_loss = cap;
    test_accuracy = 0.0;
    return;
  }
  val_loss = std::min(cap, mean_cross_entropy(Xva_, yva_, W));
  if (!std::isfinite(val_loss)) val_loss = cap;
  const int p = static_cast<int>(Xte_.cols());
  const Mat Z = (Xte_ * W.topRows(p)).rowwise() + W.row(p);
  int correct = 0;
  for (int i = 0; i < Z.rows(); ++i) {
    Eigen::Index k;
    Z.row(i).maxCoeff(&k);
    correct += (k == yte_[i]);
  }
  test_accuracy = static_cast<double>(correct) / Z.rows();
}

}  // namespace kbo::bench
