#pragma once
// Softmax (multinomial logistic) regression trained by minibatch SGD: the stand-in for the paper's MNIST
// logistic-regression experiment (§5.2, Fig. 6; 4 tuning inputs as in Klein et al. 2016), on the
// digits data set (data/digits.csv, 1797 x 64, 10 classes).
#include <cstdint>
#include <string>

#include "kbo/core/linalg.hpp"

namespace kbo::bench {

struct ClassificationData {
  Mat X;       // n x p features
  Eigen::VectorXi y;  // labels 0..K-1
  int classes = 0;
};

/// Reads a CSV with a header and the integer label in the last column. InputError on a bad file.
ClassificationData read_classification_csv(const std::string& path);

struct SoftmaxHyper {
  double learning_rate = 0.1;
  double l2 = 1e-4;          // weight decay λ (loss + ½λ‖W‖²)
  int batch_size = 32;
  double dropout = 0.0;      // input dropout probability (inverted dropout, off at evaluation)
};

/// The tuning problem: a fixed stratification-free random split (train 60 % / validation 20 % /
/// test 20 %, seeded), features scaled to [0,1] (pixels / 16 for digits: divided by the training max),
/// `epochs` passes of minibatch SGD from W = 0 with a fixed shuffling/dropout seed, so the objective is a
/// deterministic function of the hyperparameters. Losses are mean cross-entropy (nats).
class SoftmaxTuningProblem {
 public:
  SoftmaxTuningProblem(ClassificationData data, std::uint64_t split_seed = 0, int epochs = 20,
                       std::uint64_t train_seed = 1);
  /// Unit-cube coordinates u ∈ [0,1]^4 → hyperparameters: lr = 10^(−4 + 4u₀) ∈ [1e-4, 1],
  /// l2 = 10^(−6 + 6u₁) ∈ [1e-6, 1], batch = round(2^(3 + 6u₂)) ∈ [8, 512], dropout = 0.75 u₃.
  static SoftmaxHyper from_unit(const Vec& u);
  /// Validation loss after training (the paper's objective, minimised). Diverged runs (NaN) → log K + 1.
  double validation_loss(const SoftmaxHyper& h) const;
  /// Validation loss and test accuracy of the same training run.
  void evaluate(const SoftmaxHyper& h, double& val_loss, double& test_accuracy) const;
  int train_size() const { return static_cast<int>(Xtr_.rows()); }

 private:
  Mat train(const SoftmaxHyper& h) const;  // (p+1) x K weights (last row: bias)
  Mat Xtr_, Xva_, Xte_;
  Eigen::VectorXi ytr_, yva_, yte_;
  int K_ = 0, epochs_;
  std::uint64_t train_seed_;
};

}  // namespace kbo::bench
