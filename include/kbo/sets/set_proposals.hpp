#pragma once
// The sets module's part in a BO step: its options.bo keys, its Proposer contribution (element moves,
// refusing coincident elements) and its model preset for small set spaces (src/sets/set_proposals.cpp).
#include <nlohmann/json.hpp>

#include "kbo/core/fields.hpp"

namespace kbo {

// X(type, name, default): keys of options.bo that act on set spaces only (BoOptionKeysEntry).
#define KBO_SET_PROPOSAL_FIELDS(X)                                                                              \
  /* The acquisition's result is never a set with two coincident elements (Space::has_coincident_elements) */  \
  /* while the incumbent has none: such a set is a fixed point of the element swaps, where every invariant */    \
  /* model's acquisition is stationary and its variance often peaks (the orbit average's ridge), not what the */ \
  /* data show. On by default in the small-set-space preset. */                                                 \
  X(bool, avoid_coincident, false)                                                                             \
  /* The optimiser also starts from the incumbent with one element moved (each in turn) to where the */          \
  /* acquisition is highest for it: the swap moves of k-medoids-style local search. */                          \
  X(bool, element_moves, false)

struct SetProposalOptions {
  KBO_SET_PROPOSAL_FIELDS(KBO_FIELD_MEMBER)
  bool operator==(const SetProposalOptions&) const = default;
  /// From options.bo (every other key ignored); InputError on a bad value of its own keys.
  static SetProposalOptions from_bo(const nlohmann::json& bo);
  bool any() const { return *this != SetProposalOptions{}; }
};
KBO_VISIT_FIELDS(SetProposalOptions, KBO_SET_PROPOSAL_FIELDS)

/// Registers the options.bo keys, the Proposer contribution and the small-set-space preset.
void register_set_proposals();

}  // namespace kbo
