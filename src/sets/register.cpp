// The sets module's registrations: the "set" space kind (a stored set space and its set kernel).
#include "kbo/sets/register.hpp"

#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_proposals.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

void register_sets_module() {
  register_set_proposals();
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
       "a set of set_size elements, each in the box lower/upper",
       [](const StrategyConfig& c, const Space& space) {
         // set_kernel auto (the default): the normalised orbit average and the sliced kernel compete with the
         // plain kernel on the flat (canonically sorted) vector, which make_model_kernels adds. The orbit
         // average wins on most data, the sliced kernel where the average's variance ridge at coincident
         // elements would mislead it (docs/bench/structure.md). All are exactly PSD with full
         // prior variance everywhere; the max kernel is left out: its PSD projection is a rank-n model whose
         // variance vanishes away from the data and won the MAP objective while optimising worse
         // (docs/bench/structure.md).
         std::vector<NamedKernel> out;
         if (c.set_kernel != SetKernelType::Auto) return out;
         const auto& sets = dynamic_cast<const SetSpace&>(space);
         const int m = sets.set_size(), d = sets.element_dim();
         // Every set kernel is invariant to the order of the elements: its chart (the elements paired with the
         // incumbent's) holds for every model of the space, the flat one included (lends_chart).
         out.push_back({"set-" + enum_name(effective_set_kernel(SetKernelType::Average, m)),
                        make_set_kernel(c.kernel, m, d, c.ard, SetKernelType::Average, 0, c.seed),
                        /*lends_chart=*/true});
         if (d <= kAutoSlicedMaxElementDim)
           out.push_back({"set-sliced", make_set_kernel(c.kernel, m, d, c.ard, SetKernelType::Sliced, 0, c.seed),
                          /*lends_chart=*/true});
         return out;
       },
       [](const StrategyConfig& c, const Space& space) {
         return "set-" + enum_name(effective_set_kernel(c.set_kernel, dynamic_cast<const SetSpace&>(space).set_size()));
       },
       "set-sorted"});
}

}  // namespace kbo
