// A module's start generator and filter are one class and one registration: this file alone adds a
// contribution to the Proposer stage and runs BO steps through the strategy registry with it.
#include <gtest/gtest.h>

#include "kbo/acquisition/registry.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/proposer.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {
namespace {

// A spike far narrower than the optimiser's random starts can find: 1 within 1e-4 of the peak, 0 elsewhere,
// flat (zero gradient) on both sides, so only a start on the peak ends there.
const Vec kPeak = (Vec(2) << 0.123456, 0.654321).finished();

class Spike : public Acquisition {
 public:
  double value(const Vec& x) const override { return (x - kPeak).norm() < 1e-4 ? 1.0 : 0.0; }
  double value_and_gradient(const Vec& x, Vec& grad) const override {
    grad = Vec::Zero(x.size());
    return value(x);
  }
};

// The toy contribution: one start on the peak; with `refuse_left`, no result with x₀ < 0.5.
bool toy_active = false, refuse_left = false;
class ToyStarts : public ProposalContribution {
 public:
  explicit ToyStarts(bool refuse) : refuse_(refuse) {}
  Mat starts(const ProposalContext&) const override { return kPeak.transpose(); }
  Admissible admissible(const ProposalContext&) const override {
    if (!refuse_) return {};
    return [](const Vec& u) { return u[0] >= 0.5; };
  }
  std::string refused_key() const override { return "toy_refused"; }

 private:
  bool refuse_;
};

struct Registered {
  Registered() {
    acquisitions().add("toy_spike", {[](const AcquisitionInputs&) -> std::unique_ptr<Acquisition> {
                                       return std::make_unique<Spike>();
                                     },
                                     {}, "a needle (test)"});
    proposal_contributions().add("toy-starts",
                                 {[](const StrategyConfig&, const Space&, const nlohmann::json&)
                                      -> std::unique_ptr<ProposalContribution> {
                                    return toy_active ? std::make_unique<ToyStarts>(refuse_left) : nullptr;
                                  },
                                  "a start on the needle (test)"});
  }
};

Vec step(bool active, bool refuse, nlohmann::json* info = nullptr) {
  static Registered registered;
  toy_active = active, refuse_left = refuse;
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  StrategyConfig c;
  c.acquisition = "toy_spike";
  c.n_init = 3;
  auto strategy = make_strategy(c, space);  // the contribution is built with the strategy
  toy_active = refuse_left = false;         // other tests of this program see no toy
  Rng rng = make_rng(5);
  const Mat X = space->sample(8, SamplingMethod::Uniform, rng);
  Vec y(8);
  for (int i = 0; i < 8; ++i) y(i) = -X.row(i).squaredNorm();
  const Vec x = strategy->suggest(X, y, Mat(0, 2), 8);
  if (info) *info = strategy->last_info();
  return x;
}

TEST(ProposerRegistry, AToyStartGeneratorRegisteredInATestTakesTheStep) {
  EXPECT_GT((step(false, false) - kPeak).norm(), 1e-3);  // without it the needle is missed
  EXPECT_LT((step(true, false) - kPeak).norm(), 1e-4);   // with its start the step lands on it
}

TEST(ProposerRegistry, AToyFilterRefusesItsRegionAndIsCounted) {
  nlohmann::json info;
  const Vec x = step(true, true, &info);
  EXPECT_GE(x[0], 0.5);  // the needle (x₀ = 0.12) is refused, so the step keeps to x₀ >= 0.5
  EXPECT_GE(info.value("toy_refused", 0), 1);
}

}  // namespace
}  // namespace kbo
