// The megatron profile: Megatron-LM's memory on its most loaded GPU (the first pipeline stage),
// term by term as NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py counts it
// (compute_weight_and_optimizer_memory, compute_activation_memory for sequence parallelism,
// compute_activation_memory_without_sp otherwise), each term generalised where that formula
// fixes an assumption (multi-head attention, d_ff = 4d in the no-SP formula, dropout on,
// flash or selective attention) and the generalisation reducing to it under that assumption.
//
// Letters (model_config.h): s = T sequence length, b = B micro-batch, d hidden, a = h heads,
// g = h_kv / h (GQA), t = TP, p = PP, N = DP, V the padded vocabulary.
#include <algorithm>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/framework.h"

namespace oomkit {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

struct Arith {
  const char* field;
  int64_t mul(int64_t a, int64_t b) const { return checked_mul(a, b, field); }
  int64_t mul(int64_t a, int64_t b, int64_t c) const { return mul(mul(a, b), c); }
  int64_t add(int64_t a, int64_t b) const { return checked_add(a, b, field); }
};

std::string str(int64_t v) { return std::to_string(v); }

struct Layout {
  bool layernorm = false;  // else RMSNorm
  bool learned_positions = false;
  bool bias = false;       // Megatron --add-bias-linear (its default) vs --disable-bias-linear
  bool swiglu = false;
};

Layout megatron_layout(const ModelConfig& m, const MegatronOptions& o) {
  Layout l;
  l.layernorm = m.is_gpt2();
  l.learned_positions = m.is_gpt2();
  l.bias = m.is_gpt2();
  l.swiglu = !m.is_gpt2();
  if (o.normalization == "layernorm") l.layernorm = true;
  else if (o.normalization == "rmsnorm") l.layernorm = false;
  else if (o.normalization != "auto") {
    throw InputError("--normalization", "unknown value '" + o.normalization + "'; valid: auto, layernorm, rmsnorm");
  }
  if (o.position_embedding == "learned") l.learned_positions = true;
  else if (o.position_embedding == "rope") l.learned_positions = false;
  else if (o.position_embedding != "auto") {
    throw InputError("--position-embedding-type",
                     "unknown value '" + o.position_embedding + "'; valid: auto, learned, rope");
  }
  return l;
}

}  // namespace

Framework parse_framework(const std::string& s, const std::string& field) {
  if (s == "oomkit") return Framework::kOomkit;
  if (s == "hf") return Framework::kHf;
  if (s == "megatron") return Framework::kMegatron;
  if (s == "deepspeed") return Framework::kDeepSpeed;
  throw InputError(field, "unknown value '" + s + "'; valid: oomkit, hf, megatron, deepspeed");
}

const char* to_string(Framework f) {
  switch (f) {
    case Framework::kOomkit: return "oomkit";
    case Framework::kHf: return "hf";
    case Framework::kMegatron: return "megatron";
    case Framework::kDeepSpeed: return "deepspeed";
  }
  return "unknown";
}

MegatronParameters megatron_parameters(const ModelConfig& m, const TrainingSetup& s) {
  const Arith a{"parameters"};
  const Layout l = megatron_layout(m, s.megatron);
  const int64_t t = s.parallel.tensor_parallel, p = s.parallel.pipeline_parallel;
  const int64_t d = m.n_embd, dh = m.head_dim(), kv = m.n_kv_head * dh, ff = m.d_ff;
  // megatron/training/tokenizer/tokenizer.py _vocab_size_with_padding(): pad V to a multiple
  // of make_vocab_size_divisible_by · TP.
  const int64_t multiple = a.mul(s.megatron.make_vocab_size_divisible_by, t);
  MegatronParameters out;
  out.padded_vocab = a.mul(ceil_div(m.vocab_size, multiple), multiple);
  const int64_t layers = ceil_div(m.n_layer, p);  // the first stage
  // Per layer (theoretical_memory_usage.py): self_attn_term = 2·d·d·(1 + g)·(d_h·a/d) =
  // QKV (d x (d + 2·h_kv·d_h)) + proj (d x d); dense_mlp_params = 2·d·d_ff·(3/2 if swiglu).
  const int64_t attn_w = a.add(a.mul(d, d + 2 * kv), a.mul(d, d));
  const int64_t mlp_w = a.mul(l.swiglu ? 3 : 2, d, ff);
  // Column-parallel biases (QKV, fc1) split over TP; row-parallel ones (proj, fc2) do not
  // (megatron/core/tensor_parallel/layers.py). Not in the formula.
  const int64_t bias_sharded = l.bias ? (d + 2 * kv) + (l.swiglu ? 2 * ff : ff) : 0;
  const int64_t bias_replicated = l.bias ? 2 * d : 0;
  const int64_t norm_size = l.layernorm ? 2 : 1;  // "RMSNorm does not have bias, but LayerNorm has"
  // The vocab-parallel embedding (and an untied output layer on the last stage) split over TP.
  int64_t sharded_full = a.add(a.mul(layers, a.add(attn_w, mlp_w)), a.mul(out.padded_vocab, d));
  if (!m.tie_word_embeddings && p == 1) sharded_full = a.add(sharded_full, a.mul(out.padded_vocab, d));
  out.tp_sharded = a.add(ceil_div(sharded_full, t), a.mul(layers, ceil_div(bias_sharded, t)));
  // layernorm_params = 2·d·norm_size per layer; the final norm on the last stage.
  out.replicated = a.mul(layers, a.add(2 * d * norm_size, bias_replicated));
  if (p == 1) out.replicated = a.add(out.replicated, d * norm_size);
  const int64_t positions = l.learned_positions ? a.mul(m.n_positions, d) : 0;  // replicated, first stage
  out.replicated = a.add(out.replicated, positions);
  out.biases_and_positions = a.add(a.mul(layers, a.add(ceil_div(bias_sharded, t), bias_replicated)), positions);
  return out;
}

Estimate estimate_megatron(const ModelConfig& model, const TrainingSetup& setup) {
  setup.validate(model);
  const auto& par = setup.parallel;
  if (setup.precision != Precision::kBf16Mixed && setup.precision != Precision::kFp16Mixed) {
    throw InputError("--precision", std::string("the megatron profile models Megatron's --bf16/--fp16 training, got ") +
                                        to_string(setup.precision),
                     "use --precision bf16-mixed (or fp16-mixed)");
  }
  if (setup.optimizer != OptimizerKind::kAdamW) {
    throw InputError("--optimizer", std::string("the megatron profile models Megatron's Adam, got ") + to_string(setup.optimizer));
  }
  if (par.zero_stage > 1 || par.offload_optimizer || par.offload_parameters) {
    throw InputError("--zero", "the megatron profile knows the distributed optimizer (--zero 1) or none (--zero 0)",
                     "for ZeRO-2/3 or offload use --framework deepspeed");
  }
  if (setup.lora.rank > 0) throw InputError("--lora-rank", "the megatron profile has no LoRA");
  Estimate e;
  e.model = model;
  e.setup = setup;
  e.parameters = count_parameters(model);
  auto add = [&](std::string path, Category c, int64_t bytes, std::string formula) {
    e.items.push_back({std::move(path), c, bytes, std::move(formula)});
    e.totals[static_cast<int>(c)] = checked_add(e.totals[static_cast<int>(c)], bytes, "estimate");
  };
  const Arith a{"--batch-size"};
  const Layout l = megatron_layout(model, setup.megatron);
  const MegatronParameters mp = megatron_parameters(model, setup);
  const int64_t n = mp.total();
  const int64_t N = par.data_parallel, t = par.tensor_parallel, p = par.pipeline_parallel;
  const bool dist_opt = par.zero_stage == 1;
  const std::string shard = str(n) + " params on this GPU (" + str(mp.tp_sharded) + " TP-split + " + str(mp.replicated) +
                            " replicated; " + str(mp.biases_and_positions) + " of them biases/positions, not in Megatron's formula)";

  // ---- weights and optimizer: num_bytes_per_parameter() = 18, or 6 + 12/DP with
  // --use-distributed-optimizer (docs/user-guide/features/dist_optimizer.md).
  add("parameters/bf16", Category::kParameters, a.mul(n, 2), shard + " · 2 B: the bf16 model parameters");
  add("gradients/fp32_main_grads", Category::kGradients, a.mul(n, 4),
      "n · 4 B: the fp32 main-gradient buffer (bf16 forces accumulate_allreduce_grads_in_fp32)");
  const int64_t opt = dist_opt ? ceil_div(a.mul(n, 12), N) : a.mul(n, 12);
  add("optimizer_state/fp32_master_and_adam", Category::kOptimizerState, opt,
      dist_opt ? "n · 12 B / " + str(N) + ": fp32 master params + Adam exp_avg + exp_avg_sq, sharded over DP (distributed optimizer)"
               : std::string("n · 12 B: fp32 master params + Adam exp_avg + exp_avg_sq on every DP rank"));

  // ---- activations (Korthikanti et al. 2022, Table 2; theoretical_memory_usage.py) ---------
  const bool sp = setup.megatron.sequence_parallel;
  const int64_t s = setup.seq_len, b = setup.micro_batch_size, d = model.n_embd, ff = model.d_ff;
  const int64_t sbh = a.mul(s, b, d);
  const int64_t kv_ratio_num = model.n_kv_head, kv_ratio_den = model.n_head;  // g = h_kv / h
  // Pipeline (1F1B): the first stage holds min(p, microbatches) micro-batches of ceil(L/p)
  // layers: the formula's L·min(1, num_microbatches/p) when p divides L.
  const int64_t in_flight = p > 1 ? std::min(p, setup.gradient_accumulation_steps) : 1;
  const int64_t layers = ceil_div(model.n_layer, p);
  const int64_t lm = a.mul(layers, in_flight);
  // Megatron's --hidden-dropout covers the embedding and both residual branches; a dropout
  // with p = 0 makes no mask (at::dropout returns its input).
  const auto& mo = setup.megatron;
  const bool hidden_dropout = setup.dropout && (mo.hidden_dropout >= 0 ? mo.hidden_dropout : model.resid_pdrop) > 0.0;
  const bool attn_dropout = setup.dropout && (mo.attention_dropout >= 0 ? mo.attention_dropout : model.attn_pdrop) > 0.0;
  const bool embd_dropout = setup.dropout && (mo.hidden_dropout >= 0 ? mo.hidden_dropout : model.embd_pdrop) > 0.0;
  const bool full = setup.checkpointing == Checkpointing::kFull;
  const bool scores = setup.attention == AttentionKernel::kEager && setup.checkpointing == Checkpointing::kNone;
  const std::string lt = str(layers) + "·" + str(in_flight) + "·";  // layers · micro-batches in flight
  const std::string sp_div = sp ? " / t (sequence parallel)" : "";
  // Replicated over TP unless sequence parallelism splits them along s.
  auto repl = [&](int64_t bytes) { return sp ? ceil_div(bytes, t) : bytes; };
  // Per-layer terms of one micro-batch, bytes.
  const int64_t ln_inputs = repl(a.mul(4, sbh));
  const int64_t qkv_input = repl(a.mul(2, sbh));
  const int64_t mlp_input = repl(a.mul(2, sbh));
  const int64_t masks = hidden_dropout ? repl(a.mul(2, sbh)) : 0;
  const int64_t qkv = ceil_div(a.mul(a.mul(2, sbh), kv_ratio_den + 2 * kv_ratio_num) / kv_ratio_den, t);
  const int64_t proj_input = ceil_div(a.mul(2, sbh), t);
  const int64_t mlp_inner = ceil_div(a.mul(a.mul(s, b, ff), l.swiglu ? 6 : 4), t);
  const int64_t score_bytes = scores ? ceil_div(a.mul(a.mul(s, s, b), a.mul(model.n_head, attn_dropout ? 5 : 2)), t) : 0;
  const int64_t layer_bytes = a.add(a.add(a.add(ln_inputs, qkv_input), a.add(mlp_input, masks)),
                                    a.add(a.add(qkv, proj_input), a.add(mlp_inner, score_bytes)));
  if (full) {
    // Full recompute (Korthikanti et al. 2022, sec. 5; --recompute-granularity full
    // --recompute-method uniform --recompute-num-layers 1): each layer keeps its 2-byte input;
    // one layer's activations are rebuilt during its backward.
    add("activations/block/recompute_inputs", Category::kActivations, a.mul(lm, repl(a.mul(2, sbh))),
        lt + "2·s·b·d B" + sp_div + ": each layer's input, kept for the recompute");
  } else {
    add("activations/block/layernorm_inputs", Category::kActivations, a.mul(lm, ln_inputs),
        lt + "4·s·b·d B" + sp_div + ": the inputs of both norms (bf16)");
    add("activations/block/qkv_input", Category::kActivations, a.mul(lm, qkv_input),
        lt + "2·s·b·d B" + sp_div + ": the QKV projection's input (the norm output)");
    add("activations/block/qkv", Category::kActivations, a.mul(lm, qkv),
        lt + "2·s·b·d·(1 + 2·h_kv/h) B / t: Q, K, V saved by the attention kernel");
    add("activations/block/proj_input", Category::kActivations, a.mul(lm, proj_input),
        lt + "2·s·b·d B / t: the attention output, the output projection's input");
    if (masks > 0) {
      add("activations/block/dropout_masks", Category::kActivations, a.mul(lm, masks),
          lt + "2·s·b·d·1 B" + sp_div + ": the hidden-dropout masks after attention and MLP (bias_dropout_add)");
    }
    add("activations/block/mlp_input", Category::kActivations, a.mul(lm, mlp_input),
        lt + "2·s·b·d B" + sp_div + ": the MLP's input (the second norm's output)");
    add("activations/block/mlp_inner", Category::kActivations, a.mul(lm, mlp_inner),
        lt + (l.swiglu ? "6·s·b·d_ff B / t: fc1's gate and up outputs and SwiGLU's output (fused bias-swiglu)"
                       : "4·s·b·d_ff B / t: fc1's output and GeLU's output (fused bias-gelu)"));
    if (score_bytes > 0) {
      add("activations/block/attention_scores", Category::kActivations, a.mul(lm, score_bytes),
          lt + (attn_dropout ? "5·h·s²·b B / t: softmax output, dropout mask and output (eager attention, no recompute)"
                             : "2·h·s²·b B / t: the softmax output (eager attention, no recompute)"));
    }
  }
  // Embedding (compute_activation_memory: "Input to embedding" 8·s·b·p and "Dropout in
  // embedding layer" s·b·h·p; both divided by t in the SP formula, as it writes them).
  add("activations/embedding/input_ids", Category::kActivations, repl(a.mul(8 * s, b, in_flight)),
      str(in_flight) + "·s·b·8 B" + sp_div + ": int64 token ids");
  if (embd_dropout) {
    add("activations/embedding/dropout_mask", Category::kActivations, repl(a.mul(sbh, in_flight)),
        str(in_flight) + "·s·b·d·1 B" + sp_div + ": the embedding dropout mask");
  }
  if (p == 1) {
    const int64_t V = mp.padded_vocab;
    if (sp) {
      // "Inputs to output layer and CE loss": 4·s·b·d·(1 + V/d), divided by t.
      add("activations/head/output_layer_inputs", Category::kActivations, ceil_div(a.mul(4, sbh), t),
          "4·s·b·d B / t: the final norm's input and the output layer's input");
      add("activations/head/logits_fp32", Category::kActivations, ceil_div(a.mul(a.mul(4, s, b), V), t),
          "4·s·b·V B / t: the vocab-parallel cross entropy's fp32 logits (V padded to " + str(V) + ")");
    } else {
      // "Outputs from final layer norm" s·b·d and "Logits calculation" s·b·V/t, times 2 bytes.
      add("activations/head/final_norm_output", Category::kActivations, a.mul(2, sbh),
          "2·s·b·d B: the final norm's output, the output layer's input");
      add("activations/head/logits", Category::kActivations, ceil_div(a.mul(a.mul(2, s, b), V), t),
          "2·s·b·V B / t: the bf16 logits (V padded to " + str(V) + ")");
    }
  }
  const int64_t act = e.total(Category::kActivations);
  int64_t transient = 0;
  if (full) {
    transient = a.add(transient, layer_bytes);
    add("transient/recompute_layer", Category::kTransient, layer_bytes,
        "one layer's activations rebuilt by the recompute during its backward");
  }
  if (!sp) {
    // compute_activation_memory_without_sp(): "buffer for optimizer and miscellaneous
    // temporaries (5% overhead)", overhead_factor = 1.05 on the activations.
    const int64_t extra = ceil_div(a.mul(act, 5), 100);
    transient = a.add(transient, extra);
    add("transient/temporaries_5pct", Category::kTransient, extra,
        "5% of the activations: Megatron's allowance for optimizer and miscellaneous temporaries (no-SP formula)");
  }
  const int64_t overhead = setup.cuda ? setup.overhead_bytes : 0;
  if (overhead > 0) add("overhead/cuda_context", Category::kOverhead, overhead, "CUDA context + cuBLAS/cuDNN workspace (--overhead)");

  // ---- phases: Megatron allocates the bf16 params, the grad buffer and the distributed
  // optimizer's fp32 master shard at setup; Adam's moments at the first step.
  const int64_t params = e.total(Category::kParameters), grads = e.total(Category::kGradients);
  const int64_t master = dist_opt ? ceil_div(a.mul(n, 4), N) : a.mul(n, 4);
  for (const char* kind : {"first", "steady"}) {
    const bool steady = std::string(kind) == "steady";
    const int64_t stat = a.add(a.add(params, grads), steady ? opt : master);
    const int64_t fwd = a.add(stat, act);
    const int64_t with_opt = a.add(a.add(params, grads), opt);
    e.phases.push_back({kind, "step_start", stat, stat});
    e.phases.push_back({kind, "after_forward", fwd, fwd});
    e.phases.push_back({kind, "after_backward", stat, a.add(fwd, transient)});
    e.phases.push_back({kind, "after_optimizer_step", with_opt, with_opt});
  }
  e.peak_bytes = 0;
  for (const auto& ph : e.phases) {
    if (ph.peak_bytes > e.peak_bytes) {
      e.peak_bytes = ph.peak_bytes;
      e.peak_phase = ph.step_kind + "/" + ph.phase;
    }
  }
  e.peak_bytes = checked_add(e.peak_bytes, overhead, "estimate");
  return e;
}

}  // namespace oomkit
