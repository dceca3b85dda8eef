// main() of every test executable: the registries are filled as the CLI fills them, then GoogleTest runs.
#include <gtest/gtest.h>

#include "kbo/modules.hpp"

int main(int argc, char** argv) {
  kbo::register_builtin_modules();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
