// `--precision auto`: one resolution for `oomkit estimate` and `oomkit train` (issue 15 item 3).
// Torch-free, so the estimator resolves it exactly as the trainer does without LibTorch.
//
// Rule: bf16-mixed where the device that runs the matmuls computes bf16 natively, fp32 otherwise.
//  - GPU: CUDA compute capability >= 8.0 (Ampere and later: bf16 tensor cores; PyTorch's
//    torch.cuda.is_bf16_supported() asks the same of the device).
//  - CPU: the bf16 instructions LibTorch's bf16 matmuls reach through oneDNN: avx512_bf16
//    (vdpbf16ps, Cooper Lake and later) or amx_bf16 (tdpbf16ps, Sapphire Rapids and later), as
//    /proc/cpuinfo's flags name them, and only when the oneDNN ISA cap in force lets oneDNN use
//    them. oomkit lets oneDNN use AMX unless a matmul of the run would reach oneDNN 2.6's AMX
//    SIGILL (cap_onednn_isa() and amx_hazard(), matmul_workspace.h; it then caps at
//    AVX512_CORE_BF16, where avx512_bf16 still computes bf16 natively), so the cap that decides
//    here is the user's (ONEDNN_MAX_CPU_ISA): none, ALL or an AMX cap lets AMX count; a cap below
//    AVX512_CORE_BF16 (AVX2, AVX512_CORE, ...) leaves bf16 emulated: fp32.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// A CUDA compute capability, major.minor (cudaDevAttrComputeCapabilityMajor/Minor): 8.0 for A100.
struct ComputeCapability {
  int major = 0;
  int minor = 0;
};

/// What `--precision auto` looks at. `gpu`: the run's matmuls run on a GPU (train --device cuda,
/// estimate --device cuda --gpu NAME); then `gpu_capability` decides (nullopt: not known, e.g. a
/// non-NVIDIA device in the GPU table) and `gpu_name` names it in the reason. Otherwise the CPU
/// decides: `cpu_flags` are /proc/cpuinfo's flag words, `onednn_isa_cap` the ONEDNN_MAX_CPU_ISA the
/// environment sets (onednn_isa_cap_in_environment(); empty: none).
struct AutoPrecisionInput {
  bool gpu = false;
  std::optional<ComputeCapability> gpu_capability;
  std::string gpu_name;
  std::set<std::string> cpu_flags;
  std::string onednn_isa_cap;
};

/// The resolved precision and why, e.g. {kBf16Mixed, "avx512_bf16"} or
/// {kFp32, "no avx512_bf16 or amx_bf16 in the CPU flags"}.
struct AutoPrecision {
  Precision precision = Precision::kFp32;
  std::string reason;
};

/// Resolves `--precision auto` from `in` by the rule in this header's comment. Pure; throws nothing.
AutoPrecision resolve_auto_precision(const AutoPrecisionInput& in);

/// The flag words of the first "flags" line of a /proc/cpuinfo-format file (x86 Linux); empty
/// when the file is missing or has no such line (another OS or architecture: auto gives fp32).
std::set<std::string> read_cpu_flags(const std::string& cpuinfo_path = "/proc/cpuinfo");

/// The CPU input of this machine, as estimate (--device cpu) and train (--device cpu) both
/// gather it: read_cpu_flags() and the oneDNN cap the environment sets
/// (onednn_isa_cap_in_environment(); it decides nothing, so the trainer still decides the ISA
/// before its first matmul).
AutoPrecisionInput this_cpu_auto_precision_input();

/// "precision auto -> bf16-mixed (avx512_bf16)": the line estimate and train print.
std::string format_auto_precision(const AutoPrecision& a);

/// The compute capability of a GPU catalogue entry (gpus.h, GpuSpec::compute_capability "8.0"),
/// nullopt when the entry has none (AMD, Apple). Throws InputError("--gpu") for an unknown name.
std::optional<ComputeCapability> gpu_compute_capability(const std::string& gpu_name);

}  // namespace oomkit
