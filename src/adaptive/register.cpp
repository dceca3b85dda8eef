// The adaptive module's registrations: the "agpucb" strategy and its options section.
#include "kbo/adaptive/register.hpp"

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

void register_adaptive_module() {
  strategies().add("agpucb", {make_agpucb_strategy,
                              {"n_init", "init_method", "seed", "acq_optimizer", "fantasy", "module_options"},
                              {"agpucb"},
                              "agpucb",
                              "A-GP-UCB (Berkenkamp et al. 2019): lengthscales shrink on a schedule so the model "
                              "cannot stay too smooth; " + AgpucbOptions::product_summary()});
  option_sections().add("agpucb", {[](const nlohmann::json& v, const StrategyConfig&, int dim) {
                                     AgpucbOptions::from_json(v, dim > 0 ? dim : 1);
                                   },
                                   nullptr, "A-GP-UCB constants (kbo::AgpucbOptions)"});
}

}  // namespace kbo
