// The GPU catalog behind `oomkit gpus` and `oomkit estimate --gpu NAME`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oomkit {

/// One device as CUDA (or HIP) sees it: capacity_bytes is `total_memory` of
/// cudaGetDeviceProperties (what torch.cuda.get_device_properties(i).total_memory and PyTorch's
/// OOM message, "GPU 0 has a total capacity of X GiB", print), not the vendor's "80 GB": the
/// driver keeps part of the DRAM, so an A100/H100 80GB reports ~79.1-79.3 GiB. One entry per
/// SKU and per device: PCIe and SXM apart; an MI250X board is two devices (GCDs) of 64 GiB.
/// The figure moves by up to ~0.5% between driver versions; `source` names the published
/// output it was taken from. `nominal` marks a card without a public figure: its capacity is
/// the vendor's size and is flagged as such in every listing.
struct GpuSpec {
  std::string name;          // lookup key, lower case: "a100-sxm4-80gb"
  std::string model;         // the device name CUDA reports, e.g. "NVIDIA A100-SXM4-80GB"
  std::string stated;        // the vendor's nominal size, verbatim: "80 GB HBM2e"
  int64_t capacity_bytes = 0;
  std::string source;        // where capacity_bytes comes from (published deviceQuery/torch output)
  bool nominal = false;      // true: no public CUDA-reported figure; capacity is the vendor's size
  std::vector<std::string> aliases;  // older catalog names that resolve to this entry
  std::string compute_capability;    // CUDA compute capability "8.0" (NVIDIA's CUDA GPUs list); empty: not NVIDIA
};

/// Every catalogued device, in a fixed order (NVIDIA data-center, NVIDIA consumer, AMD, Apple).
const std::vector<GpuSpec>& gpu_catalog();

/// Case-insensitive lookup by name or alias. Throws InputError("--gpu") listing the valid names,
/// with suggest()'s nearest names as the hint (a100 -> a100-sxm4-40gb, a100-pcie-40gb, ...).
const GpuSpec& find_gpu(const std::string& name);

}  // namespace oomkit
