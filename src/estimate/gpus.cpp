// GPU capacities from the vendors' datasheets (memory size as stated on each product page).
#include "oomkit/estimate/gpus.h"

#include <cctype>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

namespace oomkit {

const std::vector<GpuSpec>& gpu_catalog() {
  static const std::vector<GpuSpec> kCatalog = {
      {"a100-40gb", "NVIDIA A100 40GB", "40 GB HBM2", 40 * kGB},
      {"a100-80gb", "NVIDIA A100 80GB", "80 GB HBM2e", 80 * kGB},
      {"h100-80gb", "NVIDIA H100 80GB (SXM/PCIe)", "80 GB HBM3", 80 * kGB},
      {"h100-94gb", "NVIDIA H100 NVL", "94 GB HBM3", 94 * kGB},
      {"h200-141gb", "NVIDIA H200", "141 GB HBM3e", 141 * kGB},
      {"v100-16gb", "NVIDIA V100 16GB", "16 GB HBM2", 16 * kGB},
      {"v100-32gb", "NVIDIA V100 32GB", "32 GB HBM2", 32 * kGB},
      {"l4", "NVIDIA L4", "24 GB GDDR6", 24 * kGB},
      {"l40s", "NVIDIA L40S", "48 GB GDDR6", 48 * kGB},
      {"t4", "NVIDIA T4", "16 GB GDDR6", 16 * kGB},
      {"a10g", "NVIDIA A10G (AWS)", "24 GB GDDR6", 24 * kGB},
      {"rtx-3090", "NVIDIA GeForce RTX 3090", "24 GB GDDR6X", 24 * kGB},
      {"rtx-4090", "NVIDIA GeForce RTX 4090", "24 GB GDDR6X", 24 * kGB},
      {"rtx-a6000", "NVIDIA RTX A6000", "48 GB GDDR6", 48 * kGB},
      {"mi250x", "AMD Instinct MI250X", "128 GB HBM2e", 128 * kGB},
      {"mi300x", "AMD Instinct MI300X", "192 GB HBM3", 192 * kGB},
  };
  return kCatalog;
}

const GpuSpec& find_gpu(const std::string& name) {
  std::string key;
  for (char c : name) key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  std::string valid;
  for (const auto& g : gpu_catalog()) {
    if (g.name == key) return g;
    valid += (valid.empty() ? "" : ", ") + g.name;
  }
  throw InputError("--gpu", "unknown GPU '" + name + "'; valid: " + valid, "or give a size: --memory 24GiB");
}

}  // namespace oomkit
