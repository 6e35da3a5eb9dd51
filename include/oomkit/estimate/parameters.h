// The parameter tensors of a model, one row per distinct shape (per-layer tensors carry a count
// of L). Used by the estimator for exact counts, per-tensor optimizer state (Adafactor's
// factored moments, 8-bit Adam's blocks) and the largest tensor (optimizer temporaries).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"

namespace oomkit {

struct LoraConfig;

/// Which part of the model a tensor belongs to (the parts of ParameterCount).
enum class ParamPart { kEmbeddings, kAttention, kMlp, kNorms, kHead, kLora };

/// One parameter tensor shape. Matrices are (rows, cols) = (out, in) as torch::nn::Linear
/// stores them; vectors have cols == 1.
struct ParameterTensor {
  std::string name;         // Hugging Face name with N for the layer: "transformer.h.N.attn.c_attn.weight"
  ParamPart part = ParamPart::kAttention;
  int64_t rows = 0;         // first dimension
  int64_t cols = 1;         // second dimension; 1 for vectors
  int64_t count = 1;        // how many such tensors (L for per-layer tensors)
  bool matrix = false;      // 2-D (Adafactor factors it; Linear weights get autocast copies)
  bool linear = false;      // consumed by a matmul (autocast casts it to the compute dtype)
  bool trainable = true;    // false for the frozen base under LoRA
  int64_t numel() const { return rows * cols; }  // elements of one tensor
};

/// Every parameter tensor of `model` (and LoRA adapters when lora.rank > 0, which then freeze
/// the base). GPT-2 (Radford et al. 2019; HF GPT2LMHeadModel): wte, wpe, per layer ln_1 (w, b),
/// c_attn (3d x d, bias 3d), c_proj (d x d, bias d), ln_2, c_fc (d_ff x d, bias d_ff),
/// mlp.c_proj (d x d_ff, bias d), ln_f; lm_head tied to wte (no tensor). LLaMA family
/// (Touvron et al. 2023; HF LlamaForCausalLM): embed_tokens, per layer input_layernorm (d),
/// q_proj (d x d), k_proj and v_proj (h_kv·d_h x d), o_proj (d x d), post_attention_layernorm,
/// gate_proj and up_proj (d_ff x d), down_proj (d x d_ff), final norm (d), lm_head (V x d)
/// unless tied. LoRA (Hu et al. 2021, section 4): per adapted (out x in) projection, A (r x in)
/// and B (out x r). Throws InputError("--lora-targets") for a target the family lacks.
std::vector<ParameterTensor> parameter_tensors(const ModelConfig& model, const LoraConfig& lora);

/// The valid LoRA target names of a family: gpt2 {q,k,v,o,c_attn,c_proj,c_fc,mlp_c_proj,up,down},
/// llama {q,k,v,o,gate,up,down}.
std::vector<std::string> lora_target_names(const ModelConfig& model);

}  // namespace oomkit
