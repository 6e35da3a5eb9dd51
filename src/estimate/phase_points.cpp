// The table of phase points: allocated bytes at each mark of a training step and the peak
// inside the interval that ends there, for the trainer's op sequence.
//
// The phase model follows the trainer's conventions (docs/model-ops.md, issue 4):
//  - zero_grad(set_to_none): gradients exist from backward until after_zero_grad, so the
//    steady step_start holds parameters + optimizer state only;
//  - optimizer state is created lazily by the first step() (first step_start has none);
//  - the logits (B, T, V) are live at after_forward and released by the trainer right after
//    the loss (docs/model-ops.md); the log_softmax output lives from the loss through backward;
//  - the step's batch (idx, targets for all grad_accum micro-batches, drawn at once) is loaded
//    after step_start and released after after_zero_grad (Trainer::step);
//  - autocast's cached compute-dtype weight copies live from the forward until backward
//    releases the saved tensors that reference them (the cache is cleared when the autocast
//    region ends, as torch.autocast's __exit__ does);
//  - with gradient accumulation, forward/loss/backward marks describe micro-batches 2..k,
//    which run with the gradients of the earlier micro-batches live.
#include <algorithm>
#include <string>
#include <string_view>

#include "oomkit/estimate/phase_model.h"
#include "oomkit/estimate/matmul_workspace.h"
#include "phase_arith.h"

namespace oomkit {
namespace {

// sizeof(at::CPUGeneratorImplState) in LibTorch 1.13: what torch.get_rng_state() returns.
constexpr int64_t kCpuRngStateBytes = 5056;

// Bytes live at the start of a step and from the data load on, and the step-wide terms.
struct StepBase {
  int64_t resident = 0;      // parameters, buffers and optimizer buffers (no optimizer state, no batch)
  int64_t retry_rng = 0;     // the RNG state `oomkit train` keeps through each step for an OOM retry
  int64_t start = 0;         // step_start: + optimizer state (steady step)
  int64_t loaded = 0;        // start + the step's batch, from the data load through backward
  int64_t grads_during = 0;  // gradients of earlier micro-batches (gradient accumulation)
  int64_t gather = 0;        // ZeRO-3 / parameter offload: one layer gathered plus the next prefetched
  bool full_ckpt = false;
  bool selective = false;
  bool has_head = true;      // the head lives on this (the only) pipeline stage
};

StepBase step_base(const PhaseInputs& in, bool steady) {
  const Arith ph{"--batch-size"};
  const TrainingSetup& s = *in.setup;
  StepBase b;
  b.resident = ph.add(ph.add(ph.add(in.st.params_bytes, in.st.buffers_bytes), in.st.optimizer_buffers_bytes),
                      in.st.ddp_bucket_bytes);
  // OomHandler::step() saves the CPU generator's state (5,056 B) before each step and drops it
  // after: a CPU tensor, so it counts on the CPU target only (the CUDA generator's state is a
  // CPU tensor as well).
  b.retry_rng = s.cuda ? 0 : kCpuRngStateBytes;
  b.start = ph.add(ph.add(b.resident, steady ? in.st.optimizer_bytes : 0), b.retry_rng);
  b.loaded = ph.add(b.start, in.sz.inputs_bytes);
  b.grads_during = s.gradient_accumulation_steps > 1 ? in.st.grads_bytes : 0;
  const bool zero3 = s.parallel.zero_stage >= 3 || s.parallel.offload_parameters;
  b.gather = zero3 ? ph.mul(2, in.st.layer_params_compute_bytes) : 0;
  b.full_ckpt = s.checkpointing == Checkpointing::kFull;
  b.selective = s.checkpointing == Checkpointing::kSelective;
  b.has_head = s.parallel.pipeline_parallel == 1;
  return b;
}

// oneDNN's scratchpad for the matmul (m, k) x (k, n) running at a moment (CPU bf16 target
// only); 0 where oneDNN is not available (LibTorch then uses its own gemm).
int64_t matmul_workspace(const PhaseInputs& in, int64_t m, int64_t k, int64_t n, bool transposed_a = false) {
  if (k <= 0 || !cpu_bf16_matmuls(*in.setup, in.dt)) return 0;
  return onednn_bf16_matmul_scratchpad_bytes({0, m, k, n, transposed_a}, in.setup->cpu_threads).value_or(0);
}

// The same for a Linear's forward matmul (E, k) x (k, n).
int64_t matmul_workspace(const PhaseInputs& in, const ActivationModel::MomentMatmul& mm) {
  return matmul_workspace(in, in.sz.E, mm.k, mm.n);
}

// The largest of `moments` (bytes per token above a block's input, plus the scratchpad of the
// matmul running then, and its uncached weight cast: pending_weight_elements in the compute
// dtype, sharded by tensor parallelism) for one micro-batch.
int64_t block_moments_peak(const PhaseInputs& in, const std::vector<ActivationModel::ForwardMoment>& moments) {
  const Arith ph{"--batch-size"};
  int64_t peak = 0;
  for (const auto& mo : moments) {
    const int64_t weight_cast = ceil_div(ph.mul(mo.pending_weight_elements, in.dt.compute), in.setup->parallel.tensor_parallel);
    peak = std::max(peak, ph.add(ph.add(ph.mul(in.sz.E, mo.bytes_per_token), matmul_workspace(in, mo.mm)), weight_cast));
  }
  return peak;
}

// Pending autocast weight copies at a forward moment (weights the block has not cast yet).
int64_t pending_copies(const PhaseInputs& in, const ActivationModel::ForwardMoment& mo) {
  return in.st.copies_bytes > 0 ? ceil_div(mo.pending_weight_elements * 2, in.setup->parallel.tensor_parallel) : 0;
}

// after_forward: everything saved, the logits held. Its peak is inside the last block (or at
// its end, the logits).
PhasePoint forward_point(const PhaseInputs& in, const StepBase& b) {
  const Arith ph{"--batch-size"};
  const StaticTerms& st = in.st;
  const ActivationSizes& sz = in.sz;
  const ActivationModel& am = *in.am;
  // Checkpointed blocks run their forward under no_grad, where autocast does not cache
  // weight casts (measured); their copies appear only during the recompute in backward.
  const int64_t fwd_copies = st.copies_bytes - ph.mul(sz.n_ckpt, st.layer_copies_bytes);
  const int64_t live = ph.add(ph.add(b.loaded, b.grads_during), fwd_copies);
  PhasePoint p;
  p.allocated_bytes = ph.add(ph.add(ph.add(live, sz.embed_bytes), ph.add(sz.blocks_bytes, sz.head_bytes)), sz.logits_bytes);
  const bool last_ckpt = block_recomputed(*in.setup, sz, sz.layers_here - 1);
  const int64_t last_saved = last_ckpt                                      ? ph.mul(sz.E, sz.ckpt_input_tok)
                             : sz.first_block_own && sz.layers_here == 1 ? sz.first_block_bytes
                                                                           : sz.block_bytes;
  // Inside the last block nothing of the head exists yet (nor its autocast weight copy),
  // and the block's later weights are not cast yet.
  const int64_t head_copies = fwd_copies - ph.mul(st.layer_copies_bytes, sz.n_plain);
  const int64_t before_last =
      ph.add(ph.add(live - head_copies, sz.embed_bytes), ph.add(sz.blocks_bytes - last_saved, b.gather));
  int64_t inside = 0;
  if (last_ckpt) {
    inside = ph.add(before_last, ph.add(ph.mul(sz.E, sz.ckpt_input_tok), block_moments_peak(in, am.block_moments_nograd)));
  } else {
    for (int i = 0; i < am.num_forward_moments; ++i) {
      const auto& mo = am.forward_moments[i];
      inside = std::max(inside, ph.add(before_last - pending_copies(in, mo),
                                       ph.add(ph.mul(sz.E, mo.bytes_per_token), matmul_workspace(in, mo.mm))));
    }
  }
  // Every-K checkpointing: the last checkpointed block, when it is not the last block, runs its
  // no-grad forward with fewer blocks' terms saved before it but its larger locals.
  if (b.full_ckpt && !last_ckpt && sz.n_ckpt > 0) {
    const int64_t last_ckpt_index = (sz.layers_here - 1) / in.setup->checkpoint_every * in.setup->checkpoint_every;
    const int64_t plain_after = sz.layers_here - 1 - last_ckpt_index;  // plain blocks after it
    const int64_t before_ckpt =
        ph.add(ph.add(live - head_copies - ph.mul(st.layer_copies_bytes, plain_after), sz.embed_bytes),
               ph.add(sz.blocks_bytes - ph.mul(plain_after, sz.block_bytes) - ph.mul(sz.E, sz.ckpt_input_tok), b.gather));
    inside = std::max(inside, ph.add(before_ckpt, ph.add(ph.mul(sz.E, sz.ckpt_input_tok),
                                                         block_moments_peak(in, am.block_moments_nograd))));
  }
  // lm_head's matmul: the logits are allocated (the mark's bytes) beside the final norm's
  // output, a fp32 local under autocast (its compute-dtype cast is lm_head's saved input), and
  // the matmul's scratchpad (CPU bf16).
  if (b.has_head) {
    const int64_t norm_local = in.dt.autocast ? ph.mul(sz.E, ph.mul(in.model->n_embd, 4)) : 0;
    inside = std::max(inside, ph.add(p.allocated_bytes, ph.add(norm_local, matmul_workspace(in, am.head_mm))));
  }
  p.peak_bytes = std::max(p.allocated_bytes, inside);
  if (inside > p.allocated_bytes) {
    p.transients.push_back({"transient/block_forward", inside - p.allocated_bytes,
                            "inside the last block's forward: fused qkv and the raw and scaled attention scores (B, h, T, T)"});
  }
  return p;
}

// after_loss. cross_entropy: log_softmax's output exists while the trainer still holds the
// logits (and, under autocast, their fp32 cast); then the trainer drops the logits.
PhasePoint loss_point(const PhaseInputs& in, const StepBase& b, const PhasePoint& fwd) {
  const Arith ph{"--batch-size"};
  PhasePoint p;
  // The loss itself and nll_loss's saved total_weight: two 0-dim tensors of the loss dtype.
  const int64_t scalars = b.has_head ? 2 * in.dt.loss : 0;
  p.allocated_bytes = ph.add(ph.add(fwd.allocated_bytes - in.sz.logits_bytes, in.sz.log_probs_bytes), scalars);
  const int64_t cast = b.has_head ? ph.mul(in.sz.E, in.am->loss_transient) : 0;
  p.peak_bytes = std::max(p.allocated_bytes, ph.add(ph.add(fwd.allocated_bytes, in.sz.log_probs_bytes), cast));
  if (cast > 0) {
    p.transients.push_back({"transient/loss_cast", cast,
                            in.setup->framework == Framework::kHf
                                ? "B·T·V B: HF's contiguous shifted-logits copy (plus the fp32 cast under autocast)"
                                : "B·T·V·4 B: cross_entropy's fp32 cast of the logits (autocast)"});
  }
  return p;
}

// The largest backward moment inside one block above its saved terms: the MLP moment or the
// attention-core moment, each with the block's weight gradients made before it (GPT-2,
// measured): at the MLP moment mlp.c_proj's (AddmmBackward computes mat2's gradient first);
// at the attention core's, the whole MLP's, ln_2's and attn.c_proj's. By the attention core's
// moment the MLP's and attn.c_proj's AddmmBackward have released the autocast weight casts
// they saved (mixed precision).
int64_t block_backward_moment(const PhaseInputs& in, const StepBase& b) {
  const Arith ph{"--batch-size"};
  const ModelConfig& m = *in.model;
  const TrainingSetup& s = *in.setup;
  const int64_t t = s.parallel.tensor_parallel;
  const bool wgrad_new = b.grads_during == 0 && s.lora.rank == 0 && in.st.layer_grads_bytes > 0;
  const int64_t gw = state_bytes_per_element(s), d = m.n_embd, ff = ceil_div(m.d_ff, t);
  // With gradient accumulation each weight gradient is a new tensor until AccumulateGrad adds
  // it into .grad: mlp.c_proj's at the MLP moment, attn.c_proj's at the attention core's.
  const bool wgrad_acc = b.grads_during > 0 && s.lora.rank == 0 && in.st.layer_grads_bytes > 0;
  // LLaMA (bias-free): at its MLP moment (MulBackward of silu(g)·u) down_proj's weight
  // gradient exists; its attention moment is not modelled with weight gradients.
  const int64_t wgrad_mlp = !m.is_gpt2() ? (wgrad_new || wgrad_acc ? ph.mul(ph.mul(ff, d), gw) : 0)
                            : wgrad_new  ? ph.mul(ph.add(ph.mul(ff, d), d), gw)
                            : wgrad_acc  ? ph.mul(ph.mul(ff, d), gw)
                                         : 0;
  const int64_t wgrad_attn = !m.is_gpt2() ? 0
                             : wgrad_new  ? ph.mul(ph.add(ph.mul(2 * ff + ceil_div(d, t), d), ff + 5 * d), gw)
                             : wgrad_acc  ? ph.mul(ph.mul(ceil_div(d, t), d), gw)
                                          : 0;
  const int64_t copies_released =
      in.st.layer_copies_bytes > 0 && m.is_gpt2() ? ph.mul(ph.mul(2 * ff + ceil_div(d, t), d), 2) : 0;
  const int64_t E = in.sz.E, c = in.dt.compute;
  const int64_t attn = ph.add(ph.mul(E, in.am->block_backward_attn), wgrad_attn) - copies_released;
  if (!m.is_gpt2()) {
    return std::max(ph.add(ph.add(ph.mul(E, in.am->block_backward_mlp), wgrad_mlp),
                           matmul_workspace(in, in.am->block_backward_mlp_mm)),
                    attn);
  }
  // GPT-2's MLP runs backward through two AddmmBackward nodes (measured with a logging
  // allocator, LibTorch 1.13, fp32, bf16 and bf16-mixed, 1 and 2 threads). Each makes its
  // weight's gradient in the matmul's dtype, (out, E) x (E, in) with the first operand a
  // transposed view (grad.t()), beside one oneDNN scratchpad,
  // then its input's gradient, (E, out) x (out, in) beside another. Under autocast the node
  // then releases its saved input and weight casts, and ToCopyBackward makes the fp32 weight
  // gradient while the compute-dtype one is alive. Between the two nodes c_proj's saved g, the
  // gradient it received (a tensor of its own when residual dropout made it) and gelu's saved f
  // are released, gelu's gradient replaces g's, and c_proj's fp32 weight gradient becomes .grad
  // (a first micro-step) or is added into it and freed (gradient accumulation).
  const bool autocast = in.st.layer_copies_bytes > 0;
  const int64_t w_proj = ph.mul(d, ff), w_fc = ph.mul(ff, d);  // weight elements on this GPU
  const int64_t drop_grad = s.dropout && m.resid_pdrop > 0.0 ? ph.mul(E, ph.mul(d, c)) : 0;
  const int64_t g = ph.mul(E, ph.mul(ff, c));                  // (E, d_ff/t) in the compute dtype
  const bool wgrad = wgrad_new || wgrad_acc;
  const int64_t wg_c = wgrad ? ph.mul(w_proj, c) : 0;
  // c_proj, relative to its start (the block's saved terms and the incoming gradient, d·r).
  const int64_t s0 = ph.mul(E, in.am->block_backward_mlp - m.d_ff * c);
  // The weight gradient's scratchpad exists only where the weight gets a gradient (not LoRA's base).
  const auto wgrad_ws = [&](int64_t rows, int64_t cols) { return wgrad ? matmul_workspace(in, rows, E, cols, true) : 0; };
  int64_t moment = std::max({attn, ph.add(ph.add(s0, wg_c), wgrad_ws(d, ff)),
                             ph.add(ph.add(ph.add(s0, wg_c), g), matmul_workspace(in, E, d, ff))});
  const int64_t copy_proj = autocast ? ph.mul(w_proj, 2) : 0;
  if (autocast && wgrad) moment = std::max(moment, ph.add(s0, ph.mul(w_proj, c + gw)) - drop_grad - copy_proj);
  // c_fc, relative to the same start.
  const int64_t s1 = ph.add(s0 - drop_grad - copy_proj - g, wgrad_new ? ph.mul(ph.add(w_proj, d), gw) : 0);
  const int64_t wg_fc = wgrad ? ph.mul(w_fc, c) : 0;
  moment = std::max({moment, ph.add(ph.add(s1, wg_fc), wgrad_ws(ff, d)),
                     ph.add(ph.add(ph.add(s1, wg_fc), ph.mul(E, ph.mul(d, c))), matmul_workspace(in, E, ff, d))});
  // c_attn's backward, after the attention core's (attn.c_proj's weight gradient added into
  // .grad with gradient accumulation): its weight's gradient (3d/t, d) and scratchpads as the
  // MLP's nodes; under autocast the input's fp32 gradient and the fp32 weight gradient follow
  // the release of its saved input cast, weight cast and qkv's gradient.
  const int64_t w_attn = ph.mul(3 * ceil_div(d, t), d);
  const int64_t at_qkv = ph.add(ph.mul(E, in.am->block_backward_qkv), wgrad_new ? wgrad_attn : 0) - copies_released;
  const int64_t wg_attn = wgrad ? ph.mul(w_attn, c) : 0;
  moment = std::max({moment, ph.add(ph.add(at_qkv - ph.mul(E, ph.mul(d, c)), wg_attn), wgrad_ws(w_attn / d, d)),
                     ph.add(ph.add(at_qkv, wg_attn), matmul_workspace(in, E, w_attn / d, d))});
  if (autocast && wgrad) {
    moment = std::max(moment, ph.add(ph.add(at_qkv - ph.mul(E, ph.mul(3 * ceil_div(d, t) + d, c)) - ph.mul(w_attn, 2),
                                            ph.mul(w_attn, c + gw)),
                                     ph.mul(E, ph.mul(d, 4 - c))));
  }
  // Under autocast: c_fc's saved input cast and weight cast and gelu's gradient are released,
  // the input's gradient is cast to fp32 (E, d) and the weight's (d_ff/t, d) is made.
  if (autocast && wgrad) {
    moment = std::max(moment, ph.add(ph.add(s1 - g - ph.mul(w_fc, 2), ph.mul(w_fc, c + gw)), ph.mul(E, ph.mul(d, 4 - c))));
  }
  return moment;
}

// Bytes above the running total inside one block's backward. A checkpointed block first
// recomputes its forward with autograd (its saved terms, its forward moments and its weight
// copies), then runs through it with the output and the incoming gradient live; selective
// recomputes the attention core.
int64_t block_backward_transient(const PhaseInputs& in, const StepBase& b, bool recomputed) {
  const Arith ph{"--batch-size"};
  const ActivationSizes& sz = in.sz;
  const ActivationModel& am = *in.am;
  const int64_t residual_tok = in.model->n_embd * in.dt.residual;
  const int64_t moment = block_backward_moment(in, b);
  int64_t tr = 0;
  if (recomputed) {
    // Backward through the recomputed block: its saved terms, its output, the gradient
    // buffers, its weight copies and first weight gradient; or, if higher, a moment of the
    // recompute itself, with the incoming gradient (B, T, d) live but the later weights not
    // cast yet and no weight gradient of the block.
    tr = ph.add(ph.add(ph.mul(sz.E, sz.block_full_tok + residual_tok - sz.ckpt_input_tok), in.st.layer_copies_bytes),
                moment);
    for (int i = 0; i < am.num_forward_moments; ++i) {
      const auto& mo = am.forward_moments[i];
      tr = std::max(tr, ph.add(ph.add(ph.mul(sz.E, mo.bytes_per_token + residual_tok - sz.ckpt_input_tok),
                                      matmul_workspace(in, mo.mm)),
                               in.st.layer_copies_bytes - pending_copies(in, mo)));
    }
  } else {
    tr = ph.add(ph.mul(sz.E, b.selective ? sz.core_tok : 0), moment);
  }
  return ph.add(tr, b.gather);
}

// after_backward. Starts from after_loss: the head's gradients first, then the blocks (each
// frees its saved terms and adds its gradients), then the embedding.
PhasePoint backward_point(const PhaseInputs& in, const StepBase& b, const PhasePoint& loss) {
  const Arith ph{"--batch-size"};
  const StaticTerms& st = in.st;
  const ActivationSizes& sz = in.sz;
  const int64_t head_tr = b.has_head ? ph.mul(sz.E, in.am->head_backward_transient) : 0;
  const int64_t at_head = ph.add(loss.allocated_bytes, head_tr);
  // lm_head's MmBackward (measured, LibTorch 1.13): with nll's and log_softmax's gradients and
  // log_softmax's saved output released, the logits' gradient (E, V/t) in the compute dtype
  // (autocast's ToCopyBackward has cast it) stays while mm_mat2_backward makes the weight's
  // gradient (V/t, d) as grad.t() (V/t, E) x (E, d), then mm_mat1_backward the input's (E, d) as
  // (E, V/t) x (V/t, d), each beside its oneDNN scratchpad on the CPU bf16 target. With E small
  // against d (or a large scratchpad) this moment is above the logits' gradients.
  int64_t at_head_mm = 0;
  if (b.has_head && in.setup->lora.rank > 0) {
    // LoRA: lm_head is frozen (and, under autocast, already in the compute dtype): MmBackward
    // makes only the input's gradient (E, d), beside the logits' gradient and its scratchpad.
    const int64_t d = in.model->n_embd, V = in.am->head_mm.n, c = in.dt.compute;
    at_head_mm = ph.add(ph.add(loss.allocated_bytes - sz.log_probs_bytes, ph.mul(ph.mul(sz.E, V + d), c)),
                        matmul_workspace(in, sz.E, V, d));
  } else if (b.has_head) {
    const int64_t d = in.model->n_embd, V = in.am->head_mm.n, c = in.dt.compute;
    const int64_t with_grad_w = ph.add(ph.add(loss.allocated_bytes - sz.log_probs_bytes, ph.mul(ph.mul(sz.E, V), c)),
                                       ph.mul(ph.mul(V, d), c));
    at_head_mm = std::max(ph.add(with_grad_w, matmul_workspace(in, V, sz.E, d, true)),
                          ph.add(ph.add(with_grad_w, ph.mul(ph.mul(sz.E, d), c)), matmul_workspace(in, sz.E, V, d)));
    if (in.dt.autocast) {
      // Then autocast's ToCopyBackward nodes (measured with a logging allocator, LibTorch 1.13,
      // CPU bf16-mixed): MmBackward's saved casts (the input's (E, d), the weight's (V/t, d))
      // and the logits' gradient are released, the input's gradient is cast to fp32 (E, d)
      // and then the weight's to fp32 (V/t, d) while its compute-dtype gradient, which took the
      // weight cast's place, is still alive. With E small against d this is the head's peak.
      const int64_t to_fp32 = ph.add(ph.add(loss.allocated_bytes - sz.log_probs_bytes - ph.mul(ph.mul(sz.E, d), c),
                                            ph.mul(ph.mul(sz.E, d), 4)),
                                     ph.mul(ph.mul(V, d), 4));
      at_head_mm = std::max(at_head_mm, to_fp32);
    }
  }
  // After the head: log_softmax and the head's saved tensors (with the head's autocast weight
  // copy) are released, the head's (and with a tied head the embedding's) gradients exist.
  // With gradient accumulation the tied wte's new gradient from lm_head waits in the autograd
  // engine's input buffer until the embedding's arrives (half of the embedding transient).
  // wpe's gradient is made only by the embedding's backward, after the blocks.
  const int64_t head_grads = b.grads_during > 0 ? in.am->embedding_backward_transient_bytes / 2
                                                : st.grads_bytes - ph.mul(st.layer_grads_bytes, sz.layers_here) -
                                                      st.late_embedding_grads_bytes;
  const int64_t head_copies = st.copies_bytes - ph.mul(st.layer_copies_bytes, sz.layers_here);
  const int64_t after_head = ph.add(loss.allocated_bytes - sz.log_probs_bytes - sz.head_bytes - head_copies, head_grads);
  // Each block frees its saved tensors and its weight copies and adds its gradients; the
  // change per block is constant, so the extremes are at the first and the last block.
  // Blocks run backward from the last: each frees its saved terms (a checkpointed block only
  // its input and RNG state) and its cached weight copies and adds its gradients. With
  // checkpointing every K-th block, plain and recomputed blocks alternate.
  const int64_t plain_tr = block_backward_transient(in, b, false);
  const int64_t ckpt_tr = b.full_ckpt ? block_backward_transient(in, b, true) : plain_tr;
  const int64_t step_grads = b.grads_during > 0 ? 0 : st.layer_grads_bytes;
  const int64_t ckpt_saved = ph.add(ph.mul(sz.in_flight, ph.mul(sz.E, sz.ckpt_input_tok)),
                                    sz.n_ckpt > 0 ? sz.rng_state_bytes / sz.n_ckpt : 0);
  const int64_t plain_saved = ph.mul(sz.in_flight, sz.block_bytes);
  int64_t running = after_head, at_blocks = 0, blk_tr = plain_tr;
  for (int64_t i = sz.layers_here - 1; i >= 0; --i) {
    const bool recomputed = block_recomputed(*in.setup, sz, i);
    const int64_t tr = recomputed ? ckpt_tr : plain_tr;
    if (ph.add(running, tr) > at_blocks) {
      at_blocks = ph.add(running, tr);
      blk_tr = tr;
    }
    const int64_t saved_here = sz.first_block_own && i == 0 ? ph.mul(sz.in_flight, sz.first_block_bytes) : plain_saved;
    running += step_grads - (recomputed ? ckpt_saved : ph.add(saved_here, st.layer_copies_bytes));
  }
  // With gradient accumulation wte.grad exists already: the sum is added into it after, so
  // the engine's buffer, the embedding's gradient and their sum are all extra (3·V·d).
  const int64_t emb_tr = ph.add(in.am->embedding_backward_transient_bytes,
                                b.grads_during > 0 ? in.am->embedding_backward_transient_bytes / 2 : 0);
  int64_t at_end = ph.add(ph.add(b.loaded, st.grads_bytes), emb_tr);
  const TrainingSetup& s = *in.setup;
  const bool any_dropout = s.dropout && (in.model->embd_pdrop > 0.0 || in.model->resid_pdrop > 0.0 || in.model->attn_pdrop > 0.0);
  if (s.framework == Framework::kOomkit && in.model->is_gpt2() && in.am->embedding_backward_transient_bytes > 0 &&
      s.parallel.tensor_parallel == 1 && s.parallel.pipeline_parallel == 1 && s.checkpointing == Checkpointing::kNone &&
      !any_dropout && s.precision != Precision::kBf16) {
    // oomkit's GPT-2 (model.cpp) embeds the positions before the tokens, so wte's
    // EmbeddingBackward (created last) runs first: at the tied sum, wpe's incoming gradient
    // (T, d), reduced over the batch by AddBackward, waits in its node's input buffer beside
    // wpe's saved arange(T), and on a first micro-step wpe's own gradient is not made yet.
    // Then wpe's node makes its (n_positions, d) gradient (added into .grad and freed under
    // gradient accumulation). Measured, LibTorch 1.13, gpt-nano fp32 and bf16-mixed at B·T = 32
    // and 64, where this is the step's peak (2·V·d above every gradient overstated it by wpe's).
    // Only where measured: with checkpointing, dropout or pure bf16 more is alive at that moment
    // (20-41 KB on gpt-nano, not modelled), so the 2·V·d bound stays there.
    const int64_t wpe_incoming = ph.add(ph.mul(ph.mul(s.seq_len, in.model->n_embd), in.dt.residual),
                                        ph.mul(s.seq_len, in.am->sequence_bytes));
    const int64_t wpe_made = b.grads_during > 0 ? 0 : st.late_embedding_grads_bytes;
    const int64_t at_wte = ph.add(ph.add(b.loaded, st.grads_bytes - wpe_made), ph.add(emb_tr, wpe_incoming));
    const int64_t at_wpe = ph.add(ph.add(ph.add(b.loaded, st.grads_bytes), wpe_incoming),
                                  b.grads_during > 0 ? st.late_embedding_grads_bytes : 0);
    at_end = std::max(at_wte, at_wpe);
  }
  PhasePoint p;
  // oomkit's ZeRO-2: the gradients other ranks own are reduced to them and dropped after
  // backward, before the mark (Trainer::reduce_gradients_to_owners); c10d's reduce works in place.
  p.allocated_bytes = ph.add(b.loaded, st.kept_grads_bytes);
  p.peak_bytes = std::max({at_head, at_head_mm, at_blocks, at_end, ph.add(b.loaded, st.grads_bytes)});
  if (p.peak_bytes == at_head_mm && at_head_mm > at_head) {
    p.transients.push_back({"transient/lm_head_backward", at_head_mm - loss.allocated_bytes,
                            "lm_head's MmBackward: the logits' gradient, the weight's and the input's gradients and the matmul's oneDNN scratchpad (CPU bf16), or autocast's fp32 copies of those gradients, less log_softmax's released output"});
  } else if (p.peak_bytes == at_head && head_tr > 0) {
    p.transients.push_back({"transient/logits_gradients", head_tr,
                            "2·B·T·V·4 B: nll_loss_backward's grad_input and _log_softmax_backward_data's output"});
  } else if (p.peak_bytes == at_end) {
    const int64_t above_grads = at_end - ph.add(b.loaded, st.grads_bytes);
    if (above_grads > 0) {
      p.transients.push_back({"transient/embedding_gradient", above_grads,
                              "V·d·4 B: embedding_dense_backward's (V, d) gradient added into the tied wte.grad"});
    }
    if (st.kept_grads_bytes < st.grads_bytes) {
      p.transients.push_back({"transient/gradients_other_ranks_own", st.grads_bytes - st.kept_grads_bytes,
                              "the gradients of the parameters other ranks update, from the end of backward until "
                              "they are reduced to their owners and dropped (oomkit's ZeRO-2)"});
    }
  } else if (p.peak_bytes != p.allocated_bytes) {
    p.transients.push_back({"transient/block_backward", blk_tr,
                            b.full_ckpt ? "one block recomputed by oomkit::checkpoint plus its gradient buffers"
                                        : "gradients of the attention probabilities/scores or of the MLP inside one block"});
  }
  return p;
}

// after_optimizer_step and after_zero_grad. The first step() creates each tensor's state just
// before its update (StaticTerms::first_step_optimizer_bytes), the steady one has it all.
void optimizer_points(const PhaseInputs& in, const StepBase& b, bool steady, StepPhases& out) {
  const Arith ph{"--batch-size"};
  const StaticTerms& st = in.st;
  PhasePoint& opt = out[Phase::kAfterOptimizerStep];
  const int64_t without_state = ph.add(ph.add(ph.add(b.resident, st.kept_grads_bytes), in.sz.inputs_bytes), b.retry_rng);
  opt.allocated_bytes = ph.add(without_state, st.optimizer_bytes);
  opt.peak_bytes = steady ? ph.add(opt.allocated_bytes, st.optimizer_step_transient_bytes)
                          : std::max(opt.allocated_bytes, ph.add(without_state, st.first_step_optimizer_bytes));
  if (opt.peak_bytes > opt.allocated_bytes) {
    opt.transients.push_back({"transient/optimizer_step", opt.peak_bytes - opt.allocated_bytes,
                              steady ? "step() temporaries of the tensor whose update needs the most"
                                     : "step() temporaries of one tensor while the state of the later ones is not created yet"});
  }
  PhasePoint& zero = out[Phase::kAfterZeroGrad];
  zero.allocated_bytes = ph.add(ph.add(ph.add(b.resident, st.optimizer_bytes), in.sz.inputs_bytes), b.retry_rng);
  zero.peak_bytes = opt.allocated_bytes;
}

// eval: a pass under NoGradGuard with model.eval() (no dropout) after the step, over a
// validation batch of B·grad_accum sequences run B at a time: nothing is saved; the peak is the
// largest of the embedding sum, one block's locals beside its input, lm_head and the loss. The
// interval starts at after_zero_grad, with the step's batch and RNG state still live.
void eval_point(const PhaseInputs& in, const StepBase& b, const PhasePoint& zero, PhasePoint& eval) {
  const Arith ph{"--batch-size"};
  const ActivationSizes& sz = in.sz;
  const ActivationModel& am = *in.am;
  eval.allocated_bytes = ph.add(b.resident, in.st.optimizer_bytes);
  const int64_t residual_tok = in.model->n_embd * in.dt.residual;
  int64_t moment = ph.add(ph.mul(sz.E, am.eval_embedding_tok), ph.mul(in.setup->seq_len, residual_tok + am.sequence_bytes));
  moment = std::max(moment, ph.add(ph.mul(sz.E, residual_tok), block_moments_peak(in, am.block_moments_eval)));
  if (b.has_head) {
    moment = std::max(moment, ph.add(ph.add(ph.mul(sz.E, am.eval_head_tok), am.eval_head_weight_cast_bytes),
                                     matmul_workspace(in, am.head_mm)));
    // A tied head's weight cast outlives lm_head: it is freed with forward_loss's autocast
    // region, after the loss (measured with a logging allocator, LibTorch 1.13 CPU); an untied
    // head's is freed when lm_head returns (ActivationModel::eval_head_weight_cast_outlives_head).
    moment = std::max(moment, ph.add(ph.mul(sz.E, am.eval_loss_tok),
                                     am.eval_head_weight_cast_outlives_head ? am.eval_head_weight_cast_bytes : 0));
  }
  const int64_t val_batch = sz.inputs_bytes / sz.in_flight;
  eval.peak_bytes = std::max(zero.allocated_bytes, ph.add(ph.add(eval.allocated_bytes, val_batch), moment));
  if (eval.peak_bytes > eval.allocated_bytes) {
    eval.transients.push_back({"transient/eval_forward", eval.peak_bytes - eval.allocated_bytes,
                               "the validation batch and the largest no-grad moment: embedding, a block's locals, lm_head or the loss"});
  }
}

}  // namespace

ActivationSizes activation_sizes(const ModelConfig& model, const TrainingSetup& setup, const ActivationModel& am) {
  const Arith aa{"--batch-size"};
  const auto& par = setup.parallel;
  const int64_t t = par.tensor_parallel;
  ActivationSizes sz;
  sz.E = aa.mul(setup.micro_batch_size, setup.seq_len);
  sz.layers_here = ceil_div(model.n_layer, par.pipeline_parallel);
  sz.in_flight = par.pipeline_parallel;
  int64_t block_sel_tok = 0;
  for (const auto& term : am.terms) {
    const int64_t b = term.tp_sharded ? ceil_div(term.bytes_per_token(), t) : term.bytes_per_token();
    switch (term.scope) {
      case ActScope::kEmbedding: sz.embed_tok += b; break;
      case ActScope::kBlock:
        sz.block_full_tok += b;
        if (term.attention_core) sz.core_tok += b;
        else block_sel_tok += b;
        break;
      case ActScope::kFirstBlock:
        sz.first_block_own = true;
        if (!(setup.checkpointing == Checkpointing::kSelective && term.attention_core)) sz.first_block_tok += b;
        break;
      case ActScope::kHead:
        if (std::string_view(term.name) == "logits") sz.logits_tok += b;
        else if (term.held_output) sz.log_probs_tok += b;
        else sz.head_saved_tok += b;
        break;
    }
  }
  const bool selective = setup.checkpointing == Checkpointing::kSelective;
  const bool full_ckpt = setup.checkpointing == Checkpointing::kFull;
  sz.block_tok = selective ? block_sel_tok : sz.block_full_tok;
  // (LoRA: oomkit::checkpoint runs block 0 unwrapped, its input needing no gradient.)
  sz.n_ckpt = full_ckpt ? ceil_div(sz.layers_here, setup.checkpoint_every) - (sz.first_block_own ? 1 : 0) : 0;
  sz.n_plain = sz.layers_here - sz.n_ckpt;
  sz.ckpt_input_tok = model.n_embd * activation_dtypes(setup).residual;
  sz.block_bytes = aa.mul(sz.E, sz.block_tok);
  sz.first_block_bytes = aa.mul(sz.E, sz.first_block_tok);
  const int64_t plain_bytes =
      sz.first_block_own ? aa.add(aa.mul(sz.n_plain - 1, sz.block_bytes), sz.first_block_bytes) : aa.mul(sz.n_plain, sz.block_bytes);
  // oomkit::checkpoint keeps, per wrapped block, the CPU generator's state for the recompute
  // (at::CPUGeneratorImpl::get_state(): a 5056-byte uint8 tensor); a CPU tensor, so it counts
  // only on the CPU target.
  sz.rng_state_bytes = setup.cuda ? 0 : sz.n_ckpt * kCpuRngStateBytes;
  const int64_t mf = sz.in_flight;
  sz.blocks_bytes = aa.add(
      aa.mul(mf, aa.add(plain_bytes, aa.mul(sz.n_ckpt, aa.mul(sz.E, sz.ckpt_input_tok)))),
      sz.rng_state_bytes);
  sz.embed_bytes = aa.mul(mf, aa.add(aa.mul(sz.E, sz.embed_tok), aa.mul(setup.seq_len, am.sequence_bytes)));
  sz.inputs_bytes = aa.mul(aa.mul(mf, aa.mul(sz.E, am.input_bytes_per_token)), setup.gradient_accumulation_steps);
  const bool has_head = par.pipeline_parallel == 1;
  sz.head_bytes = has_head ? aa.mul(sz.E, sz.head_saved_tok) : 0;
  sz.logits_bytes = has_head ? aa.mul(sz.E, sz.logits_tok) : 0;
  sz.log_probs_bytes = has_head ? aa.mul(sz.E, sz.log_probs_tok) : 0;
  return sz;
}

bool block_recomputed(const TrainingSetup& setup, const ActivationSizes& sz, int64_t i) {
  return setup.checkpointing == Checkpointing::kFull && i % setup.checkpoint_every == 0 && !(sz.first_block_own && i == 0);
}

StepPhases detailed_step_phases(const PhaseInputs& in, bool steady) {
  const StepBase b = step_base(in, steady);
  StepPhases out;
  out[Phase::kStepStart].allocated_bytes = out[Phase::kStepStart].peak_bytes = b.start;
  out[Phase::kAfterForward] = forward_point(in, b);
  out[Phase::kAfterLoss] = loss_point(in, b, out[Phase::kAfterForward]);
  out[Phase::kAfterBackward] = backward_point(in, b, out[Phase::kAfterLoss]);
  optimizer_points(in, b, steady, out);
  eval_point(in, b, out[Phase::kAfterZeroGrad], out[Phase::kEval]);
  // The steady step_start's interval begins at the previous after_zero_grad, whose batch and
  // RNG state are released after that mark.
  if (steady) out[Phase::kStepStart].peak_bytes = std::max(b.start, out[Phase::kAfterZeroGrad].allocated_bytes);
  return out;
}

StepPhases chapter_step_phases(const PhaseInputs& in, bool steady) {
  const Arith ph{"--batch-size"};
  const StepBase b = step_base(in, steady);
  const StaticTerms& st = in.st;
  StepPhases out;
  auto set = [&out](Phase p, int64_t bytes) { out[p].allocated_bytes = out[p].peak_bytes = bytes; };
  set(Phase::kStepStart, b.start);
  set(Phase::kAfterForward, ph.add(ph.add(b.loaded, b.grads_during), in.activations_total_bytes));
  set(Phase::kAfterLoss, out[Phase::kAfterForward].allocated_bytes);
  set(Phase::kAfterBackward, ph.add(b.loaded, st.grads_bytes));
  set(Phase::kAfterOptimizerStep, ph.add(ph.add(b.resident, st.grads_bytes), st.optimizer_bytes));
  set(Phase::kAfterZeroGrad, ph.add(b.resident, st.optimizer_bytes));
  out[Phase::kAfterZeroGrad].peak_bytes = out[Phase::kAfterOptimizerStep].allocated_bytes;
  set(Phase::kEval, out[Phase::kAfterZeroGrad].allocated_bytes);
  return out;
}

}  // namespace oomkit
