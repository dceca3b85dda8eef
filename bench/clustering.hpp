#pragma once
// Clustering pieces of the set-BO clustering-initialisation study (paper 001 §4.4, docs/papers.md#sets-clustering):
// Lloyd's k-means from given centres, k-means++ seeding, soft k-means cost (eq. 28), a Gaussian mixture
// fitted by EM from given means, the adjusted Rand index, data loading and a 70/30 split.
#include <string>
#include <vector>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"

namespace kbo::bench {

struct LabeledData {
  Mat X;                    // N x d (rows are points)
  std::vector<int> labels;  // ground truth, 0..k-1
};

/// Isotropic Gaussian blobs (sklearn make_blobs-like): k centres uniform in [−10, 10]^d, unit std.
LabeledData make_blobs(int n, int d, int k, std::uint64_t seed);
/// CSV with a header row; the last column is an integer label (data/digits.csv).
LabeledData load_labeled_csv(const std::string& path);

struct Split {
  LabeledData train, test;
};
/// Random split with `train_fraction` of the rows in train (seeded).
Split train_test_split(const LabeledData& data, double train_fraction, std::uint64_t seed);

/// Index of the nearest centre (rows of C) for every row of X.
std::vector<int> nearest_centre(const Mat& X, const Mat& C);

/// Lloyd's algorithm from `init` (k x d) until no label changes or `max_iter`; an empty cluster keeps
/// its previous centre (sklearn relocates it; documented difference). Returns the centres.
Mat kmeans(const Mat& X, const Mat& init, int max_iter = 300);
/// k-means++ seeding (Arthur & Vassilvitskii 2007) with one candidate per step.
Mat kmeans_pp_init(const Mat& X, int k, Rng& rng);
/// Eq. (28) of the paper: Σ_i Σ_j w_ij ‖p_i − c_j‖², w_ij = softmax_j(−‖p_i − c_j‖²).
double soft_kmeans_cost(const Mat& X, const Mat& C);

/// Gaussian mixture with FULL covariances fitted by EM (sklearn's defaults: reg_covar 1e-6 added to
/// every covariance diagonal, tol 1e-3 on the mean log-likelihood, max_iter 100). Initialisation like
/// sklearn with means_init: responsibilities = hard assignment to the nearest initial mean, weights and
/// covariances from them, means = the given ones. `diagonal` switches to diagonal covariances.
struct Gmm {
  Vec weights;               // k
  Mat means;                 // k x d
  std::vector<Mat> covs;     // k of d x d (diagonal ones stored as full matrices)
  double mean_log_likelihood = 0.0;
  int iterations = 0;
};
Gmm fit_gmm(const Mat& X, const Mat& means_init, bool diagonal = false, int max_iter = 100, double tol = 1e-3,
            double reg_covar = 1e-6);
/// Most probable component for every row of X.
std::vector<int> gmm_predict(const Gmm& g, const Mat& X);

/// Adjusted Rand index (Hubert & Arabie 1985) between two labelings of the same points.
double adjusted_rand_index(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace kbo::bench
