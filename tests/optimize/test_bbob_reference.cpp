// The 24 BBOB functions against an independent implementation: tests/fixtures/bbob_reference.txt holds
// f(x) at fixed random points (d = 2, 5, 10; instances 1, 2, 7) computed by tests/fixtures/make_bbob_fixture.py,
// a Python implementation written from the definitions document and COCO's instance scheme, which itself agrees
// with the values of COCO's own regression data (its --check-coco mode). kbo's C++ was not consulted for it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "kbo/optimize/bbob.hpp"

namespace {

struct Reference {
  int function, instance, dim;
  double value;
  kbo::Vec x;
};

std::vector<Reference> read_fixture() {
  std::ifstream in(std::string(KBO_SOURCE_DIR) + "/tests/fixtures/bbob_reference.txt");
  std::vector<Reference> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Reference r;
    fields >> r.function >> r.instance >> r.dim >> r.value;
    r.x.resize(r.dim);
    for (int i = 0; i < r.dim; ++i) fields >> r.x(i);
    if (!fields) ADD_FAILURE() << "unreadable fixture line: " << line;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

TEST(BbobReference, AllTwentyFourFunctionsAgreeWithAnIndependentImplementation) {
  const std::vector<Reference> rows = read_fixture();
  ASSERT_EQ(rows.size(), 24u * 3u * 3u * 3u);  // 24 functions × 3 dimensions × 3 instances × 3 points
  std::map<int, int> checked;
  for (const Reference& r : rows) {
    const kbo::Problem p = kbo::make_bbob(r.function, r.instance, r.dim);
    const double got = p.f(r.x);
    EXPECT_NEAR(got, r.value, 1e-9 * std::max(1.0, std::abs(r.value)))
        << "bbob:" << r.function << ":" << r.instance << " d=" << r.dim;
    ++checked[r.function];
  }
  EXPECT_EQ(checked.size(), 24u);
}
