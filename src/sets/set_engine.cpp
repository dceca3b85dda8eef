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

void tile_block_sums(StationaryType type, const Eigen::Ref<const Mat>& A, const Eigen::Ref<const Mat>& B, int L,
                     bool zero_diag, bool want_gr2, bool want_gd, TileSums& out) {
  const Eigen::Index R = A.rows(), C = B.rows(), ni = R / L, nj = C / L, d = A.cols();
  Mat G(R, C);
  G.noalias() = A * B.transpose();  // the one GEMM of the tile
  const Eigen::ArrayXd na = A.rowwise().squaredNorm();
  const Eigen::ArrayXd nb = B.rowwise().squaredNorm();
  out.phi = Mat::Zero(ni, nj);
  if (want_gr2) out.gr2 = Mat::Zero(ni, nj);
  if (want_gd) out.gd.assign(d, Mat::Zero(ni, nj));
  const bool need_g = want_gr2 || want_gd;
  Eigen::ArrayXd r2(R), r(R), e(R), phi(R), g(R), tmp(R);
  const double s3 = std::sqrt(3.0), s5 = std::sqrt(5.0);
  // Row-block sums of a column: view it as L x ni and sum each column.
  auto add_block = [&](Mat& S, const Eigen::ArrayXd& v, Eigen::Index j) {
    S.col(j / L) += Eigen::Map<const Mat>(v.data(), L, ni).colwise().sum().transpose();
  };
  for (Eigen::Index j = 0; j < C; ++j) {
    r2 = (na + nb(j) - 2.0 * G.col(j).array()).max(0.0);
    if (zero_diag && j < R) r2(j) = 0.0;
    switch (type) {
      case StationaryType::RBF:
        phi = (-0.5 * r2).exp();
        if (need_g) g = phi;
        break;
      case StationaryType::Matern12:
        r = r2.sqrt();
        phi = (-r).exp();
        if (need_g) g = (r > 0.0).select(phi / r, 0.0);
        break;
      case StationaryType::Matern32:
        r = r2.sqrt();
        e = (-s3 * r).exp();
        phi = (1.0 + s3 * r) * e;
        if (need_g) g = 3.0 * e;
        break;
      case StationaryType::Matern52:
        r = r2.sqrt();
        e = (-s5 * r).exp();
        phi = (1.0 + s5 * r + (5.0 / 3.0) * r2) * e;
        if (need_g) g = (5.0 / 3.0) * (1.0 + s5 * r) * e;
        break;
    }
    add_block(out.phi, phi, j);
    if (want_gr2) {
      tmp = g * r2;
      add_block(out.gr2, tmp, j);
    }
    if (want_gd)
      for (Eigen::Index k = 0; k < d; ++k) {
        tmp = g * (A.col(k).array() - B(j, k)).square();
        add_block(out.gd[k], tmp, j);
      }
  }
  (void)nj;
}

}  // namespace kbo::sets_detail
