#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/gpus.h"

using namespace oomkit;

// The catalog holds total_memory as CUDA reports it, copied from published outputs (golden
// values: deviceQuery's exact bytes, torch's total_memory=N MB repr, or the OOM message's
// "N.NN GiB total capacity" kept as whole MiB) -- not the vendor's decimal GB, which put an
// A100 80GB at 74.51 GiB where PyTorch reports 79.1-79.3.
TEST(Gpus, CatalogHasCudaReportedCapacities) {
  const std::pair<const char*, int64_t> expected[] = {
      {"a100-sxm4-40gb", 42'298'834'944},      // deviceQuery, 40339 MBytes
      {"a100-sxm4-80gb", 85'100'068'864},      // deviceQuery, 81158 MBytes
      {"a100-pcie-80gb", 84'974'239'744},      // deviceQuery, 81038 MBytes
      {"h100-sxm", 85'045'477'376},            // deviceQuery, 81106 MBytes
      {"h100-pcie", 81'008LL << 20},           // total_memory=81008MB
      {"h200", 143'156LL << 20},               // total_memory=143156MB
      {"b200", 182'642LL << 20},               // total_memory=182642MB
      {"l4", 23'570'219'008},                  // deviceQuery, 22478 MBytes
      {"l40s", 47'803'596'800},                // deviceQuery, 45589 MBytes
      {"rtx-3090", 25'327'697'920},            // deviceQuery, 24154 MBytes
      {"rtx-4090", 25'386'352'640},            // deviceQuery, 24210 MBytes
      {"rtx-5090", 33'677'180'928},            // deviceQuery, 32117 MBytes
      {"v100-32gb", 32'502LL << 20},           // "31.74 GiB total capacity" = 32501.76 MiB
      {"v100-16gb", 16'159LL << 20},           // "15.78 GiB" = 16158.72 MiB
      {"t4", 14'920LL << 20},                  // "14.57 GiB" = 14919.68 MiB
      {"a10g", 22'723LL << 20},                // "22.19 GiB" = 22722.56 MiB
      {"mi300x", 196'592LL << 20}};            // hipGetDeviceProperties, 196592 MB
  for (const auto& [name, bytes] : expected) EXPECT_EQ(find_gpu(name).capacity_bytes, bytes) << name;
}

// Every entry names its source; a figure CUDA reported lies below the vendor's size read in GiB
// (the driver keeps part of the DRAM) and above 90% of it. Names and aliases are unique, and
// the cards are all there, PCIe and SXM apart, the MI250X as one 64 GiB device.
TEST(Gpus, EveryEntryHasASourceAndAPlausibleCapacity) {
  std::set<std::string> names;
  for (const auto& g : gpu_catalog()) {
    EXPECT_FALSE(g.source.empty()) << g.name;
    EXPECT_TRUE(names.insert(g.name).second) << g.name;
    for (const auto& a : g.aliases) EXPECT_TRUE(names.insert(a).second) << a;
    const double stated_gib = std::atof(g.stated.c_str());  // "80 GB HBM2e" -> 80
    ASSERT_GT(stated_gib, 0.0) << g.name;
    const double gib = static_cast<double>(g.capacity_bytes) / static_cast<double>(kGiB);
    if (g.nominal) continue;
    EXPECT_LT(gib, stated_gib) << g.name;
    EXPECT_GT(gib, 0.9 * stated_gib) << g.name;
  }
  for (const char* n : {"a10g", "l4", "l40s", "a100-sxm4-40gb", "a100-pcie-40gb", "a100-sxm4-80gb", "a100-pcie-80gb",
                        "h100-pcie", "h100-sxm", "h200", "b200", "rtx-3090", "rtx-4090", "rtx-5090", "v100-16gb",
                        "v100-32gb", "t4", "mi250x", "mi300x", "apple-m-64gb"}) {
    EXPECT_NO_THROW(find_gpu(n)) << n;
  }
  EXPECT_EQ(find_gpu("mi250x").capacity_bytes, 64 * kGiB);
  EXPECT_TRUE(find_gpu("mi250x").nominal);
  EXPECT_TRUE(find_gpu("apple-m-64gb").nominal);
  EXPECT_FALSE(find_gpu("h100-sxm").nominal);
}

// Lookup ignores case and resolves the older names; an unknown name is bad input naming --gpu
// and listing the valid names.
TEST(Gpus, LookupAliasesAndUnknownName) {
  EXPECT_EQ(find_gpu("A100-SXM4-80GB").name, "a100-sxm4-80gb");
  EXPECT_EQ(find_gpu("a100-80gb").name, "a100-sxm4-80gb");
  EXPECT_EQ(find_gpu("h100-80gb").name, "h100-sxm");
  try {
    find_gpu("tpu-v5e");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--gpu");
    EXPECT_NE(std::string(e.what()).find("h100-sxm"), std::string::npos);
  }
}

// --memory takes both unit families: 24GiB = 24·2^30 bytes, 24GB = 24·10^9 bytes.
TEST(Gpus, MemoryUnits) {
  EXPECT_EQ(parse_bytes("24GiB", "--memory"), 24LL * 1073741824LL);
  EXPECT_EQ(parse_bytes("24GB", "--memory"), 24'000'000'000LL);
  EXPECT_THROW(parse_bytes("24 parsecs", "--memory"), InputError);
}
