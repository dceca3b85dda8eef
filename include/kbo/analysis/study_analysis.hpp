#pragma once
// What the views of a study (kbo report, kbo dashboard, kbo.plot) show beyond the trials themselves: a GP
// fitted to the study's complete trials, its slices and partial dependences per coordinate, and parameter
// importances. Read-only: it takes the stored record and trials and changes nothing.
//
// The model. The study's own kernel (make_model_kernel: config.kernel/ard, or the set/invariant kernel of its
// space) on the unit cube [0,1]^D, standardised targets (sample mean and std), noise learned unless the
// config fixes it, hyperparameters by MAP with GP::default_priors (the priors the strategy uses), from
// config.fit_restarts + 3 restarts seeded by config.seed (deterministic). It is a description of what was
// observed, not the exact model of the strategy's last step (which may use a worst-value prior mean, an
// alternative kernel or HMC). At most kMaxModelPoints trials are used (the most recent), so a 10,000-trial
// study still renders in about a second.
//
// Parameters. Every view speaks of the user's parameters, not of the encoded coordinates
// (kbo/analysis/param_axes.hpp): a log float is drawn on a log axis in its own units, an int at integers, a
// categorical as its choices (its one-hot block counts as one parameter). Box and set spaces have one
// parameter per coordinate.
//
// Slices. For parameter j, the GP mean and standard deviation along its levels (kGridPoints values for a float,
// its integers, its choices) with every other parameter at the best trial's — what one would see moving one
// knob from the best point.
//
// Contours. The GP mean over every pair of the kContourAxes most important parameters (kContourPoints levels
// per numeric axis), the others at the best trial's.
//
// Model fit. Leave-one-out predictions (mean ± std, noise included) of every modelled trial at the fitted
// hyperparameters (kbo/analysis/model_fit.hpp): how well the model predicts what it did not see.
//
// Partial dependence and importance (fANOVA, Hutter, Hoos & Leyton-Brown 2014, on the GP mean m instead of a
// random forest). With u uniform on [0,1]^D, the main effect of parameter j is f_j(t) = E[m(u) | u_j = t] −
// E[m(u)], its variance V_j = Var_t f_j(t) (t over the levels, weighted by their share of the cube), and
// importance_j = V_j / Var m(u): the fraction of the model's variance over the box explained by parameter j
// alone (the first-order Sobol index). 1 − Σ_j importance_j
// is the share of interactions. Both expectations are Monte-Carlo averages over the same kBackground
// scrambled-Sobol points (canonicalised as the space's own samples are; fewer, down to 32, when D × trials is
// so large that the averages would take more than about a second), and t runs over the kGridPoints
// grid; f_j + E[m] is the partial-dependence curve drawn with each slice.
//
// Lengthscale importance. With an ARD kernel, relevance_j = (1/ℓ_j) / Σ_k (1/ℓ_k) on the unit cube: a short
// lengthscale means the function changes fast along j. It is cheaper but says nothing about amplitude (a
// fast, tiny wiggle scores high), which is why the variance decomposition is shown beside it; a categorical
// sums the relevance of its one-hot coordinates. Kernels without one lengthscale per coordinate (isotropic,
// set, invariant) leave it null.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/study/trial.hpp"

namespace kbo {

inline constexpr int kGridPoints = 41;
inline constexpr int kBackground = 256;
inline constexpr int kMaxModelPoints = 1000;
inline constexpr int kContourAxes = 6;
inline constexpr int kContourPoints = 21;

/// One display name per coordinate of the study's points: a params space's names (a categorical
/// parameter gives one per choice, "opt=adam"; fixed ones none), "e{i}.x{k}" for a set space's element i,
/// else "x0", "x1", …. Falls back to x{j} whenever the stored space does not account for exactly `dim`.
std::vector<std::string> coordinate_names(const nlohmann::json& space, int dim);

/// The analysis of `trials` of the study `record` as JSON:
///   parameters  [{name, type (float | int | categorical), log, lower, upper (user units; null for a
///                categorical), choices (categorical), coordinates (of the encoded x)}] per parameter
///   model       {ok: true, kernel, n_points, noise_variance, log_marginal_likelihood, lengthscales (unit
///                cube, null unless ARD)} or {ok: false, reason} (fewer than 2 complete trials, a space
///                that cannot be rebuilt, a fit that failed)
///   slices      [{param, name, type, x: levels (user units: numbers or choices), mean, std, partial_dependence}]
///                per parameter (empty unless model.ok)
///   contours    [{params: [a, b], names, x: levels of a, y: levels of b, mean: rows over y of columns over x}]
///   model_fit   {trials: ids, observed, predicted, std} (leave-one-out; null unless model.ok)
///   importance  [{param, name, fanova, lengthscale}] (fanova and lengthscale as above, null when unknown)
///   interactions  1 − Σ fanova (null unless model.ok)
///   best        {trial, x, values (per parameter, user units)} of the slices' anchor (the best complete trial)
/// Never throws for a study it can read: a model that cannot be fitted is reported in model.reason.
nlohmann::json analyze_study(const StudyRecord& record, const std::vector<Trial>& trials);

}  // namespace kbo
