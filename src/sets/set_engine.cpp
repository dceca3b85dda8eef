#include "set_engine.hpp"

#include <cmath>

namespace kbo::sets_detail {

Mat stack_scaled(const Mat& X, int m, int d, const Vec& ls) {
  const Eigen::Index n = X.rows();
  Mat Z(n * m, d);
  for (Eigen::Index s = 0; s < n; ++s)
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < d; ++k) Z(s * m + i, k) = X(s, i * d + k);
  if (ls.size() == 1) {
    Z /= ls(0);
  } else {
    Z = Z * ls.cwiseInverse().asDiagonal();
  }
  return Z;
}

Mat sq_dist(const Mat& A, const Mat& B) {
  const Vec na = A.rowwise().squaredNorm();
  const Vec nb = B.rowwise().squaredNorm();
  Mat D = -2.0 * (A * B.transpose());
  D.colwise() += na;
  D.rowwise() += nb.transpose();
  return D.cwiseMax(0.0);
}

void profile_eval(StationaryType type, const Mat& r2, Mat& phi, Mat* g) {
  const auto R2 = r2.array();
  switch (type) {
    case StationaryType::RBF: {
      phi = (-0.5 * R2).exp().matrix();
      if (g) *g = phi;
      return;
    }
    case StationaryType::Matern12: {
      const Eigen::ArrayXXd r = R2.sqrt();
      const Eigen::ArrayXXd e = (-r).exp();
      phi = e.matrix();
      if (g) *g = (r > 0.0).select(e / r, 0.0).matrix();
      return;
    }
    case StationaryType::Matern32: {
      const double s3 = std::sqrt(3.0);
      const Eigen::ArrayXXd r = R2.sqrt();
      const Eigen::ArrayXXd e = (-s3 * r).exp();
      phi = ((1.0 + s3 * r) * e).matrix();
      if (g) *g = (3.0 * e).matrix();
      return;
    }
    case StationaryType::Matern52: {
      const double s5 = std::sqrt(5.0);
      const Eigen::ArrayXXd r = R2.sqrt();
      const Eigen::ArrayXXd e = (-s5 * r).exp();
      const Eigen::ArrayXXd lin = 1.0 + s5 * r;
      phi = ((lin + (5.0 / 3.0) * R2) * e).matrix();
      if (g) *g = ((5.0 / 3.0) * lin * e).matrix();
      return;
    }
  }
}

Mat block_sums(const Mat& P, int ma, int mb) {
  const Eigen::Index ra = P.rows() / ma, cols = P.cols(), cb = cols / mb;
  // Column-major P viewed as ma x (ra·cols): column a + j·ra holds rows a·ma..a·ma+ma-1 of column j,
  // so its column sums, read as ra x cols, are the row-block sums T.
  Eigen::RowVectorXd s1 = Eigen::Map<const Mat>(P.data(), ma, ra * cols).colwise().sum();
  const Mat Tt = Eigen::Map<const Mat>(s1.data(), ra, cols).transpose();  // (cb·mb) x ra
  // Same trick on Tᵀ sums the column blocks.
  Eigen::RowVectorXd s2 = Eigen::Map<const Mat>(Tt.data(), mb, cb * ra).colwise().sum();
  return Eigen::Map<const Mat>(s2.data(), cb, ra).transpose();
}

Mat expand_blocks(const Mat& W, int ma, int mb) {
  Mat E(W.rows() * ma, W.cols() * mb);
  for (Eigen::Index j = 0; j < E.cols(); ++j) {
    const Eigen::Index cj = j / mb;
    for (Eigen::Index i = 0; i < W.rows(); ++i) E.col(j).segment(i * ma, ma).setConstant(W(i, cj));
  }
  return E;
}

}  // namespace kbo::sets_detail
