// Exact parameter tensors and counts (GPT-2 and the LLaMA family).
#include "oomkit/estimate/parameters.h"

#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {
namespace {

ParameterTensor matrix(std::string name, ParamPart part, int64_t rows, int64_t cols, int64_t count) {
  ParameterTensor t;
  t.name = std::move(name);
  t.part = part;
  t.rows = rows;
  t.cols = cols;
  t.count = count;
  t.matrix = true;
  t.linear = part != ParamPart::kEmbeddings;
  return t;
}

ParameterTensor vector(std::string name, ParamPart part, int64_t n, int64_t count, bool linear_bias = false) {
  ParameterTensor t;
  t.name = std::move(name);
  t.part = part;
  t.rows = n;
  t.cols = 1;
  t.count = count;
  // Measured with a tracking allocator (LibTorch 1.13, CPU autocast): the cast of a Linear's
  // bias is not retained by the weight cache, so only weights count as compute copies.
  (void)linear_bias;
  t.linear = false;
  return t;
}

struct Projection {
  const char* target;
  const char* module;  // HF module name, for the adapter's tensor name
  int64_t out;
  int64_t in;
};

std::vector<Projection> projections(const ModelConfig& m) {
  const int64_t d = m.n_embd, d_ff = m.d_ff, kv = m.n_kv_head * m.head_dim();
  if (m.is_gpt2()) {
    // q, k, v adapt the d -> d slices of the fused c_attn; the rest name whole modules.
    return {{"q", "attn.c_attn[q]", d, d},   {"k", "attn.c_attn[k]", d, d},     {"v", "attn.c_attn[v]", d, d},
            {"o", "attn.c_proj", d, d},      {"c_attn", "attn.c_attn", 3 * d, d}, {"c_proj", "attn.c_proj", d, d},
            {"c_fc", "mlp.c_fc", d_ff, d},   {"up", "mlp.c_fc", d_ff, d},       {"mlp_c_proj", "mlp.c_proj", d, d_ff},
            {"down", "mlp.c_proj", d, d_ff}};
  }
  return {{"q", "self_attn.q_proj", d, d},   {"k", "self_attn.k_proj", kv, d}, {"v", "self_attn.v_proj", kv, d},
          {"o", "self_attn.o_proj", d, d},   {"gate", "mlp.gate_proj", d_ff, d}, {"up", "mlp.up_proj", d_ff, d},
          {"down", "mlp.down_proj", d, d_ff}};
}

}  // namespace

std::vector<std::string> lora_target_names(const ModelConfig& model) {
  std::vector<std::string> out;
  for (const auto& p : projections(model)) out.emplace_back(p.target);
  return out;
}

std::vector<ParameterTensor> parameter_tensors(const ModelConfig& m, const LoraConfig& lora) {
  const int64_t V = m.vocab_size, d = m.n_embd, L = m.n_layer, d_ff = m.d_ff;
  std::vector<ParameterTensor> t;
  t.reserve(24);
  if (m.is_gpt2()) {
    t.push_back(matrix("transformer.wte.weight", ParamPart::kEmbeddings, V, d, 1));
    t.back().linear = m.tie_word_embeddings;  // the tied lm_head multiplies by wte (autocast casts it)
    t.push_back(matrix("transformer.wpe.weight", ParamPart::kEmbeddings, m.n_positions, d, 1));
    t.push_back(vector("transformer.h.N.ln_1.weight", ParamPart::kNorms, d, L));
    t.push_back(vector("transformer.h.N.ln_1.bias", ParamPart::kNorms, d, L));
    t.push_back(matrix("transformer.h.N.attn.c_attn.weight", ParamPart::kAttention, 3 * d, d, L));
    t.push_back(vector("transformer.h.N.attn.c_attn.bias", ParamPart::kAttention, 3 * d, L, true));
    t.push_back(matrix("transformer.h.N.attn.c_proj.weight", ParamPart::kAttention, d, d, L));
    t.push_back(vector("transformer.h.N.attn.c_proj.bias", ParamPart::kAttention, d, L, true));
    t.push_back(vector("transformer.h.N.ln_2.weight", ParamPart::kNorms, d, L));
    t.push_back(vector("transformer.h.N.ln_2.bias", ParamPart::kNorms, d, L));
    t.push_back(matrix("transformer.h.N.mlp.c_fc.weight", ParamPart::kMlp, d_ff, d, L));
    t.push_back(vector("transformer.h.N.mlp.c_fc.bias", ParamPart::kMlp, d_ff, L, true));
    t.push_back(matrix("transformer.h.N.mlp.c_proj.weight", ParamPart::kMlp, d, d_ff, L));
    t.push_back(vector("transformer.h.N.mlp.c_proj.bias", ParamPart::kMlp, d, L, true));
    t.push_back(vector("transformer.ln_f.weight", ParamPart::kNorms, d, 1));
    t.push_back(vector("transformer.ln_f.bias", ParamPart::kNorms, d, 1));
    if (!m.tie_word_embeddings) t.push_back(matrix("lm_head.weight", ParamPart::kHead, V, d, 1));
  } else {
    const int64_t kv = m.n_kv_head * m.head_dim();
    t.push_back(matrix("model.embed_tokens.weight", ParamPart::kEmbeddings, V, d, 1));
    t.back().linear = m.tie_word_embeddings;
    t.push_back(vector("model.layers.N.input_layernorm.weight", ParamPart::kNorms, d, L));
    t.push_back(matrix("model.layers.N.self_attn.q_proj.weight", ParamPart::kAttention, d, d, L));
    t.push_back(matrix("model.layers.N.self_attn.k_proj.weight", ParamPart::kAttention, kv, d, L));
    t.push_back(matrix("model.layers.N.self_attn.v_proj.weight", ParamPart::kAttention, kv, d, L));
    t.push_back(matrix("model.layers.N.self_attn.o_proj.weight", ParamPart::kAttention, d, d, L));
    t.push_back(vector("model.layers.N.post_attention_layernorm.weight", ParamPart::kNorms, d, L));
    t.push_back(matrix("model.layers.N.mlp.gate_proj.weight", ParamPart::kMlp, d_ff, d, L));
    t.push_back(matrix("model.layers.N.mlp.up_proj.weight", ParamPart::kMlp, d_ff, d, L));
    t.push_back(matrix("model.layers.N.mlp.down_proj.weight", ParamPart::kMlp, d, d_ff, L));
    t.push_back(vector("model.norm.weight", ParamPart::kNorms, d, 1));
    if (!m.tie_word_embeddings) t.push_back(matrix("lm_head.weight", ParamPart::kHead, V, d, 1));
  }
  if (lora.rank > 0) {
    for (auto& p : t) p.trainable = false;  // LoRA freezes the base
    const auto table = projections(m);
    for (const auto& target : lora.targets) {
      const Projection* hit = nullptr;
      for (const auto& p : table) {
        if (target == p.target) hit = &p;
      }
      if (hit == nullptr) {
        std::string valid;
        for (const auto& p : table) valid += (valid.empty() ? "" : ", ") + std::string(p.target);
        throw InputError("--lora-targets", "unknown target '" + target + "' for this family; valid: " + valid);
      }
      const std::string prefix = (m.is_gpt2() ? "transformer.h.N." : "model.layers.N.") + std::string(hit->module);
      t.push_back(matrix(prefix + ".lora_A", ParamPart::kLora, lora.rank, hit->in, L));
      t.push_back(matrix(prefix + ".lora_B", ParamPart::kLora, hit->out, lora.rank, L));
    }
  }
  return t;
}

ParameterCount count_parameters(const ModelConfig& model, const LoraConfig& lora) {
  model.validate(model.name);
  return count_parameter_tensors(parameter_tensors(model, lora));
}

ParameterCount count_parameter_tensors(const std::vector<ParameterTensor>& tensors) {
  ParameterCount c;
  for (const auto& t : tensors) {
    const int64_t n = checked_mul(checked_mul(t.rows, t.cols, "parameters"), t.count, "parameters");
    int64_t* slot = nullptr;
    switch (t.part) {
      case ParamPart::kEmbeddings: slot = &c.embeddings; break;
      case ParamPart::kAttention: slot = &c.attention; break;
      case ParamPart::kMlp: slot = &c.mlp; break;
      case ParamPart::kNorms: slot = &c.norms; break;
      case ParamPart::kHead: slot = &c.head; break;
      case ParamPart::kLora: slot = &c.lora; break;
    }
    *slot = checked_add(*slot, n, "parameters");
  }
  checked_add(checked_add(checked_add(c.embeddings, c.attention, "parameters"), checked_add(c.mlp, c.norms, "parameters"),
                          "parameters"),
              checked_add(c.head, c.lora, "parameters"), "parameters");
  return c;
}

}  // namespace oomkit
