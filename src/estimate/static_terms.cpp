// Static memory of one GPU: parameters, gradients, optimizer state, autocast weight copies and
// registered buffers, per parameter tensor, after parallel splitting and ZeRO sharding.
#include <algorithm>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/core/zero_partition.h"
#include "oomkit/estimate/phase_model.h"
#include "oomkit/estimate/quantization.h"
#include "phase_arith.h"

namespace oomkit {
namespace {

// Bytes per element of each static tensor kind under the setup's precision.
struct StaticWidths {
  int64_t trainable = 4;  // fp32, or the fp32 master under mixed precision; 2 in pure bf16
  int64_t frozen = 4;     // the frozen LoRA base: the compute dtype
  int64_t grad = 4;
  int64_t compute = 4;
  bool mixed = false;     // autocast keeps 2-byte copies of Linear weights
};

StaticWidths static_widths(const TrainingSetup& s) {
  StaticWidths w;
  w.mixed = s.precision == Precision::kBf16Mixed || s.precision == Precision::kFp16Mixed;
  w.trainable = (s.precision == Precision::kFp32 || w.mixed) ? 4 : 2;
  w.frozen = s.precision == Precision::kFp32 ? 4 : 2;
  w.grad = s.precision == Precision::kBf16 ? 2 : 4;
  w.compute = s.precision == Precision::kFp32 ? 4 : 2;
  return w;
}

// A per-layer tensor (L copies, one per block) as opposed to the embedding, head or final norm.
bool is_per_layer(const ModelConfig& m, const ParameterTensor& t) {
  return t.count == m.n_layer && t.part != ParamPart::kEmbeddings && t.part != ParamPart::kHead &&
         !(t.part == ParamPart::kNorms && t.count == 1);
}

// One parameter tensor as this GPU holds it.
struct LocalTensor {
  bool here = false;     // false: it lives on another pipeline stage
  bool per_layer = false;
  int64_t rows = 0;      // after the tensor-parallel split
  int64_t n = 0;         // elements of one copy
  int64_t count = 0;     // copies on this GPU (layers here for per-layer tensors)
};

LocalTensor local_tensor(const ModelConfig& m, const TrainingSetup& s, const ParameterTensor& t, const Arith& a) {
  const auto& par = s.parallel;
  LocalTensor lt;
  lt.per_layer = is_per_layer(m, t);
  // Pipeline: the first stage holds the embeddings and ceil(L/p) layers; the final norm and
  // the head live on the last stage.
  lt.here = !(par.pipeline_parallel > 1 && !lt.per_layer && t.part != ParamPart::kEmbeddings);
  lt.count = lt.per_layer ? std::min(t.count, ceil_div(m.n_layer, par.pipeline_parallel)) : t.count;
  // Tensor parallel (Shoeybi et al. 2019, sec. 3): Linear weights and the vocab-parallel
  // embedding split t ways; norms are replicated.
  lt.rows = t.part == ParamPart::kNorms ? t.rows : ceil_div(t.rows, par.tensor_parallel);
  lt.n = a.mul(lt.rows, t.cols);
  return lt;
}

// Adds one parameter tensor (all its copies on this GPU) to `st`.
void add_tensor(StaticTerms& st, const ModelConfig& m, const TrainingSetup& s, const StaticWidths& w,
                const ParameterTensor& t, const Arith& a) {
  const LocalTensor lt = local_tensor(m, s, t, a);
  if (!lt.here) return;
  const bool per_layer = lt.per_layer;
  const int64_t count = lt.count, rows = lt.rows, n = lt.n;
  const int64_t all = a.mul(n, count);
  if (!t.trainable) {
    st.frozen_bytes = a.add(st.frozen_bytes, a.mul(frozen_tensor_bytes(t, rows, t.cols, s, w.frozen), count));
    return;
  }
  st.trainable_count = a.add(st.trainable_count, all);
  st.largest_trainable = std::max(st.largest_trainable, n);
  st.params_bytes = a.add(st.params_bytes, a.mul(all, w.trainable));
  st.grads_bytes = a.add(st.grads_bytes, a.mul(all, w.grad));
  // wpe's gradient, and the token embedding's when lm_head has its own weight, are made by the
  // embedding's backward, after every block (a tied head's arrives with lm_head's backward).
  const bool token_embedding = t.name == "transformer.wte.weight" || t.name == "model.embed_tokens.weight";
  if (t.name == "transformer.wpe.weight" || (token_embedding && !m.tie_word_embeddings)) {
    st.late_embedding_grads_bytes = a.add(st.late_embedding_grads_bytes, a.mul(all, w.grad));
  }
  st.optimizer_bytes = a.add(st.optimizer_bytes, a.mul(optimizer_state_bytes(s, n, rows, t.cols, t.matrix), count));
  if (w.mixed && t.linear) {
    st.copies_bytes = a.add(st.copies_bytes, a.mul(all, 2));
    st.linear_trainable = a.add(st.linear_trainable, all);
  }
  if (per_layer) {
    st.layer_grads_bytes = a.add(st.layer_grads_bytes, a.mul(n, w.grad));
    if (w.mixed && t.linear) st.layer_copies_bytes = a.add(st.layer_copies_bytes, a.mul(n, 2));
  }
}

// ZeRO (Rajbhandari et al. 2020, sec. 5): stage 1 shards optimizer state, 2 adds gradients,
// 3 adds parameters, each over the N data-parallel ranks. Offload moves them to CPU.
void apply_zero(StaticTerms& st, const ParallelConfig& par) {
  const int64_t N = par.data_parallel;
  if (par.zero_stage >= 1) st.optimizer_bytes = ceil_div(st.optimizer_bytes, N);
  if (par.zero_stage >= 2) {
    st.grads_bytes = ceil_div(st.grads_bytes, N);
    st.late_embedding_grads_bytes = ceil_div(st.late_embedding_grads_bytes, N);
  }
  if (par.zero_stage >= 3) {
    st.params_bytes = ceil_div(st.params_bytes, N);
    st.copies_bytes = ceil_div(st.copies_bytes, N);
    st.layer_copies_bytes = ceil_div(st.layer_copies_bytes, N);
  }
  if (par.offload_optimizer) st.optimizer_bytes = 0;
  if (par.offload_parameters) {
    st.params_bytes = 0;
    st.copies_bytes = 0;
    st.layer_copies_bytes = 0;
  }
}

// The optimizer's step over the trainable tensors in parameter order (module registration:
// the leading tensors, then layer by layer, then the trailing ones): the first step creates
// each tensor's state just before updating it, so its peak is the largest (state so far +
// that tensor's temporaries); the steady step's is the largest temporaries. Within the
// per-layer tensors the state so far only grows, so the last layer holds each row's maximum.
void optimizer_step_peaks(StaticTerms& st, const ModelConfig& m, const TrainingSetup& s,
                          const std::vector<ParameterTensor>& tensors, const Arith& a) {
  if (s.parallel.offload_optimizer) return;
  const int64_t N = s.parallel.zero_stage >= 1 ? s.parallel.data_parallel : 1;
  int64_t so_far = 0, layer_state = 0, layers = 0;
  bool in_layers = false;
  auto visit = [&](const ParameterTensor& t, const LocalTensor& lt, int64_t before) {
    const int64_t state = ceil_div(optimizer_state_bytes(s, lt.n, lt.rows, t.cols, t.matrix), N);
    const int64_t tr = optimizer_step_transient_bytes(s, lt.n);
    st.optimizer_step_transient_bytes = std::max(st.optimizer_step_transient_bytes, tr);
    st.first_step_optimizer_bytes = std::max(st.first_step_optimizer_bytes, a.add(a.add(before, state), tr));
    return state;
  };
  // Per-layer rows are visited at the last layer, after the state of the layers before it.
  std::vector<std::pair<const ParameterTensor*, LocalTensor>> layer_rows;
  auto flush_layers = [&]() {
    int64_t before = a.add(so_far, a.mul(layer_state, std::max<int64_t>(0, layers - 1)));
    for (const auto& [t, lt] : layer_rows) before = a.add(before, visit(*t, lt, before));
    so_far = before;
    layer_rows.clear();
    layer_state = 0;
    in_layers = false;
  };
  for (const auto& t : tensors) {
    const LocalTensor lt = local_tensor(m, s, t, a);
    if (!lt.here || !t.trainable) continue;
    if (lt.per_layer) {
      in_layers = true;
      layers = lt.count;
      layer_state = a.add(layer_state, ceil_div(optimizer_state_bytes(s, lt.n, lt.rows, t.cols, t.matrix), N));
      layer_rows.emplace_back(&t, lt);
      continue;
    }
    if (in_layers) flush_layers();
    for (int64_t i = 0; i < lt.count; ++i) so_far = a.add(so_far, visit(t, lt, so_far));
  }
  if (in_layers) flush_layers();
}

// One trainable tensor copy as oomkit's optimizer sees it.
struct OptimizerTensor {
  int64_t numel = 0;
  int64_t grad_bytes = 0;       // its gradient
  int64_t state_bytes = 0;      // optimizer_state_bytes()
  int64_t transient_bytes = 0;  // optimizer_step_transient_bytes()
};

// The trainable tensors on this GPU, one entry per copy, in the trainer's parameter order
// (module registration: the leading tensors, block 0's rows, block 1's rows, ..., the trailing).
std::vector<OptimizerTensor> trainer_parameter_order(const ModelConfig& m, const TrainingSetup& s,
                                                     const std::vector<ParameterTensor>& tensors, const Arith& a) {
  std::vector<OptimizerTensor> out, layer_rows;
  const int64_t grad_width = static_widths(s).grad;
  int64_t layers = 0;
  auto flush_layers = [&]() {
    for (int64_t l = 0; l < layers; ++l) out.insert(out.end(), layer_rows.begin(), layer_rows.end());
    layer_rows.clear();
  };
  for (const auto& t : tensors) {
    const LocalTensor lt = local_tensor(m, s, t, a);
    if (!lt.here || !t.trainable) continue;
    const OptimizerTensor o{lt.n, a.mul(lt.n, grad_width), optimizer_state_bytes(s, lt.n, lt.rows, t.cols, t.matrix),
                            optimizer_step_transient_bytes(s, lt.n)};
    if (lt.per_layer) {
      layers = lt.count;
      layer_rows.push_back(o);
      continue;
    }
    flush_layers();
    for (int64_t i = 0; i < lt.count; ++i) out.push_back(o);
  }
  flush_layers();
  return out;
}

// oomkit's own ZeRO-1 and ZeRO-2 (`train --zero 1|2`) keep the state of whole tensors,
// partitioned over the ranks as PyTorch's ZeroRedundancyOptimizer does (zero_partition.h), so a
// rank holds its share, not Ψ/N; its optimizer steps its own tensors in the partition's order
// (largest first), creating each one's state just before updating it. Under ZeRO-2 the rank
// keeps, after backward, the gradients of the same share (Trainer::reduce_gradients_to_owners).
bool partitioned_zero(const TrainingSetup& s) {
  const auto& p = s.parallel;
  return s.framework == Framework::kOomkit && (p.zero_stage == 1 || p.zero_stage == 2) && p.data_parallel > 1 &&
         !p.offload_optimizer;
}

void zero_partition_terms(StaticTerms& st, const ModelConfig& m, const TrainingSetup& s,
                           const std::vector<ParameterTensor>& tensors, const Arith& a) {
  const std::vector<OptimizerTensor> order = trainer_parameter_order(m, s, tensors, a);
  std::vector<int64_t> numels;
  numels.reserve(order.size());
  for (const auto& o : order) numels.push_back(o.numel);
  const int64_t N = s.parallel.data_parallel;
  if (s.parallel.dp_rank >= N) {
    throw InputError("dp_rank", "rank " + std::to_string(s.parallel.dp_rank) + " of " + std::to_string(N) + " data-parallel ranks");
  }
  // Every tensor here has elements, so with N >= M tensors rank i < M gets the i-th largest and
  // the others nothing: the greedy rule over min(N, M) ranks is the same partition (and keeps
  // a --dp of 10^9 from building 10^9 lists).
  const int64_t ranks = std::max<int64_t>(1, std::min<int64_t>(N, static_cast<int64_t>(order.size())));
  const auto shares = zero_partition(numels, static_cast<int>(ranks));
  std::vector<int64_t> share_bytes(shares.size(), 0), share_grad_bytes(shares.size(), 0);
  for (size_t r = 0; r < shares.size(); ++r) {
    for (size_t i : shares[r]) {
      share_bytes[r] = a.add(share_bytes[r], order[i].state_bytes);
      share_grad_bytes[r] = a.add(share_grad_bytes[r], order[i].grad_bytes);
    }
  }
  const bool zero2 = s.parallel.zero_stage == 2;
  st.optimizer_step_transient_bytes = 0;
  st.first_step_optimizer_bytes = 0;
  if (s.parallel.dp_rank >= ranks) {  // a rank past the tensors: it owns none
    st.optimizer_bytes = 0;
    if (zero2) st.kept_grads_bytes = 0;
    return;
  }
  // Without a rank: the rank with the most (state, then kept gradients), the one that runs out first.
  size_t largest = 0;
  for (size_t r = 1; r < shares.size(); ++r) {
    const int64_t here = a.add(share_bytes[r], zero2 ? share_grad_bytes[r] : 0);
    if (here > a.add(share_bytes[largest], zero2 ? share_grad_bytes[largest] : 0)) largest = r;
  }
  const size_t rank = s.parallel.dp_rank >= 0 ? static_cast<size_t>(s.parallel.dp_rank) : largest;
  st.optimizer_bytes = share_bytes[rank];
  if (zero2) st.kept_grads_bytes = share_grad_bytes[rank];
  int64_t so_far = 0;
  for (size_t i : shares[rank]) {
    const OptimizerTensor& o = order[i];
    st.optimizer_step_transient_bytes = std::max(st.optimizer_step_transient_bytes, o.transient_bytes);
    st.first_step_optimizer_bytes =
        std::max(st.first_step_optimizer_bytes, a.add(a.add(so_far, o.state_bytes), o.transient_bytes));
    so_far = a.add(so_far, o.state_bytes);
  }
}

}  // namespace

int64_t optimizer_step_transient_bytes(const TrainingSetup& s, int64_t n) {
  const Arith a{"parameters"};
  const int64_t sb = state_bytes_per_element(s);
  const bool bf16 = s.precision == Precision::kBf16;
  switch (s.optimizer) {
    case OptimizerKind::kAdamW: {
      // oomkit's FusedAdamW updates a CPU fp32 parameter in one pass (no temporaries); LibTorch's
      // tensor ops (CUDA, bf16 parameters, other frameworks) hold sqrt(v) and denom: 2 state widths.
      const bool one_pass = s.framework == Framework::kOomkit && !s.cuda && !bf16;
      return one_pass ? 0 : a.mul(2 * sb, n);
    }
    case OptimizerKind::kAdafactor: return a.mul(2 * sb, n);
    case OptimizerKind::kLion: return a.mul(sb, n);
    case OptimizerKind::kAdam8bit: {
      const int64_t grad_copy = bf16 ? 4 : 0;
      if (n < 4096) return a.mul(8 + grad_copy, n);
      // Unfused: g, the dequantised m and v, the update and p's fp32 copy, then
      // quantize_blockwise's temporaries (measured 14n on bf16 parameters).
      const bool fused = !s.cuda && !bf16;
      return fused ? 0 : a.mul(26 + 2 * grad_copy, n);
    }
    case OptimizerKind::kSgd:
    case OptimizerKind::kSgdMomentum: return s.weight_decay > 0.0 ? a.mul(sb, n) : 0;
  }
  return 0;
}

int64_t optimizer_state_bytes(const TrainingSetup& s, int64_t n, int64_t rows, int64_t cols, bool matrix) {
  const Arith a{"parameters"};
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

StaticTerms static_terms(const ModelConfig& m, const TrainingSetup& s, const std::vector<ParameterTensor>& tensors) {
  const Arith a{"parameters"};
  const StaticWidths w = static_widths(s);
  StaticTerms st;
  for (const auto& t : tensors) add_tensor(st, m, s, w, t, a);
  for (const auto& t : tensors) {
    if (t.count == m.n_layer && t.part != ParamPart::kEmbeddings && t.part != ParamPart::kHead) {
      st.layer_params_compute_bytes = a.add(st.layer_params_compute_bytes, a.mul(t.numel(), w.compute));
    }
  }
  st.params_bytes = a.add(st.params_bytes, st.frozen_bytes);
  // DDP (oomkit's trainer under --nproc-per-node, ZeRO 0 or 1): the reducer's buckets hold a flat
  // copy of every gradient on this GPU, for the run (c10d::Reducer, DDP's default
  // gradient_as_bucket_view=False).
  if (s.framework == Framework::kOomkit && s.parallel.data_parallel > 1 && s.parallel.zero_stage <= 1) {
    st.ddp_bucket_bytes = st.grads_bytes;
  }
  // oomkit's own ZeRO-2 reduces the gradients after backward, which therefore ends with all of
  // them: only the optimizer state is sharded here, the kept gradients by the partition below.
  const bool own_zero = partitioned_zero(s);
  ParallelConfig sharded = s.parallel;
  if (own_zero) sharded.zero_stage = 1;
  apply_zero(st, sharded);
  st.kept_grads_bytes = st.grads_bytes;
  if (own_zero) {
    zero_partition_terms(st, m, s, tensors, a);
  } else {
    optimizer_step_peaks(st, m, s, tensors, a);
  }
  // 8-bit Adam builds its signed and unsigned dynamic quantization maps (256 fp32 each,
  // bitsandbytes create_dynamic_map) in its constructor, as CPU tensors.
  if (s.optimizer == OptimizerKind::kAdam8bit && !s.cuda) st.optimizer_buffers_bytes = 2 * 256 * 4;
  // GPT-2 registers its causal mask as an (n_positions, n_positions) bool buffer; LLaMA its
  // RoPE inverse frequencies, inv_freq (d_h / 2) fp32 (llama.cpp, HF LlamaRotaryEmbedding).
  st.buffers_bytes = m.is_gpt2() ? a.mul(m.n_positions, m.n_positions) : (m.head_dim() / 2) * 4;
  return st;
}

}  // namespace oomkit
