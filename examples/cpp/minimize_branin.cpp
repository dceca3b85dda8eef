// Minimises Branin with kbo's default BO over a 2-d box, in memory, and prints the best trial.
#include <cmath>
#include <iostream>

#include <kbo/storage/storage.hpp>
#include <kbo/strategy/registry.hpp>
#include <kbo/study/options.hpp>
#include <kbo/study/study.hpp>

int main() {
  // No kbo::register_builtin_modules() needed: linking kbo::kbo fills the registries on first use.
  kbo::StudyOptions options;  // the defaults of `kbo optimize`
  options.bounds = "-5:10,0:15";
  auto study = kbo::Study::create_or_open(kbo::open_storage("memory"),
                                          kbo::make_study_record(options, kbo::resolve_space(options, nullptr)));
  auto strategy = kbo::make_strategy(study.strategy_config(), study.space());
  auto branin = [](const kbo::Trial& t) {
    const double x = t.x[0], y = t.x[1], pi = 3.141592653589793;
    const double b = 5.1 / (4 * pi * pi), c = 5 / pi, r = 6, s = 10, u = 1 / (8 * pi);
    return kbo::Evaluation::ok(std::pow(y - b * x * x + c * x - r, 2) + s * (1 - u) * std::cos(x) + s);
  };
  study.optimize(*strategy, branin, 40, kbo::worker_id("example"));
  const auto best = study.best();
  std::cout << "best " << *best->value << " at (" << best->x[0] << ", " << best->x[1] << ")\n";
  return *best->value < 1.0 ? 0 : 1;  // Branin: minimum 0.397887, median over the box ≈ 25
}
