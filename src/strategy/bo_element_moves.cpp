// BOStrategy's element moves (BOModelOptions::element_moves; include/kbo/strategy/bo_strategy.hpp).
//
// Why: on a set space the acquisition optimiser's starts are Sobol points and the incumbent, and L-BFGS
// moves all elements a little at a time. An incumbent with two elements in one cluster and none in another
// (k-means' local optimum) is left only by moving one element far, which no start near the incumbent does.
// Moving one element to where the acquisition is highest with the others fixed is the swap move of
// k-medoids-style local search (Kaufman & Rousseeuw's PAM); each is one more start, so the optimiser
// still takes whatever the acquisition prefers.
// Pair moves and recombination (BOModelOptions::pair_moves, recombination_sets) move two elements at once:
// a k-means-style local optimum (two elements on one cluster, one between two) is a local optimum for every
// one-element move (docs/bench/structure.md).
#include <algorithm>
#include <numeric>

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

Mat element_pair_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates) {
  check_sizes(u, m, d, "element_pair_move_starts");
  if (candidates.cols() != d || candidates.rows() == 0)
    throw InputError("element_pair_move_starts: candidates of d columns expected");
  Mat starts(static_cast<Eigen::Index>(m) * (m - 1), u.size());
  Eigen::Index row = 0;
  for (int i = 0; i < m; ++i) {
    const Vec first = moved(u, i, d, acq, candidates);
    for (int j = 0; j < m; ++j)
      if (j != i) starts.row(row++) = moved(first, j, d, acq, candidates).transpose();
  }
  return starts;
}

Mat recombination_starts(const Vec& u, const Mat& donors, int m, int d, const Acquisition& acq, int keep) {
  check_sizes(u, m, d, "recombination_starts");
  if (donors.cols() != u.size()) throw InputError("recombination_starts: donors of m*d columns expected");
  if (keep < 0) throw InputError("recombination_starts: keep must be >= 0");
  // The pool: every element of every donor.
  Mat pool(donors.rows() * m, d);
  for (Eigen::Index r = 0; r < donors.rows(); ++r)
    for (int e = 0; e < m; ++e) pool.row(r * m + e) = donors.row(r).segment(e * d, d);
  const Eigen::Index P = pool.rows();
  const Eigen::Index singles = m * P, pairs = static_cast<Eigen::Index>(m) * (m - 1) / 2 * P * (P - 1);
  Mat cand(singles + pairs, u.size());
  Eigen::Index row = 0;
  for (int i = 0; i < m; ++i)
    for (Eigen::Index p = 0; p < P; ++p) {
      cand.row(row) = u.transpose();
      cand.row(row++).segment(i * d, d) = pool.row(p);
    }
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j)
      for (Eigen::Index p = 0; p < P; ++p)
        for (Eigen::Index q = 0; q < P; ++q)
          if (q != p) {
            cand.row(row) = u.transpose();
            cand.row(row).segment(i * d, d) = pool.row(p);
            cand.row(row++).segment(j * d, d) = pool.row(q);
          }
  if (cand.rows() == 0 || keep == 0) return Mat(0, u.size());
  const Vec v = acq.values(cand);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(cand.rows()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(keep), order.size());
  // Highest first; ties by position, so the result does not depend on the sort's implementation.
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](Eigen::Index a, Eigen::Index b) { return v[a] > v[b] || (v[a] == v[b] && a < b); });
  Mat out(static_cast<Eigen::Index>(k), u.size());
  for (std::size_t r = 0; r < k; ++r) out.row(static_cast<Eigen::Index>(r)) = cand.row(order[r]);
  return out;
}

Mat BOStrategy::element_move_starts(const Vec& incumbent_u, const Acquisition& acq, int trial_index, const Mat& U,
                                    const Vec& yt) const {
  const auto layout = space_->element_layout();
  const Eigen::Index D = incumbent_u.size();
  if (!layout) return Mat(0, D);
  const auto [m, d] = *layout;
  std::vector<Mat> parts;
  if (model_options_.element_moves || model_options_.pair_moves) {
    Rng rng = make_rng(trial_seed(config_.seed ^ 0x30E5ULL, trial_index));
    const Mat candidates = BoxSpace(Box::unit(d)).sample(kElementCandidates, SamplingMethod::Sobol, rng);
    if (model_options_.element_moves) parts.push_back(kbo::element_move_starts(incumbent_u, m, d, acq, candidates));
    if (model_options_.pair_moves) parts.push_back(kbo::element_pair_move_starts(incumbent_u, m, d, acq, candidates));
  }
  if (model_options_.recombination_sets > 0 && U.rows() > 1) {
    // The donors: the best observed sets other than the incumbent (highest yt first).
    std::vector<Eigen::Index> order(static_cast<std::size_t>(U.rows()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return yt[a] > yt[b]; });
    Mat donors(0, D);
    for (const Eigen::Index r : order) {
      if (donors.rows() >= model_options_.recombination_sets) break;
      if ((U.row(r).transpose() - incumbent_u).norm() == 0.0) continue;
      donors.conservativeResize(donors.rows() + 1, Eigen::NoChange);
      donors.row(donors.rows() - 1) = U.row(r);
    }
    parts.push_back(kbo::recombination_starts(incumbent_u, donors, m, d, acq, m));
  }
  Eigen::Index rows = 0;
  for (const Mat& p : parts) rows += p.rows();
  Mat out(rows, D);
  rows = 0;
  for (const Mat& p : parts) out.middleRows(rows, p.rows()) = p, rows += p.rows();
  return out;
}

}  // namespace kbo
