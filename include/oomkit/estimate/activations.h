// What autograd keeps for backward, term by term, for the trainer's op sequence
// (docs/model-ops.md) and the llama-family analogue. Every term is "elements per token" times
// a dtype width, so B and T scale it (E = B·T tokens per micro-batch) and a calibration against
// measured memory adjusts one term at a time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// kFirstBlock: LoRA only, block 0's terms when they differ from the other blocks' (kBlock):
/// its input, the frozen embedding's output, needs no gradient.
enum class ActScope { kEmbedding, kBlock, kFirstBlock, kHead };

/// One saved (or held) tensor. Bytes for one micro-batch = E · elements_per_token ·
/// bytes_per_element (times the layer count for kBlock terms).
struct ActivationTerm {
  ActScope scope = ActScope::kBlock;
  const char* name = "";        // path tail: "activations/block/<name>"
  const char* shape = "";       // elements per token as a formula, e.g. "h·T", "2d", "d_ff"
  const char* op = "";          // the LibTorch op that saves it, e.g. "native_layer_norm saves mean, rstd"
  int64_t elements_per_token = 0;
  int64_t bytes_per_element = 4;
  bool tp_sharded = false;      // split over tensor-parallel ranks (Korthikanti et al. 2022, sec. 4.2.1)
  bool attention_core = false;  // QK^T/softmax/dropout terms that selective checkpointing drops (sec. 5)
  bool held_output = false;     // not saved by autograd but held by the trainer: logits, log_softmax
  int64_t bytes_per_token() const { return elements_per_token * bytes_per_element; }
};

/// The per-token activation model of one micro-batch.
struct ActivationModel {
  std::vector<ActivationTerm> terms;
  int64_t sequence_bytes = 0;                 // per sequence position, not per token: wpe's arange(T) indices (int64)
  int64_t input_bytes_per_token = 16;         // idx and targets, int64 each
  // Transients (bytes per token unless noted), freed within the op that makes them:
  /// Candidate peak moments inside one block's forward: bytes per token live relative to the
  /// block's start (its saved terms so far and its locals), and the weight elements of the
  /// block whose autocast copies do not exist yet at that moment.
  /// The Linear matmul running at a moment, (E, k) x (k, n), whose oneDNN scratchpad is live
  /// then on the CPU bf16 target (matmul_workspace.h). k == 0: no matmul at that moment.
  struct MomentMatmul {
    int64_t k = 0;
    int64_t n = 0;
  };
  struct ForwardMoment {
    const char* where = "";
    int64_t bytes_per_token = 0;
    int64_t pending_weight_elements = 0;
    MomentMatmul mm;
  };
  std::array<ForwardMoment, 12> forward_moments{};  // the first num_forward_moments are set
  int num_forward_moments = 0;
  /// Moments of one block's forward without autograd: `nograd` with dropout active (a
  /// checkpointed block's first forward), `eval` without dropout (evaluation, model.eval()).
  /// Bytes per token above the block's input; pending_weight_elements: the weight whose
  /// autocast cast (uncached without autograd) is live at the moment.
  std::vector<ForwardMoment> block_moments_nograd;
  std::vector<ForwardMoment> block_moments_eval;
  // Evaluation (NoGradGuard, dropout off), bytes per token live at each moment beyond the
  // resident bytes and the validation batch:
  int64_t eval_embedding_tok = 0;             // wte(idx) + wpe(pos): both lookups and their sum
  int64_t eval_head_tok = 0;                  // the final residual, ln_f's output, its autocast cast and the logits
  int64_t eval_head_weight_cast_bytes = 0;    // absolute: lm_head's uncached autocast weight cast (V, d)
  bool eval_head_weight_cast_outlives_head = false;  // the cast lives on through the loss (tied head)
  MomentMatmul head_mm;                       // lm_head's matmul (E, d) x (d, V/t)
  int64_t eval_loss_tok = 0;                  // the logits, cross_entropy's fp32 cast and log_softmax's output
  int64_t block_backward_mlp = 0;             // the MLP moment of it (the max of the two is the above)
  int64_t block_backward_attn = 0;            // the attention-core moment of it
  int64_t block_backward_qkv = 0;             // GPT-2: c_attn's backward moment, above the block's saved terms
  MomentMatmul block_backward_mlp_mm;         // the matmul running at the MLP moment
  int64_t loss_transient = 0;                 // cross_entropy's fp32 cast of bf16 logits (autocast)
  int64_t head_backward_transient = 0;        // nll_loss and log_softmax gradients (B·T, V) fp32
  int64_t embedding_backward_transient_bytes = 0;  // absolute: dense wte gradient added into wte.grad
};

/// Bytes per element of the compute (autocast) dtype, the residual stream, and softmax output.
struct ActivationDtypes {
  int64_t compute = 4;   // linear/matmul outputs and their saved inputs
  int64_t residual = 4;  // embedding output and residual adds (fp32 under autocast: add promotes)
  int64_t softmax = 4;   // attention softmax output: the compute dtype under CPU autocast (measured),
                         // fp32 under CUDA autocast (softmax is on its fp32 list)
  int64_t loss = 4;      // log_softmax of the loss: fp32 under autocast (cross_entropy_loss is on
                         // both devices' fp32 lists), else the compute dtype
  int64_t mask = 4;      // dropout: CPU saves a noise tensor of the input dtype; CUDA a bool mask (1)
  int64_t norm_stats = 4;  // layer_norm's saved mean and rstd: fp32, but bf16 for pure-bf16 input on CPU
  bool autocast = false; // mixed precision: linear inputs are cast copies of fp32 tensors
};
ActivationDtypes activation_dtypes(const TrainingSetup& setup);

/// The CPU target computing Linear matmuls in bf16 (autocast or pure bf16): LibTorch 1.13 runs
/// them in oneDNN (its scratchpad, matmul_workspace.h) with, under autocast, fp32 epilogue buffers.
inline bool cpu_bf16_matmuls(const TrainingSetup& setup, const ActivationDtypes& dt) {
  return !setup.cuda && (dt.autocast || setup.precision == Precision::kBf16);
}

/// Builds the term list for `model` under `setup` (precision, attention kernel, dropout, LoRA,
/// device). Checkpointing and parallelism are applied by estimate_memory(), not here.
ActivationModel build_activation_model(const ModelConfig& model, const TrainingSetup& setup);

/// The seed chapter's activation formula (Korthikanti et al. 2022, eq. 2, with 2-byte
/// activations folded into the constants): (34·d + 5·h·T)·B·T·L bytes. Throws InputError on
/// overflow.
int64_t chapter_activation_bytes(const ModelConfig& model, int64_t batch, int64_t seq_len);

/// The chapter's static memory under mixed-precision Adam, its "14x rule": fp16 parameters 2P,
/// fp32 gradients 4P, two fp32 Adam moments 8P.
struct ChapterStatic {
  int64_t parameters_bytes = 0;
  int64_t gradients_bytes = 0;
  int64_t optimizer_bytes = 0;
  int64_t total() const { return parameters_bytes + gradients_bytes + optimizer_bytes; }
};
ChapterStatic chapter_static_bytes(int64_t num_parameters);

}  // namespace oomkit
