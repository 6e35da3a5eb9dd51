#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/gpus.h"

using namespace oomkit;

// The catalog holds the GPUs the issue names, at the vendors' stated sizes in decimal GB.
TEST(Gpus, CatalogHasVendorSizes) {
  const std::pair<const char*, int64_t> expected[] = {
      {"a100-40gb", 40 * kGB}, {"a100-80gb", 80 * kGB}, {"h100-80gb", 80 * kGB}, {"h200-141gb", 141 * kGB},
      {"l4", 24 * kGB},        {"t4", 16 * kGB},        {"v100-16gb", 16 * kGB}, {"v100-32gb", 32 * kGB},
      {"a10g", 24 * kGB},      {"rtx-3090", 24 * kGB},  {"rtx-4090", 24 * kGB},  {"mi300x", 192 * kGB}};
  for (const auto& [name, bytes] : expected) EXPECT_EQ(find_gpu(name).capacity_bytes, bytes) << name;
}

// Lookup ignores case; an unknown name is bad input naming --gpu and listing the valid names.
TEST(Gpus, LookupAndUnknownName) {
  EXPECT_EQ(find_gpu("A100-80GB").name, "a100-80gb");
  try {
    find_gpu("b200");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--gpu");
    EXPECT_NE(std::string(e.what()).find("h100-80gb"), std::string::npos);
  }
}

// --memory takes both unit families: 24GiB = 24·2^30 bytes, 24GB = 24·10^9 bytes.
TEST(Gpus, MemoryUnits) {
  EXPECT_EQ(parse_bytes("24GiB", "--memory"), 24LL * 1073741824LL);
  EXPECT_EQ(parse_bytes("24GB", "--memory"), 24'000'000'000LL);
  EXPECT_THROW(parse_bytes("24 parsecs", "--memory"), InputError);
}
