// Inference memory: weights, the static KV cache, and the highest moment of a prefill and of a
// decode step, op by op for GptImpl::forward_cached (src/train/model.cpp) under NoGradGuard:
// nothing is saved for backward, so what is live at an op is its output plus the tensors the
// enclosing C++ expressions still hold (temporaries live until their full expression ends).
//
// Letters: B batch, t tokens in this step (T for prefill, 1 for decode), S = positions attended
// (start + t), d, h, h_kv, d_h, d_ff, V, L. Bytes: a = activation width (4 fp32, 2 bf16/fp16).
#include "oomkit/estimate/inference.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/estimate/quantization.h"
#include "oomkit/estimate/verdict.h"

namespace oomkit {
namespace {

struct Arith {
  const char* field;
  int64_t mul(int64_t a, int64_t b) const { return checked_mul(a, b, field); }
  int64_t mul(int64_t a, int64_t b, int64_t c) const { return mul(mul(a, b), c); }
  int64_t add(int64_t a, int64_t b) const { return checked_add(a, b, field); }
};

int64_t activation_width(Precision p) { return p == Precision::kFp32 ? 4 : 2; }

struct Moment {
  int64_t bytes = 0;
  const char* where = "";
};

// The highest moment of one forward_cached call over t new tokens attending to S positions,
// relative to the bytes allocated before the call (weights, cache, the token ids), and the
// logits it leaves behind.
Moment step_peak(const ModelConfig& m, int64_t B, int64_t t, int64_t S, int64_t a, const Arith& ar) {
  const int64_t E = ar.mul(B, t);
  const int64_t d = m.n_embd, h = m.n_head, dh = m.head_dim(), kv = m.n_kv_head * dh;
  const int64_t x = ar.mul(E, d, a);                  // one (B, t, d) tensor
  const int64_t P = ar.mul(ar.mul(B, h, t), S, a);    // one (B, h, t, S) score tensor
  const int64_t F = ar.mul(E, m.d_ff, a);             // one (B, t, d_ff) tensor
  const int64_t stats = ar.mul(E, 8);                 // layer_norm's mean and rstd (B, t) fp32
  const int64_t logits = ar.mul(ar.mul(E, m.vocab_size), a);
  const int64_t pos = ar.mul(t, 8);                   // arange(start, S) int64, live all call
  std::vector<Moment> ms;
  if (m.is_gpt2()) {
    ms = {
        {ar.add(ar.mul(2, x), ar.mul(ar.mul(t, d), a)), "embedding: wte and wpe outputs and their sum"},
        {ar.add(ar.mul(2, x), stats), "ln_1: input, output, mean and rstd"},
        // c_attn's (B, t, 3d) beside x and ln_1's output; matmul's (B·h, t, d_h) copy of the
        // strided q for bmm and the raw scores.
        // matmul reshapes q (B, h, t, d_h), a strided view of qkv, to (B·h, t, d_h) for bmm: a
        // copy unless B or h is 1 (a size-1 dimension merges without one).
        {ar.add(ar.mul(B > 1 && h > 1 ? 6 : 5, x), P), "attention: q copied for bmm and the raw scores q·kᵀ (B, h, t, S)"},
        {ar.add(ar.mul(5, x), ar.mul(2, P)), "attention: two (B, h, t, S) score tensors (scale, mask, softmax)"},
        {ar.mul(7, x), "attention: p·v, its contiguous copy and c_proj beside qkv"},
        {ar.add(ar.mul(4, x), ar.mul(2, F)), "MLP: c_fc's and GELU's (B, t, d_ff) outputs and c_proj's"},
        {ar.mul(5, x), "block: the residual sum beside ln_2's output and the MLP output"},
        {ar.add(ar.mul(2, x), logits), "head: ln_f's output and the logits (B, t, V)"},
    };
  } else {
    // The llama family by the same accounting for Hugging Face's eager LlamaAttention (q, k,
    // v projections, repeat_kv's (B, h, S, d_h) copies of the cached k and v, RMSNorm's fp32
    // upcast) and SwiGLU (gate, up, act(gate), their product). Not measured: the trainer builds
    // GPT-2 only.
    const int64_t proj = ar.mul(E, d + 2 * kv, a);
    const int64_t rep = m.n_kv_head == m.n_head ? 0 : ar.mul(ar.mul(2 * B, h, S), ar.mul(dh, a));
    ms = {
        {ar.add(ar.mul(2, x), ar.mul(E, 4 * d)), "RMSNorm: the fp32 upcast of x and its output"},
        {ar.add(ar.add(ar.mul(2, x), proj), ar.add(rep, ar.mul(2, P))), "attention: q, k, v, repeat_kv copies, two score tensors"},
        {ar.add(ar.mul(4, x), ar.mul(3, F)), "MLP: gate, up, act(gate) and their product (B, t, d_ff)"},
        {ar.add(ar.mul(2, x), logits), "head: the final norm's output and the logits (B, t, V)"},
    };
  }
  Moment best;
  for (const auto& mo : ms) {
    if (mo.bytes > best.bytes) best = mo;
  }
  best.bytes = ar.add(best.bytes, pos);
  return best;
}

}  // namespace

std::vector<std::string> InferenceSetup::problems(const ModelConfig& model) const {
  std::vector<std::string> out = model.problems();
  constexpr int64_t kMax = int64_t{1} << 31;
  auto count = [&](const char* field, int64_t v, int64_t lo) {
    if (v < lo) out.push_back(std::string(field) + ": must be >= " + std::to_string(lo) + ", got " + std::to_string(v));
    else if (v > kMax) out.push_back(std::string(field) + ": " + std::to_string(v) + " is too large (limit 2^31)");
  };
  count("--batch-size", batch_size, 1);
  count("--seq-len", prompt_len, 1);
  count("--max-new-tokens", max_new_tokens, 0);
  if (out.empty() && prompt_len + max_new_tokens > model.n_positions) {
    out.push_back("--max-new-tokens: prompt " + std::to_string(prompt_len) + " + " + std::to_string(max_new_tokens) +
                  " new tokens exceeds the model's n_positions " + std::to_string(model.n_positions));
  }
  if (kv_cache_bytes_per_element < 0 || kv_cache_bytes_per_element > 4) {
    out.push_back("--kv-cache-dtype: bytes per element must be 1, 2 or 4");
  }
  if (precision == Precision::kChapter) out.push_back("--precision: inference takes fp32, bf16 or fp16");
  return out;
}

void InferenceSetup::validate(const ModelConfig& model) const {
  const auto list = problems(model);
  if (list.empty()) return;
  const std::string& first = list.front();
  const auto colon = first.find(':');
  std::string message = colon == std::string::npos ? first : first.substr(colon + 2);
  for (size_t i = 1; i < list.size(); ++i) message += "; " + list[i];
  throw InputError(colon == std::string::npos ? "setup" : first.substr(0, colon), message);
}

InferenceEstimate estimate_inference(const ModelConfig& model, const InferenceSetup& s) {
  s.validate(model);
  InferenceEstimate e;
  e.model = model;
  e.setup = s;
  const Arith pa{"parameters"};
  const Arith ar{"--batch-size"};
  const int64_t a = activation_width(s.precision);
  auto add = [&](std::string path, Category c, int64_t bytes, std::string formula) {
    e.items.push_back({std::move(path), c, bytes, std::move(formula)});
  };
  // Weights: every tensor in the inference dtype, Linear weights quantized when asked.
  TrainingSetup q;
  q.quantization = s.quantization;
  for (const auto& t : parameter_tensors(model, LoraConfig{})) {
    const int64_t one = s.quantization.base == BaseQuantization::kNone ? pa.mul(t.numel(), a)
                                                                       : frozen_tensor_bytes(t, t.rows, t.cols, q, a);
    e.weights_bytes = pa.add(e.weights_bytes, pa.mul(one, t.count));
  }
  add("parameters/weights", Category::kParameters, e.weights_bytes,
      s.quantization.base == BaseQuantization::kNone
          ? std::to_string(count_parameters(model).total()) + " params · " + std::to_string(a) + " B"
          : frozen_base_formula(q));
  if (model.is_gpt2()) {
    const int64_t mask = pa.mul(model.n_positions, model.n_positions);
    e.weights_bytes = pa.add(e.weights_bytes, mask);
    add("parameters/buffers/causal_mask", Category::kParameters, mask, "n_positions² · 1 B: the bool causal-mask buffer");
  }
  // KV cache (Pope et al. 2022, sec. 2.1): k and v of every layer for every position.
  const int64_t cache_width = s.kv_cache_bytes_per_element > 0 ? s.kv_cache_bytes_per_element : a;
  const int64_t S_max = s.prompt_len + s.max_new_tokens;
  e.kv_cache_bytes_per_token = ar.mul(ar.mul(2, model.n_layer), ar.mul(model.n_kv_head, model.head_dim(), cache_width));
  e.kv_cache_bytes = ar.mul(ar.mul(e.kv_cache_bytes_per_token, s.batch_size), S_max);
  add("kv_cache", Category::kActivations, e.kv_cache_bytes,
      "2·L·h_kv·d_h·" + std::to_string(cache_width) + " B = " + format_bytes(e.kv_cache_bytes_per_token) + " per token · B·(T + N) = " +
          std::to_string(s.batch_size) + "·" + std::to_string(S_max) + " (static cache, allocated before the prompt)");
  const int64_t prompt_ids = ar.mul(ar.mul(s.batch_size, s.prompt_len), 8);
  add("inputs/prompt_ids", Category::kActivations, prompt_ids, "B·T·8 B: the prompt's int64 token ids");
  e.resident_bytes = ar.add(ar.add(e.weights_bytes, e.kv_cache_bytes), prompt_ids);

  const Moment pre = step_peak(model, s.batch_size, s.prompt_len, s.prompt_len, a, ar);
  e.prefill_peak_bytes = ar.add(e.resident_bytes, pre.bytes);
  e.prefill_peak_where = pre.where;
  add("transient/prefill", Category::kTransient, pre.bytes, std::string("prefill (t = T, S = T), highest at ") + pre.where);
  // Decode: the last step (S = T + N) is the largest; the prefill's logits are dropped by then,
  // the previous step's token ids (B·8) are the step's input.
  const int64_t last_S = std::max<int64_t>(S_max, 1);
  const Moment dec = step_peak(model, s.batch_size, 1, last_S, a, ar);
  e.decode_peak_bytes = ar.add(ar.add(ar.add(e.weights_bytes, e.kv_cache_bytes), ar.mul(s.batch_size, 8)), dec.bytes);
  e.decode_peak_where = dec.where;
  add("transient/decode_step", Category::kTransient, dec.bytes, std::string("one decode step (t = 1, S = T + N), highest at ") + dec.where);
  const int64_t overhead = s.cuda ? s.overhead_bytes : 0;
  if (overhead > 0) add("overhead/cuda_context", Category::kOverhead, overhead, "CUDA context + workspace (--overhead)");
  e.peak_bytes = ar.add(std::max(e.prefill_peak_bytes, e.decode_peak_bytes), overhead);
  return e;
}

int64_t max_inference_batch(const ModelConfig& model, InferenceSetup s, int64_t capacity_bytes, double margin) {
  const int64_t usable = usable_bytes(capacity_bytes, margin);
  auto fits = [&](int64_t b) {
    s.batch_size = b;
    try {
      return estimate_inference(model, s).peak_bytes <= usable;
    } catch (const InputError&) {
      return false;  // overflow: far beyond any capacity
    }
  };
  if (!fits(1)) return 0;
  int64_t lo = 1, hi = 2;
  while (hi <= (int64_t{1} << 20) && fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  hi = std::min<int64_t>(hi, (int64_t{1} << 20) + 1);
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

int64_t max_inference_context(const ModelConfig& model, InferenceSetup s, int64_t capacity_bytes, double margin) {
  const int64_t usable = usable_bytes(capacity_bytes, margin);
  const int64_t n = s.max_new_tokens;
  auto fits = [&](int64_t total) {
    if (total - n < 1) return false;
    s.prompt_len = total - n;
    return estimate_inference(model, s).peak_bytes <= usable;
  };
  int64_t lo = 0, hi = model.n_positions + 1;  // fits(lo) or lo == 0; !fits(hi)
  if (n + 1 > model.n_positions || !fits(n + 1)) return 0;
  lo = n + 1;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

std::string format_inference(const InferenceEstimate& e) {
  const auto& s = e.setup;
  std::string out = fmt::format("model: {} ({} parameters; d={} L={} h={} h_kv={} d_ff={} V={})\n", e.model.name,
                                count_parameters(e.model).total(), e.model.n_embd, e.model.n_layer, e.model.n_head,
                                e.model.n_kv_head, e.model.d_ff, e.model.vocab_size);
  out += fmt::format("inference: B={} prompt T={} max_new_tokens N={} precision={}{} static KV cache\n\n", s.batch_size, s.prompt_len,
                     s.max_new_tokens, to_string(s.precision),
                     s.quantization.base == BaseQuantization::kNone ? "" : std::string(" weights=") + to_string(s.quantization.base));
  out += fmt::format("{:<34} {:>12}  {}\n", "item (per GPU)", "bytes", "formula");
  for (const auto& it : e.items) out += fmt::format("{:<34} {:>12}  {}\n", it.path, format_bytes(it.bytes), it.formula);
  out += fmt::format("\nresident (weights + cache + prompt) {:>12}\n", format_bytes(e.resident_bytes));
  out += fmt::format("prefill peak                       {:>12}  ({})\n", format_bytes(e.prefill_peak_bytes), e.prefill_peak_where);
  out += fmt::format("decode peak (last step)            {:>12}  ({})\n", format_bytes(e.decode_peak_bytes), e.decode_peak_where);
  out += fmt::format("peak                               {:>12}{}\n", format_bytes(e.peak_bytes),
                     s.cuda ? " (incl. " + format_bytes(s.overhead_bytes) + " overhead)" : "");
  return out;
}

std::string inference_to_json(const InferenceEstimate& e, int64_t max_batch, int64_t max_context) {
  using nlohmann::json;
  json items = json::array();
  for (const auto& it : e.items) {
    items.push_back({{"path", it.path}, {"category", category_name(it.category)}, {"bytes", it.bytes}, {"formula", it.formula}});
  }
  json out = {{"mode", "inference"},
              {"batch_size", e.setup.batch_size},
              {"prompt_len", e.setup.prompt_len},
              {"max_new_tokens", e.setup.max_new_tokens},
              {"items", std::move(items)},
              {"weights_bytes", e.weights_bytes},
              {"kv_cache_bytes", e.kv_cache_bytes},
              {"kv_cache_bytes_per_token", e.kv_cache_bytes_per_token},
              {"resident_bytes", e.resident_bytes},
              {"prefill_peak_bytes", e.prefill_peak_bytes},
              {"decode_peak_bytes", e.decode_peak_bytes},
              {"peak_bytes", e.peak_bytes}};
  if (max_batch >= 0) out["max_batch"] = max_batch;
  if (max_context >= 0) out["max_context"] = max_context;
  return out.dump(2);
}

}  // namespace oomkit
