// The GPU catalog behind `oomkit gpus` and `oomkit estimate --gpu NAME`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oomkit {

/// One accelerator. capacity_bytes is the vendor's stated size read in the vendor's unit
/// (decimal GB = 10^9 bytes), so "80 GB" is 80,000,000,000 bytes (74.51 GiB). The DRAM behind
/// it is usually the same number of GiB (nvidia-smi reports 81920 MiB for an A100 80GB), so
/// the catalog errs on the safe side; `--memory 80GiB` states the binary figure instead.
struct GpuSpec {
  std::string name;          // lookup key, lower case: "a100-80gb"
  std::string model;         // "NVIDIA A100 80GB (SXM/PCIe)"
  std::string stated;        // the vendor's figure, verbatim: "80 GB HBM2e"
  int64_t capacity_bytes = 0;
};

/// Every catalogued GPU, in a fixed order (NVIDIA data-center, NVIDIA consumer, AMD).
const std::vector<GpuSpec>& gpu_catalog();

/// Case-insensitive lookup by name. Throws InputError("--gpu") listing the valid names.
const GpuSpec& find_gpu(const std::string& name);

}  // namespace oomkit
