#pragma once

#include <string>

namespace oomkit {

/// Sets LibTorch's intra-op thread count (at::set_num_threads). `threads` <= 0 means every
/// core (std::thread::hardware_concurrency()): Debian's LibTorch starts with one thread.
/// Returns the count in force afterwards. Also fixes oneDNN's ISA first, below AMX unless the
/// process decided already (cap_onednn_isa(), estimate/matmul_workspace.h: run_training() decides
/// for its model before calling this), so call it before the first matmul.
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

/// The OPENBLAS_CORETYPE value that fits this CPU when OpenBLAS runs generic kernels on it
/// ("SkylakeX" with AVX-512F, "Haswell" with AVX2 and FMA), else "" (OpenBLAS chose a fitting
/// core, or the process holds no OpenBLAS).
std::string blas_core_fit();

/// When OpenBLAS runs generic kernels on a CPU with wider vectors (blas_core_fit()) and no
/// OPENBLAS_CORETYPE is set (or it is empty), sets it to the fitting core and re-executes this program
/// (/proc/self/exe, the same argv, environment and PID), so that OpenBLAS, which reads the
/// variable once, when it loads, picks those kernels: on the development machine (AVX-512, which
/// Debian's OpenBLAS 0.3.21 runs on Prescott kernels) a 2048 x 2048 fp32 torch.mm at 2 threads ran
/// at 162 GFLOP/s against 31, and gpt-nano (B=16, T=128) trained at 9,178 against 3,048 tokens/s. Call it first thing
/// in main(). Returns only when it did not re-execute: nothing to gain, the variable already set
/// (by the user, or by this re-execution), a --help/-h/--help-all/--version/-V argument (no matmul runs), or execv failed (the variable is then removed and
/// blas_core_hint() still warns). A user who wants OpenBLAS's own choice sets the variable.
void exec_with_fitting_blas_core(char** argv);

/// Chooses ATen's AVX-512 CPU kernels where LibTorch 1.13 leaves them opt-in. Its elementwise,
/// reduction and math kernels (TensorIterator loops, Sleef's exp for softmax,
/// layer_norm, the optimizers' updates) are compiled for AVX2 and AVX-512, but the dispatcher
/// picks AVX2 unless ATEN_CPU_CAPABILITY=avx512 (aten/src/ATen/native/DispatchStub.cpp,
/// compute_cpu_capability(): "AVX512 can be slower than AVX2, so lets keep it as opt-in",
/// pytorch#80252). When the variable is unset (or empty) and the CPU has the AVX-512 subsets those
/// kernels are built for (F, BW, VL, DQ, and FMA), sets it to "avx512"; a user's value is kept.
/// ATen reads the variable once, at its first CPU kernel dispatch, so call this first thing in
/// main(), before any tensor op. Measured on the development machine only (a virtual "Intel(R)
/// Xeon(R) Processor" with AVX-512 and AMX, 2 threads, OpenBLAS SkylakeX kernels, one run each side
/// by side, 2026-12-02): gpt-nano fp32 B=16 T=128 8,547 -> 9,913 tokens/s, d=768 L=4 fp32 B=8
/// T=128 789 -> 932, bf16-mixed 1,376 -> 1,620 (docs/train.md). pytorch#80252 reported AVX-512
/// kernels slower on other CPUs; set ATEN_CPU_CAPABILITY=avx2 to keep ATen's default there.
/// Numerics differ from AVX2 in the last bits (vector widths change reduction order).
/// Returns "avx512" when it set the variable, else "".
std::string choose_aten_cpu_capability();

/// The CPU kernels ATen dispatches in this process, from LibTorch's build report
/// (at::show_config()'s "CPU capability usage: ..." line): "AVX512", "AVX2", "DEFAULT", or "" when
/// the line is missing. Asking decides the capability for the rest of the process (ATen computes
/// it once), so call it after choose_aten_cpu_capability().
std::string aten_cpu_capability();

}  // namespace oomkit
