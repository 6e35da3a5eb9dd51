// GPU capacities as CUDA reports them (cudaGetDeviceProperties' totalGlobalMem, which
// torch.cuda.get_device_properties(i).total_memory returns). Each figure is copied from a
// published output: deviceQuery's "Total amount of global memory: N MBytes (B bytes)" (exact
// bytes), torch's `_CudaDeviceProperties(... total_memory=N MB ...)` repr (MiB), or PyTorch's OOM
// message "N.NN GiB total capacity" (printed to 0.01 GiB: kept as whole MiB, +-5 MiB).
// Cards without such a figure keep the vendor's size, flagged `nominal`.
#include "oomkit/estimate/gpus.h"

#include <cctype>
#include <utility>

#include "oomkit/core/error.h"
#include "oomkit/core/suggest.h"
#include "oomkit/core/units.h"

namespace oomkit {
namespace {

constexpr int64_t kMiB = 1LL << 20;

// "N.NN GiB" as PyTorch prints it, kept as whole MiB.
constexpr int64_t printed_gib(int64_t hundredths) { return (hundredths * 1024 + 50) / 100 * kMiB; }

GpuSpec measured(const char* name, const char* model, const char* stated, int64_t bytes, const char* source,
                 std::vector<std::string> aliases = {}) {
  return {name, model, stated, bytes, source, false, std::move(aliases), {}};
}

GpuSpec nominal(const char* name, const char* model, const char* stated, int64_t bytes, const char* source,
                std::vector<std::string> aliases = {}) {
  return {name, model, stated, bytes, source, true, std::move(aliases), {}};
}

// CUDA compute capabilities from NVIDIA's "CUDA GPUs" list (developer.nvidia.com/cuda-gpus):
// Volta 7.0, Turing 7.5, Ampere 8.0 (A100) / 8.6 (GA10x), Ada 8.9, Hopper 9.0, Blackwell 10.0
// (B200) / 12.0 (RTX 50). `--precision auto` reads them (precision_auto.h: bf16 from 8.0).
const std::pair<const char*, const char*> kComputeCapabilities[] = {
    {"a100-sxm4-40gb", "8.0"}, {"a100-pcie-40gb", "8.0"}, {"a100-sxm4-80gb", "8.0"}, {"a100-pcie-80gb", "8.0"},
    {"h100-pcie", "9.0"},      {"h100-sxm", "9.0"},       {"h100-nvl", "9.0"},       {"h200", "9.0"},
    {"b200", "10.0"},          {"v100-16gb", "7.0"},      {"v100-32gb", "7.0"},      {"t4", "7.5"},
    {"a10g", "8.6"},           {"l4", "8.9"},             {"l40s", "8.9"},           {"rtx-3090", "8.6"},
    {"rtx-4090", "8.9"},       {"rtx-5090", "12.0"},      {"rtx-a6000", "8.6"},
};

std::vector<GpuSpec> with_compute_capabilities(std::vector<GpuSpec> catalog) {
  for (auto& g : catalog) {
    for (const auto& [name, cc] : kComputeCapabilities) {
      if (g.name == name) g.compute_capability = cc;
    }
  }
  return catalog;
}

std::vector<GpuSpec> build_catalog() {
  const char* thamada = "thamada/nvidia-smi ";  // captured deviceQuery outputs, one file per machine
  return {
      measured("a100-sxm4-40gb", "NVIDIA A100-SXM4-40GB", "40 GB HBM2", 42'298'834'944,
               "deviceQuery: 40339 MBytes (42298834944 bytes), driver 12.2 (bottlerocket-os/bottlerocket PR #3873)",
               {"a100-40gb"}),
      nominal("a100-pcie-40gb", "NVIDIA A100-PCIE-40GB", "40 GB HBM2", 40 * kGiB,
              "no public total_memory found: the 40 GiB of HBM2 (CUDA reports ~1.5% less)"),
      measured("a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", "80 GB HBM2e", 85'100'068'864,
               (std::string(thamada) + "gls/A100SXMx4_deviceQuery.py: 81158 MBytes (85100068864 bytes), driver 12.5").c_str(),
               {"a100-80gb"}),
      measured("a100-pcie-80gb", "NVIDIA A100 80GB PCIe", "80 GB HBM2e", 84'974'239'744,
               "deviceQuery: 81038 MBytes (84974239744 bytes), driver 12.4 (Wake Forest DEAC cluster docs, gpu-a100-0[1-2] node)"),
      measured("h100-pcie", "NVIDIA H100 PCIe", "80 GB HBM2e", 81'008 * kMiB,
               "torch.cuda.get_device_properties: _CudaDeviceProperties(name='NVIDIA H100 PCIe', ..., total_memory=81008MB)"),
      measured("h100-sxm", "NVIDIA H100 80GB HBM3", "80 GB HBM3", 85'045'477'376,
               (std::string(thamada) + "gls/H100SXMx8_deviceQuery.py: 81106 MBytes (85045477376 bytes), driver 12.7").c_str(),
               {"h100-80gb"}),
      measured("h100-nvl", "NVIDIA H100 NVL", "94 GB HBM3", 99'861'594'112,
               (std::string(thamada) + "gls/H100NVLx2_deviceQuery.py: 95235 MBytes (99861594112 bytes)").c_str(),
               {"h100-94gb"}),
      measured("h200", "NVIDIA H200", "141 GB HBM3e", 143'156 * kMiB,
               "torch.cuda.get_device_properties: _CudaDeviceProperties(name='NVIDIA H200', ..., total_memory=143156MB) (a public Modal vLLM example)",
               {"h200-141gb"}),
      measured("b200", "NVIDIA B200", "180 GB HBM3e", 182'642 * kMiB,
               "torch.cuda.get_device_properties: _CudaDeviceProperties(name='NVIDIA B200', ..., total_memory=182642MB) (a public Modal vLLM example)"),
      measured("v100-16gb", "Tesla V100 16GB", "16 GB HBM2", printed_gib(1578),
               "PyTorch OOM message on a 16 GB V100: \"15.78 GiB total capacity\" (kchengiva/Shift-GCN issue #34)"),
      measured("v100-32gb", "Tesla V100 32GB", "32 GB HBM2", printed_gib(3174),
               "PyTorch OOM message on a V100 32GB: \"31.74 GiB total capacity\" (liucongg/ChatGLM-Finetuning issue #73)"),
      measured("t4", "Tesla T4", "16 GB GDDR6", printed_gib(1457),
               "PyTorch OOM message on a T4: \"total capacity of 14.57 GiB\" (QwenLM/Qwen3-VL issue #1046); older drivers print 14.75 GiB"),
      measured("a10g", "NVIDIA A10G", "24 GB GDDR6", printed_gib(2219),
               "PyTorch OOM message on AWS g5 (A10G): \"22.19 GiB total capacity\" (vllm-project/vllm issue #372)"),
      measured("l4", "NVIDIA L4", "24 GB GDDR6", 23'570'219'008,
               (std::string(thamada) + "gls/L4_deviceQuery.py: 22478 MBytes (23570219008 bytes)").c_str()),
      measured("l40s", "NVIDIA L40S", "48 GB GDDR6", 47'803'596'800,
               (std::string(thamada) + "gls/L40S_deviceQuery.py: 45589 MBytes (47803596800 bytes)").c_str()),
      measured("rtx-3090", "NVIDIA GeForce RTX 3090", "24 GB GDDR6X", 25'327'697'920,
               (std::string(thamada) + "gls/RTX3090_deviceQuery.py: 24154 MBytes (25327697920 bytes)").c_str()),
      measured("rtx-4090", "NVIDIA GeForce RTX 4090", "24 GB GDDR6X", 25'386'352'640,
               (std::string(thamada) + "gls/RTX4090_deviceQuery.py: 24210 MBytes (25386352640 bytes)").c_str()),
      measured("rtx-5090", "NVIDIA GeForce RTX 5090", "32 GB GDDR7", 33'677'180'928,
               "deviceQuery: 32117 MBytes (33677180928 bytes), driver 12.8 (aikitoria/open-gpu-kernel-modules issue #1)"),
      nominal("rtx-a6000", "NVIDIA RTX A6000", "48 GB GDDR6", 48 * kGiB,
              "no public total_memory found: the 48 GiB of GDDR6 (CUDA reports ~7% less on the same-memory A40)"),
      nominal("mi250x", "AMD Instinct MI250X (one GCD)", "64 GB HBM2e per GCD", 64 * kGiB,
              "no public total_memory found: one of the board's two devices (GCDs), 64 GiB of HBM2e each"),
      measured("mi300x", "AMD Instinct MI300X", "192 GB HBM3", 196'592 * kMiB,
               (std::string(thamada) + "gls/MI300X_deviceQuery.py: hipGetDeviceProperties Total Global Memory 196592 MB").c_str()),
      nominal("apple-m-16gb", "Apple M-series, 16 GB unified memory", "16 GB unified", 16 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-24gb", "Apple M-series, 24 GB unified memory", "24 GB unified", 24 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-32gb", "Apple M-series, 32 GB unified memory", "32 GB unified", 32 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-36gb", "Apple M-series, 36 GB unified memory", "36 GB unified", 36 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-48gb", "Apple M-series, 48 GB unified memory", "48 GB unified", 48 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-64gb", "Apple M-series, 64 GB unified memory", "64 GB unified", 64 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-96gb", "Apple M-series, 96 GB unified memory", "96 GB unified", 96 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-128gb", "Apple M-series, 128 GB unified memory", "128 GB unified", 128 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
      nominal("apple-m-192gb", "Apple M-series, 192 GB unified memory", "192 GB unified", 192 * kGiB,
              "your choice: unified memory shared with macOS; MPS caps allocations near recommendedMaxWorkingSetSize"),
  };
}

}  // namespace

const std::vector<GpuSpec>& gpu_catalog() {
  static const std::vector<GpuSpec> kCatalog = with_compute_capabilities(build_catalog());
  return kCatalog;
}

const GpuSpec& find_gpu(const std::string& name) {
  std::string key;
  for (char c : name) key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  std::string valid;
  for (const auto& g : gpu_catalog()) {
    if (g.name == key) return g;
    for (const auto& alias : g.aliases) {
      if (alias == key) return g;
    }
    valid += (valid.empty() ? "" : ", ") + g.name;
  }
  std::vector<std::string> names;
  for (const auto& g : gpu_catalog()) names.push_back(g.name);
  for (const auto& g : gpu_catalog()) names.insert(names.end(), g.aliases.begin(), g.aliases.end());
  const std::string hint = did_you_mean(name, names);
  throw InputError("--gpu", "unknown GPU '" + name + "'; valid: " + valid,
                   hint.empty() ? "or give a size: --memory 24GiB" : hint + " (or give a size: --memory 24GiB)");
}

}  // namespace oomkit
