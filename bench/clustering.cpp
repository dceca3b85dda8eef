#include "clustering.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <numeric>
#include <sstream>

#include "kbo/core/csv.hpp"
#include "kbo/core/error.hpp"

namespace kbo::bench {

LabeledData make_blobs(int n, int d, int k, std::uint64_t seed) {
  if (n < k || d < 1 || k < 1) throw InputError("make_blobs: need n >= k >= 1 and d >= 1");
  Rng rng = make_rng(seed);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  std::normal_distribution<double> nd;
  Mat C(k, d);
  for (int i = 0; i < C.size(); ++i) C(i) = u(rng);
  LabeledData out;
  out.X.resize(n, d);
  for (int i = 0; i < n; ++i) {
    const int c = i % k;  // equal cluster sizes (±1), like make_blobs with an integer n
    for (int j = 0; j < d; ++j) out.X(i, j) = C(c, j) + nd(rng);
    out.labels.push_back(c);
  }
  return out;
}

LabeledData load_labeled_csv(const std::string& path) {
  Mat X;
  Vec y;
  split_target(read_csv(path), X, y);
  LabeledData out;
  out.X = std::move(X);
  for (Eigen::Index i = 0; i < y.size(); ++i) out.labels.push_back(static_cast<int>(std::lround(y[i])));
  return out;
}

Split train_test_split(const LabeledData& data, double train_fraction, std::uint64_t seed) {
  const int n = static_cast<int>(data.X.rows());
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  Rng rng = make_rng(seed);
  std::shuffle(idx.begin(), idx.end(), rng);
  const int ntr = static_cast<int>(std::lround(train_fraction * n));
  Split s;
  s.train.X.resize(ntr, data.X.cols());
  s.test.X.resize(n - ntr, data.X.cols());
  for (int i = 0; i < n; ++i) {
    LabeledData& part = i < ntr ? s.train : s.test;
    const int row = i < ntr ? i : i - ntr;
    part.X.row(row) = data.X.row(idx[i]);
    part.labels.push_back(data.labels[idx[i]]);
  }
  return s;
}

namespace {
Mat sq_dists(const Mat& X, const Mat& C) {
  Mat D = -2.0 * X * C.transpose();
  D.colwise() += X.rowwise().squaredNorm();
  D.rowwise() += C.rowwise().squaredNorm().transpose();
  return D.cwiseMax(0.0);
}
}  // namespace

std::vector<int> nearest_centre(const Mat& X, const Mat& C) {
  const Mat D = sq_dists(X, C);
  std::vector<int> lab(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) D.row(i).minCoeff(&lab[i]);
  return lab;
}

Mat kmeans(const Mat& X, const Mat& init, int max_iter) {
  Mat C = init;
  std::vector<int> lab = nearest_centre(X, C);
  for (int it = 0; it < max_iter; ++it) {
    Mat sum = Mat::Zero(C.rows(), C.cols());
    Vec cnt = Vec::Zero(C.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      sum.row(lab[i]) += X.row(i);
      cnt(lab[i]) += 1;
    }
    for (Eigen::Index j = 0; j < C.rows(); ++j)
      if (cnt(j) > 0) C.row(j) = sum.row(j) / cnt(j);
    std::vector<int> next = nearest_centre(X, C);
    if (next == lab) break;
    lab = std::move(next);
  }
  return C;
}

Mat kmeans_pp_init(const Mat& X, int k, Rng& rng) {
  const int n = static_cast<int>(X.rows());
  Mat C(k, X.cols());
  std::uniform_int_distribution<int> first(0, n - 1);
  C.row(0) = X.row(first(rng));
  Vec dist = sq_dists(X, C.topRows(1)).col(0);
  for (int j = 1; j < k; ++j) {
    std::discrete_distribution<int> pick(dist.data(), dist.data() + n);
    C.row(j) = X.row(pick(rng));
    dist = dist.cwiseMin(sq_dists(X, C.row(j)).col(0));
  }
  return C;
}

double soft_kmeans_cost(const Mat& X, const Mat& C) {
  const Mat D = sq_dists(X, C);
  double total = 0;
  for (Eigen::Index i = 0; i < D.rows(); ++i) {
    const double mn = D.row(i).minCoeff();
    const Eigen::ArrayXd w = (-(D.row(i).array() - mn)).exp();
    total += (w * D.row(i).transpose().array()).sum() / w.sum();
  }
  return total;
}

namespace {

// log N(x_i; μ, Σ) for every row, via the Cholesky factor of Σ.
Vec log_gauss(const Mat& X, const Vec& mu, const Mat& cov) {
  const int d = static_cast<int>(X.cols());
  Eigen::LLT<Mat> llt(cov);
  if (llt.info() != Eigen::Success) throw NumericalError("GMM: covariance is not positive definite");
  const Mat Lm = llt.matrixL();
  const double logdet = 2.0 * Lm.diagonal().array().log().sum();
  const Mat Z = llt.matrixL().solve((X.rowwise() - mu.transpose()).transpose());  // d x n
  return (-0.5 * (d * std::log(2.0 * std::numbers::pi) + logdet) - 0.5 * Z.colwise().squaredNorm().array())
      .matrix()
      .transpose();
}

// E-step: log responsibilities (n x k) and the mean log-likelihood.
double e_step(const Mat& X, const Gmm& g, Mat& logr) {
  const int n = static_cast<int>(X.rows()), k = static_cast<int>(g.means.rows());
  logr.resize(n, k);
  for (int j = 0; j < k; ++j) logr.col(j) = log_gauss(X, g.means.row(j).transpose(), g.covs[j]).array() + std::log(g.weights(j));
  double ll = 0;
  for (int i = 0; i < n; ++i) {
    const double mx = logr.row(i).maxCoeff();
    const double lse = mx + std::log((logr.row(i).array() - mx).exp().sum());
    logr.row(i).array() -= lse;
    ll += lse;
  }
  return ll / n;
}

void m_step(const Mat& X, const Mat& R, bool diagonal, double reg, Gmm& g, bool update_means) {
  const int n = static_cast<int>(X.rows()), d = static_cast<int>(X.cols()), k = static_cast<int>(R.cols());
  const Vec Nk = R.colwise().sum().transpose().array() + 10 * std::numeric_limits<double>::epsilon();
  g.weights = Nk / n;
  if (update_means) g.means = (R.transpose() * X).array().colwise() / Nk.array();
  g.covs.assign(k, Mat());
  for (int j = 0; j < k; ++j) {
    const Mat D = X.rowwise() - g.means.row(j);
    Mat S;
    if (diagonal) {
      S = Mat::Zero(d, d);
      S.diagonal() = (D.array().square().colwise() * R.col(j).array()).colwise().sum().transpose() / Nk(j);
    } else {
      S = D.transpose() * R.col(j).asDiagonal() * D / Nk(j);
    }
    S.diagonal().array() += reg;
    g.covs[j] = S;
  }
}

}  // namespace

Gmm fit_gmm(const Mat& X, const Mat& means_init, bool diagonal, int max_iter, double tol, double reg_covar) {
  const int n = static_cast<int>(X.rows()), k = static_cast<int>(means_init.rows());
  Gmm g;
  g.means = means_init;
  // Initial responsibilities: hard assignment to the nearest given mean; weights/covariances from them.
  Mat R = Mat::Zero(n, k);
  const std::vector<int> lab = nearest_centre(X, means_init);
  for (int i = 0; i < n; ++i) R(i, lab[i]) = 1.0;
  m_step(X, R, diagonal, reg_covar, g, /*update_means=*/false);
  Mat logr;
  double prev = -std::numeric_limits<double>::infinity();
  for (int it = 1; it <= max_iter; ++it) {
    const double ll = e_step(X, g, logr);
    g.mean_log_likelihood = ll;
    g.iterations = it;
    if (std::abs(ll - prev) < tol) break;
    prev = ll;
    m_step(X, logr.array().exp().matrix(), diagonal, reg_covar, g, true);
  }
  return g;
}

std::vector<int> gmm_predict(const Gmm& g, const Mat& X) {
  Mat logr;
  e_step(X, g, logr);
  std::vector<int> lab(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) logr.row(i).maxCoeff(&lab[i]);
  return lab;
}

double adjusted_rand_index(const std::vector<int>& a, const std::vector<int>& b) {
  if (a.size() != b.size()) throw InputError("adjusted_rand_index: labelings have different lengths");
  const double n = static_cast<double>(a.size());
  std::map<std::pair<int, int>, double> nij;
  std::map<int, double> ai, bj;
  for (std::size_t i = 0; i < a.size(); ++i) {
    nij[{a[i], b[i]}] += 1;
    ai[a[i]] += 1;
    bj[b[i]] += 1;
  }
  auto c2 = [](double x) { return x * (x - 1) / 2.0; };
  double sum_ij = 0, sum_a = 0, sum_b = 0;
  for (auto& [key, v] : nij) sum_ij += c2(v);
  for (auto& [key, v] : ai) sum_a += c2(v);
  for (auto& [key, v] : bj) sum_b += c2(v);
  const double expected = sum_a * sum_b / c2(n);
  const double max_index = 0.5 * (sum_a + sum_b);
  if (max_index == expected) return 1.0;  // both labelings trivial (sklearn's convention)
  return (sum_ij - expected) / (max_index - expected);
}

}  // namespace kbo::bench
