// Issue 16 through the CLI as a user runs it: set kernels that do not propose degenerate sets, and the
// structure auto chooses reported per trial.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <vector>

#include "cli_support.hpp"

namespace kbo::test {
namespace {

using json = nlohmann::json;

// Covering objective of 3 points in the unit square: the largest distance from a 11 x 11 grid point to its
// nearest point (optimum ≈ 0.3, three distinct points; a degenerate set scores ≥ 0.5).
void write_covering(const TempDir& dir) {
  std::ofstream(dir / "cover.py") << "import sys, math\n"
                                     "v = [float(a) for a in sys.argv[1:]]\n"
                                     "pts = [(v[2*i], v[2*i+1]) for i in range(len(v)//2)]\n"
                                     "r = max(min(math.hypot(i/10-a, j/10-b) for a, b in pts)\n"
                                     "        for i in range(11) for j in range(11))\n"
                                     "print(repr(r))\n";
}

bool degenerate(const std::vector<double>& x, double tol) {
  // All elements within tol of the first one (coordinate-wise).
  for (std::size_t e = 1; e < x.size() / 2; ++e)
    if (std::abs(x[2 * e] - x[0]) > tol || std::abs(x[2 * e + 1] - x[1]) > tol) return false;
  return true;
}

// The set kernels a user can choose, and the default (no --set-kernel): no BO suggestion after the initial
// design is a degenerate set on an objective whose optimum has distinct elements. (The mean-pair kernel,
// --set-kernel full, proposes such sets: its prior variance k(X, X) is largest when all elements coincide.)
TEST(StructureCli, SetKernelsDoNotProposeDegenerateSets) {
  TempDir dir("structure_degenerate");
  write_covering(dir);
  for (const std::string kernel : {"", "normalized", "normalized-approx", "max", "auto"}) {
    const std::string flag = kernel.empty() ? "" : " --set-kernel " + kernel + (kernel == "normalized-approx" ? " --set-L 2" : "");
    const CmdResult r = run_kbo("optimize --objective 'python3 " + (dir / "cover.py") +
                                    " {x}' --space set --set-size 3 --bounds 0:1,0:1 --init 5 --iters 12 --seed 3 "
                                    "--storage " + (dir / ("s" + kernel + ".db")) + flag + " --json",
                                dir);
    ASSERT_EQ(r.code, 0) << kernel << ": " << r.err;
    const json j = r.json();
    ASSERT_EQ(j["n_complete"].get<int>(), 17) << kernel;
    int bo = 0;
    for (const auto& t : j["trials"]) {
      if (t["id"].get<int>() < 5) continue;
      ++bo;
      const auto x = t["x"].get<std::vector<double>>();
      EXPECT_FALSE(degenerate(x, 1e-3)) << "--set-kernel " << (kernel.empty() ? "(default)" : kernel) << ": trial "
                                        << t["id"] << " proposes a degenerate set";
    }
    EXPECT_EQ(bo, 12);
  }
}

}  // namespace
}  // namespace kbo::test
