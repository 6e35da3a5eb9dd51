// Inference memory: weights, the KV cache and the transients of prefill and of one decode step,
// for oomkit's GPT-2 model (GptImpl::forward_cached, a static cache allocated up front, as
// Hugging Face's StaticCache) and, by the same terms, the llama family with GQA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// One generation run. B sequences of `prompt_len` tokens (T), then `max_new_tokens` (N)
/// decode steps of one token each; the cache holds T + N positions.
struct InferenceSetup {
  int64_t batch_size = 1;         // B
  int64_t prompt_len = 128;       // T
  int64_t max_new_tokens = 128;   // N
  Precision precision = Precision::kFp32;  // fp32: 4-byte weights, cache and activations; bf16/bf16-mixed/fp16-mixed: 2
  int64_t kv_cache_bytes_per_element = 0;  // 0: the activation dtype's; 1 for an fp8/int8 cache
  QuantizationOptions quantization;        // a quantized base (nf4 / int8) for the Linear weights
  bool cuda = true;                        // false: no CUDA context
  int64_t overhead_bytes = 500LL << 20;
  /// Every problem, "field: message"; validate() throws InputError naming the first field.
  std::vector<std::string> problems(const ModelConfig& model) const;
  void validate(const ModelConfig& model) const;
};

struct InferenceEstimate {
  ModelConfig model;
  InferenceSetup setup;
  std::vector<EstimateItem> items;   // parameters, kv cache, inputs, prefill and decode transients
  int64_t weights_bytes = 0;         // parameters and registered buffers
  int64_t kv_cache_bytes = 0;        // 2·L·B·h_kv·d_h·(T + N)·bytes
  int64_t kv_cache_bytes_per_token = 0;  // per position of one sequence: 2·L·h_kv·d_h·bytes
  int64_t resident_bytes = 0;        // weights + cache + token ids: allocated between steps
  int64_t prefill_peak_bytes = 0;    // resident + the prefill forward's highest moment
  std::string prefill_peak_where;
  int64_t decode_peak_bytes = 0;     // resident + the last decode step's highest moment (S = T + N)
  std::string decode_peak_where;
  int64_t peak_bytes = 0;            // max of both, plus overhead
};

/// The estimate. Formulas: KV cache per token 2·L·h_kv·d_h (Pope et al. 2022, "Efficiently
/// Scaling Transformer Inference", sec. 2.1); prefill and decode transients op by op for
/// GptImpl::forward_cached under NoGradGuard (no saved tensors; each op's output and its
/// inputs still referenced). Throws InputError for invalid input or overflow.
InferenceEstimate estimate_inference(const ModelConfig& model, const InferenceSetup& setup);

/// The largest B (at most 2^20) whose peak fits `capacity_bytes` at the safety margin; 0 when
/// B = 1 does not fit.
int64_t max_inference_batch(const ModelConfig& model, InferenceSetup setup, int64_t capacity_bytes, double safety_margin);

/// The largest T + N (prompt plus new tokens, new tokens fixed) that fits, at most
/// n_positions; 0 when none does.
int64_t max_inference_context(const ModelConfig& model, InferenceSetup setup, int64_t capacity_bytes, double safety_margin);

std::string format_inference(const InferenceEstimate& e);
std::string inference_to_json(const InferenceEstimate& e, int64_t max_batch, int64_t max_context);

}  // namespace oomkit
