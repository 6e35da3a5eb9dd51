// Static memory of one GPU: parameters, gradients, optimizer state, autocast weight copies and
// registered buffers, per parameter tensor, after parallel splitting and ZeRO sharding.
#include <algorithm>

#include "oomkit/core/units.h"
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

// Adds one parameter tensor (all its copies on this GPU) to `st`.
void add_tensor(StaticTerms& st, const ModelConfig& m, const TrainingSetup& s, const StaticWidths& w,
                const ParameterTensor& t, const Arith& a) {
  const auto& par = s.parallel;
  const bool per_layer = is_per_layer(m, t);
  // Pipeline: the first stage holds the embeddings and ceil(L/p) layers; the final norm and
  // the head live on the last stage.
  if (par.pipeline_parallel > 1 && !per_layer && t.part != ParamPart::kEmbeddings) return;
  const int64_t count = per_layer ? std::min(t.count, ceil_div(m.n_layer, par.pipeline_parallel)) : t.count;
  // Tensor parallel (Shoeybi et al. 2019, sec. 3): Linear weights and the vocab-parallel
  // embedding split t ways; norms are replicated.
  const int64_t rows = t.part == ParamPart::kNorms ? t.rows : ceil_div(t.rows, par.tensor_parallel);
  const int64_t n = a.mul(rows, t.cols);
  const int64_t all = a.mul(n, count);
  if (!t.trainable) {
    st.frozen_bytes = a.add(st.frozen_bytes, a.mul(frozen_tensor_bytes(t, rows, t.cols, s, w.frozen), count));
    return;
  }
  st.trainable_count = a.add(st.trainable_count, all);
  st.largest_trainable = std::max(st.largest_trainable, n);
  st.params_bytes = a.add(st.params_bytes, a.mul(all, w.trainable));
  st.grads_bytes = a.add(st.grads_bytes, a.mul(all, w.grad));
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
  if (par.zero_stage >= 2) st.grads_bytes = ceil_div(st.grads_bytes, N);
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

}  // namespace

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
  apply_zero(st, s.parallel);
  // GPT-2 registers its causal mask as an (n_positions, n_positions) bool buffer.
  st.buffers_bytes = m.is_gpt2() ? a.mul(m.n_positions, m.n_positions) : 0;
  return st;
}

}  // namespace oomkit
