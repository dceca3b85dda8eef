#pragma once
// Kernels on sets (paper 001, docs/papers.md#sets-set-kernel, #sets-approximate-set-kernel). A point is a flat
// set of m elements of R^d (row-major m x d block, see set_space.hpp).
//
// Full:   k_set(X, Y) = 1/(m·m) Σ_a Σ_b k(x_a, y_b)  for a stationary base kernel k (Matérn-5/2 in the
//         paper). Gram and cross matrices stack the elements of all sets, form ONE matrix of squared
//         scaled distances ‖x‖² + ‖y‖² − 2x·y (a GEMM), apply the profile elementwise and reduce each
//         m x m block to its mean by reshapes — no scalar loop over pairs of sets. Large problems are
//         processed in tiles of whole sets so memory stays bounded.
// Approx: one draw (w ~ N(0, I_d), π uniform permutation of the m ranks) orders the elements of EVERY
//         set by wᵀx and keeps the elements at sorted ranks π(1..L); then k_set on these L-element
//         subsets (Algorithm 1). The draw is shared by the Gram matrix and all test sets, so the kernel
//         is PSD and permutation invariant. It changes only when the training set changes
//         (condition_on with a different X: one draw per BO iteration / Gram construction) or on an
//         explicit redraw(); refitting hyperparameters on the same data keeps it, so the marginal
//         likelihood is a deterministic function of θ.
//         NOTE (measured, see docs/bench/sets.md): because both sets use the SAME ranks, the estimator
//         is unbiased only when the rank coupling vanishes; in general
//         E_π[k̃ | w] = (1/L)·A(w) + (1 − 1/L)·B(w), with A the mean of k over same-rank pairs and B over
//         different-rank pairs, whereas k_set = (1/m)·A + (1 − 1/m)·B. The paper's Theorem 1 assumes
//         independent subsets for the two sets. Theorem 2's pointwise ingredient k̃ ≤ (m/L)² k_set
//         (k ≥ 0) holds for every draw.
// Hyperparameters are the base kernel's (log lengthscale(s) over the d element coordinates, log
// variance), with the same names and specs, so GP priors/bounds apply unchanged.
#include <cstdint>
#include <string>
#include <vector>

#include "kbo/model/kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/random.hpp"
#include "kbo/sets/set_kernel_type.hpp"

namespace kbo {

/// Full or approximate set kernel: the study's set_kernel choice (SetKernelType, strategy/config.hpp).
using SetKernelMode = SetKernelType;
/// "full" | "approx"; InputError "set_kernel: unknown value …" listing them otherwise.
SetKernelMode parse_set_kernel_mode(const std::string& name);

/// One draw of the approximate set kernel: projection direction and the kept sorted ranks (0-based).
struct SetSubsetDraw {
  Vec w;                   // size d
  std::vector<int> ranks;  // size L, distinct values in [0, m)
};

class SetKernel : public Kernel {
 public:
  /// base: stationary kernel on R^d (dim must equal d). L is used in Approx mode (1 ≤ L ≤ m; 0 ⇒ m).
  SetKernel(const StationaryKernel& base, int set_size, int element_dim, SetKernelMode mode = SetKernelMode::Full,
            int subset_size = 0, std::uint64_t seed = 0);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<SetKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return base_.log_params(); }
  void set_log_params(const Vec& p) override { base_.set_log_params(p); }
  std::vector<std::string> param_names() const override { return base_.param_names(); }
  /// The base kernel's: an ARD lengthscale's coordinate is the element coordinate i < d.
  std::vector<ParamSpec> param_specs() const override { return base_.param_specs(); }

  Mat cross(const Mat& X, const Mat& Y) const override;
  Mat gram(const Mat& X) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override;
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  Vec diag_grad_x(const Vec& x) const override;
  void condition_on(const Mat& X_train) override;
  /// The incumbent's chart (set_chart.hpp): the rows' elements paired with x's; the base kernel on every
  /// element's coordinates (lengthscales repeated), the local fit's warm start.
  KernelPtr local_chart(const Vec& x, Mat& X) const override;

  // ---- approximate-kernel draw ----
  /// New (w, π) from the kernel's own generator (Approx mode; harmless in Full mode).
  void redraw();
  /// Restarts the generator from `seed` and makes a fresh draw (reproducible studies, Table 1).
  void reseed(std::uint64_t seed);
  void set_draw(const SetSubsetDraw& draw);  // InputError on wrong sizes / ranks
  const SetSubsetDraw& draw() const { return draw_; }
  /// Element indices (into 0..m-1) kept for one set: all m in Full mode, L of them in Approx mode.
  std::vector<int> selected_elements(const Vec& set) const;
  /// The kept elements of every set, as flat rows (n x (L·d)); X itself in Full mode.
  Mat select(const Mat& X) const;

  SetKernelMode mode() const { return mode_; }
  int set_size() const { return m_; }
  int element_dim() const { return d_; }
  int subset_size() const { return mode_ == SetKernelMode::Full ? m_ : L_; }
  const StationaryKernel& base() const { return base_; }
  StationaryKernel& base() { return base_; }

  /// Elements per tile side when stacking (memory bound of one distance tile ≈ tile² doubles).
  static constexpr int kTileElements = 2048;
  /// AVX2 pass: side of the GEMM output chunks inside a tile (kept in L2; see set_engine.cpp).
  static constexpr int kChunkElements = 128;

 private:
  void check_input(const Mat& X, const char* what) const;

  StationaryKernel base_;
  int m_, d_;
  SetKernelMode mode_;
  int L_;
  Rng rng_;
  std::uint64_t seed_;
  SetSubsetDraw draw_;
  Mat conditioned_on_;  // last X_train seen by condition_on (Approx: redraw when it changes)
};

/// Per-pair code path of every set-kernel pass (Gram, cross, diagonal, hyperparameter gradients);
/// process-wide. Auto: the fastest pass the CPU runs — AVX-512 (src/sets/set_profile_avx512.cpp:
/// intrinsics, own vector exp) when it has avx512f/dq/vl, else AVX2+FMA (set_profile_avx2.cpp, libmvec
/// exp/sqrt) when it has both, else the portable Eigen pass; the vector passes consume the GEMM output
/// in L2-sized chunks. Avx2: the AVX2 pass even on an AVX-512 CPU (generic without AVX2+FMA).
/// Generic: always the portable pass. Tests compare them; the benchmark reports them.
enum class SetKernelPath { Auto, Generic, Avx2 };
void set_set_kernel_path(SetKernelPath path);
/// The pass the set kernels currently run: "AVX-512", "AVX2" or "generic".
const char* set_kernel_pass_name();
/// True when the passes currently run the AVX2 code.
bool set_kernel_uses_avx2();
/// True when the passes currently run the AVX-512 code.
bool set_kernel_uses_avx512();
/// The CPU runs the AVX-512 pass (avx512f, avx512dq, avx512vl).
bool set_kernel_cpu_has_avx512();
/// exp(x) for x ≤ 0 exactly as the AVX-512 pass computes it (for its accuracy test); requires
/// set_kernel_cpu_has_avx512() (InputError otherwise).
void set_kernel_exp_avx512(const Vec& x, Vec& y);
/// Benchmark helper: only the distance GEMMs (element dot products) a symmetric vector-pass Gram
/// evaluation runs over the stacked elements Z (rows), chunk by chunk on or above the diagonal, through
/// the same BLAS call; returns the number of element pairs computed.
double set_kernel_distance_gemms(const Mat& Z);

/// The largest set size for which `average` is the orbit average itself: it costs m! base-kernel terms per
/// entry (720 at m = 6, 3.6 million at m = 10). Above it `average` (the default) is built as `normalized`,
/// the same constant-variance remedy for degenerate sets at m² terms, and reported under that name.
inline constexpr int kAverageSetKernelMaxSize = 6;
/// The largest element dimension d for which `auto` (the default) lets the sliced kernel compete: it projects
/// on d² directions (64 at d = 8, 4,096 at d = 64, where one digits k-means run took over 6 CPU minutes
/// instead of one), so above it auto is the orbit average (or `normalized`) against `sorted`.
inline constexpr int kAutoSlicedMaxElementDim = 8;
/// The set kernel that is built for `asked` at set size m (see kAverageSetKernelMaxSize).
SetKernelType effective_set_kernel(SetKernelType asked, int m);

/// The lead's factory: base "matern52" | "matern32" | "matern12" | "rbf"; mode "full" | "approx";
/// L in [1, m] for approx (0 ⇒ m). InputError for anything else.
KernelPtr make_set_kernel(const std::string& base, int m, int d, bool ard, SetKernelType mode, int L,
                          std::uint64_t seed);
/// The same with mode as text (parsed here).
KernelPtr make_set_kernel(const std::string& base, int m, int d, bool ard, const std::string& mode, int L,
                          std::uint64_t seed);

}  // namespace kbo
