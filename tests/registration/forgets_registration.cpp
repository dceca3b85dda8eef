// A C++ program that links kbo::kbo and never calls kbo::register_builtin_modules(): the registries fill
// themselves on first use, so a box study runs (the default BO on a 2-d quadratic: 15 trials reach 0.01, which 15 random points
// do with probability 0.11).
#include <cstdio>

#include <kbo/storage/storage.hpp>
#include <kbo/strategy/registry.hpp>
#include <kbo/study/options.hpp>
#include <kbo/study/study.hpp>

int main() {
  kbo::StudyOptions options;
  options.bounds = "-1:1,-1:1";
  auto study = kbo::Study::create_or_open(kbo::open_storage("memory"),
                                          kbo::make_study_record(options, kbo::resolve_space(options, nullptr)));
  auto strategy = kbo::make_strategy(study.strategy_config(), study.space());
  auto quadratic = [](const kbo::Trial& t) {
    return kbo::Evaluation::ok((t.x[0] - 0.3) * (t.x[0] - 0.3) + (t.x[1] + 0.2) * (t.x[1] + 0.2));
  };
  study.optimize(*strategy, quadratic, 15, kbo::worker_id("forgets-registration"));
  const auto best = study.best();
  std::printf("best %.6f; space types: %s; storages: %s\n", *best->value, kbo::space_kinds().allowed().c_str(),
              kbo::storages().allowed().c_str());
  // Every module is there, not only what the study touched: the set space kind comes from the sets module.
  if (!kbo::space_kinds().contains("set") || !kbo::storages().contains("sqlite")) return 1;
  return *best->value < 0.01 ? 0 : 1;
}
