#pragma once
// Acquisition functions. Convention: the GP models the quantity to MAXIMISE (strategies negate
// objectives that are minimised) and every acquisition is maximised.
#include <memory>
#include <vector>

#include "kbo/core/enum_names.hpp"
#include "kbo/model/gp.hpp"

namespace kbo {

class Acquisition {
 public:
  virtual ~Acquisition() = default;
  virtual double value(const Vec& x) const = 0;
  /// Value and gradient wrt x.
  virtual double value_and_gradient(const Vec& x, Vec& grad) const = 0;
  /// Values at the rows of X (batched prediction; override when faster).
  virtual Vec values(const Mat& X) const;
};

/// UCB: μ(x) + sqrt(β) σ(x).
class UpperConfidenceBound : public Acquisition {
 public:
  UpperConfidenceBound(const GP& gp, double beta);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;
  double beta() const { return beta_; }
 private:
  const GP& gp_;
  double beta_;
};

/// The mean of several acquisitions (e.g. UCB under hyperparameter samples: the acquisition of a
/// hyperparameter-marginalised model, as in Snoek et al. 2012's integrated acquisition), or their weighted
/// mean (e.g. over candidate kernels by posterior model probability).
class AveragedAcquisition : public Acquisition {
 public:
  explicit AveragedAcquisition(std::vector<std::unique_ptr<Acquisition>> parts);  // InputError if empty
  /// Weights: one per part, finite, >= 0, not all 0 (normalised to sum 1); InputError otherwise.
  AveragedAcquisition(std::vector<std::unique_ptr<Acquisition>> parts, std::vector<double> weights);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;
  std::size_t size() const { return parts_.size(); }
  const std::vector<double>& weights() const { return weights_; }
 private:
  std::vector<std::unique_ptr<Acquisition>> parts_;
  std::vector<double> weights_;  // sum 1
};

/// log EI(x) for improvement over `incumbent` (in original units), computed in log space so that it
/// never underflows (Ament et al. 2023 style asymptotics for very negative z).
class LogExpectedImprovement : public Acquisition {
 public:
  LogExpectedImprovement(const GP& gp, double incumbent);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;
 private:
  const GP& gp_;
  double incumbent_;
};

/// log PI(x) = log Φ((μ - incumbent)/σ), computed stably.
class LogProbabilityOfImprovement : public Acquisition {
 public:
  LogProbabilityOfImprovement(const GP& gp, double incumbent);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;
 private:
  const GP& gp_;
  double incumbent_;
};

// ---- β schedules (return β, the UCB uses sqrt(β)) ----
/// β of UCB: a constant, Srinivas et al. 2012, or Chowdhury & Gopalan 2017.
enum class BetaSchedule { Constant, Srinivas, Chowdhury };
template <>
struct EnumNames<BetaSchedule> {
  static constexpr std::array<std::pair<BetaSchedule, const char*>, 3> table{
      {{BetaSchedule::Constant, "constant"}, {BetaSchedule::Srinivas, "srinivas"}, {BetaSchedule::Chowdhury, "chowdhury"}}};
};
/// Srinivas et al. (2012), Thm 1 (finite/compact D form): β_t = 2 log(t^{d/2+2} π² / (3δ)).
double beta_srinivas(int t, int dim, double delta = 0.1);
/// Chowdhury & Gopalan (2017), IGP-UCB: sqrt(β_t) = B + R sqrt(2 (γ_{t} + 1 + ln(1/δ))), with γ_t the
/// information gain of the current data (GP::information_gain()).
double beta_chowdhury(double rkhs_bound, double noise_std, double information_gain, double delta = 0.1);

/// Scalar helpers used by several acquisitions: log Φ(z) and log h(z) = log(φ(z) + z Φ(z)), stable
/// for all z, and their derivatives.
double log_normal_cdf(double z);
double log_h(double z);          // log EI for unit σ
double d_log_h(double z);        // d/dz log h(z) = Φ(z)/h(z)
double d_log_normal_cdf(double z);  // φ(z)/Φ(z)

}  // namespace kbo
