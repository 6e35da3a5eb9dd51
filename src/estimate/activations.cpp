// The per-token activation terms. Each term names the LibTorch 1.13 op whose saved tensor it
// counts, for the op sequence of docs/model-ops.md (GPT-2) and its LLaMA analogue.
//
// Assumptions (each a candidate for calibration against the tracking allocator):
//  - Autograd saves an input only when the other input's gradient needs it (VariableType's
//    should_compute_output guards), so mul(x, noise) saves only the noise.
//  - at::matmul on (B, h, T, d_h) views of the fused qkv reshapes them to (B·h, T, d_h): the
//    views are not viewable that way, so q, k (and v for p @ v) become contiguous copies that
//    bmm saves; the fused qkv itself is not saved and dies with the block's locals.
//  - CPU dropout (at::_dropout, p > 0) multiplies by a noise tensor of the input's dtype and
//    saves it; CUDA's native_dropout saves a bool mask (1 byte). p = 0 returns the input.
//  - Autocast (bf16-mixed, fp16-mixed, chapter): linear/matmul inputs are cast copies in the
//    compute dtype (input casts are not cached, weight casts are); the residual stream stays
//    fp32 because the embedding runs in fp32 and add promotes; layer_norm and
//    cross_entropy/log_softmax run in fp32. The attention softmax runs in the compute dtype
//    under CPU autocast (measured, LibTorch 1.13) and in fp32 under CUDA autocast, where p @ v
//    then saves a compute-dtype copy of p as well.
#include "oomkit/estimate/activations.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "oomkit/core/units.h"

namespace oomkit {
namespace {

ActivationTerm term(ActScope scope, const char* name, const char* shape, const char* op, int64_t elements,
                    int64_t bytes) {
  ActivationTerm t;
  t.scope = scope;
  t.name = name;
  t.shape = shape;
  t.op = op;
  t.elements_per_token = elements;
  t.bytes_per_element = bytes;
  return t;
}

ActivationTerm sharded(ActivationTerm t, bool core = false) {
  t.tp_sharded = true;
  t.attention_core = core;
  return t;
}

// The eager attention core shared by both families: probabilities, their autocast copy and
// the attention dropout. Appends to `out`.
void attention_probs(std::vector<ActivationTerm>& out, const ModelConfig& m, const TrainingSetup& s,
                     const ActivationDtypes& dt) {
  const int64_t hT = m.n_head * s.seq_len;
  out.push_back(sharded(term(ActScope::kBlock, "attn_probs", "h·T", "_softmax saves its output p (B, h, T, T)", hT,
                             dt.softmax), true));
  const bool dropout = s.dropout && m.attn_pdrop > 0.0;
  if (dropout) {
    out.push_back(sharded(term(ActScope::kBlock, "attn_dropout_mask", "h·T",
                               s.cuda ? "native_dropout saves a bool mask (B, h, T, T)"
                                      : "dropout (CPU) saves its noise tensor (B, h, T, T), input dtype",
                               hT, s.cuda ? 1 : dt.softmax), true));
  }
  if (dt.autocast && dt.softmax != dt.compute) {
    out.push_back(sharded(term(ActScope::kBlock, "attn_probs_cast", "h·T",
                               "bmm (p @ v) saves autocast's compute-dtype copy of p", hT, dt.compute), true));
  } else if (dropout) {
    out.push_back(sharded(term(ActScope::kBlock, "attn_probs_dropped", "h·T", "bmm (p @ v) saves the dropout output",
                               hT, dt.softmax), true));
  }
}

void dropout_term(std::vector<ActivationTerm>& out, ActScope scope, const char* name, double p,
                  const TrainingSetup& s, int64_t elements, int64_t input_bytes) {
  if (!s.dropout || p <= 0.0) return;
  out.push_back(term(scope, name, "d",
                     s.cuda ? "native_dropout saves a bool mask (B, T, d)"
                            : "dropout (CPU) saves its noise tensor (B, T, d), input dtype",
                     elements, s.cuda ? 1 : input_bytes));
}

void gpt2_block(std::vector<ActivationTerm>& out, const ModelConfig& m, const TrainingSetup& s,
                const ActivationDtypes& dt) {
  const int64_t d = m.n_embd, d_ff = m.d_ff, h = m.n_head;
  const int64_t c = dt.compute, r = dt.residual;
  const ActScope B = ActScope::kBlock;
  out.push_back(term(B, "ln_1_input", "d", "native_layer_norm (ln_1) saves its input, the block input x", d, r));
  out.push_back(term(B, "ln_1_stats", "2", "native_layer_norm (ln_1) saves mean and rstd (B, T, 1)", 2, dt.norm_stats));
  out.push_back(term(B, "c_attn_input", "d",
                     dt.autocast ? "addmm (c_attn) saves mat1: autocast's compute-dtype copy of ln_1's output"
                                 : "addmm (c_attn) saves mat1, ln_1's output",
                     d, c));
  if (s.attention == AttentionKernel::kEager) {
    out.push_back(sharded(term(B, "qk_copies", "2d",
                               "bmm (q @ k^T) saves contiguous copies of q and k (matmul reshapes the head views)",
                               2 * d, c)));
    attention_probs(out, m, s, dt);
    out.push_back(sharded(term(B, "v_copy", "d", "bmm (p @ v) saves a contiguous copy of v", d, c)));
  } else {
    out.push_back(sharded(term(B, "sdpa_qkv", "3d", "scaled_dot_product_attention saves q, k, v (views of qkv)",
                               3 * d, c)));
    out.push_back(sharded(term(B, "sdpa_output", "d", "scaled_dot_product_attention saves its output", d, c)));
    out.push_back(sharded(term(B, "sdpa_logsumexp", "h", "flash/efficient attention saves logsumexp (B, h, T) fp32",
                               h, 4)));
  }
  out.push_back(sharded(term(B, "attn_c_proj_input", "d",
                             "addmm (attn.c_proj) saves y, the contiguous (B, T, d) copy of the heads", d, c)));
  dropout_term(out, B, "attn_resid_dropout_mask", m.resid_pdrop, s, d, c);
  out.push_back(term(B, "ln_2_input", "d", "native_layer_norm (ln_2) saves its input, the residual x + attn", d, r));
  out.push_back(term(B, "ln_2_stats", "2", "native_layer_norm (ln_2) saves mean and rstd (B, T, 1)", 2, dt.norm_stats));
  out.push_back(term(B, "c_fc_input", "d",
                     dt.autocast ? "addmm (mlp.c_fc) saves autocast's compute-dtype copy of ln_2's output"
                                 : "addmm (mlp.c_fc) saves mat1, ln_2's output",
                     d, c));
  out.push_back(sharded(term(B, "gelu_input", "d_ff", "gelu (tanh) saves its input f, c_fc's output", d_ff, c)));
  out.push_back(sharded(term(B, "mlp_c_proj_input", "d_ff", "addmm (mlp.c_proj) saves g, gelu's output", d_ff, c)));
  dropout_term(out, B, "mlp_resid_dropout_mask", m.resid_pdrop, s, d, c);
}

// The LLaMA block of src/train/llama.cpp (Hugging Face's LlamaDecoderLayer op for op), its saved
// tensors traced with torch.autograd.graph.saved_tensors_hooks on LibTorch 1.13 (fp32,
// bf16-mixed, bf16; h_kv < h and h_kv = h):
//  - RMSNorm (x32 = x.to(fp32); x32.pow(2).mean(-1); x32 · rsqrt(var + eps); weight · normed.to(x.dtype))
//    saves x32 (pow, mul), x32² (mean: LibTorch 1.13's MeanBackward1 keeps its input), rstd
//    (rsqrt's output) and normed in x's dtype; under pure bf16 x32 is an fp32 copy and the bf16
//    input itself is not saved.
//  - The rotary muls save only cos and sin (their other inputs need no gradient): per sequence,
//    not per token (ActivationModel::sequence_bytes).
//  - q @ k^T saves a contiguous copy of rotated q (matmul reshapes its permuted layout) and k
//    repeated to h heads (repeat_kv's copy; with h_kv = h matmul's contiguous copy instead);
//    p @ v saves v likewise: d elements each, whatever h_kv.
// repeat_kv (llama.cpp, as Hugging Face's) expands (B, h_kv, 1, T, d_h) to n_rep heads and
// reshapes to (B, h, T, d_h): with h_kv = 1 the merged dims are a size-1 one and the stride-0
// one, so the reshape is a view, not a copy (the multi-query case). matmul then reshapes its
// (B, h, ...) operands to (B·h, ...): with B = 1 a view again, so bmm saves views of rotated k
// and of v_proj's output, (B, T, d_h) each, instead of (B, h, T, d_h) copies; with B > 1 the
// stride-0 heads cannot merge with B and matmul's reshape makes the copy bmm saves. Without
// autograd that copy is matmul's transient and k, v stay (B, T, d_h) views for any B.
bool llama_kv_is_view(const ModelConfig& m) { return !m.is_gpt2() && m.n_kv_head == 1 && m.n_head > 1; }
bool llama_kv_saved_as_views(const ModelConfig& m, const TrainingSetup& s) {
  return llama_kv_is_view(m) && s.micro_batch_size == 1;
}

void llama_norm(std::vector<ActivationTerm>& out, ActScope scope, const char* input, const char* squares,
                const char* rstd, const char* normed, const ModelConfig& m, const ActivationDtypes& dt) {
  const int64_t d = m.n_embd;
  out.push_back(term(scope, input, "d", "pow and mul (RMSNorm) save x in fp32 (under pure bf16: its fp32 copy)", d, 4));
  out.push_back(term(scope, squares, "d", "mean (RMSNorm variance) saves its input x² fp32 (MeanBackward1 keeps self)", d, 4));
  out.push_back(term(scope, rstd, "1", "rsqrt (RMSNorm) saves its output rstd (B, T, 1) fp32", 1, 4));
  out.push_back(term(scope, normed, "d", "mul (weight · normed) saves normed = x·rstd in x's dtype", d, dt.residual));
}

void llama_block(std::vector<ActivationTerm>& out, const ModelConfig& m, const TrainingSetup& s,
                 const ActivationDtypes& dt) {
  const int64_t d = m.n_embd, d_ff = m.d_ff, h = m.n_head, kv = m.n_kv_head * m.head_dim();
  const int64_t c = dt.compute;
  const ActScope B = ActScope::kBlock;
  llama_norm(out, B, "input_norm_input", "input_norm_squares", "input_norm_rstd", "input_norm_normed", m, dt);
  out.push_back(term(B, "qkv_proj_input", dt.autocast ? "3d" : "d",
                     dt.autocast ? "mm (q_proj, k_proj, v_proj) each save their own autocast copy of the norm output"
                                 : "mm (q_proj, k_proj, v_proj) save their shared input, the norm output",
                     dt.autocast ? 3 * d : d, c));
  if (s.attention == AttentionKernel::kEager) {
    // k and v as bmm saves them: h-head copies, or (h_kv = 1, B = 1) views of (B, T, d_h).
    const bool views = llama_kv_saved_as_views(m, s);
    out.push_back(sharded(term(B, "qk_rotated", views ? "(d + h_kv·d_h)" : "2d",
                               views ? "bmm (q @ k^T) saves rotated q and a view of rotated k (h_kv = 1, B = 1: "
                                       "repeat_kv and matmul's reshape are views)"
                                     : "bmm (q @ k^T) saves a contiguous copy of rotated q and k repeated to h heads "
                                       "(repeat_kv)",
                               d + (views ? kv : d), c)));
    attention_probs(out, m, s, dt);
    out.push_back(sharded(term(B, "v_repeated", views ? "h_kv·d_h" : "d",
                               views ? "bmm (p @ v) saves a view of v_proj's output (h_kv = 1, B = 1: no repeat_kv copy)"
                                     : "bmm (p @ v) saves v repeated to h heads (a contiguous copy)",
                               views ? kv : d, c)));
  } else {
    out.push_back(sharded(term(B, "sdpa_qkv", "(d + 2·h_kv·d_h)",
                               "scaled_dot_product_attention saves rotated q, k and v", d + 2 * kv, c)));
    out.push_back(sharded(term(B, "sdpa_output", "d", "scaled_dot_product_attention saves its output", d, c)));
    out.push_back(sharded(term(B, "sdpa_logsumexp", "h", "flash/efficient attention saves logsumexp (B, h, T) fp32",
                               h, 4)));
  }
  out.push_back(sharded(term(B, "o_proj_input", "d", "mm (o_proj) saves the contiguous (B, T, d) attention output",
                             d, c)));
  llama_norm(out, B, "post_norm_input", "post_norm_squares", "post_norm_rstd", "post_norm_normed", m, dt);
  out.push_back(term(B, "gate_up_input", dt.autocast ? "2d" : "d",
                     dt.autocast ? "mm (gate_proj, up_proj) each save their autocast copy of the norm output"
                                 : "mm (gate_proj, up_proj) save their shared input",
                     dt.autocast ? 2 * d : d, c));
  out.push_back(sharded(term(B, "silu_input", "d_ff", "silu saves its input, gate_proj's output", d_ff, c)));
  out.push_back(sharded(term(B, "silu_output", "d_ff", "mul (silu(g)·u) saves silu's output", d_ff, c)));
  out.push_back(sharded(term(B, "up_output", "d_ff", "mul (silu(g)·u) saves up_proj's output", d_ff, c)));
  out.push_back(sharded(term(B, "down_proj_input", "d_ff", "mm (down_proj) saves silu(g)·u", d_ff, c)));
}

// ---- LoRA (Hu et al. 2021; train/lora.h): a frozen base ------------------------------------
// Under LoRA every base parameter has requires_grad = false and is stored in the compute dtype
// (Trainer: add_lora_adapters(base_dtype)); only the adapters' A (r, in) and B (out, r) train.
// Autograd then saves less, by the same rule as above (VariableType's should_compute_output
// guards, LibTorch 1.13 derivatives.yaml):
//  - a frozen projection's mm/addmm saves its weight only (mat2, for the input's gradient),
//    never its input (mat1 is needed only for the weight's gradient). The adapter's lora_A mm
//    saves the input instead, and lora_B's mm saves lora_A's output (B, T, r);
//  - nothing that runs before the first tensor requiring grad is recorded at all: the frozen
//    embedding's output does not require grad, so block 0 saves only from its first adapter on
//    (and oomkit::checkpoint runs block 0 unwrapped: its input does not require grad);
//  - mul(weight, normed) (RMSNorm) with a frozen weight saves only the weight, not normed;
//    native_layer_norm still saves its input, mean and rstd (one formula for all three grads);
//  - bmm (q @ k^T, p @ v) saves an operand only when the other one requires grad;
//  - under autocast the frozen base is bf16 already: the embedding output, the residual stream
//    and every frozen Linear's output are bf16 (residual = compute dtype). layer_norm (fp32 list)
//    saves its fp32 cast of the bf16 residual; RMSNorm's x32 is an fp32 copy and its output
//    weight·normed.to(bf16) is bf16, so lora_A's cast of it is the tensor itself (shared by every
//    adapter on it), while an fp32 input (GPT-2's layer_norm output) gets one cast per adapter.
bool has_target(const TrainingSetup& s, std::initializer_list<const char*> names) {
  for (const auto& t : s.lora.targets) {
    for (const char* n : names) {
      if (t == n) return true;
    }
  }
  return false;
}

int count_targets(const TrainingSetup& s, std::initializer_list<const char*> names) {
  int k = 0;
  for (const auto& t : s.lora.targets) {
    for (const char* n : names) {
      if (t == n) ++k;
    }
  }
  return k;
}

// The saved term of a tensor: `on` false (nothing requires grad there) leaves the term at zero
// elements, so the block's forward-order names stay for the moments below.
ActivationTerm maybe(bool on, ActivationTerm t) {
  if (!on) t.elements_per_token = 0;
  return t;
}

// The eager attention core under LoRA: p when the scores or v need grad (softmax saves its
// output; bmm (p @ v) saves p for v's gradient), dropout's noise when p needs grad, and p @ v's
// own input (the dropout output or autocast's cast of p) when v needs grad.
void lora_attention_probs(std::vector<ActivationTerm>& out, ActScope B, const ModelConfig& m, const TrainingSetup& s,
                          const ActivationDtypes& dt, bool scores, bool gv) {
  const int64_t hT = m.n_head * s.seq_len;
  out.push_back(maybe(scores || gv, sharded(term(B, "attn_probs", "h·T", "_softmax saves its output p (B, h, T, T); bmm (p @ v) "
                                                 "saves p when v needs grad", hT, dt.softmax), true)));
  const bool dropout = s.dropout && m.attn_pdrop > 0.0;
  if (dropout) {
    out.push_back(maybe(scores, sharded(term(B, "attn_dropout_mask", "h·T",
                                             s.cuda ? "native_dropout saves a bool mask (B, h, T, T)"
                                                    : "dropout (CPU) saves its noise tensor (B, h, T, T), input dtype",
                                             hT, s.cuda ? 1 : dt.softmax), true)));
  }
  if (dt.autocast && dt.softmax != dt.compute) {
    out.push_back(maybe(gv, sharded(term(B, "attn_probs_cast", "h·T", "bmm (p @ v) saves autocast's compute-dtype copy of p",
                                         hT, dt.compute), true)));
  } else if (dropout) {
    out.push_back(maybe(gv, sharded(term(B, "attn_probs_dropped", "h·T", "bmm (p @ v) saves the dropout output", hT,
                                         dt.softmax), true)));
  }
}

// native_layer_norm under LoRA: the residual is bf16 (fp16) under autocast. CPU autocast
// (LibTorch 1.13) has no layer_norm entry: it runs on the bf16 input with the bf16 frozen
// weight and bias, saving that input and bf16 mean/rstd (CPU native_layer_norm returns them in
// the input's dtype when nothing mixes dtypes), and returns bf16. CUDA autocast's fp32 list
// casts the input: it saves the fp32 cast and fp32 statistics and returns fp32.
struct LoraNorm {
  int64_t input = 4;
  int64_t stats = 4;
  bool fp32_output = false;  // each lora_A on the output casts its own compute-dtype copy
  const char* input_op = "native_layer_norm saves its input, the residual";
};
LoraNorm lora_layer_norm(const TrainingSetup& s, const ActivationDtypes& dt) {
  LoraNorm n;
  n.input = dt.residual;
  n.stats = dt.norm_stats;
  if (dt.autocast && s.cuda) {
    n.input = 4;
    n.fp32_output = true;
    n.input_op = "native_layer_norm saves its input, autocast's fp32 cast of the residual";
  } else if (dt.autocast) {
    n.stats = dt.residual;
    n.input_op = "native_layer_norm saves its input, the compute-dtype residual (CPU autocast: no cast)";
  }
  return n;
}

// One GPT-2 block under LoRA (model.cpp Block/CausalSelfAttention/Mlp, lora.cpp
// linear_with_lora), in forward order. `grad_in`: the block's input requires grad (every block
// but block 0).
void gpt2_lora_block(std::vector<ActivationTerm>& out, ActScope B, const ModelConfig& m, const TrainingSetup& s,
                     const ActivationDtypes& dt, bool grad_in) {
  const int64_t d = m.n_embd, d_ff = m.d_ff, h = m.n_head, c = dt.compute, r = s.lora.rank;
  const LoraNorm ln = lora_layer_norm(s, dt);
  out.push_back(maybe(grad_in, term(B, "ln_1_input", "d", ln.input_op, d, ln.input)));
  out.push_back(maybe(grad_in, term(B, "ln_1_stats", "2", "native_layer_norm (ln_1) saves mean and rstd (B, T, 1)", 2, ln.stats)));
  // c_attn: the whole fused projection or its q/k/v slices. An fp32 ln_1 output (CUDA
  // autocast) is cast by each adapter's lora_A on its own; else they share the tensor.
  const bool whole = has_target(s, {"c_attn"});
  const int n_attn = count_targets(s, {"c_attn", "q", "k", "v"});
  const int64_t attn_in = n_attn == 0 ? 0 : ln.fp32_output ? n_attn * d : d;
  out.push_back(term(B, "c_attn_input", ln.fp32_output ? "n·d" : "d",
                     "mm (lora_A on c_attn or its q/k/v slices) saves the projection input (autocast: one cast per adapter); "
                     "the frozen addmm saves only its weight", attn_in, c));
  const bool gq = grad_in || whole || has_target(s, {"q"});
  const bool gk = grad_in || whole || has_target(s, {"k"});
  const bool gv = grad_in || whole || has_target(s, {"v"});
  const bool scores = gq || gk;
  if (s.attention == AttentionKernel::kEager) {
    // bmm (q @ k^T) saves q's copy when k requires grad and k's when q does.
    out.push_back(sharded(term(B, "qk_copies", "2d", "bmm (q @ k^T) saves the copy of q (k needs grad) and of k (q needs grad)",
                               (gk ? d : 0) + (gq ? d : 0), c)));
    lora_attention_probs(out, B, m, s, dt, scores, gv);
    out.push_back(maybe(scores, sharded(term(B, "v_copy", "d", "bmm (p @ v) saves a contiguous copy of v (p needs grad)", d, c))));
  } else {
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_qkv", "3d", "scaled_dot_product_attention saves q, k, v", 3 * d, c))));
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_output", "d", "scaled_dot_product_attention saves its output", d, c))));
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_logsumexp", "h", "flash/efficient attention saves logsumexp (B, h, T) fp32", h, 4))));
  }
  const bool g_y = scores || gv;  // the attention output requires grad
  const bool o = has_target(s, {"o", "c_proj"});
  out.push_back(maybe(o, sharded(term(B, "attn_c_proj_input", "d", "mm (lora_A on attn.c_proj) saves y, the (B, T, d) heads", d, c))));
  const bool g_attn = g_y || o;
  if (s.dropout && m.resid_pdrop > 0.0) {
    out.push_back(maybe(g_attn, term(B, "attn_resid_dropout_mask", "d", "dropout (CPU) saves its noise tensor (B, T, d)", d, s.cuda ? 1 : c)));
  }
  const bool g_res = grad_in || g_attn;  // x + attn
  out.push_back(maybe(g_res, term(B, "ln_2_input", "d", ln.input_op, d, ln.input)));
  out.push_back(maybe(g_res, term(B, "ln_2_stats", "2", "native_layer_norm (ln_2) saves mean and rstd (B, T, 1)", 2, ln.stats)));
  const bool fc = has_target(s, {"c_fc", "up"});
  out.push_back(maybe(fc, term(B, "c_fc_input", "d", "mm (lora_A on mlp.c_fc) saves ln_2's output (autocast: its cast)", d, c)));
  const bool g_f = g_res || fc;
  out.push_back(maybe(g_f, sharded(term(B, "gelu_input", "d_ff", "gelu (tanh) saves its input f, c_fc's output", d_ff, c))));
  const bool proj = has_target(s, {"mlp_c_proj", "down"});
  out.push_back(maybe(proj, sharded(term(B, "mlp_c_proj_input", "d_ff", "mm (lora_A on mlp.c_proj) saves g, gelu's output", d_ff, c))));
  if (s.dropout && m.resid_pdrop > 0.0) {
    out.push_back(maybe(g_f || proj, term(B, "mlp_resid_dropout_mask", "d", "dropout (CPU) saves its noise tensor (B, T, d)", d, s.cuda ? 1 : c)));
  }
  const int n = count_targets(s, {"c_attn", "q", "k", "v", "o", "c_proj", "c_fc", "up", "mlp_c_proj", "down"});
  out.push_back(term(B, "lora_hidden", "n·r", "mm (lora_B) saves lora_A's output (B, T, r), per adapter", n * r, c));
}

// RMSNorm (llama.cpp) with a frozen weight: x32 (pow, mul), x32² (mean), rstd; not normed.
void llama_lora_norm(std::vector<ActivationTerm>& out, ActScope scope, bool on, const char* input, const char* squares,
                     const char* rstd, const char* normed, const ModelConfig& m) {
  const int64_t d = m.n_embd;
  out.push_back(maybe(on, term(scope, input, "d", "pow and mul (RMSNorm) save x in fp32 (bf16 x: its fp32 copy)", d, 4)));
  out.push_back(maybe(on, term(scope, squares, "d", "mean (RMSNorm variance) saves its input x² fp32 (MeanBackward1 keeps self)", d, 4)));
  out.push_back(maybe(on, term(scope, rstd, "1", "rsqrt (RMSNorm) saves its output rstd (B, T, 1) fp32", 1, 4)));
  out.push_back(term(scope, normed, "d", "mul (weight · normed) with a frozen weight saves only the weight", 0, 4));
}

// One LLaMA layer under LoRA (llama.cpp), in forward order; `grad_in` as for GPT-2.
void llama_lora_block(std::vector<ActivationTerm>& out, ActScope B, const ModelConfig& m, const TrainingSetup& s,
                      const ActivationDtypes& dt, bool grad_in) {
  const int64_t d = m.n_embd, d_ff = m.d_ff, h = m.n_head, kv = m.n_kv_head * m.head_dim(), c = dt.compute;
  llama_lora_norm(out, B, grad_in, "input_norm_input", "input_norm_squares", "input_norm_rstd", "input_norm_normed", m);
  // The norm output weight·normed is in the base (compute) dtype: every lora_A shares it.
  const bool aq = has_target(s, {"q"}), ak = has_target(s, {"k"}), av = has_target(s, {"v"});
  out.push_back(maybe(aq || ak || av, term(B, "qkv_proj_input", "d",
                                           "mm (lora_A on q/k/v_proj) saves the norm output, one tensor for every adapter "
                                           "(the frozen mm saves only its weight)", d, c)));
  const bool gq = grad_in || aq, gk = grad_in || ak, gv = grad_in || av, scores = gq || gk;
  if (s.attention == AttentionKernel::kEager) {
    const bool views = llama_kv_saved_as_views(m, s);
    out.push_back(sharded(term(B, "qk_rotated", "d + d", "bmm (q @ k^T) saves rotated q (k needs grad) and k repeated to h heads (q needs grad)",
                               (gk ? d : 0) + (gq ? (views ? kv : d) : 0), c)));
    lora_attention_probs(out, B, m, s, dt, scores, gv);
    out.push_back(maybe(scores, sharded(term(B, "v_repeated", "d", "bmm (p @ v) saves v repeated to h heads (p needs grad)",
                                             views ? kv : d, c))));
  } else {
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_qkv", "(d + 2·h_kv·d_h)", "scaled_dot_product_attention saves rotated q, k and v", d + 2 * kv, c))));
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_output", "d", "scaled_dot_product_attention saves its output", d, c))));
    out.push_back(maybe(scores || gv, sharded(term(B, "sdpa_logsumexp", "h", "flash/efficient attention saves logsumexp (B, h, T) fp32", h, 4))));
  }
  const bool ao = has_target(s, {"o"});
  out.push_back(maybe(ao, sharded(term(B, "o_proj_input", "d", "mm (lora_A on o_proj) saves the (B, T, d) attention output", d, c))));
  const bool g_res = grad_in || scores || gv || ao;
  llama_lora_norm(out, B, g_res, "post_norm_input", "post_norm_squares", "post_norm_rstd", "post_norm_normed", m);
  const bool ag = has_target(s, {"gate"}), au = has_target(s, {"up"}), ad = has_target(s, {"down"});
  out.push_back(maybe(ag || au, term(B, "gate_up_input", "d", "mm (lora_A on gate/up_proj) saves the norm output, one tensor", d, c)));
  const bool gg = g_res || ag, gu = g_res || au;
  out.push_back(maybe(gg, sharded(term(B, "silu_input", "d_ff", "silu saves its input, gate_proj's output", d_ff, c))));
  out.push_back(maybe(gu, sharded(term(B, "silu_output", "d_ff", "mul (silu(g)·u) saves silu's output (u needs grad)", d_ff, c))));
  out.push_back(maybe(gg, sharded(term(B, "up_output", "d_ff", "mul (silu(g)·u) saves up_proj's output (silu(g) needs grad)", d_ff, c))));
  out.push_back(maybe(ad, sharded(term(B, "down_proj_input", "d_ff", "mm (lora_A on down_proj) saves silu(g)·u", d_ff, c))));
  const int n = count_targets(s, {"q", "k", "v", "o", "gate", "up", "down"});
  out.push_back(term(B, "lora_hidden", "n·r", "mm (lora_B) saves lora_A's output (B, T, r), per adapter", n * s.lora.rank, c));
}

}  // namespace

ActivationDtypes activation_dtypes(const TrainingSetup& s) {
  ActivationDtypes dt;
  switch (s.precision) {
    case Precision::kFp32: break;
    case Precision::kBf16Mixed:
    case Precision::kFp16Mixed:
    case Precision::kChapter:  // the chapter's fp16 compute: autocast-style 2-byte activations
      dt.compute = 2;
      dt.autocast = true;
      dt.softmax = s.cuda ? 4 : 2;
      break;
    case Precision::kBf16:
      dt.compute = 2;
      dt.residual = 2;
      dt.softmax = 2;
      dt.loss = 2;
      // CPU native_layer_norm returns mean/rstd in the input's dtype unless its inputs mix
      // dtypes (measured, LibTorch 1.13); CUDA's are the fp32 accumulation type.
      dt.norm_stats = s.cuda ? 4 : 2;
      break;
  }
  // LoRA under autocast: the frozen base is stored in the compute dtype (Trainer), so the
  // embedding's output and the residual adds are compute-dtype tensors.
  if (dt.autocast && s.lora.rank > 0) dt.residual = dt.compute;
  dt.mask = s.cuda ? 1 : dt.compute;
  return dt;
}

ActivationModel build_activation_model(const ModelConfig& m, const TrainingSetup& s) {
  const ActivationDtypes dt = activation_dtypes(s);
  const int64_t d = m.n_embd, V = m.vocab_size, hT = m.n_head * s.seq_len;
  const int64_t c = dt.compute, r = dt.residual;
  ActivationModel am;
  am.terms.reserve(32);
  // Embedding: wte saves idx (already held as the input); wpe saves arange(T) int64. The sum
  // tok + pos is the first block's input (counted there); tok and pos themselves are not saved.
  // LLaMA (llama.cpp): every layer's rotary muls save cos and sin (T, d_h) in the compute dtype
  // and masked_fill the (T, T) bool mask, made once per forward (no index tensor is saved).
  // (LoRA: wpe is frozen, so its embedding saves no indices.)
  am.sequence_bytes = m.is_gpt2() ? (s.lora.rank > 0 ? 0 : 8) : 2 * m.head_dim() * c + s.seq_len;
  const bool lora = s.lora.rank > 0;
  // (LoRA: the frozen embedding's output needs no gradient; its dropout saves nothing.)
  if (m.is_gpt2() && !lora) dropout_term(am.terms, ActScope::kEmbedding, "embd_dropout_mask", m.embd_pdrop, s, d, r);

  if (lora) {
    // Blocks 1..L-1, then block 0 (ActScope::kFirstBlock), whose input needs no gradient.
    for (const bool grad_in : {true, false}) {
      const ActScope scope = grad_in ? ActScope::kBlock : ActScope::kFirstBlock;
      if (m.is_gpt2()) gpt2_lora_block(am.terms, scope, m, s, dt, grad_in);
      else llama_lora_block(am.terms, scope, m, s, dt, grad_in);
    }
  } else if (m.is_gpt2()) {
    gpt2_block(am.terms, m, s, dt);
  } else {
    llama_block(am.terms, m, s, dt);
  }

  // Head: final norm, tied/untied lm_head, loss.
  if (m.is_gpt2()) {
    const LoraNorm ln = lora ? lora_layer_norm(s, dt) : LoraNorm{r, dt.norm_stats, false, "native_layer_norm (ln_f) saves the final residual"};
    am.terms.push_back(term(ActScope::kHead, "ln_f_input", "d", ln.input_op, d, ln.input));
    am.terms.push_back(term(ActScope::kHead, "ln_f_stats", "2", "native_layer_norm (ln_f) saves mean and rstd", 2, ln.stats));
  } else if (lora) {
    llama_lora_norm(am.terms, ActScope::kHead, true, "norm_input", "norm_squares", "norm_rstd", "norm_normed", m);
  } else {
    llama_norm(am.terms, ActScope::kHead, "norm_input", "norm_squares", "norm_rstd", "norm_normed", m, dt);
  }
  // (LoRA: lm_head is frozen, its mm saves only the weight.)
  am.terms.push_back(maybe(!lora, sharded(term(ActScope::kHead, "lm_head_input", "d",
                                               dt.autocast ? "mm (lm_head) saves autocast's compute-dtype copy of the final norm output"
                                                           : "mm (lm_head) saves mat1, the final norm output",
                                               d, c))));
  ActivationTerm logits = sharded(term(ActScope::kHead, "logits", "V",
                                       "lm_head's output (B, T, V), held by the trainer from the forward to the loss",
                                       V, c));
  logits.held_output = true;
  am.terms.push_back(logits);
  const int64_t loss_bytes = dt.loss;
  ActivationTerm log_probs = sharded(term(ActScope::kHead, "log_softmax", "V",
                                          "_log_softmax (cross_entropy) saves its output (B·T, V); nll_loss saves targets",
                                          V, loss_bytes));
  log_probs.held_output = true;
  am.terms.push_back(log_probs);
  am.loss_transient = dt.autocast ? V * 4 : 0;  // the fp32 cast of the bf16 logits, freed after log_softmax
  am.head_backward_transient = 2 * V * loss_bytes;  // nll_loss_backward's grad_input + log_softmax's gradient

  // Inside one block's forward. The terms are in forward order; the peak is at one of:
  //  (a) `matmul(q, k^T) * scale`: the raw and the scaled scores live at once;
  //  (b) softmax: the masked scores, (autocast) their fp32 copy, and p;
  //  (c) the block's end: every saved term plus the MLP output before the residual add.
  // The block's locals hold the fused qkv (B, T, 3d) until the attention returns and, under
  // autocast, the fp32 ln_1 output passed to it.
  const int64_t kv = m.n_kv_head * m.head_dim();
  const int64_t qkv = m.is_gpt2() ? 3 * d : d + 2 * kv;
  // LLaMA (llama.cpp) under pure bf16: RMSNorm saves the fp32 copy of its input, so the bf16
  // block input (held by the caller) and the attention residual are live locals, not saved terms.
  const int64_t bf16_local = !m.is_gpt2() && r != 4 ? d * r : 0;
  // The locals at q @ k^T: GPT-2's fused qkv; LLaMA's rotated q (its permuted layout made bmm
  // save a copy), v (repeated, or v_proj's view) and, with h_kv = h, rotated k (bmm saved a
  // copy of it too); under autocast the fp32 norm output passed to the attention.
  const int64_t n_rep = m.n_head / m.n_kv_head;
  // (With h_kv = 1 and B = 1, v is v_proj's (B, T, d_h) output, viewed: llama_kv_saved_as_views.)
  const int64_t v_local = llama_kv_saved_as_views(m, s) ? kv : d;
  // The norm outputs: fp32 locals under autocast (their casts are what the projections save),
  // except LoRA's bf16 norms (lora_layer_norm; RMSNorm's frozen bf16 weight makes its output
  // bf16). Under LoRA a norm output no adapter saves is a local of its own dtype.
  const bool norm_fp32 = dt.autocast && !(lora && !(m.is_gpt2() && s.cuda));
  const bool attn_in_saved = m.is_gpt2() ? has_target(s, {"c_attn", "q", "k", "v"}) : has_target(s, {"q", "k", "v"});
  const bool mlp_in_saved = m.is_gpt2() ? has_target(s, {"c_fc", "up"}) : has_target(s, {"gate", "up"});
  const int64_t attn_norm_local = norm_fp32 ? d * 4 : lora && !attn_in_saved ? d * r : 0;
  const int64_t mlp_norm_local = norm_fp32 ? d * 4 : lora && !mlp_in_saved ? d * r : 0;
  // LoRA on GPT-2's q/k/v slices: each adapted slice is a new (B, T, d) tensor beside qkv.
  const int64_t slice_locals = lora && m.is_gpt2() ? count_targets(s, {"q", "k", "v"}) * d * c : 0;
  // LoRA at the block's end: the down projection's output, and with an adapter there its delta
  // and their sum (linear_with_lora: y + delta); its input (g, silu(g)·u) a local when no
  // adapter saves it.
  const bool down_adapter = has_target(s, {"mlp_c_proj", "down"});
  const int64_t lora_end = !lora ? 0 : (down_adapter ? 2 * d * c : m.d_ff * c);
  const int64_t locals = (m.is_gpt2() ? qkv * c + slice_locals : ((1 + (n_rep == 1 ? 1 : 0)) * d + v_local) * c + bf16_local) +
                         attn_norm_local;
  int64_t saved = 0, before_probs = -1;
  std::vector<std::pair<std::string_view, int64_t>> saved_through;  // bytes per token saved up to and including each term
  for (const auto& t : am.terms) {
    if (t.scope != ActScope::kBlock) continue;
    if (std::string_view(t.name) == "attn_probs") before_probs = saved;
    saved += t.bytes_per_token();
    saved_through.emplace_back(t.name, saved);
  }
  auto through = [&saved_through](std::string_view name) {
    for (const auto& [n, b] : saved_through) {
      if (n == name) return b;
    }
    return int64_t{0};
  };
  auto add_moment = [&am](ActivationModel::ForwardMoment mo) { am.forward_moments[am.num_forward_moments++] = mo; };
  // Weight elements cast after each point of the block (for the autocast copies not yet made).
  const int64_t after_attn_core = m.is_gpt2() ? d * d + 2 * d * m.d_ff : d * d + 3 * d * m.d_ff;  // c_proj/o + MLP
  if (m.is_gpt2()) {
    add_moment({"block end", saved + d * c + mlp_norm_local + lora_end, 0, {0, 0}});
  } else {
    // down_proj's output beside everything saved, the fp32 post-norm output (autocast) or the
    // bf16 input and residual (pure bf16), while the matmul runs (its oneDNN scratchpad).
    add_moment({"block end (down_proj)", saved + d * c + mlp_norm_local + lora_end + 2 * bf16_local, 0, {m.d_ff, d}});
    // RoPE on q: q_proj's output, rotate_half's cat, q·cos, rotate_half(q)·sin and their sum,
    // beside k_proj's and v_proj's outputs.
    const int64_t attn_in = attn_norm_local + bf16_local;
    add_moment({"rotary (q)", through("qkv_proj_input") + attn_in + (5 * d + 2 * kv) * c, after_attn_core, {0, 0}});
    add_moment({"q_proj (mm)", through("qkv_proj_input") - (dt.autocast ? 2 * d * c : 0) + attn_in + d * c,
                after_attn_core + 2 * d * kv, {d, d}});
    const int64_t mlp_in = mlp_norm_local + 2 * bf16_local;
    add_moment({"gate_proj (mm)", through("post_norm_normed") + d * c + mlp_in + m.d_ff * c, 2 * d * m.d_ff,
                {d, m.d_ff}});
    add_moment({"up_proj (mm)", through("silu_output") + mlp_in + m.d_ff * c, d * m.d_ff, {d, m.d_ff}});
  }
  if (before_probs >= 0) {
    add_moment({"q @ k^T * scale", before_probs + locals + 2 * hT * c, after_attn_core, {0, 0}});
    add_moment(
        {"softmax", before_probs + locals + hT * c + (dt.softmax != c ? hT * 4 : 0) + hT * dt.softmax, after_attn_core,
         {0, 0}});
  }
  // CPU bf16: an addmm (a Linear with bias) runs in two moments beside its output (measured
  // with a logging allocator, LibTorch 1.13 + oneDNN): oneDNN's scratchpad, allocated through
  // c10 while the product runs (matmul_workspace.h), then, under autocast only, two fp32
  // buffers of the output's size. So the GPT-2 c_attn (3d) and c_fc (d_ff) calls can set the
  // block's peak. The ln output they consume is a fp32 local at that moment (autocast); pure
  // bf16 runs the bf16 addmm on its own bf16 tensors (measured: the scratchpad only). A
  // bias-free mm (lm_head) has the scratchpad only.
  const bool cpu_bf16_addmm = cpu_bf16_matmuls(s, dt);
  // (LoRA: the frozen bias and the input are bf16 already, as under pure bf16: no fp32 buffers.)
  const bool cpu_autocast_addmm = dt.autocast && !s.cuda && !lora;  // the fp32 epilogue buffers
  const int64_t ln_local = norm_fp32 ? d * 4 : 0;
  if (cpu_bf16_addmm && m.is_gpt2()) {
    int64_t before_c_attn_out = 0, before_gelu = 0, through_attn_proj = 0, through_mlp_proj = 0, acc = 0;
    for (const auto& t : am.terms) {
      if (t.scope != ActScope::kBlock) continue;
      const std::string_view name(t.name);
      acc += t.bytes_per_token();
      if (name == "c_attn_input") before_c_attn_out = acc;
      if (name == "c_fc_input") before_gelu = acc;
      if (name == "attn_c_proj_input") through_attn_proj = acc;
      if (name == "mlp_c_proj_input") through_mlp_proj = acc;
    }
    add_moment({"c_attn (bf16 addmm, scratchpad)", before_c_attn_out + ln_local + 3 * d * c, after_attn_core,
                {d, 3 * d}});
    if (cpu_autocast_addmm) {
      add_moment({"c_attn (bf16 addmm, fp32 buffers)", before_c_attn_out + ln_local + 3 * d * (c + 8), after_attn_core,
                  {0, 0}});
    }
    add_moment({"c_fc (bf16 addmm, scratchpad)", before_gelu + ln_local + m.d_ff * c, d * m.d_ff, {d, m.d_ff}});
    if (cpu_autocast_addmm) {
      add_moment({"c_fc (bf16 addmm, fp32 buffers)", before_gelu + ln_local + m.d_ff * (c + 8), d * m.d_ff, {0, 0}});
    }
    // The two output projections: attn.c_proj inside the attention (qkv and, under autocast,
    // ln_1's fp32 output still live; the MLP's weights not cast yet), mlp.c_proj beside f, g
    // and ln_2's output, which Block::forward holds until mlp() returns. With d_ff >> d the
    // second's scratchpad, (E, d_ff) x (d_ff, d), can be the block's largest.
    add_moment({"attn.c_proj (bf16 addmm, scratchpad)", through_attn_proj + locals + d * c, 2 * d * m.d_ff, {d, d}});
    add_moment({"mlp.c_proj (bf16 addmm, scratchpad)", through_mlp_proj + ln_local + d * c, 0, {m.d_ff, d}});
    if (cpu_autocast_addmm) {
      add_moment({"attn.c_proj (bf16 addmm, fp32 buffers)", through_attn_proj + locals + d * (c + 8), 2 * d * m.d_ff, {0, 0}});
      add_moment({"mlp.c_proj (bf16 addmm, fp32 buffers)", through_mlp_proj + ln_local + d * (c + 8), 0, {0, 0}});
    }
  }
  // Without autograd nothing is saved: the input's norm, qkv and the two score tensors.
  const int64_t norm_out = norm_fp32 ? d * (4 + c) : d * r;
  const bool eager = s.attention == AttentionKernel::kEager;
  const int64_t attn_nograd = norm_out + qkv * c + (eager ? 2 * hT * c : d * c);
  // Dropout in training mode (a checkpointed block's no-grad forward; evaluation runs with
  // model.eval(), without it): CPU at::dropout makes a noise tensor of the input's dtype and
  // the product beside its input (CUDA native_dropout: the output and a bool mask). On the
  // attention probabilities that is p, the noise and the dropped p (B, h, T, T) at once; on a
  // residual branch the projection's output, the noise and the product (B, T, d).
  const int64_t noise = s.cuda ? 1 : 0;  // bytes of the noise/mask element beyond the input dtype's
  const bool attn_drop = s.dropout && m.attn_pdrop > 0.0 && eager;
  const bool resid_drop = s.dropout && m.resid_pdrop > 0.0;
  const int64_t sm = dt.softmax;
  const int64_t attn_drop_nograd = attn_drop ? norm_out + qkv * c + hT * (2 * sm + (noise ? 1 : sm)) : 0;
  const int64_t resid_noise = noise ? 1 : c;
  using Moment = ActivationModel::ForwardMoment;
  // LLaMA without autograd: k and v are (B, T, d_h) views with h_kv = 1 (llama_kv_is_view), else h heads.
  const int64_t kv_nograd = llama_kv_is_view(m) ? kv : d;
  if (m.is_gpt2()) {
    am.block_moments_eval = {{"attention (no grad)", attn_nograd, 0, {0, 0}}};
  } else {
    // LLaMA without autograd: the norm output (fp32 under autocast, whose per-mm casts are
    // freed by each mm) lives through the attention; at q @ k^T * scale rotated q, k and v
    // (h heads) and the raw and scaled scores; at RoPE on q its five d-wide tensors beside k_proj's
    // and v_proj's outputs. The MLP (one statement per op): the residual y and the post-norm
    // output live throughout; g, then silu(g) and u, then their product beside the output.
    const int64_t a_out = norm_fp32 ? d * 4 : d * r;
    const int64_t cast = norm_fp32 ? d * c : 0;
    const int64_t y_a2 = d * r + a_out;
    const int64_t scores = eager ? 2 * hT * c : d * c;
    // Each projection is an nn::Linear, whose C++ forward is input.matmul(weight.t()): autocast
    // casts the weight's transposed view, which it never caches, so the cast (pending weight
    // elements) lives beside the product and is freed with it (measured with a logging
    // allocator, llama seed 570496666). At o_proj the attention's locals q, k, v and the
    // contiguous output y are alive beside o_proj's output.
    const int64_t w = dt.autocast && !lora ? 1 : 0;  // (LoRA: the frozen base is bf16 already)
    const int64_t qkv_nograd = (d + 2 * kv_nograd) * c;
    am.block_moments_eval = {{"attention (no grad)", a_out + qkv_nograd + scores, 0, {0, 0}},
                             {"rotary (no grad)", a_out + (5 * d + 2 * kv) * c, 0, {0, 0}},
                             {"q_proj (no grad)", a_out + cast + d * c, w * d * d, {d, d}},
                             {"o_proj (no grad)", a_out + qkv_nograd + 2 * d * c, w * d * d, {d, d}},
                             {"gate_proj (no grad)", y_a2 + cast + m.d_ff * c, w * d * m.d_ff, {d, m.d_ff}},
                             {"up_proj (no grad)", y_a2 + cast + 2 * m.d_ff * c, w * d * m.d_ff, {d, m.d_ff}},
                             {"silu(g)·u (no grad)", y_a2 + 3 * m.d_ff * c, 0, {0, 0}},
                             {"down_proj (no grad)", y_a2 + m.d_ff * c + d * c, w * m.d_ff * d, {m.d_ff, d}}};
  }
  am.block_moments_nograd = am.block_moments_eval;
  if (attn_drop) {
    const int64_t attn_drop_llama = (norm_fp32 ? d * 4 : d * r) + (d + 2 * kv_nograd) * c + hT * (2 * sm + (noise ? 1 : sm));
    am.block_moments_nograd.push_back(
        {"attention dropout (no grad)", m.is_gpt2() ? attn_drop_nograd : attn_drop_llama, 0, {0, 0}});
  }
  if (m.is_gpt2()) {
    // The MLP without autograd (measured with a logging allocator, LibTorch 1.13): y (the
    // residual) and ln_2's output stay live through mlp(); Mlp::forward's locals f (c_fc) and
    // g (gelu) live until it returns, beside c_proj's output. A CPU bf16 addmm frees its input
    // cast and its uncached weight cast, then has its two moments (scratchpad; fp32 buffers).
    // While the product runs (the scratchpad moment) the input's cast (of ln's fp32 output;
    // gelu's output is in the compute dtype already) and, in evaluation, the weight's cast are
    // live beside the output; both are freed before the fp32 buffers' moment (measured at 2
    // threads, where the scratchpad moment is the larger). Without autograd autocast caches no
    // weight cast (a checkpointed block's first forward included): pending_weight_elements
    // counts the one live at the moment.
    const int64_t addmm_buffers = cpu_autocast_addmm ? 8 : 0;
    const int64_t in_cast = norm_fp32 ? d * c : 0;
    const int64_t w_cast = dt.autocast && !lora ? 1 : 0;  // (LoRA: the frozen base is bf16 already)
    const int64_t c_attn_nograd = d * r + 3 * d * c;
    const int64_t c_fc_nograd = 2 * d * r + m.d_ff * c;
    const int64_t c_proj_nograd = 2 * d * r + 2 * m.d_ff * c + d * c;
    for (const Moment& mo : {Moment{"c_attn (no grad)", c_attn_nograd + in_cast, w_cast * 3 * d * d, {d, 3 * d}},
                             Moment{"c_attn (no grad, fp32 buffers)", c_attn_nograd + 3 * d * addmm_buffers, 0, {0, 0}},
                             Moment{"mlp.c_fc (no grad)", c_fc_nograd + in_cast, w_cast * d * m.d_ff, {d, m.d_ff}},
                             Moment{"mlp.c_fc (no grad, fp32 buffers)", c_fc_nograd + m.d_ff * addmm_buffers, 0, {0, 0}},
                             Moment{"mlp.c_proj (no grad)", c_proj_nograd, w_cast * m.d_ff * d, {m.d_ff, d}},
                             Moment{"mlp.c_proj (no grad, fp32 buffers)", c_proj_nograd + d * addmm_buffers, 0, {0, 0}}}) {
      am.block_moments_eval.push_back(mo);
      am.block_moments_nograd.push_back(mo);
    }
    // Residual dropout: attn.c_proj's output, the noise and the product beside the attention's
    // locals (qkv, y); mlp's beside f and g.
    const int64_t attn_resid_drop = resid_drop ? norm_out + qkv * c + d * (3 * c + resid_noise) : 0;
    const int64_t mlp_resid_drop = resid_drop ? 2 * d * r + 2 * m.d_ff * c + d * (2 * c + resid_noise) : 0;
    if (resid_drop) {
      am.block_moments_nograd.push_back({"attn residual dropout (no grad)", attn_resid_drop, 0, {0, 0}});
      am.block_moments_nograd.push_back({"mlp residual dropout (no grad)", mlp_resid_drop, 0, {0, 0}});
    }
  }
  // Evaluation moments outside the blocks: the embedding sum (wte and wpe lookups run in fp32,
  // autocast leaves embedding alone); lm_head with the final residual, ln_f's output (fp32
  // under autocast), its compute-dtype cast and the cast of wte's weight; the loss with the
  // logits, cross_entropy's fp32 cast (autocast), log_softmax's output and that weight cast.
  const int64_t t_par = s.parallel.tensor_parallel;
  const int64_t V_local = (V + t_par - 1) / t_par;
  am.eval_embedding_tok = 2 * d * r;
  // The matmul's oneDNN scratchpad (CPU bf16) is added by the phase table from head_mm.
  am.head_mm = {d, V_local};
  am.eval_head_tok = d * r + d * (norm_fp32 ? 4 + c : r) + V_local * c;
  am.eval_head_weight_cast_bytes = dt.autocast && !lora ? checked_mul(checked_mul(V_local, d, "vocab_size"), c, "vocab_size") : 0;
  // A tied head is torch::linear(x, wte.weight): autocast casts the leaf weight and keeps the
  // cast in its cache until the region ends, after the loss. An untied head is an nn::Linear,
  // whose C++ forward (torch/nn/functional/linear.h, LibTorch 1.13) is input.matmul(weight.t()):
  // the cast operand is a view, which autocast does not cache, so without autograd the cast is
  // freed when lm_head returns (measured with a logging allocator, llama seed 195997799).
  am.eval_head_weight_cast_outlives_head = m.tie_word_embeddings;
  am.eval_loss_tok = V_local * (c + (dt.autocast ? 4 : 0) + dt.loss);
  // Inside one block's backward, above the block's saved terms: first the MLP (the
  // gradients of its d_ff-wide tensors, with the residual gradient flowing through), then the
  // attention core, by which time the MLP's and c_proj's saved tensors are released (the
  // gradients of p and of the scores, or of q, k, v for sdpa).
  int64_t before_proj = 0, acc_bwd = 0, p_input = 0, through_c_attn = 0;
  for (const auto& t : am.terms) {
    if (t.scope != ActScope::kBlock) continue;
    const std::string_view name(t.name);
    if (name == "attn_c_proj_input" || name == "o_proj_input") before_proj = acc_bwd;
    if (name == "c_attn_input") through_c_attn = acc_bwd + t.bytes_per_token();
    // p @ v's own saved input when it is not p itself (the dropped or autocast-cast p):
    // BmmBackward releases it before the dropout's (or cast's) backward makes p's gradient.
    if (name == "attn_probs_dropped" || name == "attn_probs_cast") p_input = t.bytes_per_token();
    acc_bwd += t.bytes_per_token();
  }
  // Eager: the gradient of p @ v's input (compute dtype) and then, with p_input released, the
  // gradient of p (softmax dtype); sdpa: the gradients of q, k, v.
  const int64_t attn_grads =
      s.attention == AttentionKernel::kEager ? hT * c + std::max<int64_t>(0, hT * dt.softmax - p_input) : qkv * c;
  // GPT-2 MLP (measured, LibTorch 1.13): addmm (mlp.c_proj) backward makes grad_g (B, T, d_ff)
  // beside the incoming residual gradient; AddmmBackward then releases g, so gelu_backward's
  // grad_f replaces it (saved + d_ff + d at both moments). The LLaMA MLP (llama.cpp): down_proj's
  // MmBackward makes grad_m (B, T, d_ff) and releases m; MulBackward (silu(g)·u) then makes
  // grad_silu and grad_u beside grad_m (saved + 2·d_ff + d).
  const int64_t mlp_moment = m.is_gpt2() ? m.d_ff * c + d * r : 2 * m.d_ff * c + d * r;
  const int64_t attn_moment = before_proj + attn_grads + 2 * d * r + d * c - saved;
  am.block_backward_mlp = mlp_moment;
  am.block_backward_attn = attn_moment;
  // GPT-2's c_attn AddmmBackward (measured, LibTorch 1.13): of the block's saved terms only
  // ln_1's and c_attn's input remain, beside the residual gradient, the gradient of qkv
  // (E, 3d) and the input's gradient being made (the weight's is absolute: the phase table).
  am.block_backward_qkv = m.is_gpt2() ? through_c_attn + 3 * d * c + d * r + d * c - saved : 0;
  // The matmuls running at those moments (their oneDNN scratchpad on the CPU target): the
  // gradient of the MLP's down projection input, grad_out (E, d) x W (d, d_ff). The gradient
  // of p is a bmm on a transposed view, which LibTorch 1.13 runs without oneDNN (measured: no
  // scratchpad), as the forward's q @ k^T and p @ v.
  am.block_backward_mlp_mm = {d, m.d_ff};
  // embedding_dense_backward makes a dense (V, d) gradient; with a tied head wte.grad already
  // exists (from lm_head), so it is added into it and freed: a transient. Untied, AccumulateGrad
  // steals it (no copy).
  const int64_t grad_bytes = s.precision == Precision::kBf16 ? 2 : 4;
  // Measured (LibTorch 1.13): the autograd engine holds lm_head's (V, d) gradient for the tied
  // weight in AccumulateGrad's input buffer until the embedding's arrives, then sums the two
  // out of place: the embedding's gradient and the sum exist beside it, 2·V·d.
  am.embedding_backward_transient_bytes =
      m.tie_word_embeddings && s.lora.rank == 0 ? checked_mul(checked_mul(2 * V, d, "vocab_size"), grad_bytes, "vocab_size") : 0;
  return am;
}

int64_t chapter_activation_bytes(const ModelConfig& m, int64_t batch, int64_t seq_len) {
  const char* f = "activations";
  const int64_t per_token = checked_add(checked_mul(34, m.n_embd, f),
                                        checked_mul(checked_mul(5, m.n_head, f), seq_len, f), f);
  return checked_mul(checked_mul(checked_mul(per_token, batch, f), seq_len, f), m.n_layer, f);
}

ChapterStatic chapter_static_bytes(int64_t num_parameters) {
  ChapterStatic s;
  s.parameters_bytes = checked_mul(num_parameters, 2, "parameters");
  s.gradients_bytes = checked_mul(num_parameters, 4, "parameters");
  s.optimizer_bytes = checked_mul(num_parameters, 8, "parameters");
  return s;
}

}  // namespace oomkit
