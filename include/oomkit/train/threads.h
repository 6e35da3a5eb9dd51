#pragma once

#include <string>

namespace oomkit {

/// Sets LibTorch's intra-op thread count (at::set_num_threads). `threads` <= 0 means every
/// core (std::thread::hardware_concurrency()): Debian's LibTorch starts with one thread.
/// Returns the count in force afterwards. Also caps oneDNN's ISA below AMX first
/// (cap_onednn_isa(), estimate/matmul_workspace.h), so call it before the first matmul.
int configure_threads(int threads);

/// Fixes glibc malloc's thresholds at the values its own dynamic rule reaches at most
/// (mallopt(3): M_MMAP_THRESHOLD 32 MiB, DEFAULT_MMAP_THRESHOLD_MAX on 64-bit; M_TRIM_THRESHOLD
/// twice that, as glibc sets it when it raises the mmap threshold). Left dynamic, the values
/// depend on which buffers the process happened to free first: in `oomkit train` they stayed
/// low, so every step gave ~40 MiB of heap back to the kernel and faulted it in again (~6000
/// page faults per gpt-nano step at B=8 T=128, against ~0 after this call; docs/train.md).
/// No effect on what the tracking allocator counts. Returns false if glibc refused a value.
bool configure_malloc();

/// True in a build whose malloc is a sanitizer's (ASan/LSan/TSan/MSan replace malloc and ignore
/// mallopt(3)): configure_malloc() then returns false by design, and nothing is worth a warning
/// (scripts/sanitize.sh). From the compiler's __SANITIZE_ADDRESS__ / __has_feature().
bool sanitizer_malloc();

/// The kernel set ("core") that OpenBLAS chose for this CPU when it was loaded, as
/// openblas_get_corename() reports it (e.g. "Prescott", "Haswell", "SkylakeX"); found with
/// dlsym, so oomkit needs no link to OpenBLAS. "" when the process holds no OpenBLAS.
std::string blas_core_name();

/// A one-line warning when OpenBLAS runs generic kernels on a CPU with wider vectors: Debian's
/// OpenBLAS 0.3.21 (DYNAMIC_ARCH) picks its core from the cpuid model number and falls back to
/// Prescott (SSE3) on models it does not know (virtual CPUs reporting "Intel Xeon Processor"),
/// which made fp32 matmul 3-4x slower on the development machine (docs/train.md). The hint
/// names the OPENBLAS_CORETYPE value that fits this CPU's flags (AVX-512F: SkylakeX, AVX2:
/// Haswell); it has to be set before the process starts. "" when nothing is to be gained.
std::string blas_core_hint();

}  // namespace oomkit
