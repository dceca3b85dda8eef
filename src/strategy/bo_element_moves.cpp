// BOStrategy's element moves (BOModelOptions::element_moves; include/kbo/strategy/bo_strategy.hpp).
//
// Why: on a set space the acquisition optimiser's starts are Sobol points and the incumbent, and L-BFGS
// moves all elements a little at a time. An incumbent with two elements in one cluster and none in another
// (k-means' local optimum) is left only by moving one element far, which no start near the incumbent does.
// Moving one element to where the acquisition is highest with the others fixed is the swap move of
// k-medoids-style local search (Kaufman & Rousseeuw's PAM); each is one more start, so the optimiser
// still takes whatever the acquisition prefers.
#include "kbo/optimize/multistart.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/element_moves.hpp"

namespace kbo {

namespace {

// The acquisition as a function of one element's coordinates, the other elements fixed at u.
class ElementAcquisition : public Acquisition {
 public:
  ElementAcquisition(const Acquisition& base, Vec u, int offset, int size)
      : base_(base), u_(std::move(u)), offset_(offset), size_(size) {}
  double value(const Vec& z) const override { return base_.value(with(z)); }
  double value_and_gradient(const Vec& z, Vec& grad) const override {
    Vec g;
    const double v = base_.value_and_gradient(with(z), g);
    grad = g.segment(offset_, size_);
    return v;
  }
  Vec values(const Mat& Z) const override {
    Mat X = u_.transpose().replicate(Z.rows(), 1);
    X.middleCols(offset_, size_) = Z;
    return base_.values(X);
  }

 private:
  Vec with(const Vec& z) const {
    Vec x = u_;
    x.segment(offset_, size_) = z;
    return x;
  }
  const Acquisition& base_;
  Vec u_;
  int offset_, size_;
};

constexpr int kElementCandidates = 1024;  // Sobol positions tried for each element

}  // namespace

Mat element_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates) {
  if (u.size() != static_cast<Eigen::Index>(m) * d || candidates.cols() != d || candidates.rows() == 0)
    throw InputError("element_move_starts: a point of m*d coordinates and candidates of d columns expected");
  Mat starts(m, u.size());
  for (int i = 0; i < m; ++i) {
    const ElementAcquisition slot(acq, u, i * d, d);
    Eigen::Index top = 0;
    slot.values(candidates).maxCoeff(&top);
    starts.row(i) = u.transpose();
    starts.row(i).segment(i * d, d) = candidates.row(top);
  }
  return starts;
}

Mat BOStrategy::element_move_starts(const Vec& incumbent_u, const Acquisition& acq, int trial_index) const {
  const auto layout = space_->element_layout();
  if (!layout) return Mat(0, incumbent_u.size());
  const auto [m, d] = *layout;
  Rng rng = make_rng(trial_seed(config_.seed ^ 0x30E5ULL, trial_index));
  return kbo::element_move_starts(incumbent_u, m, d, acq,
                                  BoxSpace(Box::unit(d)).sample(kElementCandidates, SamplingMethod::Sobol, rng));
}

}  // namespace kbo
