// Element moves of a set (include/kbo/sets/element_moves.hpp): starts for the acquisition optimiser that the
// sets module contributes to the Proposer stage (set_proposals.cpp).
//
// Why: on a set space the acquisition optimiser's starts are Sobol points and the incumbent, and L-BFGS
// moves all elements a little at a time. An incumbent with two elements in one cluster and none in another
// (k-means' local optimum) is left only by moving one element far, which no start near the incumbent does.
// Moving one element to where the acquisition is highest with the others fixed is the swap move of
// k-medoids-style local search (Kaufman & Rousseeuw's PAM); each is one more start, so the optimiser
// still takes whatever the acquisition prefers.
#include <algorithm>
#include <numeric>

#include "kbo/optimize/multistart.hpp"
#include "kbo/sets/element_moves.hpp"

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


void check_sizes(const Vec& u, int m, int d, const char* who) {
  if (m < 1 || d < 1 || u.size() != static_cast<Eigen::Index>(m) * d)
    throw InputError(std::string(who) + ": a point of m*d coordinates expected");
}

// u with element i moved to the row of `candidates` where the acquisition is highest, the others fixed.
Vec moved(const Vec& u, int i, int d, const Acquisition& acq, const Mat& candidates) {
  const ElementAcquisition slot(acq, u, i * d, d);
  Eigen::Index top = 0;
  slot.values(candidates).maxCoeff(&top);
  Vec out = u;
  out.segment(i * d, d) = candidates.row(top).transpose();
  return out;
}

}  // namespace

Mat element_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates) {
  check_sizes(u, m, d, "element_move_starts");
  if (candidates.cols() != d || candidates.rows() == 0)
    throw InputError("element_move_starts: candidates of d columns expected");
  Mat starts(m, u.size());
  for (int i = 0; i < m; ++i) starts.row(i) = moved(u, i, d, acq, candidates).transpose();
  return starts;
}

}  // namespace kbo
