// libsvm with a precomputed Gram matrix vs libsvm's built-in RBF; folds; cross-validation.
#include <gtest/gtest.h>

#include <set>

#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/data.hpp"
#include "kbo/kfo/svm.hpp"
#include "kbo/core/random.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
Mat rbf_gram(const Mat& X, const Mat& Y, double gamma) {
  const Mat R = pairwise_distances(X, Y);
  return (-gamma * R.array().square()).exp().matrix();
}
}  // namespace

TEST(KfoSvm, PrecomputedRbfMatchesBuiltInRbf) {
  for (const char* file : {"wine.csv", "sonar.csv"}) {
    std::string path = KBO_SOURCE_DIR "/data/";  // one literal, then append: GCC 12's -Warray-bounds
    path += file;                                 // misfires on a chain of operator+ temporaries
    Dataset d = load_csv(path);
    const Labels y = to_labels(d.y);
    const Split s = random_split(static_cast<int>(d.X.rows()), 0.2, 42);
    Mat Xtr = take_rows(d.X, s.train), Xte = take_rows(d.X, s.test);
    minmax_scale(Xtr, Xte);
    const Labels ytr = take(y, s.train);
    for (double C : {0.1, 1.0, 100.0})
      for (double gamma : {0.05, 0.5}) {
        PrecomputedSvm pre;
        pre.fit(rbf_gram(Xtr, Xtr, gamma), ytr, C);
        RbfSvm rbf;
        rbf.fit(Xtr, ytr, C, gamma);
        EXPECT_EQ(pre.predict(rbf_gram(Xte, Xtr, gamma)), rbf.predict(Xte)) << file << " C=" << C << " gamma=" << gamma;
      }
  }
}

TEST(KfoSvm, FoldsPartitionAndStratify) {
  Labels y;
  for (int i = 0; i < 50; ++i) y.push_back(i < 20 ? 0 : (i < 45 ? 1 : 2));
  const Folds f = make_folds(y, 5, 7);
  std::multiset<int> all;
  for (const auto& fold : f) {
    int c0 = 0;
    for (int i : fold) {
      all.insert(i);
      c0 += y[i] == 0;
    }
    EXPECT_EQ(c0, 4);  // 20 class-0 items spread evenly
  }
  EXPECT_EQ(all.size(), 50u);
  EXPECT_EQ(std::set<int>(all.begin(), all.end()).size(), 50u);
  EXPECT_THROW(make_folds(y, 1, 0), InputError);
}

TEST(KfoSvm, CrossValidationSeparatesEasyFromRandomLabels) {
  Rng rng = make_rng(5);
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 60;
  Mat X(n, 2);
  Labels y(n), noise(n);
  for (int i = 0; i < n; ++i) {
    y[i] = i % 2;
    X(i, 0) = g(rng) * 0.3 + (y[i] ? 3.0 : -3.0);
    X(i, 1) = g(rng);
    noise[i] = (rng() >> 7) % 2;
  }
  const Mat K = rbf_gram(X, X, 0.5);
  const Folds f = make_folds(y, 5, 1);
  EXPECT_DOUBLE_EQ(cv_accuracy(K, y, 10.0, f), 1.0);
  const CvChoice c = select_c(K, y, default_c_grid(), f);
  EXPECT_DOUBLE_EQ(c.accuracy, 1.0);
  EXPECT_LT(cv_accuracy(K, noise, 10.0, make_folds(noise, 5, 1)), 0.8);
}

TEST(KfoData, CsvErrorsAreInputErrors) {
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string p = dir + "/" + name;
    FILE* f = fopen(p.c_str(), "w");
    fputs(text.c_str(), f);
    fclose(f);
    return p;
  };
  EXPECT_THROW(load_csv(dir + "/does_not_exist.csv"), InputError);
  EXPECT_THROW(load_csv(write("ragged.csv", "a,b,y\n1,2,0\n1,2\n3,4,1\n5,6,0\n")), InputError);
  EXPECT_THROW(load_csv(write("text.csv", "a,b,y\n1,2,0\n1,x,1\n3,4,1\n5,6,0\n")), InputError);
  EXPECT_THROW(load_csv(write("short.csv", "a,y\n1,0\n")), InputError);
  const Dataset d = load_csv(write("ok.csv", "a,b,y\n1,2,0\n1,3,1\n3,4,1\n5,6,0\n"));
  EXPECT_EQ(d.X.rows(), 4);
  EXPECT_EQ(d.X.cols(), 2);
  EXPECT_THROW(to_labels((Vec(3) << 0.0, 0.5, 1.0).finished()), InputError);
  EXPECT_THROW(random_split(10, 1.5, 0), InputError);
}
