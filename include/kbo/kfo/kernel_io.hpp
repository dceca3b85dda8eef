#pragma once
// The kernel KFO learned for a GP, saved as JSON (`kbo kfo --save-kernel`) and loaded back as an ordinary
// kbo::Kernel (`kbo gp --kernel-file`). The file holds everything needed to evaluate the kernel on RAW
// features: the functional (Θ, distinct grid distances, weights α), its variance, the optional fixed base
// kernel (start-from-baseline), the optional spectrum flip (recomputed on whatever training inputs the GP
// gets: it is data-dependent), and the per-column [0,1] scaling of the features fitted on the training part.
//
//   {"type": "kfo_functional", "version": 1, "lambda_h": .., "lengthscale": .., "psd": "alpha-clip" | "none",
//    "variance": v, "distances": [...], "weights": [...],
//    "base": null | {"baseline": "rbf" | "matern32" | "matern32_ard" | "mkl", "dim": D, "log_params": [...]},
//    "flip": null | {"rel_tol": ..},
//    "input_scaling": null | {"lower": [...], "upper": [...]},
//    "noise_variance": σ² (the GP's fitted noise, standardised-target units; informational), ...}
//
// Without a base the weights are rescaled so that the functional part is 1 at r = 0 (then "variance" is the
// prior variance of f, in standardised-target units); the kernel's values are unchanged.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/model/kernel.hpp"

namespace kbo::kfo {

/// x ↦ (x − lower) / (upper − lower) per column; a constant column (upper == lower) maps to 0.
struct InputScaling {
  Vec lower, upper;
  Mat apply(const Mat& X) const;
};
/// The scaling minmax_scale(fit, ·) applies, computed from the columns of fit.
InputScaling fit_input_scaling(const Mat& fit);

/// K(x, x') = inner(S(x), S(x')) with S an InputScaling: a kernel fitted on [0,1]-scaled features, usable on raw
/// ones. Hyperparameters are the inner kernel's.
class ScaledInputKernel : public Kernel {
 public:
  ScaledInputKernel(KernelPtr inner, InputScaling scaling);
  ScaledInputKernel(const ScaledInputKernel& o) : inner_(o.inner_->clone()), s_(o.s_), factor_(o.factor_) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<ScaledInputKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return inner_->log_params(); }
  void set_log_params(const Vec& p) override { inner_->set_log_params(p); }
  std::vector<std::string> param_names() const override { return inner_->param_names(); }
  std::vector<ParamSpec> param_specs() const override { return inner_->param_specs(); }
  Mat cross(const Mat& X, const Mat& Y) const override { return inner_->cross(s_.apply(X), s_.apply(Y)); }
  Vec diag(const Mat& X) const override { return inner_->diag(s_.apply(X)); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return inner_->gram_gradients(s_.apply(X)); }
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  Vec diag_grad_x(const Vec& x) const override;
  void condition_on(const Mat& X) override { inner_->condition_on(s_.apply(X)); }
  bool depends_on_training_data() const override { return inner_->depends_on_training_data(); }
  const Kernel& inner() const { return *inner_; }
  const InputScaling& scaling() const { return s_; }

 private:
  KernelPtr inner_;
  InputScaling s_;
  Vec factor_;  // dS/dx per column (1/span, 0 for constant columns)
};

/// JSON of a GP kernel KFO learned: a FunctionalKernel, or a SpectrumFlipKernel around one. base_name names the
/// baseline the functional's base kernel was made with (make_gp_baseline), empty when it has none. InputError
/// for any other kernel.
nlohmann::json kernel_to_json(const Kernel& kernel, const std::string& base_name = "",
                              const std::optional<InputScaling>& scaling = std::nullopt,
                              std::optional<double> noise_variance = std::nullopt);
/// The kernel of such a JSON object (wrapped in a ScaledInputKernel when it has an input scaling). InputError
/// naming the missing or malformed field.
KernelPtr kernel_from_json(const nlohmann::json& j);
/// kernel_from_json of a file; InputError if it cannot be read or parsed.
KernelPtr load_kernel_file(const std::string& path);

}  // namespace kbo::kfo
