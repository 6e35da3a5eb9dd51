#include "oomkit/estimate/flops.h"

#include <limits>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

namespace {

int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    throw InputError("model", std::string(what) + " overflows int64");
  }
  return a * b;
}

}  // namespace

int64_t mfu_parameters(const ModelConfig& model) {
  model.validate(model.name);
  const ParameterCount count = count_parameters(model);
  // count.embeddings: GPT-2 wte + wpe, LLaMA embed_tokens; count.head: an untied lm_head.
  const int64_t tied_head = model.tie_word_embeddings ? checked_mul(model.vocab_size, model.n_embd, "V·d") : 0;
  return count.total() - count.embeddings + tied_head;
}

int64_t model_flops_per_token(const ModelConfig& model, int64_t seq_len) {
  if (seq_len < 1) throw InputError("--seq-len", "must be >= 1, got " + std::to_string(seq_len));
  const int64_t n = mfu_parameters(model);
  const int64_t attention = checked_mul(
      checked_mul(checked_mul(checked_mul(12, model.n_layer, "12·L"), model.n_head, "12·L·H"), model.head_dim(),
                  "12·L·H·Q"),
      seq_len, "12·L·H·Q·T");
  const int64_t dense = checked_mul(6, n, "6·N");
  if (dense > std::numeric_limits<int64_t>::max() - attention) throw InputError("model", "6N + 12LHQT overflows int64");
  return dense + attention;
}

int64_t model_flops_per_token(const ModelConfig& model, int64_t seq_len, const LoraConfig& lora) {
  const int64_t full = model_flops_per_token(model, seq_len);
  if (lora.rank <= 0) return full;
  const int64_t n = mfu_parameters(model);
  const int64_t n_lora = count_parameters(model, lora).lora;
  // full - 2N (no weight gradients of the frozen base) + 6·N_lora; full >= 6N, so no underflow.
  const int64_t adapters = checked_mul(6, n_lora, "6·N_lora");
  const int64_t base = full - checked_mul(2, n, "2·N");
  if (adapters > std::numeric_limits<int64_t>::max() - base) throw InputError("model", "4N + 6N_lora + 12LHQT overflows int64");
  return base + adapters;
}

double model_flops_utilization(double tokens_per_s, int64_t flops_per_token, double peak_flops_per_s) {
  if (!(tokens_per_s > 0.0) || flops_per_token <= 0 || !(peak_flops_per_s > 0.0)) return 0.0;
  return tokens_per_s * static_cast<double>(flops_per_token) / peak_flops_per_s;
}

}  // namespace oomkit
