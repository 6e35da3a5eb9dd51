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

#include "oomkit/core/model_config.h"

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

/// Why oneDNN's AMX-BF16 kernels must not run the bf16 matmuls of training `model` at sequence
/// length `seq_len` (LoRA rank `lora_rank`; 0: none), or "" when they may. Debian's oneDNN 2.6.3
/// (libdnnl.so.2, which Debian's LibTorch 1.13 uses for bf16 mm/addmm/bmm) JITs AMX brgemm
/// kernels on CPUs with AMX-BF16 (Sapphire Rapids and later) that die with SIGILL (`tileloadd`
/// on a tile never configured) for some (m, n) when the contraction length K ≡ 31 (mod 32),
/// deterministically, at 1 and 2 threads, under plain Python PyTorch as well (K = 32·n + 31).
/// Measured here with `bench/amx_contraction_probe.py --seed 1202 --other 800 --k31 200` (each
/// matmul in a forked child; mm, addmm and bmm, either operand transposed, K from 1 to 4,200, m
/// and n up to 3,000): 12 of 200 shapes with K ≡ 31 (mod 32) died, 0 of 800 with any other K.
/// The K of one training step, forward and backward (the matmuls of docs/model-ops.md): d, d_ff,
/// V, the query width h·d_h, the key/value width h_kv·d_h, GPT-2's fused QKV width 3d, d_h, r,
/// T (attention's probabilities times V and their gradients) and B·T (every weight gradient, for
/// any micro-batch B: evaluation and OOM recovery change B, so an odd T keeps AMX off; an even T
/// is never ≡ 31). `seq_len` is clamped to the model's n_positions, the T it runs, so every caller
/// (trainer, estimator, benchmarks) reads the same lengths. Throws nothing.
std::string amx_hazard(const ModelConfig& model, int64_t seq_len, int64_t lora_rank);

/// Decides once per process which oneDNN ISA runs bf16 matmuls, before the first oneDNN
/// primitive (oneDNN reads ONEDNN_MAX_CPU_ISA once, at its first primitive; a later call changes
/// nothing and returns the cap in force). A cap the user chose (ONEDNN_MAX_CPU_ISA or
/// DNNL_MAX_CPU_ISA) is kept. Otherwise `allow_amx` (amx_hazard() returned "") sets "ALL", every
/// ISA the CPU has (AMX-BF16 ran gpt-micro's bf16-mixed step ~2.9x faster here), and false sets
/// "AVX512_CORE_BF16", oneDNN's AVX-512 BF16 kernels. The variable is set in the environment, so a
/// process started afterwards inherits the choice (as the user's); each data-parallel rank, started
/// before any decision, decides for itself by the same rule. Both sides of the
/// estimate decide here with the same amx_hazard(): the trainer (run_training(), before
/// configure_threads()) and the scratchpad query above (the estimator's first CPU bf16 matmul),
/// so the predicted and the allocated scratchpads come from the same kernels. Returns the cap in
/// force, e.g. "ALL" or "AVX512_CORE_BF16". Throws nothing.
std::string cap_onednn_isa(bool allow_amx = false);

/// Whether the cap in force was set before the process decided (the user's: ONEDNN_MAX_CPU_ISA or
/// DNNL_MAX_CPU_ISA), rather than chosen by cap_onednn_isa(); false while nothing has decided.
bool onednn_isa_cap_is_users();

/// Whether oneDNN may run AMX kernels under `cap` (a ONEDNN_MAX_CPU_ISA value; "" is no cap):
/// "ALL" or a name with AMX in it, case-insensitive.
bool onednn_cap_allows_amx(const std::string& cap);

/// The cap the environment sets for oneDNN (ONEDNN_MAX_CPU_ISA, else DNNL_MAX_CPU_ISA), or ""
/// when none is set yet; decides nothing (cap_onednn_isa() does). Throws nothing.
std::string onednn_isa_cap_in_environment();

/// "oneDNN <version> (<path>)" when libdnnl.so.2 loads, else why not (one line).
std::string onednn_status();

}  // namespace oomkit
