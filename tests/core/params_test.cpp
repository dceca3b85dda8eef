// Named, typed parameters: the compact and JSON forms, the encoding (round trips, rounding, uniform
// integers), and one-line errors naming the parameter.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"

using namespace kbo;

namespace {

std::vector<ParamDef> mixed() {
  return params_from_json(nlohmann::json::array({"lr=float:1e-5:1e-1:log", "layers=int:1:8", "width=int:4:1024:log",
                                                 "opt=cat:adam,sgd,rmsprop", "batch=cat:16,32,64", "x=float:-2:3",
                                                 "seed=fixed:7"}));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Params, CompactFormsParseToTheirTypedSpecs) {
  const ParamDef lr = parse_param("lr=float:1e-5:1e-1:log");
  EXPECT_EQ(lr.name, "lr");
  EXPECT_EQ(lr.type, ParamType::Float);
  EXPECT_DOUBLE_EQ(lr.low, 1e-5);
  EXPECT_DOUBLE_EQ(lr.high, 0.1);
  EXPECT_TRUE(lr.log);
  const ParamDef n = parse_param("n = int:1:8");
  EXPECT_EQ(n.type, ParamType::Int);
  EXPECT_FALSE(n.log);
  const ParamDef c = parse_param("batch=cat:16,32,sixty-four");
  ASSERT_EQ(c.choices.size(), 3u);
  EXPECT_TRUE(c.choices[0].is_number_integer());  // a choice that reads as a number is that number
  EXPECT_EQ(c.choices[2], "sixty-four");
  EXPECT_EQ(parse_param("k=categorical:a").choices.size(), 1u);
  EXPECT_EQ(parse_param("s=fixed:0.5").value, 0.5);
  // The JSON form is the same parameter, and to_json round-trips.
  EXPECT_EQ(param_from_json(to_json(lr)), lr);
  EXPECT_EQ(param_from_json(nlohmann::json{{"type", "float"}, {"low", 1e-5}, {"high", 0.1}, {"log", true}}, "lr"), lr);
  EXPECT_EQ(param_from_json(nlohmann::json("float:1e-5:1e-1:log"), "lr"), lr);
  EXPECT_EQ(param_from_json(nlohmann::json::array({16, 32, "sixty-four"}), "batch"), c);
}

TEST(Params, BadSpecsAreOneLineErrorsNamingTheParameter) {
  struct Case {
    std::string text, expect;
  };
  for (const Case& k : {Case{"lr=floot:0:1", "param 'lr': unknown type 'floot'"},
                        Case{"opt=cat:", "param 'opt': a categorical parameter needs at least one choice"},
                        Case{"a=float:1:1", "param 'a': needs low < high"},
                        Case{"a=int:5:2", "param 'a': needs low < high"},
                        Case{"lr=float:0:1:log", "param 'lr': log scale needs low > 0"},
                        Case{"w=int:0:8:log", "param 'w': log scale needs low >= 1"},
                        Case{"n=int:1.5:8", "param 'n': an int parameter needs whole-number"},
                        Case{"c=cat:a,b,a", "param 'c': choice \"a\" is listed twice"},
                        Case{"x=float:0", "param 'x': expected float:LOW:HIGH"},
                        Case{"x=float:0:nan", "param 'x': high must be a finite number"}}) {
    const std::string msg = error_of([&] { parse_param(k.text); });
    EXPECT_EQ(msg.rfind(k.expect, 0), 0u) << k.text << " -> " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
  EXPECT_NE(error_of([] { param_from_json(nlohmann::json{{"name", "a"}, {"type", "categorical"}, {"choices", nlohmann::json::array()}}); })
                .find("param 'a': a categorical parameter needs at least one choice"),
            std::string::npos);
  EXPECT_NE(error_of([] { param_from_json(nlohmann::json{{"name", "a"}, {"type", "float"}, {"low", 0}, {"high", 1}, {"step", 2}}); })
                .find("param 'a': unknown key 'step'"),
            std::string::npos);
  EXPECT_NE(error_of([] { params_from_json(nlohmann::json::array({"a=float:0:1", "a=int:0:3"})); }).find("param 'a': defined twice"),
            std::string::npos);
  EXPECT_NE(error_of([] { params_from_json(nlohmann::json::array({"a=fixed:1"})); }).find("at least one must vary"),
            std::string::npos);
}

TEST(ParamsSpace, EncodingWidthsAndBounds) {
  ParamsSpace space(mixed());
  // lr 1 + layers 1 + width 1 + opt 3 + batch 3 + x 1 + seed 0
  EXPECT_EQ(space.dim(), 10);
  EXPECT_DOUBLE_EQ(space.bounds().lower[0], std::log(1e-5));
  EXPECT_DOUBLE_EQ(space.bounds().upper[0], std::log(0.1));
  EXPECT_DOUBLE_EQ(space.bounds().lower[1], 0.5);
  EXPECT_DOUBLE_EQ(space.bounds().upper[1], 8.5);
  EXPECT_DOUBLE_EQ(space.bounds().lower[2], std::log(3.5));
  const std::vector<bool> d = space.discrete_coordinates();
  EXPECT_EQ(d, (std::vector<bool>{false, true, true, true, true, true, true, true, true, false}));
  // The stored form rebuilds the same space.
  EXPECT_EQ(std::dynamic_pointer_cast<const ParamsSpace>(params_space_from_json(space.to_json()))->params(), space.params());
}

TEST(ParamsSpace, SamplesAreCanonicalTypedAndInRangeAndNamedRoundTrips) {
  ParamsSpace space(mixed());
  for (SamplingMethod method : {SamplingMethod::Sobol, SamplingMethod::Uniform}) {
    Rng rng = make_rng(11);
    const Mat X = space.sample(300, method, rng);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      Vec x = X.row(i).transpose();
      Vec c = x;
      space.canonicalize(c);
      ASSERT_EQ(c, x) << "sample " << i << " is not canonical";
      const nlohmann::json v = space.named(x);
      ASSERT_TRUE(v["lr"].is_number_float());
      EXPECT_GE(v["lr"].get<double>(), 1e-5);
      EXPECT_LE(v["lr"].get<double>(), 0.1);
      ASSERT_TRUE(v["layers"].is_number_integer());
      EXPECT_GE(v["layers"].get<long long>(), 1);
      EXPECT_LE(v["layers"].get<long long>(), 8);
      ASSERT_TRUE(v["width"].is_number_integer());
      EXPECT_GE(v["width"].get<long long>(), 4);
      EXPECT_LE(v["width"].get<long long>(), 1024);
      EXPECT_TRUE(v["opt"] == "adam" || v["opt"] == "sgd" || v["opt"] == "rmsprop");
      EXPECT_TRUE(v["batch"] == 16 || v["batch"] == 32 || v["batch"] == 64);
      EXPECT_EQ(v["seed"], 7);
      // named → point → named is the identity (and the point is the same canonical point).
      const Vec back = space.from_named(v);
      EXPECT_LT((back - x).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_EQ(space.named(back), v);
    }
  }
}

TEST(ParamsSpace, EveryIntegerAndChoiceIsEquallyLikelyUnderUniformSampling) {
  ParamsSpace space(params_from_json(nlohmann::json::array({"n=int:1:4", "c=cat:a,b,c"})));
  Rng rng = make_rng(5);
  const int N = 12000;
  const Mat X = space.sample(N, SamplingMethod::Uniform, rng);
  std::map<std::string, int> count;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const nlohmann::json v = space.named(X.row(i).transpose());
    ++count["n" + v["n"].dump()];
    ++count["c" + v["c"].get<std::string>()];
  }
  for (const char* k : {"n1", "n2", "n3", "n4"}) EXPECT_NEAR(count[k], N / 4.0, 5 * std::sqrt(N * 0.25 * 0.75)) << k;
  for (const char* k : {"ca", "cb", "cc"}) EXPECT_NEAR(count[k], N / 3.0, 5 * std::sqrt(N * 2.0 / 9.0)) << k;
}

TEST(ParamsSpace, ASobolDesignShowsEveryChoiceInBalance) {
  ParamsSpace space(params_from_json(nlohmann::json::array({"x=float:0:1", "k=cat:lin,poly,rbf,sig", "b=cat:1,2"})));
  for (int n : {3, 5, 8, 11}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      Rng rng = make_rng(seed);
      const Mat X = space.sample(n, SamplingMethod::Sobol, rng);
      std::map<std::string, int> k, b;
      for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const nlohmann::json v = space.named(X.row(i).transpose());
        ++k[v["k"].get<std::string>()];
        ++b[v["b"].dump()];
      }
      // Each choice floor(n/k) or ceil(n/k) times: every one of them as soon as n >= k.
      EXPECT_EQ(k.size(), static_cast<std::size_t>(std::min(n, 4))) << "n = " << n;
      for (const auto& [choice, c] : k) EXPECT_TRUE(c == n / 4 || c == (n + 3) / 4) << choice << " n = " << n;
      for (const auto& [choice, c] : b) EXPECT_TRUE(c == n / 2 || c == (n + 1) / 2) << choice << " n = " << n;
    }
  }
}

TEST(ParamsSpace, CanonicalizeRoundsIntegersAndOneHotsCategories) {
  ParamsSpace space(params_from_json(nlohmann::json::array({"n=int:1:8", "c=cat:a,b,c", "w=int:1:100:log"})));
  Vec x(5);
  x << 3.49, 0.2, 0.9, 0.5, std::log(9.6);
  space.canonicalize(x);
  EXPECT_EQ(x[0], 3.0);
  EXPECT_EQ(x.segment(1, 3), Vec::Unit(3, 1));
  EXPECT_DOUBLE_EQ(x[4], std::log(10.0));
  EXPECT_EQ(space.named(x), (nlohmann::json{{"n", 3}, {"c", "b"}, {"w", 10}}));
  // Neighbours: n 2 and 4, c a and c, w 9 and 11.
  const auto nb = space.discrete_neighbours(x);
  ASSERT_EQ(nb.size(), 6u);
  std::set<std::string> seen;
  for (const Vec& y : nb) seen.insert(space.named(y).dump());
  EXPECT_TRUE(seen.count(nlohmann::json{{"n", 2}, {"c", "b"}, {"w", 10}}.dump()));
  EXPECT_TRUE(seen.count(nlohmann::json{{"n", 3}, {"c", "a"}, {"w", 10}}.dump()));
  EXPECT_TRUE(seen.count(nlohmann::json{{"n", 3}, {"c", "b"}, {"w", 11}}.dump()));
  // At the edge of a range there is one integer neighbour.
  Vec e = space.from_named({{"n", 1}, {"c", "a"}, {"w", 100}});
  EXPECT_EQ(space.discrete_neighbours(e).size(), 1u + 2u + 1u);
}

TEST(ParamsSpace, PointsWithMissingExtraOrBadValuesAreRejectedNamingTheParameter) {
  ParamsSpace space(mixed());
  nlohmann::json ok{{"lr", 1e-3}, {"layers", 3}, {"width", 64}, {"opt", "sgd"}, {"batch", 32}, {"x", 0.0}};
  EXPECT_NO_THROW(space.from_named(ok));  // a fixed parameter may be left out
  auto msg = [&](nlohmann::json v) { return error_of([&] { space.from_named(v); }); };
  nlohmann::json v = ok;
  v.erase("layers");
  EXPECT_EQ(msg(v).rfind("param 'layers': missing", 0), 0u) << msg(v);
  v = ok;
  v["depth"] = 3;
  EXPECT_EQ(msg(v).rfind("param 'depth': not a parameter of this study", 0), 0u) << msg(v);
  v = ok;
  v["layers"] = 2.5;
  EXPECT_EQ(msg(v).rfind("param 'layers': expected an integer", 0), 0u) << msg(v);
  v = ok;
  v["layers"] = 9;
  EXPECT_EQ(msg(v).rfind("param 'layers': 9 is outside [1, 8]", 0), 0u) << msg(v);
  v = ok;
  v["opt"] = "adagrad";
  EXPECT_EQ(msg(v).rfind("param 'opt': \"adagrad\" is not one of its choices", 0), 0u) << msg(v);
  v = ok;
  v["seed"] = 8;
  EXPECT_EQ(msg(v).rfind("param 'seed': is fixed at 7", 0), 0u) << msg(v);
}
