// zero_partition (include/oomkit/core/zero_partition.h) against PyTorch's
// ZeroRedundancyOptimizer._partition_parameters: the expected partitions below were printed by
// torch 1.13's own code (Debian python3-torch) for these sizes, by
// tests/data/zero_partition_reference.py.
#include "oomkit/core/zero_partition.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace oomkit {
namespace {

TEST(ZeroPartition, MatchesZeroRedundancyOptimizerOnRecordedCases) {
  std::ifstream in(std::string(OOMKIT_SOURCE_DIR) + "/tests/data/zero_partition_reference.jsonl");
  ASSERT_TRUE(in) << "tests/data/zero_partition_reference.jsonl";
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json c = nlohmann::json::parse(line);
    const auto numels = c["numels"].get<std::vector<int64_t>>();
    const int world = c["world_size"].get<int>();
    const auto want = c["owned"].get<std::vector<std::vector<size_t>>>();
    EXPECT_EQ(zero_partition(numels, world), want) << line;
    ++cases;
  }
  EXPECT_GE(cases, 10);
}

TEST(ZeroPartition, EveryParameterHasExactlyOneOwner) {
  const std::vector<int64_t> numels = {768, 50257 * 768, 768 * 2304, 2304, 768, 768 * 768, 0, 3072 * 768};
  for (int world = 1; world <= 9; ++world) {
    const auto owned = zero_partition(numels, world);
    ASSERT_EQ(owned.size(), static_cast<size_t>(world));
    std::vector<int> seen(numels.size(), 0);
    for (const auto& rank : owned) {
      for (size_t i : rank) ++seen.at(i);
    }
    for (size_t i = 0; i < numels.size(); ++i) EXPECT_EQ(seen[i], 1) << "parameter " << i << ", world " << world;
  }
}

TEST(ZeroPartition, RefusesBadArguments) {
  EXPECT_THROW(zero_partition({1, 2}, 0), std::invalid_argument);
  EXPECT_THROW(zero_partition({1, -2}, 2), std::invalid_argument);
  EXPECT_EQ(zero_partition({}, 3), (std::vector<std::vector<size_t>>(3)));
}

}  // namespace
}  // namespace oomkit
