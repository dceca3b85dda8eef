// The default model's documented option surface as `kbo options` prints it: every key of options.bo (its
// own table and the tables of keys a module owns) counted from the output, at most 25 and none a
// dimension twin (ending in _2d); each model preset is listed with what it sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

using namespace kbo::test;

TEST(OptionsSurfaceCli, AtMost25DocumentedModelKeysAndNoDimensionTwins) {
  TempDir dir("options_surface");
  const CmdResult r = run_kbo("options", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> keys;
  bool in_bo = false, in_table = false;
  while (std::getline(lines, line)) {
    if (line.rfind("## ", 0) == 0) in_bo = line.find("Keys of `options.bo`") != std::string::npos;
    if (!in_bo) continue;
    if (line == "| key | default |") {
      in_table = true;
      continue;
    }
    if (line.rfind("|---", 0) == 0) continue;
    if (in_table && line.rfind("| `", 0) == 0) {
      keys.push_back(line.substr(3, line.find('`', 3) - 3));
      continue;
    }
    in_table = false;
  }
  EXPECT_GE(keys.size(), 10u) << "the tables were found";
  EXPECT_LE(keys.size(), 25u);
  for (const std::string& k : keys) EXPECT_FALSE(k.size() > 3 && k.compare(k.size() - 3, 3, "_2d") == 0) << k;
  for (const char* owned : {"avoid_coincident", "element_moves", "endgame_fraction", "local_fit_power"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), owned), keys.end()) << owned;
  // The presets, each with what it sets.
  EXPECT_NE(r.out.find("- `planar`: spaces of at most 2 coordinates: local_fit_power 2, and with a plain kernel "
                       "endgame_fraction 0.6"),
            std::string::npos);
  EXPECT_NE(r.out.find("- `structured-kernel`: "), std::string::npos);
}
