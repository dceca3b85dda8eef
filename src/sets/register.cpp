// The sets module's registrations: the "set" space kind (a stored set space and its set kernel).
#include "kbo/sets/register.hpp"

#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

void register_sets_module() {
  space_kinds().add(
      "set",
      {[](const nlohmann::json& j) -> std::shared_ptr<const Space> {
         // lower/upper are the box of one element; a point is set_size x element_dim coordinates.
         if (!j.contains("set_size") || !j["set_size"].is_number_integer())
           throw InputError("set space: needs an integer 'set_size'");
         return std::make_shared<SetSpace>(j["set_size"].get<int>(), box_from_json(j));
       },
       [](const StrategyConfig& c, const Space& space) {
         const auto& sets = dynamic_cast<const SetSpace&>(space);
         return make_set_kernel(c.kernel, sets.set_size(), sets.element_dim(), c.ard, c.set_kernel, c.set_L,
                                c.seed);
       },
       {"set_kernel", "set_L"},
       "a set of set_size elements, each in the box lower/upper"});
}

}  // namespace kbo
