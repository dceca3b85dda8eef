// Clustering helpers of the set-BO clustering study: ARI against published values, k-means/GMM on
// data whose answer is known.
#include <gtest/gtest.h>

#include <set>

#include "clustering.hpp"

namespace kbo::bench {
namespace {

TEST(Clustering, AdjustedRandIndexKnownValues) {
  // Values from scikit-learn's adjusted_rand_score documentation.
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1}, {0, 0, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1}, {1, 1, 0, 0}), 1.0);
  EXPECT_NEAR(adjusted_rand_index({0, 0, 1, 2}, {0, 0, 1, 1}), 4.0 / 7.0, 1e-15);  // 0.57
  EXPECT_NEAR(adjusted_rand_index({0, 0, 1, 1}, {0, 0, 1, 2}), 4.0 / 7.0, 1e-15);
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 0, 0}, {0, 1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1}, {0, 1, 0, 1}), -0.5);
  EXPECT_THROW(adjusted_rand_index({0, 1}, {0}), InputError);
}

TEST(Clustering, KmeansAndGmmRecoverSeparatedBlobs) {
  // Four unit-variance clusters 20 apart: EM's fixed point is each cluster's own maximum-likelihood
  // Gaussian (responsibilities are 0/1 to machine precision), computed here directly.
  Rng rng = make_rng(7);
  std::normal_distribution<double> nd;
  const int per = 60, k = 4, d = 3;
  LabeledData data;
  data.X.resize(per * k, d);
  for (int c = 0; c < k; ++c)
    for (int i = 0; i < per; ++i) {
      for (int j = 0; j < d; ++j) data.X(c * per + i, j) = nd(rng) + (j == 0 ? 20.0 * c : 0.0);
      data.labels.push_back(c);
    }
  Mat init(k, d);
  for (int c = 0; c < k; ++c) init.row(c) = data.X.row(c * per);  // one true member of each cluster
  const Mat C = kmeans(data.X, init);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(nearest_centre(data.X, C), data.labels), 1.0);
  for (bool diagonal : {false, true}) {
    const Gmm g = fit_gmm(data.X, init, diagonal);
    EXPECT_DOUBLE_EQ(adjusted_rand_index(gmm_predict(g, data.X), data.labels), 1.0);
    for (int c = 0; c < k; ++c) {
      const Mat Xc = data.X.middleRows(c * per, per);
      const Eigen::RowVectorXd mu = Xc.colwise().mean();
      const Mat D = Xc.rowwise() - mu;
      Mat S = D.transpose() * D / per;
      if (diagonal) S = Mat(S.diagonal().asDiagonal());
      S.diagonal().array() += 1e-6;
      EXPECT_NEAR(g.weights(c), 0.25, 1e-12);
      EXPECT_LT((g.means.row(c) - mu).cwiseAbs().maxCoeff(), 1e-9);
      EXPECT_LT((g.covs[c] - S).cwiseAbs().maxCoeff(), 1e-9);
    }
  }
}

TEST(Clustering, KmeansFixedPointIsTheClusterMean) {
  Mat X(4, 1);
  X << 0, 2, 10, 14;
  Mat init(2, 1);
  init << 1, 9;
  const Mat C = kmeans(X, init);
  EXPECT_DOUBLE_EQ(C(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(C(1, 0), 12.0);
}

TEST(Clustering, SoftKmeansCostClosedForms) {
  Mat X(3, 2);
  X << 0, 0, 1, 0, 0, 2;
  Mat one(1, 2);
  one << 0, 0;
  EXPECT_NEAR(soft_kmeans_cost(X, one), 0 + 1 + 4, 1e-12);  // single centre: plain sum of squares
  Mat two(2, 2);
  two << 0, 0, 1, 0;
  // Point (0,2): distances 4 and 5, weights e^-4, e^-5.
  const double w4 = std::exp(-4.0), w5 = std::exp(-5.0);
  const double p0 = (1 * 0 + std::exp(-1.0) * 1) / (1 + std::exp(-1.0));
  const double expected = 2 * p0 + (w4 * 4 + w5 * 5) / (w4 + w5);
  EXPECT_NEAR(soft_kmeans_cost(X, two), expected, 1e-12);
}

TEST(Clustering, KmeansPlusPlusPicksDistinctDataPoints) {
  const LabeledData data = make_blobs(200, 2, 5, 3);
  Rng rng = make_rng(1);
  const Mat C = kmeans_pp_init(data.X, 5, rng);
  std::set<std::vector<double>> rows;
  for (int j = 0; j < 5; ++j) {
    bool found = false;
    for (int i = 0; i < data.X.rows() && !found; ++i) found = (data.X.row(i) == C.row(j));
    EXPECT_TRUE(found);
    rows.insert({C(j, 0), C(j, 1)});
  }
  EXPECT_EQ(rows.size(), 5u);
}

TEST(Clustering, DigitsLoadAndSplit) {
  const LabeledData d = load_labeled_csv(std::string(KBO_SOURCE_DIR) + "/data/digits.csv");
  EXPECT_EQ(d.X.rows(), 1797);
  EXPECT_EQ(d.X.cols(), 64);
  EXPECT_EQ(*std::max_element(d.labels.begin(), d.labels.end()), 9);
  const Split s = train_test_split(d, 0.7, 1);
  EXPECT_EQ(s.train.X.rows(), 1258);
  EXPECT_EQ(s.test.X.rows() + s.train.X.rows(), 1797);
  EXPECT_THROW(load_labeled_csv("/nonexistent.csv"), InputError);
}

}  // namespace
}  // namespace kbo::bench
