// estimate_memory(): static memory per tensor, activations per term, and the allocated bytes
// at each phase mark of the first and the steady-state training step.
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
#include "oomkit/estimate/estimate.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>

#include "oomkit/core/error.h"
#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/activations.h"
#include "oomkit/estimate/framework.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/estimate/quantization.h"

namespace oomkit {
namespace {

// sizeof(at::CPUGeneratorImplState) in LibTorch 1.13: what torch.get_rng_state() returns.
constexpr int64_t kCpuRngStateBytes = 5056;
constexpr int64_t kMaxParameters = 1'000'000'000'000'000;  // 10^15: beyond any trainable model; a typo

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Checked arithmetic bound to the field that an overflow would blame.
struct Arith {
  const char* field;
  int64_t mul(int64_t a, int64_t b) const { return checked_mul(a, b, field); }
  int64_t mul(int64_t a, int64_t b, int64_t c) const { return mul(mul(a, b), c); }
  int64_t add(int64_t a, int64_t b) const { return checked_add(a, b, field); }
};

std::string str(int64_t v) { return std::to_string(v); }

// Concatenation with one allocation: item paths and formulas are built ~30 times per
// estimate, and estimates must run at >= 100,000/s.
std::string cat(std::initializer_list<std::string_view> parts) {
  size_t n = 0;
  for (auto p : parts) n += p.size();
  std::string out;
  out.reserve(n);
  for (auto p : parts) out.append(p);
  return out;
}

int64_t state_bytes_per_element(const TrainingSetup& s) { return s.precision == Precision::kBf16 ? 2 : 4; }

// Optimizer state of one tensor with `n` elements (rows x cols), per the optimizer's paper or
// LibTorch implementation:
//  AdamW/Adam (Loshchilov & Hutter 2019; torch::optim::AdamW): exp_avg + exp_avg_sq, 2n;
//  SGD: none; SGD with momentum: momentum_buffer, n; Lion (Chen et al. 2023, alg. 1): exp_avg, n;
//  Adafactor (Shazeer & Stern 2018, sec. 3, beta1 = 0): row + column factors for a matrix, n
//  for a vector; 8-bit Adam (Dettmers et al. 2022, sec. 2; bitsandbytes): 1 byte per state
//  element plus one fp32 absmax per block, tensors under 4096 elements keep 32-bit state.
int64_t optimizer_state_of(const TrainingSetup& s, int64_t n, int64_t rows, int64_t cols, bool matrix, const Arith& a) {
  const int64_t sb = state_bytes_per_element(s);
  switch (s.optimizer) {
    case OptimizerKind::kAdamW: return a.mul(2 * sb, n);
    case OptimizerKind::kSgd: return 0;
    case OptimizerKind::kSgdMomentum:
    case OptimizerKind::kLion: return a.mul(sb, n);
    case OptimizerKind::kAdafactor: return matrix ? a.mul(sb, a.add(rows, cols)) : a.mul(sb, n);
    case OptimizerKind::kAdam8bit:
      if (n < 4096) return a.mul(8, n);
      return a.add(a.mul(2, n), a.mul(8, ceil_div(n, s.adam8bit_block_size)));
  }
  return 0;
}

// Temporaries of one step() on a tensor of n elements (the largest one sets the peak):
//  AdamW (LibTorch 1.13 AdamW::step): denom = (exp_avg_sq.sqrt() / sqrt(bc2)).add_(eps) holds
//  the sqrt result and the quotient at once, 2n; Lion: the interpolation and its sign, 2n;
//  Adafactor: grad² + eps and the update, 2n; 8-bit Adam: both dequantised fp32 states and the
//  update, 3n fp32; SGD (LibTorch 1.13 SGD::step) updates in place except for weight decay,
//  where d_p = grad.add(p, weight_decay) is a new tensor, n.
int64_t optimizer_transient_of(const TrainingSetup& s, int64_t n, const Arith& a) {
  const int64_t sb = state_bytes_per_element(s);
  switch (s.optimizer) {
    case OptimizerKind::kAdamW:
    case OptimizerKind::kLion:
    case OptimizerKind::kAdafactor: return a.mul(2 * sb, n);
    case OptimizerKind::kAdam8bit: return a.mul(12, n);
    case OptimizerKind::kSgd:
    case OptimizerKind::kSgdMomentum: return s.weight_decay > 0.0 ? a.mul(sb, n) : 0;
  }
  return 0;
}

struct Static {
  int64_t params = 0;         // resident parameter bytes (trainable in their dtype + frozen base)
  int64_t frozen = 0;         // part of params: the frozen LoRA base
  int64_t copies = 0;         // autocast compute copies of trainable Linear weights
  int64_t grads = 0;
  int64_t optimizer = 0;
  int64_t largest_trainable = 0;  // elements of the largest trainable tensor on this GPU
  int64_t layer_grads = 0;        // gradient bytes of one layer
  int64_t layer_copies = 0;       // autocast weight copies of one layer (released by its backward)
  int64_t layer_params_compute = 0;  // one layer's parameters in the compute dtype (ZeRO-3 gather)
  int64_t trainable_count = 0;
  int64_t linear_trainable = 0;
};

Static static_memory(const ModelConfig& m, const TrainingSetup& s, const std::vector<ParameterTensor>& tensors) {
  const Arith a{"parameters"};
  const auto& par = s.parallel;
  const int64_t layers_here = ceil_div(m.n_layer, par.pipeline_parallel);
  const bool mixed = s.precision == Precision::kBf16Mixed || s.precision == Precision::kFp16Mixed;
  const int64_t trainable_bytes = (s.precision == Precision::kFp32 || mixed) ? 4 : 2;
  const int64_t frozen_bytes = s.precision == Precision::kFp32 ? 4 : 2;
  const int64_t grad_bytes = s.precision == Precision::kBf16 ? 2 : 4;
  const int64_t compute_bytes = s.precision == Precision::kFp32 ? 4 : 2;
  Static st;
  for (const auto& t : tensors) {
    const bool per_layer = t.count == m.n_layer && t.part != ParamPart::kEmbeddings && t.part != ParamPart::kHead &&
                           !(t.part == ParamPart::kNorms && t.count == 1);
    // Pipeline: the first stage holds the embeddings and ceil(L/p) layers; the final norm and
    // the head live on the last stage.
    if (par.pipeline_parallel > 1 && !per_layer && t.part != ParamPart::kEmbeddings) continue;
    const int64_t count = per_layer ? std::min(t.count, layers_here) : t.count;
    // Tensor parallel (Shoeybi et al. 2019, sec. 3): Linear weights and the vocab-parallel
    // embedding split t ways; norms are replicated.
    const int64_t rows = t.part == ParamPart::kNorms ? t.rows : ceil_div(t.rows, par.tensor_parallel);
    const int64_t n = a.mul(rows, t.cols);
    const int64_t all = a.mul(n, count);
    if (!t.trainable) {
      st.frozen = a.add(st.frozen, a.mul(frozen_tensor_bytes(t, rows, t.cols, s, frozen_bytes), count));
      continue;
    }
    st.trainable_count = a.add(st.trainable_count, all);
    st.largest_trainable = std::max(st.largest_trainable, n);
    st.params = a.add(st.params, a.mul(all, trainable_bytes));
    st.grads = a.add(st.grads, a.mul(all, grad_bytes));
    st.optimizer = a.add(st.optimizer, a.mul(optimizer_state_of(s, n, rows, t.cols, t.matrix, a), count));
    if (mixed && t.linear) {
      st.copies = a.add(st.copies, a.mul(all, 2));
      st.linear_trainable = a.add(st.linear_trainable, all);
    }
    if (per_layer) {
      st.layer_grads = a.add(st.layer_grads, a.mul(n, grad_bytes));
      if (mixed && t.linear) st.layer_copies = a.add(st.layer_copies, a.mul(n, 2));
    }
  }
  for (const auto& t : tensors) {
    if (t.count == m.n_layer && t.part != ParamPart::kEmbeddings && t.part != ParamPart::kHead) {
      st.layer_params_compute = a.add(st.layer_params_compute, a.mul(t.numel(), compute_bytes));
    }
  }
  st.params = a.add(st.params, st.frozen);
  // ZeRO (Rajbhandari et al. 2020, sec. 5): stage 1 shards optimizer state, 2 adds gradients,
  // 3 adds parameters, each over the N data-parallel ranks. Offload moves them to CPU.
  const int64_t N = par.data_parallel;
  if (par.zero_stage >= 1) st.optimizer = ceil_div(st.optimizer, N);
  if (par.zero_stage >= 2) st.grads = ceil_div(st.grads, N);
  if (par.zero_stage >= 3) {
    st.params = ceil_div(st.params, N);
    st.copies = ceil_div(st.copies, N);
    st.layer_copies = ceil_div(st.layer_copies, N);
  }
  if (par.offload_optimizer) st.optimizer = 0;
  if (par.offload_parameters) {
    st.params = 0;
    st.copies = 0;
    st.layer_copies = 0;
  }
  return st;
}

struct Transient {
  const char* path;
  int64_t bytes;
  std::string formula;
};

struct PhasePoint {
  int64_t allocated = 0;
  int64_t peak = 0;
  std::vector<Transient> transients;  // what lifts the peak above the resident bytes
};

}  // namespace

Estimate estimate_memory(const ModelConfig& model, const TrainingSetup& setup) {
  if (setup.framework == Framework::kMegatron) return estimate_megatron(model, setup);
  if (setup.framework == Framework::kDeepSpeed) return estimate_deepspeed(model, setup);
  setup.validate(model);
  Estimate e;
  e.model = model;
  e.setup = setup;
  const auto tensors = parameter_tensors(model, setup.lora);
  e.parameters = count_parameter_tensors(tensors);
  if (e.parameters.total() >= kMaxParameters) {
    throw InputError("parameters", str(e.parameters.total()) + " parameters is beyond the estimator's limit of 10^15",
                     "check n_embd, n_layer and intermediate_size in the config");
  }
  const Arith pa{"parameters"};
  const Arith aa{"--batch-size"};
  const auto& par = setup.parallel;
  const int64_t B = setup.micro_batch_size, T = setup.seq_len, E = aa.mul(B, T);
  const int64_t t = par.tensor_parallel;
  const int64_t layers_here = ceil_div(model.n_layer, par.pipeline_parallel);
  const int64_t in_flight = par.pipeline_parallel;  // 1F1B: the first stage holds p micro-batches
  const bool has_head = par.pipeline_parallel == 1;
  const Static st = static_memory(model, setup, tensors);
  const ActivationModel am = build_activation_model(model, setup);
  const ActivationDtypes dt = activation_dtypes(setup);

  e.items.reserve(48);
  e.phases.reserve(13);
  auto add_item = [&](std::string path, Category c, int64_t bytes, std::string formula) {
    e.items.push_back({std::move(path), c, bytes, std::move(formula)});
    e.totals[static_cast<int>(c)] = checked_add(e.totals[static_cast<int>(c)], bytes, "estimate");
  };
  const char* prec = to_string(setup.precision);

  // ---- static ----------------------------------------------------------------------------
  const int64_t trainable_width = (st.trainable_count > 0) ? (st.params - st.frozen) / std::max<int64_t>(1, st.trainable_count) : 0;
  add_item("parameters/trainable", Category::kParameters, st.params - st.frozen,
           str(st.trainable_count) + " params on this GPU · " + str(trainable_width) + " B (" + prec +
               (setup.precision == Precision::kBf16Mixed || setup.precision == Precision::kFp16Mixed ? " fp32 master)" : ")"));
  if (st.frozen > 0) {
    add_item("parameters/frozen_base", Category::kParameters, st.frozen,
             frozen_base_formula(setup));
  }
  if (st.copies > 0) {
    add_item("parameters/compute_copies", Category::kParameters, st.copies,
             str(st.linear_trainable) + " Linear params · 2 B: autocast's cached compute-dtype weight casts, forward through backward");
  }
  const int64_t mask_bytes = model.is_gpt2() ? pa.mul(model.n_positions, model.n_positions) : 0;
  if (mask_bytes > 0) {
    add_item("parameters/buffers/causal_mask", Category::kParameters, mask_bytes,
             "n_positions² · 1 B: the registered (n_positions, n_positions) bool causal-mask buffer");
  }
  add_item("gradients/trainable", Category::kGradients, st.grads,
           str(st.trainable_count) + " params · " + (setup.precision == Precision::kBf16 ? "2" : "4") +
               " B, created in backward, freed by zero_grad(set_to_none)" +
               (par.zero_stage >= 2 ? ", ZeRO-sharded /" + str(par.data_parallel) : ""));
  add_item(std::string("optimizer_state/") + to_string(setup.optimizer), Category::kOptimizerState, st.optimizer,
           par.offload_optimizer ? std::string("offloaded to CPU: 0 B on the GPU")
                                 : std::string(to_string(setup.optimizer)) + " state per trainable tensor, created by the first step()" +
                                       (par.zero_stage >= 1 ? ", ZeRO-sharded /" + str(par.data_parallel) : ""));

  // ---- activations -------------------------------------------------------------------------
  int64_t block_full_tok = 0, block_sel_tok = 0, embed_tok = 0, head_saved_tok = 0, logits_tok = 0, logsm_tok = 0,
          core_tok = 0;
  for (const auto& term : am.terms) {
    const int64_t b = term.tp_sharded ? ceil_div(term.bytes_per_token(), t) : term.bytes_per_token();
    switch (term.scope) {
      case ActScope::kEmbedding: embed_tok += b; break;
      case ActScope::kBlock:
        block_full_tok += b;
        if (term.attention_core) core_tok += b;
        else block_sel_tok += b;
        break;
      case ActScope::kHead:
        if (std::string_view(term.name) == "logits") logits_tok += b;
        else if (term.held_output) logsm_tok += b;
        else head_saved_tok += b;
        break;
    }
  }
  const bool selective = setup.checkpointing == Checkpointing::kSelective;
  const bool full_ckpt = setup.checkpointing == Checkpointing::kFull;
  const int64_t block_tok = selective ? block_sel_tok : block_full_tok;
  const int64_t n_ckpt = full_ckpt ? ceil_div(layers_here, setup.checkpoint_every) : 0;  // blocks i with i % K == 0
  const int64_t n_plain = layers_here - n_ckpt;
  const int64_t ckpt_input_tok = model.n_embd * dt.residual;
  const int64_t mf = in_flight;
  const int64_t block_bytes = aa.mul(E, block_tok);
  // oomkit::checkpoint keeps, per wrapped block, the CPU generator's state for the recompute
  // (at::CPUGeneratorImpl::get_state(): a 5056-byte uint8 tensor); a CPU tensor, so it counts
  // only on the CPU target.
  const int64_t rng_state = setup.cuda ? 0 : n_ckpt * kCpuRngStateBytes;
  const int64_t act_blocks =
      aa.add(aa.mul(mf, aa.add(aa.mul(n_plain, block_bytes), aa.mul(n_ckpt, aa.mul(E, ckpt_input_tok)))), rng_state);
  const int64_t act_embed = aa.mul(mf, aa.add(aa.mul(E, embed_tok), aa.mul(T, am.sequence_bytes)));
  const int64_t inputs =
      aa.mul(aa.mul(mf, aa.mul(E, am.input_bytes_per_token)), setup.gradient_accumulation_steps);
  const int64_t act_head = has_head ? aa.mul(E, head_saved_tok) : 0;
  const int64_t logits = has_head ? aa.mul(E, logits_tok) : 0;
  const int64_t log_probs = has_head ? aa.mul(E, logsm_tok) : 0;

  if (setup.method == EstimateMethod::kDetailed) {
    const std::string Ls = n_plain == 1 ? "" : str(n_plain) + "·";
    const std::string pp = mf > 1 ? str(mf) + " in flight·" : "";
    static constexpr std::string_view width[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8"};
    const std::string tp_div = " /" + str(t);
    if (n_plain > 0) {
      for (const auto& term : am.terms) {
        if (term.scope != ActScope::kBlock || (selective && term.attention_core)) continue;
        const int64_t b = term.tp_sharded ? ceil_div(term.bytes_per_token(), t) : term.bytes_per_token();
        add_item(cat({"activations/block/", term.name}), Category::kActivations, aa.mul(mf, aa.mul(n_plain, aa.mul(E, b))),
                 cat({pp, Ls, "B·T·", term.shape, "·", width[term.bytes_per_element], " B",
                      term.tp_sharded && t > 1 ? tp_div : std::string_view(), ": ", term.op}));
      }
    }
    if (n_ckpt > 0) {
      add_item("activations/block/checkpoint_inputs", Category::kActivations, aa.mul(mf, aa.mul(n_ckpt, aa.mul(E, ckpt_input_tok))),
               pp + str(n_ckpt) + "·B·T·d·" + str(dt.residual) + " B: oomkit::checkpoint saves only each wrapped block's input");
      if (rng_state > 0) {
        add_item("activations/block/checkpoint_rng_states", Category::kActivations, rng_state,
                 str(n_ckpt) + "·5056 B: oomkit::checkpoint keeps the CPU generator state (get_state()) per wrapped block");
      }
    }
    for (const auto& term : am.terms) {
      if (term.scope != ActScope::kEmbedding) continue;
      add_item(cat({"activations/embedding/", term.name}), Category::kActivations, aa.mul(mf, aa.mul(E, term.bytes_per_token())),
               cat({"B·T·", term.shape, "·", width[term.bytes_per_element], " B: ", term.op}));
    }
    if (am.sequence_bytes > 0) add_item("activations/embedding/position_indices", Category::kActivations, aa.mul(mf, aa.mul(T, am.sequence_bytes)),
             "T·8 B: embedding (wpe) saves arange(T) int64");
    add_item("activations/inputs", Category::kActivations, inputs, "B·T·16 B: idx and targets, int64");
    if (has_head) {
      for (const auto& term : am.terms) {
        if (term.scope != ActScope::kHead) continue;
        const int64_t b = term.tp_sharded ? ceil_div(term.bytes_per_token(), t) : term.bytes_per_token();
        add_item(cat({"activations/head/", term.name}), Category::kActivations, aa.mul(E, b),
                 cat({"B·T·", term.shape, "·", width[term.bytes_per_element], " B: ", term.op}));
      }
    }
  } else {
    // Under checkpointing the same paper's variants (Korthikanti et al. 2022, sec. 5): full
    // keeps each layer's 2-byte input, 2·d·B·T·L, plus one layer's activations during
    // recompute; selective drops the attention core, 34·d·B·T·L.
    const int64_t per_layer = chapter_activation_bytes(model, B, T) / model.n_layer;
    int64_t chapter = aa.mul(per_layer, layers_here);
    const char* formula = "(34·d + 5·h·T)·B·T·L bytes (the chapter; Korthikanti et al. 2022 eq. 2, 2-byte activations)";
    if (full_ckpt) {
      chapter = aa.add(aa.mul(aa.mul(2 * model.n_embd, E), layers_here), per_layer);
      formula = "2·d·B·T·L + (34·d + 5·h·T)·B·T bytes (full recompute, Korthikanti et al. 2022 sec. 5)";
    } else if (selective) {
      chapter = aa.mul(aa.mul(34 * model.n_embd, E), layers_here);
      formula = "34·d·B·T·L bytes (selective recompute, Korthikanti et al. 2022 eq. 6)";
    }
    add_item("activations/chapter", Category::kActivations, aa.mul(mf, ceil_div(chapter, t)), formula);
  }

  // ---- phases ------------------------------------------------------------------------------
  const int64_t overhead = setup.cuda ? setup.overhead_bytes : 0;
  if (overhead > 0) {
    add_item("overhead/cuda_context", Category::kOverhead, overhead, "CUDA context + cuBLAS/cuDNN workspace (--overhead)");
  }
  const Arith ph{"--batch-size"};
  // Without optimizer state and without the step's batch, which lives from the data load
  // through after_zero_grad (Trainer::step draws B·grad_accum windows at once).
  const int64_t resident = ph.add(st.params, mask_bytes);
  const int64_t grads_during = setup.gradient_accumulation_steps > 1 ? st.grads : 0;
  const bool zero3 = par.zero_stage >= 3 || par.offload_parameters;
  // ZeRO-3 / parameter offload gathers one layer's parameters (and prefetches the next).
  const int64_t gather = zero3 ? ph.mul(2, st.layer_params_compute) : 0;

  std::vector<Transient> peak_transients;
  for (const char* kind : {"first", "steady"}) {
    const bool steady = std::string_view(kind) == "steady";
    const int64_t opt = steady ? st.optimizer : 0;
    const int64_t s_start = ph.add(resident, opt);
    const int64_t s0 = ph.add(s_start, inputs);  // from the data load through backward
    PhasePoint p_start, p_fwd, p_loss, p_bwd, p_opt, p_zero, p_eval;
    p_start.allocated = p_start.peak = s_start;
    const int64_t opt_tr = par.offload_optimizer ? 0 : optimizer_transient_of(setup, st.largest_trainable, ph);

    if (setup.method == EstimateMethod::kChapter) {
      const int64_t act = e.total(Category::kActivations);
      p_fwd.allocated = p_fwd.peak = ph.add(ph.add(s0, grads_during), act);
      p_loss = p_fwd;
      p_bwd.allocated = p_bwd.peak = ph.add(s0, st.grads);
      p_opt.allocated = p_opt.peak = ph.add(ph.add(resident, st.grads), st.optimizer);
      p_zero.allocated = ph.add(resident, st.optimizer);
      p_zero.peak = p_opt.allocated;
      p_eval.allocated = p_eval.peak = p_zero.allocated;
    } else {
      // Checkpointed blocks run their forward under no_grad, where autocast does not cache
      // weight casts (measured); their copies appear only during the recompute in backward.
      const int64_t fwd_copies = st.copies - ph.mul(n_ckpt, st.layer_copies);
      const int64_t live_fwd = ph.add(ph.add(s0, grads_during), fwd_copies);
      p_fwd.allocated = ph.add(ph.add(ph.add(live_fwd, act_embed), ph.add(act_blocks, act_head)), logits);
      // The forward's peak is inside the last block (or at its end, the logits).
      const bool last_ckpt = full_ckpt && (layers_here - 1) % setup.checkpoint_every == 0;
      const int64_t last_saved = last_ckpt ? ph.mul(E, ckpt_input_tok) : block_bytes;
      // Inside the last block nothing of the head exists yet (nor its autocast weight copy),
      // and the block's later weights are not cast yet.
      const int64_t head_copies_fwd = fwd_copies - ph.mul(st.layer_copies, n_plain);
      const int64_t before_last = ph.add(ph.add(live_fwd - head_copies_fwd, act_embed), ph.add(act_blocks - last_saved, gather));
      int64_t inside = 0;
      if (last_ckpt) {
        inside = ph.add(before_last, ph.mul(E, ckpt_input_tok + am.block_forward_peak_nograd));
      } else {
        for (int i = 0; i < am.num_forward_moments; ++i) {
          const auto& mo = am.forward_moments[i];
          const int64_t pending = st.copies > 0 ? ceil_div(mo.pending_weight_elements * 2, t) : 0;
          inside = std::max(inside, ph.add(before_last - pending, ph.mul(E, mo.bytes_per_token)));
        }
      }
      p_fwd.peak = std::max(p_fwd.allocated, inside);
      if (inside > p_fwd.allocated) {
        p_fwd.transients.push_back({"transient/block_forward", inside - p_fwd.allocated,
                                    "inside the last block's forward: fused qkv and the raw and scaled attention scores (B, h, T, T)"});
      }
      // cross_entropy: log_softmax's output exists while the trainer still holds the logits
      // (and, under autocast, their fp32 cast); then the trainer drops the logits.
      p_loss.allocated = ph.add(p_fwd.allocated - logits, log_probs);
      const int64_t loss_tr = has_head ? ph.mul(E, am.loss_transient) : 0;
      p_loss.peak = ph.add(ph.add(p_fwd.allocated, log_probs), loss_tr);
      if (loss_tr > 0) p_loss.transients.push_back({"transient/loss_cast", loss_tr, "B·T·V·4 B: cross_entropy's fp32 cast of the logits (autocast)"});

      // Backward: starts from after_loss; the head's gradients first, then the blocks (each
      // frees its saved terms and adds its gradients), then the embedding.
      const int64_t head_tr = has_head ? ph.mul(E, am.head_backward_transient) : 0;
      const int64_t at_head = ph.add(p_loss.allocated, head_tr);
      // After the head: log_softmax and the head's saved tensors (with the head's autocast
      // weight copy) are released, the head's (and with a tied head the embedding's)
      // gradients exist.
      const int64_t head_grads = grads_during > 0 ? 0 : st.grads - ph.mul(st.layer_grads, layers_here);
      const int64_t head_copies = st.copies - ph.mul(st.layer_copies, layers_here);
      const int64_t after_head = ph.add(p_loss.allocated - log_probs - act_head - head_copies, head_grads);
      // Each block frees its saved tensors (avg_saved) and its weight copies and adds its
      // gradients; the change per block is constant, so the extremes are at the first and the
      // last block processed.
      const int64_t avg_saved = act_blocks / layers_here;
      // A checkpointed block's backward first recomputes its forward with autograd (its saved
      // terms, its forward moments and its weight copies), then runs through it with the
      // output and the incoming gradient live; selective recomputes the attention core.
      // The block's weight gradients made before each backward moment (GPT-2, measured):
      // at the MLP moment mlp.c_proj's (AddmmBackward computes mat2's gradient first); at the
      // attention core's, the whole MLP's, ln_2's and attn.c_proj's.
      const bool wgrad_new = grads_during == 0 && model.is_gpt2() && setup.lora.rank == 0 && st.layer_grads > 0;
      const int64_t gw = state_bytes_per_element(setup), dm = model.n_embd, ff = ceil_div(model.d_ff, t);
      const int64_t wgrad_mlp = wgrad_new ? ph.mul(ph.add(ph.mul(ff, dm), dm), gw) : 0;
      const int64_t wgrad_attn =
          wgrad_new ? ph.mul(ph.add(ph.mul(2 * ff + ceil_div(dm, t), dm), ff + 5 * dm), gw) : 0;
      // By the attention core's moment the MLP's and attn.c_proj's AddmmBackward have released
      // the autocast weight casts they saved (mixed precision).
      const int64_t copies_released =
          st.layer_copies > 0 && model.is_gpt2() ? ph.mul(ph.mul(2 * ff + ceil_div(dm, t), dm), 2) : 0;
      const int64_t bwd_moment = std::max(ph.add(ph.mul(E, am.block_backward_mlp), wgrad_mlp),
                                          ph.add(ph.mul(E, am.block_backward_attn), wgrad_attn) - copies_released);
      int64_t blk_tr = 0;
      if (full_ckpt) {
        // Backward through the recomputed block: its saved terms, its output, the gradient
        // buffers, its weight copies and first weight gradient; or, if higher, a moment of the
        // recompute itself, with the incoming gradient (B, T, d) live but the later weights not
        // cast yet and no weight gradient of the block.
        blk_tr = ph.add(ph.add(ph.mul(E, block_full_tok + model.n_embd * dt.residual - ckpt_input_tok), st.layer_copies),
                        bwd_moment);
        for (int i = 0; i < am.num_forward_moments; ++i) {
          const auto& mo = am.forward_moments[i];
          const int64_t pending = st.copies > 0 ? ceil_div(mo.pending_weight_elements * 2, t) : 0;
          blk_tr = std::max(blk_tr, ph.add(ph.mul(E, mo.bytes_per_token + model.n_embd * dt.residual - ckpt_input_tok),
                                           st.layer_copies - pending));
        }
      } else {
        blk_tr = ph.add(ph.mul(E, selective ? core_tok : 0), bwd_moment);
      }
      blk_tr = ph.add(blk_tr, gather);
      const int64_t step_grads = grads_during > 0 ? 0 : st.layer_grads;
      const int64_t per_block = step_grads - avg_saved - st.layer_copies * n_plain / layers_here;
      const int64_t at_first_block = ph.add(after_head, blk_tr);
      const int64_t at_last_block = ph.add(after_head + (layers_here - 1) * per_block, blk_tr);
      const int64_t at_end = ph.add(ph.add(s0, st.grads), am.embedding_backward_transient_bytes);
      p_bwd.allocated = ph.add(s0, st.grads);
      p_bwd.peak = std::max({at_head, at_first_block, at_last_block, at_end, p_bwd.allocated});
      if (p_bwd.peak == at_head && head_tr > 0) {
        p_bwd.transients.push_back({"transient/logits_gradients", head_tr,
                                    "2·B·T·V·4 B: nll_loss_backward's grad_input and _log_softmax_backward_data's output"});
      } else if (p_bwd.peak == at_end) {
        p_bwd.transients.push_back({"transient/embedding_gradient", am.embedding_backward_transient_bytes,
                                    "V·d·4 B: embedding_dense_backward's (V, d) gradient added into the tied wte.grad"});
      } else if (p_bwd.peak != p_bwd.allocated) {
        p_bwd.transients.push_back({"transient/block_backward", blk_tr,
                                    full_ckpt ? "one block recomputed by oomkit::checkpoint plus its gradient buffers"
                                              : "gradients of the attention probabilities/scores or of the MLP inside one block"});
      }
      p_opt.allocated = ph.add(ph.add(ph.add(resident, st.grads), st.optimizer), inputs);
      p_opt.peak = ph.add(p_opt.allocated, opt_tr);
      if (opt_tr > 0) {
        p_opt.transients.push_back({"transient/optimizer_step", opt_tr,
                                    "step() temporaries on the largest tensor (" + str(st.largest_trainable) + " elements)"});
      }
      p_zero.allocated = ph.add(ph.add(resident, st.optimizer), inputs);
      p_zero.peak = p_opt.allocated;
      // Evaluation under NoGradGuard (between steps, without the step's batch): nothing is
      // saved; the logits and one block's locals.
      p_eval.allocated = ph.add(resident, st.optimizer);
      p_eval.peak = ph.add(ph.add(ph.add(p_eval.allocated, st.copies), logits), ph.mul(E, ckpt_input_tok + am.block_forward_peak_nograd));
    }
    const std::pair<Phase, const PhasePoint*> points[] = {
        {Phase::kStepStart, &p_start},          {Phase::kAfterForward, &p_fwd},  {Phase::kAfterLoss, &p_loss},
        {Phase::kAfterBackward, &p_bwd},        {Phase::kAfterOptimizerStep, &p_opt},
        {Phase::kAfterZeroGrad, &p_zero},       {Phase::kEval, &p_eval}};
    for (const auto& [phase, point] : points) {
      if (phase == Phase::kEval && !steady) continue;  // evaluation runs between steady steps
      e.phases.push_back({kind, std::string(phase_name(phase)), point->allocated, point->peak});
      if (point->peak > e.peak_bytes || e.peak_phase.empty()) {
        e.peak_bytes = point->peak;
        e.peak_phase = std::string(kind) + "/" + std::string(phase_name(phase));
        peak_transients = point->transients;
      }
    }
  }
  // The transients that lift the step's peak above the resident bytes, as items.
  for (const auto& tr : peak_transients) add_item(tr.path, Category::kTransient, tr.bytes, tr.formula);
  if (setup.method == EstimateMethod::kChapter) {
    // The chapter's total: static + activations, all at once.
    e.peak_bytes = checked_add(checked_add(checked_add(st.params, st.grads, "estimate"), st.optimizer, "estimate"),
                               e.total(Category::kActivations), "estimate");
    e.peak_phase = "chapter/static+activations";
  }
  e.peak_bytes = checked_add(e.peak_bytes, overhead, "estimate");
  return e;
}

}  // namespace oomkit
