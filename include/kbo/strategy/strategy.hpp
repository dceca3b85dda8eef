#pragma once
// Strategies turn the completed trials of a study into the next point to evaluate. The study is the
// only part that knows about storage and directions: a strategy always sees values to MAXIMISE.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/core/space.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/strategy/config.hpp"

namespace kbo {

/// Unit-cube distance below which a suggestion repeats a pending or evaluated point.
inline constexpr double kRepeatTolerance = 1e-9;
/// Radius (unit-cube units) around a failed point within which no suggestion is made.
inline constexpr double kFailedRadius = 1e-3;

class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Next point given completed trials (X rows, y to maximise) and pending points (being evaluated; never
  /// suggested again, and conditioned on as fantasies per StrategyConfig::fantasy).
  /// `trial_index` is the number of trials already created (completed, failed or pending).
  virtual Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) = 0;
  /// Same, with the points whose evaluation failed. A failure says nothing about the objective's value, so
  /// it is neither an observation nor a fantasy; strategies that model data never suggest a point within
  /// kFailedRadius (unit cube) of a failed one. The default ignores them (e.g. random search).
  virtual Vec suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& /*failed*/, int trial_index) {
    return suggest(X, y, pending, trial_index);
  }
  /// Outcome constraints of the completed trials (rows as suggest's X; feasible iff every entry <= 0), set
  /// before each suggest by the study. Strategies that model data model them; others ignore them.
  void set_constraints(Mat C) { constraints_ = std::move(C); }
  /// The standard errors of the completed trials' values (rows as suggest's X; 0 where a trial reported none;
  /// empty when none did), set before each suggest by the study. Strategies that model data add their squares
  /// to the model's noise, observation by observation; others ignore them.
  void set_observation_sem(Vec sem) { sem_ = std::move(sem); }
  /// Every objective of the completed trials of a study with several (rows as suggest's X, one column per
  /// objective, all to MAXIMISE; suggest's y is the first column), and the reference point of the
  /// hypervolume in the same terms when the study gives one (empty: inferred). Set before each suggest by
  /// the study; empty for one objective. Strategies for several objectives model them; others refuse them.
  void set_objectives(Mat Y, Vec reference_point = Vec()) {
    objectives_ = std::move(Y);
    reference_point_ = std::move(reference_point);
  }
  virtual std::string name() const = 0;
  /// The model state worth keeping across processes (e.g. the fitted hyperparameters per kernel), or null.
  /// Study stores it with the study whenever it changes, and hands the stored one to restore_model_state
  /// before each suggestion, so a fresh process (`kbo ask`, another worker) warm-starts from it.
  virtual nlohmann::json model_state() const { return nullptr; }
  /// Adopts a stored model state if it is newer than the strategy's own and fits its configuration;
  /// ignores it otherwise (a state written by another configuration, or by an older kbo).
  virtual void restore_model_state(const nlohmann::json& /*state*/) {}
  /// The run's total number of trials when known (`kbo optimize`, kbo.minimize, a study's stored budget),
  /// set by the study before each suggestion; strategies that plan their last steps use it (BOStrategy's
  /// end-game), the others ignore it.
  virtual void set_budget(std::optional<int> /*budget*/) {}
  /// Diagnostics of the last suggestion (fitted hyperparameters, β, schedule values…), for logs/JSON.
  virtual nlohmann::json last_info() const { return nlohmann::json::object(); }

  /// The model's posterior of the latent objective at the completed trials themselves (the data as suggest
  /// takes them: X, y to maximise, the sems as set_observation_sem): mean and standard deviation per row in
  /// y's units, under the model state restored last (restore_model_state) or fitted last, without refitting.
  /// nullopt when the strategy has no model of the data or no fitted state yet (random search, the initial
  /// design, a model that is not stored). A noisy study recommends the trial of the best posterior mean.
  struct Posterior {
    Vec mean, sd;
    /// The model judges the observations noisy by itself (without standard errors or replicates), e.g. from
    /// the noise it inferred; then the study recommends by the posterior mean as for reported noise.
    bool noisy = false;
  };
  virtual std::optional<Posterior> posterior_at_observations(const Mat& /*X*/, const Vec& /*y*/) { return std::nullopt; }

 protected:
  Mat constraints_;  // n x m (m = 0: no constraints)
  Mat objectives_;   // n x k (k = 0: one objective, suggest's y)
  Vec sem_;          // n (empty: no trial reported a standard error)
  Vec reference_point_;
};

}  // namespace kbo
