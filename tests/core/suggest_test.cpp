// Did-you-mean suggestions (kbo/core/suggest.hpp) against hand-computed edit distances.
#include <gtest/gtest.h>

#include "kbo/core/suggest.hpp"

using namespace kbo;

TEST(Suggest, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("kernel", "kernel"), 0);
  EXPECT_EQ(edit_distance("kernal", "kernel"), 1);       // one substitution
  EXPECT_EQ(edit_distance("iter", "iters"), 1);          // one insertion
  EXPECT_EQ(edit_distance("itres", "iters"), 1);         // one swap of neighbours
  EXPECT_EQ(edit_distance("fit_restarts", "fit-restarts"), 0);  // '_' and '-' alike
  EXPECT_EQ(edit_distance("SEED", "seed"), 0);           // case-insensitive
  EXPECT_EQ(edit_distance("", "abc"), 3);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
}

TEST(Suggest, OnlyPlausibleTyposAreSuggested) {
  const std::vector<std::string> names{"--kernel", "--iters", "--init", "--seed"};
  EXPECT_EQ(closest_name("--kernal", names), "--kernel");
  EXPECT_EQ(closest_name("--iter", names), "--iters");  // first of the ties at distance 1 wins
  EXPECT_EQ(closest_name("--zzzzzz", names), "");
  EXPECT_EQ(did_you_mean("memroy", {"memory"}), " (did you mean 'memory'?)");
  EXPECT_EQ(did_you_mean("x", {"memory"}), "");
}
