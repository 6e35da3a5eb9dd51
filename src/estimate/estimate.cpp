// estimate_memory(): the table of items (static terms per tensor kind, activations per term,
// the transients that set the peak) and the phase points of the first and the steady-state
// training step (src/estimate/phase_points.cpp; the model is in include/oomkit/estimate/phase_model.h).
#include "oomkit/estimate/estimate.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>

#include "oomkit/core/error.h"
#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/activations.h"
#include "oomkit/estimate/matmul_workspace.h"
#include "oomkit/estimate/framework.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/estimate/quantization.h"
#include "oomkit/estimate/phase_model.h"
#include "phase_arith.h"

namespace oomkit {
namespace {

constexpr int64_t kMaxParameters = 1'000'000'000'000'000;  // 10^15: beyond any trainable model; a typo

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

void add_item(Estimate& e, std::string path, Category c, int64_t bytes, std::string formula) {
  e.items.push_back({std::move(path), c, bytes, std::move(formula)});
  e.totals[static_cast<int>(c)] = checked_add(e.totals[static_cast<int>(c)], bytes, "estimate");
}

// How the optimizer state is split over the data-parallel ranks, for its formula.
std::string zero_state_words(const TrainingSetup& s) {
  const auto& par = s.parallel;
  if (par.zero_stage < 1) return "";
  if (s.framework == Framework::kOomkit && (par.zero_stage == 1 || par.zero_stage == 2) && par.data_parallel > 1) {
    // static_terms.cpp: whole tensors, partitioned as ZeroRedundancyOptimizer (zero_partition.h).
    return par.dp_rank >= 0 ? ", rank " + str(par.dp_rank) + "'s share of " + str(par.data_parallel) + " (whole tensors, zero_partition)"
                            : ", the largest of " + str(par.data_parallel) + " ranks' shares (whole tensors, zero_partition)";
  }
  return ", ZeRO-sharded /" + str(par.data_parallel);
}

// parameters/*, gradients/*, optimizer_state/*.
void add_static_items(Estimate& e, const StaticTerms& st) {
  const TrainingSetup& s = e.setup;
  const auto& par = s.parallel;
  const char* prec = to_string(s.precision);
  const bool mixed = s.precision == Precision::kBf16Mixed || s.precision == Precision::kFp16Mixed;
  const int64_t trainable_width = st.trainable_count > 0 ? (st.params_bytes - st.frozen_bytes) / st.trainable_count : 0;
  add_item(e, "parameters/trainable", Category::kParameters, st.params_bytes - st.frozen_bytes,
           str(st.trainable_count) + " params on this GPU · " + str(trainable_width) + " B (" + prec +
               (mixed ? " fp32 master)" : ")"));
  if (st.frozen_bytes > 0) {
    add_item(e, "parameters/frozen_base", Category::kParameters, st.frozen_bytes,
             frozen_base_formula(s));
  }
  if (st.copies_bytes > 0) {
    add_item(e, "parameters/compute_copies", Category::kParameters, st.copies_bytes,
             str(st.linear_trainable) + " Linear params · 2 B: autocast's cached compute-dtype weight casts, forward through backward");
  }
  if (st.buffers_bytes > 0 && e.model.is_gpt2()) {
    add_item(e, "parameters/buffers/causal_mask", Category::kParameters, st.buffers_bytes,
             "n_positions² · 1 B: the registered (n_positions, n_positions) bool causal-mask buffer");
  } else if (st.buffers_bytes > 0) {
    add_item(e, "parameters/buffers/inv_freq", Category::kParameters, st.buffers_bytes,
             "d_h/2 · 4 B: the registered RoPE inverse-frequency buffer inv_freq (fp32), as HF's LlamaRotaryEmbedding");
  }
  e.gradients_kept_bytes = st.kept_grads_bytes;
  add_item(e, "gradients/trainable", Category::kGradients, st.grads_bytes,
           str(st.trainable_count) + " params · " + (s.precision == Precision::kBf16 ? "2" : "4") +
               " B, created in backward, freed by zero_grad(set_to_none)" +
               (st.kept_grads_bytes < st.grads_bytes
                    ? "; after backward each is reduced to the rank that updates it (oomkit's ZeRO-2), which keeps " +
                          format_bytes(st.kept_grads_bytes) + " of them" + zero_state_words(s)
                : par.zero_stage >= 2 ? ", ZeRO-sharded /" + str(par.data_parallel)
                                      : ""));
  if (st.optimizer_buffers_bytes > 0) {
    add_item(e, "optimizer_state/quantization_maps", Category::kOptimizerState, st.optimizer_buffers_bytes,
             "2·256·4 B: 8-bit Adam's signed and unsigned dynamic quantization maps (CPU tensors, from construction)");
  }
  add_item(e, std::string("optimizer_state/") + to_string(s.optimizer), Category::kOptimizerState, st.optimizer_bytes,
           par.offload_optimizer ? std::string("offloaded to CPU: 0 B on the GPU")
                                 : std::string(to_string(s.optimizer)) + " state per trainable tensor, created by the first step()" +
                                       zero_state_words(s));
}

// activations/*, one item per term of the activation model (detailed method).
void add_activation_items(Estimate& e, const ActivationModel& am, const ActivationSizes& sz) {
  const Arith aa{"--batch-size"};
  const int64_t t = e.setup.parallel.tensor_parallel, E = sz.E, mf = sz.in_flight;
  const bool selective = e.setup.checkpointing == Checkpointing::kSelective;
  const std::string pp = mf > 1 ? str(mf) + " in flight·" : "";
  static constexpr std::string_view width[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8"};
  const std::string tp_div = " /" + str(t);
  auto term_bytes = [t](const ActivationTerm& term) {
    return term.tp_sharded ? ceil_div(term.bytes_per_token(), t) : term.bytes_per_token();
  };
  auto formula = [&](std::string_view prefix, const ActivationTerm& term) {
    return cat({prefix, "B·T·", term.shape, "·", width[term.bytes_per_element], " B",
                term.tp_sharded && t > 1 ? tp_div : std::string_view(), ": ", term.op});
  };
  // LoRA: block 0 has its own terms (activations/block0/), the other plain blocks these.
  const int64_t n_like = sz.n_plain - (sz.first_block_own ? 1 : 0);
  const std::string Ls = n_like == 1 ? "" : str(n_like) + "·";
  if (n_like > 0) {
    for (const auto& term : am.terms) {
      if (term.scope != ActScope::kBlock || (selective && term.attention_core) || term.elements_per_token == 0) continue;
      add_item(e, cat({"activations/block/", term.name}), Category::kActivations,
               aa.mul(mf, aa.mul(n_like, aa.mul(E, term_bytes(term)))), formula(pp + Ls, term));
    }
  }
  if (sz.first_block_own) {
    for (const auto& term : am.terms) {
      if (term.scope != ActScope::kFirstBlock || (selective && term.attention_core) || term.elements_per_token == 0) continue;
      add_item(e, cat({"activations/block0/", term.name}), Category::kActivations, aa.mul(mf, aa.mul(E, term_bytes(term))),
               formula(pp, term));
    }
  }
  if (sz.n_ckpt > 0) {
    add_item(e, "activations/block/checkpoint_inputs", Category::kActivations, aa.mul(mf, aa.mul(sz.n_ckpt, aa.mul(E, sz.ckpt_input_tok))),
             pp + str(sz.n_ckpt) + "·B·T·d·" + str(sz.ckpt_input_tok / e.model.n_embd) +
                 " B: oomkit::checkpoint saves only each wrapped block's input");
    if (sz.rng_state_bytes > 0) {
      add_item(e, "activations/block/checkpoint_rng_states", Category::kActivations, sz.rng_state_bytes,
               str(sz.n_ckpt) + "·5056 B: oomkit::checkpoint keeps the CPU generator state (get_state()) per wrapped block");
    }
  }
  for (const auto& term : am.terms) {
    if (term.scope != ActScope::kEmbedding) continue;
    add_item(e, cat({"activations/embedding/", term.name}), Category::kActivations, aa.mul(mf, aa.mul(E, term.bytes_per_token())),
             cat({"B·T·", term.shape, "·", width[term.bytes_per_element], " B: ", term.op}));
  }
  if (am.sequence_bytes > 0 && e.model.is_gpt2()) {
    add_item(e, "activations/embedding/position_indices", Category::kActivations,
             aa.mul(mf, aa.mul(e.setup.seq_len, am.sequence_bytes)), "T·8 B: embedding (wpe) saves arange(T) int64");
  } else if (am.sequence_bytes > 0) {
    add_item(e, "activations/embedding/rotary_tables", Category::kActivations,
             aa.mul(mf, aa.mul(e.setup.seq_len, am.sequence_bytes)),
             "T·(2·d_h·" + std::to_string(activation_dtypes(e.setup).compute) +
                 " + T) B: the rotary muls save cos and sin (T, d_h), masked_fill the (T, T) bool mask, shared by every layer");
  }
  add_item(e, "activations/inputs", Category::kActivations, sz.inputs_bytes, "B·T·16 B: idx and targets, int64");
  if (e.setup.parallel.pipeline_parallel != 1) return;  // the head lives on the last stage
  for (const auto& term : am.terms) {
    if (term.scope != ActScope::kHead || term.elements_per_token == 0) continue;
    add_item(e, cat({"activations/head/", term.name}), Category::kActivations, aa.mul(E, term_bytes(term)), formula("", term));
  }
}

// activations/chapter: the seed chapter's formula (Korthikanti et al. 2022, eq. 2) and, under
// checkpointing, the same paper's variants (sec. 5): full keeps each layer's 2-byte input,
// 2·d·B·T·L, plus one layer's activations during recompute; selective drops the attention
// core, 34·d·B·T·L.
void add_chapter_activation_item(Estimate& e, const ActivationSizes& sz) {
  const Arith aa{"--batch-size"};
  const ModelConfig& m = e.model;
  const int64_t per_layer = chapter_activation_bytes(m, e.setup.micro_batch_size, e.setup.seq_len) / m.n_layer;
  int64_t chapter = aa.mul(per_layer, sz.layers_here);
  const char* formula = "(34·d + 5·h·T)·B·T·L bytes (the chapter; Korthikanti et al. 2022 eq. 2, 2-byte activations)";
  if (e.setup.checkpointing == Checkpointing::kFull) {
    chapter = aa.add(aa.mul(aa.mul(2 * m.n_embd, sz.E), sz.layers_here), per_layer);
    formula = "2·d·B·T·L + (34·d + 5·h·T)·B·T bytes (full recompute, Korthikanti et al. 2022 sec. 5)";
  } else if (e.setup.checkpointing == Checkpointing::kSelective) {
    chapter = aa.mul(aa.mul(34 * m.n_embd, sz.E), sz.layers_here);
    formula = "34·d·B·T·L bytes (selective recompute, Korthikanti et al. 2022 eq. 6)";
  }
  add_item(e, "activations/chapter", Category::kActivations,
           aa.mul(sz.in_flight, ceil_div(chapter, e.setup.parallel.tensor_parallel)), formula);
}

// e.phases from the phase table of both step kinds; e.peak_bytes/peak_phase and the transient
// items of the peak phase.
void add_phase_table(Estimate& e, const PhaseInputs& in) {
  const bool chapter = e.setup.method == EstimateMethod::kChapter;
  std::vector<Transient> peak_transients;
  for (const bool steady : {false, true}) {
    const char* kind = steady ? "steady" : "first";
    const StepPhases table = chapter ? chapter_step_phases(in, steady) : detailed_step_phases(in, steady);
    for (Phase phase : kAllPhases) {
      if (phase == Phase::kEval && !steady) continue;  // evaluation runs between steady steps
      const PhasePoint& point = table[phase];
      e.phases.push_back({kind, std::string(phase_name(phase)), point.allocated_bytes, point.peak_bytes});
      if (point.peak_bytes > e.peak_bytes || e.peak_phase.empty()) {
        e.peak_bytes = point.peak_bytes;
        e.peak_phase = std::string(kind) + "/" + std::string(phase_name(phase));
        peak_transients = point.transients;
      }
    }
  }
  for (const auto& tr : peak_transients) add_item(e, tr.path, Category::kTransient, tr.bytes, tr.formula);
}

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
  PhaseInputs in;
  in.st = static_terms(model, setup, tensors);
  ActivationModel am = build_activation_model(model, setup);
  if (setup.framework == Framework::kHf) apply_hf_differences(model, setup, am);
  in.model = &model;
  in.setup = &setup;
  in.am = &am;
  in.dt = activation_dtypes(setup);
  in.sz = activation_sizes(model, setup, am);
  // oneDNN's ISA for the CPU bf16 scratchpads, decided once by the trainer's rule (run_training())
  // if the process has not decided yet (matmul_workspace.h).
  if (cpu_bf16_matmuls(setup, in.dt)) cap_onednn_isa(amx_hazard(model, setup.seq_len, setup.lora.rank).empty());
  e.items.reserve(48);
  e.phases.reserve(13);

  add_static_items(e, in.st);
  if (setup.method == EstimateMethod::kDetailed) add_activation_items(e, am, in.sz);
  else add_chapter_activation_item(e, in.sz);
  in.activations_total_bytes = e.total(Category::kActivations);
  const int64_t overhead = setup.cuda ? setup.overhead_bytes : 0;
  if (overhead > 0) {
    add_item(e, "overhead/cuda_context", Category::kOverhead, overhead, "CUDA context + cuBLAS/cuDNN workspace (--overhead)");
  }
  if (in.st.ddp_bucket_bytes > 0) {
    // Counted in the phase table (StepBase::resident), not in peak_bytes' overhead term.
    add_item(e, "overhead/ddp_gradient_buckets", Category::kOverhead, in.st.ddp_bucket_bytes,
             str(in.st.trainable_count) + " params · " + (setup.precision == Precision::kBf16 ? "2" : "4") +
                 " B: c10d::Reducer's buckets, a flat copy of every gradient for the all-reduce (DDP, train "
                 "--nproc-per-node), allocated at construction");
  }
  if (!setup.cuda) {
    // Counted in the phase table (StepBase::retry_rng), not in peak_bytes' overhead term.
    add_item(e, "overhead/oom_retry_rng_state", Category::kOverhead, 5056,
             "5056 B: the CPU generator state oomkit train saves before each step for an OOM retry (get_state())");
  }
  add_phase_table(e, in);
  if (setup.method == EstimateMethod::kChapter) {
    // The chapter's total: static + activations, all at once.
    const StaticTerms& st = in.st;
    e.peak_bytes = checked_add(checked_add(checked_add(st.params_bytes, st.grads_bytes, "estimate"), st.optimizer_bytes, "estimate"),
                               e.total(Category::kActivations), "estimate");
    e.peak_bytes = checked_add(e.peak_bytes, st.ddp_bucket_bytes, "estimate");  // DDP's buckets are resident too
    e.peak_phase = "chapter/static+activations";
  }
  e.peak_bytes = checked_add(e.peak_bytes, overhead, "estimate");
  return e;
}

}  // namespace oomkit
