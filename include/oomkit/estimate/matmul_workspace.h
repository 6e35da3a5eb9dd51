// The scratchpad a bf16 matmul allocates on the CPU target.
//
// LibTorch 1.13 on x86 runs a bf16 mm/addmm/bmm through oneDNN (at::native::mkldnn_matmul ->
// ideep::matmul_forward) when the CPU has AVX-512 (BF16/AMX or emulated). ideep creates the
// primitive with a user-mode scratchpad and allocates it through c10's CPU allocator, so it
// counts in allocated memory while the matmul runs. Its size is oneDNN's own choice: per-thread
// A/B/C block buffers of its brgemm blocking, which depends on the shapes, the thread count and
// the CPU's ISA (measured here: 407,040 B for (300, 40) x (40, 663) at 1 thread, 764,416 B at 2).
// No closed formula reproduces it, so oomkit asks the same oneDNN library: it loads
// libdnnl.so.2 (the one Debian's LibTorch links) on first use and queries the scratchpad
// size of the primitive ideep would create (dnnl_query_scratchpad_md), which costs no
// execution. Torch-free: the library is loaded with dlopen, only for CPU bf16 estimates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace oomkit {

/// One bf16 matmul: (m, k) x (k, n) for mm/addmm (batch 0), or bmm's `batch` independent
/// products, (batch, m, k) x (batch, k, n). `transposed_a`: the first operand is a transposed
/// view (column-major), as in a Linear's weight gradient, which autograd's mm_mat2_backward
/// computes as grad.t().mm(input) (LibTorch 1.13, FunctionsManual.cpp); oneDNN picks another
/// blocking, and scratchpad, for it.
struct MatmulShape {
  int64_t batch = 0;
  int64_t m = 0;
  int64_t k = 0;
  int64_t n = 0;
  bool transposed_a = false;
};

/// Scratchpad bytes oneDNN allocates for one bf16 matmul of `shape` (bf16 inputs and output,
/// plain row-major layouts as ideep passes them) with `threads` OpenMP threads (0: OpenMP's
/// default, every core). The process's OpenMP thread count is restored afterwards. Results are
/// cached per (shape, threads). 0 on a CPU without AVX-512 BW/VL/DQ, where LibTorch 1.13 does
/// not route bf16 matmuls to oneDNN (mkldnn_bf16_device_check) and its own gemm allocates no
/// scratchpad through c10. std::nullopt when libdnnl.so.2 cannot be loaded or the primitive
/// cannot be created: the caller counts 0 and should say so (onednn_status()). Throws nothing.
std::optional<int64_t> onednn_bf16_matmul_scratchpad_bytes(const MatmulShape& shape, int threads);

/// Keeps oneDNN off AMX in this process and the processes it starts: sets ONEDNN_MAX_CPU_ISA to
/// AVX512_CORE_BF16 unless the user already chose a cap (ONEDNN_MAX_CPU_ISA or DNNL_MAX_CPU_ISA,
/// which oneDNN reads once, at its first primitive). Why: oneDNN 2.6 (Debian's libdnnl.so.2,
/// which Debian's LibTorch 1.13 uses for bf16 matmuls) JITs AMX brgemm kernels on CPUs with
/// AMX-BF16 (Sapphire Rapids and later) that die with SIGILL (`tileloadd` on a tile the thread
/// never configured) when they run on 2 or more OpenMP threads: `estimate_accuracy --family
/// llama --seeds 383934291 --max-gflop 1 --threads 2` crashed that way, with or without the
/// kernel's AMX permission (arch_prctl ARCH_REQ_XCOMP_PERM) granted; with the cap it trains.
/// Both sides of the estimate go through here: the trainer (configure_threads()) and the
/// scratchpad query above, so the predicted and the allocated scratchpads come from the same
/// kernels. Call it before the first oneDNN primitive of the process (later, it changes nothing
/// in this process). Returns the cap in force, e.g. "AVX512_CORE_BF16". Throws nothing.
std::string cap_onednn_isa();

/// "oneDNN <version> (<path>)" when libdnnl.so.2 loads, else why not (one line).
std::string onednn_status();

}  // namespace oomkit
