// The building blocks of estimate_memory(): the static terms of one GPU, the sizes of one
// micro-batch's activations, and the table of phase points (allocated bytes at each mark and
// the peak inside the interval that ends there) for the first and the steady-state step.
//
// Letters: B micro-batch size, T sequence length, E = B·T tokens, d hidden size, L layers,
// h heads, d_ff MLP width, V vocabulary; t tensor-parallel and p pipeline-parallel degree.
// Every byte count is per GPU.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/core/phases.h"
#include "oomkit/estimate/activations.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"

namespace oomkit {

/// Parameters, gradients, optimizer state and autocast weight copies resident on one GPU, after
/// pipeline/tensor-parallel splitting and ZeRO sharding/offload (bytes unless noted).
struct StaticTerms {
  int64_t params_bytes = 0;          // trainable in their dtype + the frozen LoRA base
  int64_t frozen_bytes = 0;          // part of params_bytes: the frozen LoRA base
  int64_t copies_bytes = 0;          // autocast's cached compute-dtype copies of trainable Linear weights
  int64_t grads_bytes = 0;           // every gradient on this GPU, as backward leaves them
  int64_t kept_grads_bytes = 0;      // the gradients kept from after backward to zero_grad: grads_bytes, or
                                     // under oomkit's own ZeRO-2 this rank's share (the others reduced away)
  int64_t optimizer_bytes = 0;
  int64_t largest_trainable = 0;     // elements of the largest trainable tensor on this GPU
  int64_t layer_grads_bytes = 0;     // gradient bytes of one layer
  int64_t late_embedding_grads_bytes = 0;  // part of grads_bytes, made only by the embeddings' backward, after
                                           // the blocks: wpe's and, with an untied head, the token embedding's
  int64_t layer_copies_bytes = 0;    // autocast weight copies of one layer (released by its backward)
  int64_t layer_params_compute_bytes = 0;  // one layer's parameters in the compute dtype (ZeRO-3 gather)
  int64_t trainable_count = 0;       // trainable elements on this GPU
  int64_t linear_trainable = 0;      // trainable Linear weight elements (those autocast copies)
  int64_t buffers_bytes = 0;         // registered buffers: GPT-2's (n_positions, n_positions) bool causal mask
  int64_t optimizer_buffers_bytes = 0;  // 8-bit Adam's two 256-entry fp32 quantization maps (CPU tensors)
  int64_t ddp_bucket_bytes = 0;      // framework oomkit under DP: c10d::Reducer's gradient buckets, one flat
                                     // copy of every trainable gradient, allocated at construction
  int64_t optimizer_step_transient_bytes = 0;  // steady step(): the largest temporaries of one tensor's update
  int64_t first_step_optimizer_bytes = 0;      // first step(): max over tensors, in parameter order, of
                                               // the state created so far plus that tensor's temporaries
};

/// Temporaries of one optimizer update of a tensor of n elements (bytes), per the trainer's
/// LibTorch 1.13 code: AdamW on the CPU with fp32 parameters, framework oomkit, none (FusedAdamW,
/// src/train/optim/adamw.cpp: one pass over p, g, m, v); otherwise (AdamW::step) denom =
/// exp_avg_sq.sqrt() / sqrt(bc2) holds two tensors at once, 2n; Lion (src/train/lion.cpp) one,
/// the interpolation m·beta1 made in place into its sign; Adafactor grad² + eps and the update, 2n; SGD (SGD::step) updates in
/// place except d_p = grad + wd·p, n (weight decay > 0); 8-bit Adam (src/train/adam8bit.cpp):
/// the fused CPU kernel on fp32 parameters makes none; tensors under 4096 elements keep fp32
/// state and make sqrt(v) and m / sqrt(v), 8n fp32 (+4n for a bf16 gradient copy); otherwise
/// the dequantised m and v, sqrt(v) and the update, 16n fp32 (+4n for a bf16 gradient copy).
/// Element width 4 B (2 B in pure bf16 for AdamW/Lion/Adafactor/SGD).
int64_t optimizer_step_transient_bytes(const TrainingSetup& setup, int64_t n);

/// Static terms of `model` under `setup` from its parameter tensors (parameter_tensors()).
/// Sources: ZeRO (Rajbhandari et al. 2020, sec. 5) shards optimizer state (stage 1), gradients
/// (2) and parameters (3) over data_parallel ranks; tensor parallelism (Shoeybi et al. 2019,
/// sec. 3) splits Linear weights and the vocab-parallel embedding t ways. Optimizer state per
/// tensor is optimizer_state_bytes(). Throws InputError("parameters") on int64 overflow.
StaticTerms static_terms(const ModelConfig& model, const TrainingSetup& setup,
                         const std::vector<ParameterTensor>& tensors);

/// Optimizer state bytes of one tensor of n = rows·cols elements (`matrix`: 2-D):
/// AdamW (Loshchilov & Hutter 2019; torch::optim::AdamW) 2n; SGD 0; SGD momentum and Lion
/// (Chen et al. 2023, alg. 1) n; Adafactor (Shazeer & Stern 2018, sec. 3, beta1 = 0) rows + cols
/// for a matrix, n for a vector; 8-bit Adam (Dettmers et al. 2022, sec. 2; bitsandbytes) 2n
/// bytes plus one fp32 absmax per block, fp32 state under 4096 elements. Element width 4 B
/// (2 B in pure bf16). Throws InputError("parameters") on overflow.
int64_t optimizer_state_bytes(const TrainingSetup& setup, int64_t n, int64_t rows, int64_t cols, bool matrix);

/// One micro-batch's activation sizes, per GPU. `*_tok` are bytes per token (TP-sharded terms
/// divided by t); the others are bytes for the whole micro-batch.
struct ActivationSizes {
  int64_t E = 0;                  // tokens per micro-batch, B·T
  int64_t layers_here = 0;        // ceil(L/p): layers on this (first) pipeline stage
  int64_t in_flight = 1;          // micro-batches in flight (1F1B: the first stage holds p)
  int64_t n_ckpt = 0;             // blocks wrapped by full checkpointing (i % K == 0)
  int64_t n_plain = 0;            // blocks that save their terms
  int64_t block_full_tok = 0;     // every block term
  int64_t block_tok = 0;          // what a non-checkpointed block saves (selective drops the core)
  int64_t core_tok = 0;           // the attention core (QK^T, softmax, dropout)
  int64_t ckpt_input_tok = 0;     // a checkpointed block's saved input, d·residual width
  int64_t embed_tok = 0;
  int64_t head_saved_tok = 0;     // final norm and lm_head's saved input
  int64_t logits_tok = 0;         // (B, T, V) logits held by the trainer
  int64_t log_probs_tok = 0;      // log_softmax's output, saved by cross_entropy
  int64_t block_bytes = 0;        // E·block_tok: one plain block's saved terms
  // LoRA: block 0 has terms of its own (ActScope::kFirstBlock; its input needs no gradient),
  // and oomkit::checkpoint leaves it unwrapped (it is one of n_plain).
  bool first_block_own = false;
  int64_t first_block_tok = 0;
  int64_t first_block_bytes = 0;  // E·first_block_tok
  int64_t rng_state_bytes = 0;    // checkpointed blocks' saved CPU generator states (CPU target)
  int64_t blocks_bytes = 0;       // every block's saved terms (with in-flight micro-batches)
  int64_t embed_bytes = 0;        // the embedding's saved terms and position indices
  int64_t inputs_bytes = 0;       // the step's batch: idx and targets of every micro-batch
  int64_t head_bytes = 0;         // E·head_saved_tok (0 without the head on this stage)
  int64_t logits_bytes = 0;
  int64_t log_probs_bytes = 0;
};

/// Whether block `i` (0-based, on this stage) runs recomputed under full checkpointing: every
/// checkpoint_every-th block, except a LoRA run's block 0 (ActivationSizes::first_block_own).
bool block_recomputed(const TrainingSetup& setup, const ActivationSizes& sz, int64_t i);

/// Sizes from the term list `am` (build_activation_model()) under the setup's checkpointing
/// and parallelism. Throws InputError("--batch-size") on overflow.
ActivationSizes activation_sizes(const ModelConfig& model, const TrainingSetup& setup, const ActivationModel& am);

/// What lifts a phase's peak above its resident bytes (reported as a "transient/..." item).
struct Transient {
  const char* path = "";
  int64_t bytes = 0;
  std::string formula;
};

/// One row of the phase table.
struct PhasePoint {
  int64_t allocated_bytes = 0;  // at the mark
  int64_t peak_bytes = 0;       // peak inside the interval that ends at the mark
  std::vector<Transient> transients;
};

/// The phase points of one step, indexed by Phase (kEval only for the steady step).
struct StepPhases {
  std::array<PhasePoint, kAllPhases.size()> points{};
  PhasePoint& operator[](Phase p) { return points[static_cast<size_t>(p)]; }
  const PhasePoint& operator[](Phase p) const { return points[static_cast<size_t>(p)]; }
};

/// Everything the phase table reads, computed once per estimate.
struct PhaseInputs {
  const ModelConfig* model = nullptr;
  const TrainingSetup* setup = nullptr;
  const ActivationModel* am = nullptr;
  ActivationDtypes dt;
  StaticTerms st;
  ActivationSizes sz;
  int64_t activations_total_bytes = 0;  // Category::kActivations, for the chapter method
};

/// The phase table of the trainer's op sequence (docs/model-ops.md) for the first (`steady`
/// false: optimizer state not yet created) or the steady step. Throws InputError("--batch-size")
/// on overflow.
StepPhases detailed_step_phases(const PhaseInputs& in, bool steady);

/// The seed chapter's phase table: static + all activations at once.
StepPhases chapter_step_phases(const PhaseInputs& in, bool steady);

}  // namespace oomkit
